-- Foundation: settings, permission catalogue, interfaces, roles, users, sessions, sign-in
-- helpers, mail outbox and the action log. Times are UTC unix milliseconds (BIGINT).

CREATE TABLE setting (
  key        TEXT PRIMARY KEY,
  value      TEXT NOT NULL,
  updated_at BIGINT NOT NULL
);

-- The permission-key catalogue (api/permissions.json), synced at start-up; also the menu tree.
CREATE TABLE permission (
  key        TEXT PRIMARY KEY,
  parent_key TEXT NOT NULL DEFAULT '',
  type       TEXT NOT NULL,
  name_en    TEXT NOT NULL,
  name_zh    TEXT NOT NULL,
  sort       INTEGER NOT NULL DEFAULT 0,
  url        TEXT NOT NULL DEFAULT '',
  customised INTEGER NOT NULL DEFAULT 0
);

-- Interfaces (API endpoints). A caller needs any one of the interface's keys, or common = 1.
CREATE TABLE api_interface (
  id         {{ID}},
  name       TEXT NOT NULL,
  method     TEXT NOT NULL,
  url        TEXT NOT NULL,
  common     INTEGER NOT NULL DEFAULT 0,
  customised INTEGER NOT NULL DEFAULT 0,
  UNIQUE (method, url)
);

CREATE TABLE api_interface_permission (
  interface_id BIGINT NOT NULL REFERENCES api_interface(id) ON DELETE CASCADE,
  perm_key     TEXT NOT NULL,
  PRIMARY KEY (interface_id, perm_key)
);
CREATE INDEX idx_api_interface_permission_key ON api_interface_permission (perm_key);

CREATE TABLE role (
  id                 {{ID}},
  name               TEXT NOT NULL UNIQUE,
  description        TEXT NOT NULL DEFAULT '',
  customer_access    INTEGER NOT NULL DEFAULT 1,
  site_access        INTEGER NOT NULL DEFAULT 1,
  web_ssh_access     INTEGER NOT NULL DEFAULT 0,
  web_ssh_level      INTEGER NOT NULL DEFAULT 5,
  cfg_read_level     INTEGER NOT NULL DEFAULT 5,
  cfg_write_level    INTEGER NOT NULL DEFAULT 5,
  cfg_download_level INTEGER NOT NULL DEFAULT 5,
  param_level        INTEGER NOT NULL DEFAULT 5,
  doc_level          INTEGER NOT NULL DEFAULT 5,
  attach_level       INTEGER NOT NULL DEFAULT 5,
  email_alarm        INTEGER NOT NULL DEFAULT 0,
  user_access        INTEGER NOT NULL DEFAULT 0,
  created_at         BIGINT NOT NULL,
  updated_at         BIGINT NOT NULL
);

CREATE TABLE role_permission (
  role_id  BIGINT NOT NULL REFERENCES role(id) ON DELETE CASCADE,
  perm_key TEXT NOT NULL,
  PRIMARY KEY (role_id, perm_key)
);

CREATE TABLE app_user (
  id                  {{ID}},
  user_name           TEXT NOT NULL UNIQUE,
  nick_name           TEXT NOT NULL DEFAULT '',
  email               TEXT NOT NULL DEFAULT '',
  contact             TEXT NOT NULL DEFAULT '',
  avatar              TEXT NOT NULL DEFAULT '',
  password_hash       TEXT NOT NULL,
  root                INTEGER NOT NULL DEFAULT 0,
  vendor              INTEGER NOT NULL DEFAULT 0,
  role_id             BIGINT REFERENCES role(id),
  customer_id         BIGINT NOT NULL DEFAULT 0,
  max_sites           INTEGER NOT NULL DEFAULT 0,
  status              INTEGER NOT NULL DEFAULT 1,
  failed_logins       INTEGER NOT NULL DEFAULT 0,
  locked_until        BIGINT NOT NULL DEFAULT 0,
  privacy_version     TEXT NOT NULL DEFAULT '',
  locale              TEXT NOT NULL DEFAULT '',
  password_changed_at BIGINT NOT NULL DEFAULT 0,
  created_at          BIGINT NOT NULL,
  updated_at          BIGINT NOT NULL
);
CREATE INDEX idx_app_user_email ON app_user (email);
CREATE INDEX idx_app_user_role ON app_user (role_id);

-- Sessions are server-side so any node can serve any request. id is sha256(token) in hex.
CREATE TABLE session (
  id           TEXT PRIMARY KEY,
  user_id      BIGINT NOT NULL REFERENCES app_user(id) ON DELETE CASCADE,
  csrf_token   TEXT NOT NULL,
  ip           TEXT NOT NULL DEFAULT '',
  user_agent   TEXT NOT NULL DEFAULT '',
  created_at   BIGINT NOT NULL,
  last_seen_at BIGINT NOT NULL,
  ended_at     BIGINT NOT NULL DEFAULT 0,
  end_reason   INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX idx_session_user ON session (user_id);

CREATE TABLE login_nonce (
  nonce      TEXT PRIMARY KEY,
  expires_at BIGINT NOT NULL
);

CREATE TABLE captcha (
  id         TEXT PRIMARY KEY,
  digits     TEXT NOT NULL,
  expires_at BIGINT NOT NULL
);

-- Fixed-window counters for rate limits that must hold across nodes.
CREATE TABLE rate_counter (
  key          TEXT PRIMARY KEY,
  window_start BIGINT NOT NULL,
  hits         INTEGER NOT NULL
);

CREATE TABLE password_reset (
  token_hash TEXT PRIMARY KEY,
  user_id    BIGINT NOT NULL REFERENCES app_user(id) ON DELETE CASCADE,
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  used_at    BIGINT NOT NULL DEFAULT 0
);

CREATE TABLE mail_outbox (
  id         {{ID}},
  recipient  TEXT NOT NULL,
  subject    TEXT NOT NULL,
  body       TEXT NOT NULL,
  created_at BIGINT NOT NULL
);

-- type: 0 login, 1 logout, 2 operation. reason: logout reason (spec §4) for type 1.
CREATE TABLE action_log (
  id         {{ID}},
  user_id    BIGINT NOT NULL DEFAULT 0,
  user_name  TEXT NOT NULL DEFAULT '',
  type       INTEGER NOT NULL,
  action     TEXT NOT NULL DEFAULT '',
  data       TEXT NOT NULL DEFAULT '',
  code       INTEGER NOT NULL DEFAULT 0,
  reason     INTEGER NOT NULL DEFAULT 0,
  location   TEXT NOT NULL DEFAULT '',
  ip         TEXT NOT NULL DEFAULT '',
  created_at BIGINT NOT NULL
);
CREATE INDEX idx_action_log_time ON action_log (created_at, id);
CREATE INDEX idx_action_log_type_time ON action_log (type, created_at, id);
CREATE INDEX idx_action_log_user_time ON action_log (user_name, created_at, id);
