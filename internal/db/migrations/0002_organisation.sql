-- Organisation and catalogue: customers, sites, device models with items and aliases, the data
-- catalogue, devices, and which customers/sites a user is assigned.

CREATE TABLE customer (
  id         {{ID}},
  name       TEXT NOT NULL UNIQUE,
  code       TEXT NOT NULL UNIQUE,
  logo       TEXT NOT NULL DEFAULT '',
  contact    TEXT NOT NULL DEFAULT '',
  telephone  TEXT NOT NULL DEFAULT '',
  address    TEXT NOT NULL DEFAULT '',
  platform   INTEGER NOT NULL DEFAULT 0,
  read_only  INTEGER NOT NULL DEFAULT 0,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
);
CREATE INDEX idx_customer_created ON customer (created_at, id);
CREATE INDEX idx_customer_updated ON customer (updated_at, id);

CREATE TABLE site (
  id             {{ID}},
  customer_id    BIGINT NOT NULL REFERENCES customer(id),
  name           TEXT NOT NULL,
  code           TEXT NOT NULL UNIQUE,
  contact_person TEXT NOT NULL DEFAULT '',
  contact_phone  TEXT NOT NULL DEFAULT '',
  build_date     TEXT NOT NULL DEFAULT '',
  address        TEXT NOT NULL DEFAULT '',
  image          TEXT NOT NULL DEFAULT '',
  status         INTEGER NOT NULL DEFAULT 1,
  created_at     BIGINT NOT NULL,
  updated_at     BIGINT NOT NULL,
  UNIQUE (customer_id, name)
);
CREATE INDEX idx_site_customer ON site (customer_id, id);

-- Site admins who receive the site's notifications.
CREATE TABLE site_receiver (
  site_id BIGINT NOT NULL REFERENCES site(id) ON DELETE CASCADE,
  user_id BIGINT NOT NULL REFERENCES app_user(id) ON DELETE CASCADE,
  PRIMARY KEY (site_id, user_id)
);

-- Customers and sites assigned to a user (role customer access 2, site access 1).
CREATE TABLE user_customer (
  user_id     BIGINT NOT NULL REFERENCES app_user(id) ON DELETE CASCADE,
  customer_id BIGINT NOT NULL REFERENCES customer(id) ON DELETE CASCADE,
  PRIMARY KEY (user_id, customer_id)
);
CREATE TABLE user_site (
  user_id BIGINT NOT NULL REFERENCES app_user(id) ON DELETE CASCADE,
  site_id BIGINT NOT NULL REFERENCES site(id) ON DELETE CASCADE,
  PRIMARY KEY (user_id, site_id)
);
CREATE INDEX idx_user_site_site ON user_site (site_id);

-- device_type: 1 charging pile, 2 AC pile, 3 energy pile, 4 power, 5 home energy, 6 V2G.
CREATE TABLE device_model (
  id           {{ID}},
  name         TEXT NOT NULL UNIQUE,
  parent_id    BIGINT NOT NULL DEFAULT 0,
  device_type  INTEGER NOT NULL DEFAULT 1,
  vendor       TEXT NOT NULL DEFAULT '',
  supports_ssh INTEGER NOT NULL DEFAULT 0,
  supports_web INTEGER NOT NULL DEFAULT 0,
  images       TEXT NOT NULL DEFAULT '[]',
  icon         TEXT NOT NULL DEFAULT '',
  created_at   BIGINT NOT NULL,
  updated_at   BIGINT NOT NULL
);

CREATE TABLE device_model_alias (
  id         {{ID}},
  model_id   BIGINT NOT NULL REFERENCES device_model(id) ON DELETE CASCADE,
  alias      TEXT NOT NULL UNIQUE,
  created_at BIGINT NOT NULL
);

-- kind: config, param or control (spec §3 model item).
CREATE TABLE model_item (
  id                {{ID}},
  model_id          BIGINT NOT NULL REFERENCES device_model(id) ON DELETE CASCADE,
  kind              TEXT NOT NULL,
  config_group      TEXT NOT NULL DEFAULT '',
  config_item       TEXT NOT NULL DEFAULT '',
  protocol_key      TEXT NOT NULL DEFAULT '',
  display_priority  INTEGER NOT NULL DEFAULT 0,
  read_level        INTEGER NOT NULL DEFAULT 5,
  write_level       INTEGER NOT NULL DEFAULT 5,
  batch             INTEGER NOT NULL DEFAULT 0,
  data_type         TEXT NOT NULL DEFAULT 'string',
  data_range        TEXT NOT NULL DEFAULT '',
  control_name      TEXT NOT NULL DEFAULT '',
  control_type_code INTEGER NOT NULL DEFAULT 0,
  control_level     INTEGER NOT NULL DEFAULT 5,
  param1_name       TEXT NOT NULL DEFAULT '',
  param2_name       TEXT NOT NULL DEFAULT '',
  created_at        BIGINT NOT NULL,
  updated_at        BIGINT NOT NULL
);
CREATE INDEX idx_model_item_model ON model_item (model_id, kind, display_priority, id);
CREATE UNIQUE INDEX uq_model_item_control ON model_item (model_id, control_type_code) WHERE kind = 'control';
CREATE UNIQUE INDEX uq_model_item_key ON model_item (model_id, kind, protocol_key) WHERE kind <> 'control' AND protocol_key <> '';

-- The data model catalogue (config-model screens): groups and data items.
CREATE TABLE data_group (
  id          {{ID}},
  name        TEXT NOT NULL UNIQUE,
  description TEXT NOT NULL DEFAULT '',
  created_at  BIGINT NOT NULL,
  updated_at  BIGINT NOT NULL
);
CREATE TABLE data_item (
  id         {{ID}},
  group_id   BIGINT NOT NULL DEFAULT 0,
  name       TEXT NOT NULL UNIQUE,
  category   TEXT NOT NULL DEFAULT '',
  data_type  TEXT NOT NULL DEFAULT 'float',
  data_range TEXT NOT NULL DEFAULT '',
  unit       TEXT NOT NULL DEFAULT '',
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
);

-- Devices. customer_id repeats the site's customer so scoped lists filter on one table.
-- status: 0 Offline, 1 Idle, 2 Working, 3 Faulted, 4 Maintain, 5 Firmware Update, 6 Disabled.
-- alarm_status: 0 none, 1 alarm open, 2 fault open.
CREATE TABLE device (
  id                   {{ID}},
  sn                   TEXT {{BYTEORDER}} NOT NULL UNIQUE,
  name                 TEXT {{BYTEORDER}} NOT NULL UNIQUE,
  model_id             BIGINT NOT NULL REFERENCES device_model(id),
  site_id              BIGINT NOT NULL REFERENCES site(id),
  customer_id          BIGINT NOT NULL REFERENCES customer(id),
  software_version     TEXT NOT NULL DEFAULT '',
  install_date         TEXT NOT NULL DEFAULT '',
  arrival_date         TEXT NOT NULL DEFAULT '',
  maintenance_cycle    INTEGER NOT NULL DEFAULT 0,
  last_maintained_at   BIGINT NOT NULL DEFAULT 0,
  total_runtime        BIGINT NOT NULL DEFAULT 0,
  last_refresh_at      BIGINT NOT NULL DEFAULT 0,
  status               INTEGER NOT NULL DEFAULT 0,
  alarm_status         INTEGER NOT NULL DEFAULT 0,
  enabled              INTEGER NOT NULL DEFAULT 1,
  maintain_mode        INTEGER NOT NULL DEFAULT 0,
  images               TEXT NOT NULL DEFAULT '[]',
  auth_key_hash        TEXT NOT NULL DEFAULT '',
  security_profile     INTEGER NOT NULL DEFAULT 0,
  created_at           BIGINT NOT NULL,
  updated_at           BIGINT NOT NULL
);
CREATE INDEX idx_device_customer ON device (customer_id, id);
CREATE INDEX idx_device_site ON device (site_id, id);
CREATE INDEX idx_device_model ON device (model_id, id);
CREATE INDEX idx_device_status ON device (status, id);
CREATE INDEX idx_device_customer_status ON device (customer_id, status, id);
CREATE INDEX idx_device_site_status ON device (site_id, status, id);
