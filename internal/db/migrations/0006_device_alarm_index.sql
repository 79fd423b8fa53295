-- The device list filters by alarm status; without an index a deep page walks the whole table.
CREATE INDEX idx_device_alarm ON device (alarm_status, id);
