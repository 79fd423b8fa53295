-- The console session a remote web token was given to (session.id, the SHA-256 of its cookie):
-- the token works only while that session lives, so signing out, a session's expiry, a disabled
-- or deleted account and a role change end the charger's web page with it
-- (docs/remote-access.md, "The web page"). Tokens given before this column existed keep '' and
-- are refused: their users open the page again.
ALTER TABLE remote_session ADD COLUMN console_session TEXT NOT NULL DEFAULT '';
