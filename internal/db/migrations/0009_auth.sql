-- Sign-in hardening (docs/decisions.md, "Sign-in and accounts").
-- A reset link works only for the password it was issued against: any password change ends it.
ALTER TABLE password_reset ADD COLUMN password_changed_at BIGINT NOT NULL DEFAULT 0;
CREATE INDEX idx_password_reset_user ON password_reset (user_id);
-- A session ended by a forced re-login gets its logout row (reason 3) once, the first time it is
-- refused; end_logged says that row is written.
ALTER TABLE session ADD COLUMN end_logged INTEGER NOT NULL DEFAULT 0;
