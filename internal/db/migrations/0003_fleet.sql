-- Live fleet: protocol logs, commands, alarms and events, runtime data, config values,
-- blacklist, refusals and pending devices, firmware and diagnostics files, gateway state.

-- Protocol log: every frame in/out and every open/close. type: 0 open, 1 close, 2 received, 3 sent.
-- Keyset pagination walks (created_at, id); the SN and type filters have their own indexes.
CREATE TABLE protocol_log (
  id         {{ID}},
  sn         TEXT NOT NULL,
  type       INTEGER NOT NULL,
  data       TEXT NOT NULL DEFAULT '',
  created_at BIGINT NOT NULL
);
CREATE INDEX idx_protocol_log_time ON protocol_log (created_at, id);
CREATE INDEX idx_protocol_log_sn ON protocol_log (sn, created_at, id);
CREATE INDEX idx_protocol_log_type ON protocol_log (type, created_at, id);

-- Remote operations. result: 1 waiting, 2 success, 3 failed, 4 timeout, 5 offline.
CREATE TABLE command (
  id           {{ID}},
  device_id    BIGINT NOT NULL,
  sn           TEXT NOT NULL,
  control_type INTEGER NOT NULL,
  params       TEXT NOT NULL DEFAULT '{}',
  result       INTEGER NOT NULL DEFAULT 1,
  message      TEXT NOT NULL DEFAULT '',
  answer       TEXT NOT NULL DEFAULT '',
  batch_id     TEXT NOT NULL DEFAULT '',
  user_id      BIGINT NOT NULL DEFAULT 0,
  user_name    TEXT NOT NULL DEFAULT '',
  deadline_at  BIGINT NOT NULL DEFAULT 0,
  created_at   BIGINT NOT NULL,
  finished_at  BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX idx_command_device ON command (device_id, id);
CREATE INDEX idx_command_result ON command (result, deadline_at);
CREATE INDEX idx_command_batch ON command (batch_id);
-- One outstanding command per device, enforced by the database for every node.
CREATE UNIQUE INDEX uq_command_waiting ON command (device_id) WHERE result = 1;

-- Alarms, faults and events. kind: 0 offline, 1 alarm, 2 fault, 3 unavailable.
-- level: 0 OA, 1 MA, 2 CA. status: 0 open, 1 ended.
CREATE TABLE device_event (
  id           {{ID}},
  device_id    BIGINT NOT NULL,
  customer_id  BIGINT NOT NULL DEFAULT 0,
  site_id      BIGINT NOT NULL DEFAULT 0,
  kind         INTEGER NOT NULL,
  level        INTEGER NOT NULL DEFAULT 0,
  connector_id INTEGER NOT NULL DEFAULT 0,
  code         TEXT NOT NULL DEFAULT '',
  name         TEXT NOT NULL DEFAULT '',
  vendor_code  TEXT NOT NULL DEFAULT '',
  info         TEXT NOT NULL DEFAULT '',
  status       INTEGER NOT NULL DEFAULT 0,
  started_at   BIGINT NOT NULL,
  ended_at     BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX idx_device_event_device ON device_event (device_id, started_at, id);
CREATE INDEX idx_device_event_site ON device_event (site_id, started_at, id);
CREATE INDEX idx_device_event_open ON device_event (device_id, status, kind, connector_id);

-- Gateway-side state of a device (one row per device that ever connected).
CREATE TABLE device_state (
  device_id          BIGINT PRIMARY KEY,
  online             INTEGER NOT NULL DEFAULT 0,
  node               TEXT NOT NULL DEFAULT '',
  conn_id            TEXT NOT NULL DEFAULT '',
  remote_addr        TEXT NOT NULL DEFAULT '',
  protocol           TEXT NOT NULL DEFAULT '',
  vendor             TEXT NOT NULL DEFAULT '',
  model              TEXT NOT NULL DEFAULT '',
  firmware_version   TEXT NOT NULL DEFAULT '',
  boot_info          TEXT NOT NULL DEFAULT '{}',
  firmware_job       INTEGER NOT NULL DEFAULT 0,
  firmware_status    TEXT NOT NULL DEFAULT '',
  diagnostics_status TEXT NOT NULL DEFAULT '',
  heartbeat_interval INTEGER NOT NULL DEFAULT 0,
  connected_at       BIGINT NOT NULL DEFAULT 0,
  last_seen_at       BIGINT NOT NULL DEFAULT 0,
  runtime_counted_at BIGINT NOT NULL DEFAULT 0,
  updated_at         BIGINT NOT NULL DEFAULT 0
);

-- Connector status from StatusNotification (connector 0 is the charger itself).
CREATE TABLE device_connector (
  device_id    BIGINT NOT NULL,
  connector_id INTEGER NOT NULL,
  status       TEXT NOT NULL DEFAULT '',
  error_code   TEXT NOT NULL DEFAULT '',
  vendor_code  TEXT NOT NULL DEFAULT '',
  info         TEXT NOT NULL DEFAULT '',
  updated_at   BIGINT NOT NULL,
  PRIMARY KEY (device_id, connector_id)
);

-- Latest runtime values (one per measurand and connector, and a few gateway values).
CREATE TABLE device_runtime (
  device_id    BIGINT NOT NULL,
  name         TEXT NOT NULL,
  connector_id INTEGER NOT NULL DEFAULT 0,
  value        TEXT NOT NULL DEFAULT '',
  unit         TEXT NOT NULL DEFAULT '',
  sampled_at   BIGINT NOT NULL,
  PRIMARY KEY (device_id, name, connector_id)
);

-- Time series of numeric measurands for the data charts. The key makes a replayed meter value
-- (same timestamp) a no-op.
CREATE TABLE device_series (
  device_id    BIGINT NOT NULL,
  name         TEXT NOT NULL,
  connector_id INTEGER NOT NULL DEFAULT 0,
  ts           BIGINT NOT NULL,
  value        DOUBLE PRECISION NOT NULL,
  PRIMARY KEY (device_id, name, connector_id, ts)
);
CREATE INDEX idx_device_series_time ON device_series (device_id, name, ts);

-- Charging sessions. The unique key makes a replayed StartTransaction return the same id.
CREATE TABLE device_transaction (
  id           {{ID}},
  device_id    BIGINT NOT NULL,
  connector_id INTEGER NOT NULL,
  id_tag       TEXT NOT NULL DEFAULT '',
  meter_start  BIGINT NOT NULL DEFAULT 0,
  meter_stop   BIGINT NOT NULL DEFAULT 0,
  started_at   BIGINT NOT NULL,
  stopped_at   BIGINT NOT NULL DEFAULT 0,
  reason       TEXT NOT NULL DEFAULT '',
  UNIQUE (device_id, connector_id, started_at)
);

-- Configuration values read by GetConfiguration (or set by ChangeConfiguration).
CREATE TABLE device_config (
  device_id  BIGINT NOT NULL,
  key        TEXT NOT NULL,
  value      TEXT NOT NULL DEFAULT '',
  readonly   INTEGER NOT NULL DEFAULT 0,
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (device_id, key)
);

CREATE TABLE device_blacklist (
  id               {{ID}},
  sn               TEXT NOT NULL UNIQUE,
  mac              TEXT NOT NULL DEFAULT '',
  protocol_version TEXT NOT NULL DEFAULT '',
  created_by       TEXT NOT NULL DEFAULT '',
  created_at       BIGINT NOT NULL
);

-- Every refused connection, counted per SN and reason.
CREATE TABLE device_refusal (
  id          {{ID}},
  sn          TEXT NOT NULL,
  reason      TEXT NOT NULL,
  remote_addr TEXT NOT NULL DEFAULT '',
  count       BIGINT NOT NULL DEFAULT 1,
  first_seen  BIGINT NOT NULL,
  last_seen   BIGINT NOT NULL,
  UNIQUE (sn, reason)
);
CREATE INDEX idx_device_refusal_seen ON device_refusal (last_seen, id);

-- Unknown SNs that knocked (and, with ocpp-allow-unknown, booted as Pending).
CREATE TABLE device_pending (
  id               {{ID}},
  sn               TEXT NOT NULL UNIQUE,
  remote_addr      TEXT NOT NULL DEFAULT '',
  protocol_version TEXT NOT NULL DEFAULT '',
  vendor           TEXT NOT NULL DEFAULT '',
  model            TEXT NOT NULL DEFAULT '',
  firmware_version TEXT NOT NULL DEFAULT '',
  count            BIGINT NOT NULL DEFAULT 1,
  first_seen       BIGINT NOT NULL,
  last_seen        BIGINT NOT NULL
);
CREATE INDEX idx_device_pending_seen ON device_pending (last_seen, id);

-- Firmware images (uploaded) and diagnostics files (uploaded by chargers). kind: firmware, diagnostics.
CREATE TABLE fleet_file (
  id         {{ID}},
  kind       TEXT NOT NULL,
  device_id  BIGINT NOT NULL DEFAULT 0,
  name       TEXT NOT NULL,
  path       TEXT NOT NULL DEFAULT '',
  size       BIGINT NOT NULL DEFAULT 0,
  sha256     TEXT NOT NULL DEFAULT '',
  complete   INTEGER NOT NULL DEFAULT 0,
  created_by TEXT NOT NULL DEFAULT '',
  created_at BIGINT NOT NULL
);
CREATE INDEX idx_fleet_file_device ON fleet_file (kind, device_id, id);
