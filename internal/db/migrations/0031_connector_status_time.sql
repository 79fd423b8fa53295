-- The charger's timestamp of a connector's status (StatusNotification.timestamp, or the server's
-- time when it sent none or an impossible one). A report older than the stored one changes
-- nothing (docs/gateway.md, "Status, alarms, events"); updated_at stays the server's time of
-- the last applied report. 0: no report kept a time yet (any report applies).
ALTER TABLE device_connector ADD COLUMN status_at BIGINT NOT NULL DEFAULT 0;
