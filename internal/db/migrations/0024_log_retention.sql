-- Logs (docs/logs.md): the error log orders by the time the server recorded an event
-- ("created time", beside the charger's occurrence time started_at), and the hourly retention
-- purges find ended events and old action-log rows by index.
ALTER TABLE device_event ADD COLUMN created_at BIGINT NOT NULL DEFAULT 0;
UPDATE device_event SET created_at = started_at;
CREATE INDEX idx_device_event_created ON device_event (created_at, id);
-- Ended events by their end time: only these are ever purged (an open event stays).
CREATE INDEX idx_device_event_ended ON device_event (ended_at) WHERE status = 1;
