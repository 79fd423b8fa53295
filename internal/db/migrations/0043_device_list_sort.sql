-- The device list sorts by status, last refresh, SN, name and creation (issue 30 item 7): each
-- sort walks an index leading with its column, ties broken by id. Status is idx_device_status
-- (status, id), SN and name their unique indexes (never tied), creation the primary key. The
-- "offline for longer than" filter walks offline devices by last refresh.
CREATE INDEX idx_device_refresh ON device (last_refresh_at, id);
CREATE INDEX idx_device_status_refresh ON device (status, last_refresh_at, id);
-- A user scoped to a few customers or sites is walked one customer (site) at a time: last
-- refresh in each of them.
CREATE INDEX idx_device_customer_refresh ON device (customer_id, last_refresh_at, id);
CREATE INDEX idx_device_site_refresh ON device (site_id, last_refresh_at, id);
