-- Applications (docs/applications.md): a third-party system that acts as its bound user. The
-- row belongs to the bound user's customer (customer_id, 0 for a platform user) and is scoped by
-- it. app_id is the public id; the secret is kept only encrypted (AES-256-GCM under a key
-- derived from the node's secret setting). A rotated-out secret stays valid until
-- prev_expires_at (ms; 0: none), so callers can switch over.
CREATE TABLE application (
  id              {{ID}},
  name            TEXT NOT NULL,
  status          INTEGER NOT NULL DEFAULT 1,
  description     TEXT NOT NULL DEFAULT '',
  icon            TEXT NOT NULL DEFAULT '',
  user_id         BIGINT NOT NULL,
  customer_id     BIGINT NOT NULL DEFAULT 0,
  app_id          TEXT NOT NULL,
  secret_enc      TEXT NOT NULL,
  prev_secret_enc TEXT NOT NULL DEFAULT '',
  prev_expires_at BIGINT NOT NULL DEFAULT 0,
  installed_at    BIGINT NOT NULL,
  created_by      BIGINT NOT NULL DEFAULT 0,
  updated_at      BIGINT NOT NULL
);
CREATE UNIQUE INDEX uq_application_app_id ON application (app_id);
CREATE INDEX idx_application_customer ON application (customer_id, id);
CREATE INDEX idx_application_user ON application (user_id);
