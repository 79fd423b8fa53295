-- SQLite: the time series is stored in its key order (WITHOUT ROWID), one B-tree instead of
-- three (the row, its primary key and the (device, name, time) index). Every chart read names
-- the connector, so the key (device_id, name, connector_id, ts) serves it; PostgreSQL dropped
-- the same index in 0012. At 10,000 messages/s this is a third of the ingest's page writes
-- (docs/benchmarks.md, issue 9).
CREATE TABLE device_series_clustered (
  device_id    BIGINT NOT NULL,
  name         TEXT NOT NULL,
  connector_id INTEGER NOT NULL DEFAULT 0,
  ts           BIGINT NOT NULL,
  value        DOUBLE PRECISION NOT NULL,
  PRIMARY KEY (device_id, name, connector_id, ts)
) WITHOUT ROWID;
INSERT INTO device_series_clustered (device_id, name, connector_id, ts, value)
  SELECT device_id, name, connector_id, ts, value FROM device_series;
DROP TABLE device_series;
ALTER TABLE device_series_clustered RENAME TO device_series;
