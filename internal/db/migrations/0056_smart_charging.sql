-- Smart charging and site load management (issue 25, docs/smart-charging.md).

-- The charging profiles chargeops set on a charger (control type 26 by an operator, the OpenAPI
-- or the site load manager), kept to show them and to send them again after a reboot. A profile
-- id is the charger's chargingProfileId: the same id replaces the profile. state: 0 sent and not
-- yet answered, 1 installed (the charger accepted it), 2 refused (message says why).
CREATE TABLE device_charging_profile (
  device_id      BIGINT NOT NULL,
  profile_id     INTEGER NOT NULL,
  connector_id   INTEGER NOT NULL,
  purpose        TEXT NOT NULL,
  stack_level    INTEGER NOT NULL,
  transaction_id BIGINT NOT NULL DEFAULT 0,
  profile        TEXT NOT NULL,
  source         TEXT NOT NULL DEFAULT '',
  state          INTEGER NOT NULL DEFAULT 0,
  message        TEXT NOT NULL DEFAULT '',
  command_id     BIGINT NOT NULL DEFAULT 0,
  created_by     TEXT NOT NULL DEFAULT '',
  updated_at     BIGINT NOT NULL,
  PRIMARY KEY (device_id, profile_id)
);
CREATE INDEX idx_device_charging_profile_command ON device_charging_profile (command_id);

-- A site's grid connection and its load management. limit_kw is the limit in kW (0: limit_a
-- per phase counts); schedule holds the time-of-day limits (JSON: [{"from":"17:00","to":"21:00",
-- "days":[1,2,3,4,5],"limitKw":60}], days 1 Monday to 7 Sunday, empty every day). min_a is each
-- session's minimum share; edit_level the parameter level that may change the setting.
CREATE TABLE site_power (
  site_id    BIGINT PRIMARY KEY,
  enabled    INTEGER NOT NULL DEFAULT 0,
  limit_kw   DOUBLE PRECISION NOT NULL DEFAULT 0,
  limit_a    DOUBLE PRECISION NOT NULL DEFAULT 0,
  min_a      DOUBLE PRECISION NOT NULL DEFAULT 6,
  schedule   TEXT NOT NULL DEFAULT '[]',
  edit_level INTEGER NOT NULL DEFAULT 1,
  updated_by TEXT NOT NULL DEFAULT '',
  updated_at BIGINT NOT NULL DEFAULT 0
);

-- A charger's part in its site's plan: 1 or 3 phases (a single-phase charger on phase 1-3), its
-- minimum and maximum current per phase and its priority (higher first).
CREATE TABLE device_power (
  device_id  BIGINT PRIMARY KEY,
  phases     INTEGER NOT NULL DEFAULT 3,
  phase      INTEGER NOT NULL DEFAULT 1,
  min_a      DOUBLE PRECISION NOT NULL DEFAULT 6,
  max_a      DOUBLE PRECISION NOT NULL DEFAULT 32,
  priority   INTEGER NOT NULL DEFAULT 0,
  updated_at BIGINT NOT NULL DEFAULT 0
);

-- A token's priority in load management (higher first; the session's charger's priority when
-- higher).
ALTER TABLE token ADD COLUMN priority INTEGER NOT NULL DEFAULT 0;

-- The plan: each session's share of its site's limit as last planned, and what became of the
-- profile that carries it (state 0 sending, 1 applied, 2 refused, 3 offline).
CREATE TABLE power_allocation (
  device_id      BIGINT NOT NULL,
  connector_id   INTEGER NOT NULL,
  site_id        BIGINT NOT NULL,
  transaction_id BIGINT NOT NULL DEFAULT 0,
  limit_a        DOUBLE PRECISION NOT NULL DEFAULT 0,
  limit_w        DOUBLE PRECISION NOT NULL DEFAULT 0,
  phases         INTEGER NOT NULL DEFAULT 3,
  state          INTEGER NOT NULL DEFAULT 0,
  message        TEXT NOT NULL DEFAULT '',
  command_id     BIGINT NOT NULL DEFAULT 0,
  sent_at        BIGINT NOT NULL DEFAULT 0,
  updated_at     BIGINT NOT NULL,
  PRIMARY KEY (device_id, connector_id)
);
CREATE INDEX idx_power_allocation_site ON power_allocation (site_id);
CREATE INDEX idx_power_allocation_command ON power_allocation (command_id);

-- Which node plans a site (a lease renewed every few seconds; a lapsed lease is taken over).
CREATE TABLE site_power_lease (
  site_id    BIGINT PRIMARY KEY,
  node       TEXT NOT NULL,
  expires_at BIGINT NOT NULL
);

-- A site's power over time: one row a minute per planned site (limit, planned and measured, W).
CREATE TABLE site_power_sample (
  site_id     BIGINT NOT NULL,
  at          BIGINT NOT NULL,
  limit_w     DOUBLE PRECISION NOT NULL DEFAULT 0,
  allocated_w DOUBLE PRECISION NOT NULL DEFAULT 0,
  actual_w    DOUBLE PRECISION NOT NULL DEFAULT 0,
  sessions    INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (site_id, at)
);
