-- Dashboards and statistics (docs/dashboards.md): figures pre-aggregated as events and charging
-- sessions arrive, so no dashboard reads raw events or sessions over a period.

-- Per site and bucket. grain: 0 hour, 1 day, 2 month (days and months start at midnight in
-- the node's time zone). Faults are counted by kind when they start; sessions, energy and
-- charging time in the bucket of the session's start; outage time (offline, fault,
-- unavailable) split over the days and months it spanned when it ends.
CREATE TABLE stat_site (
  grain         INTEGER NOT NULL,
  bucket        BIGINT NOT NULL,
  site_id       BIGINT NOT NULL,
  customer_id   BIGINT NOT NULL,
  offline_n     INTEGER NOT NULL DEFAULT 0,
  alarm_n       INTEGER NOT NULL DEFAULT 0,
  fault_n       INTEGER NOT NULL DEFAULT 0,
  unavailable_n INTEGER NOT NULL DEFAULT 0,
  sessions      INTEGER NOT NULL DEFAULT 0,
  energy_wh     BIGINT NOT NULL DEFAULT 0,
  charge_ms     BIGINT NOT NULL DEFAULT 0,
  outage_ms     BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (grain, site_id, bucket)
);
CREATE INDEX idx_stat_site_bucket ON stat_site (grain, bucket, site_id);
CREATE INDEX idx_stat_site_customer ON stat_site (grain, customer_id, bucket);

-- Faults per device and bucket, for the ranking. grain: 1 day, 2 month, 3 year. A ranking over
-- one whole bucket is read in index order; a longer range sums its buckets.
CREATE TABLE stat_device (
  grain       INTEGER NOT NULL,
  bucket      BIGINT NOT NULL,
  device_id   BIGINT NOT NULL,
  site_id     BIGINT NOT NULL,
  customer_id BIGINT NOT NULL,
  faults      INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (grain, device_id, bucket)
);
CREATE INDEX idx_stat_device_rank ON stat_device (grain, bucket, faults, device_id);
CREATE INDEX idx_stat_device_customer ON stat_device (grain, customer_id, bucket, faults);
CREATE INDEX idx_stat_device_site ON stat_device (grain, site_id, bucket, faults);

-- Open events are few among millions of ended ones: the dashboards count them by scope.
CREATE INDEX idx_device_event_open_site ON device_event (site_id, kind, level) WHERE status = 0;
-- The newest events of a scope (home and system dashboards).
CREATE INDEX idx_device_event_time ON device_event (started_at, id);
CREATE INDEX idx_device_event_customer ON device_event (customer_id, started_at, id);

-- Devices by status, alarm status and model within a scope, from the index alone.
CREATE INDEX idx_device_site_figures ON device (site_id, status, alarm_status, model_id);
CREATE INDEX idx_device_customer_figures ON device (customer_id, status, alarm_status, model_id);

-- Restarting devices: a Reset the charger accepted recently (docs/decisions.md).
CREATE INDEX idx_command_reset ON command (finished_at) WHERE control_type IN (1, 2) AND result = 2;

-- Charging sessions (docs/decisions.md, "Charging sessions and energy").
ALTER TABLE device_transaction ADD COLUMN customer_id BIGINT NOT NULL DEFAULT 0;
ALTER TABLE device_transaction ADD COLUMN site_id BIGINT NOT NULL DEFAULT 0;
-- the first energy register sampled during the session (MeterValues with its transactionId);
-- -1 until one is
ALTER TABLE device_transaction ADD COLUMN meter_first BIGINT NOT NULL DEFAULT -1;
-- what the session counts in the statistics, set when it stops
ALTER TABLE device_transaction ADD COLUMN energy_wh BIGINT NOT NULL DEFAULT 0;
-- bit set of the traps met (fleet/transactions.go, Flag*)
ALTER TABLE device_transaction ADD COLUMN flags INTEGER NOT NULL DEFAULT 0;
CREATE INDEX idx_device_transaction_open ON device_transaction (device_id, connector_id) WHERE stopped_at = 0;
CREATE INDEX idx_device_transaction_site ON device_transaction (site_id, started_at);
