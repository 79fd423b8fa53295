-- Retention (docs/configuration.md, "Retention"): the hourly purges find old rows by index.
CREATE INDEX idx_message_created ON message (created_at);
CREATE INDEX idx_upload_abandoned ON upload (complete, created_at);
CREATE INDEX idx_attach_share_log_at ON attach_share_log (at);
CREATE INDEX idx_mail_outbox_created ON mail_outbox (created_at);
