-- Remote access (docs/remote-access.md): a link is a tunnel the charger opens back to chargeops
-- after a VPN start (control type 7). status 1 opening (token handed out, no tunnel yet), 2 open
-- (node holds the tunnel; node_url is where other nodes reach it), 3 closed (close_reason:
-- stopped, expired, restarted, failed, device). Only the SHA-256 of the one-time 128-bit
-- token is kept, and only until the tunnel arrives (token_expires_at ~60 s after the start).
-- At most one link of a device is not closed (uq_remote_link_active).
CREATE TABLE remote_link (
  id               {{ID}},
  device_id        BIGINT NOT NULL,
  sn               TEXT NOT NULL,
  kind             TEXT NOT NULL,
  account          TEXT NOT NULL DEFAULT '',
  status           INTEGER NOT NULL,
  minutes          INTEGER NOT NULL,
  token_hash       TEXT NOT NULL DEFAULT '',
  token_expires_at BIGINT NOT NULL DEFAULT 0,
  command_id       BIGINT NOT NULL DEFAULT 0,
  node             TEXT NOT NULL DEFAULT '',
  node_url         TEXT NOT NULL DEFAULT '',
  opened_by        BIGINT NOT NULL,
  opened_by_name   TEXT NOT NULL DEFAULT '',
  opened_at        BIGINT NOT NULL,
  expires_at       BIGINT NOT NULL,
  closed_at        BIGINT NOT NULL DEFAULT 0,
  close_reason     TEXT NOT NULL DEFAULT ''
);
CREATE UNIQUE INDEX uq_remote_link_active ON remote_link (device_id) WHERE status < 3;
CREATE INDEX idx_remote_link_device ON remote_link (device_id, id);
CREATE INDEX idx_remote_link_token ON remote_link (token_hash);
CREATE INDEX idx_remote_link_status ON remote_link (status, expires_at);

-- The audit of remote access: one row per link ("link"), per web token ("web") and per terminal
-- session ("ssh"), who, which device, from when to when. A web row holds the SHA-256 of its
-- path token (per user and link) until it ends. input is a terminal session's keyboard input,
-- at most 64 KiB (input_truncated when more was typed), shown to holders of auth_logs_action.
CREATE TABLE remote_session (
  id              {{ID}},
  link_id         BIGINT NOT NULL,
  device_id       BIGINT NOT NULL,
  sn              TEXT NOT NULL,
  kind            TEXT NOT NULL,
  user_id         BIGINT NOT NULL,
  user_name       TEXT NOT NULL DEFAULT '',
  token_hash      TEXT NOT NULL DEFAULT '',
  node            TEXT NOT NULL DEFAULT '',
  ip              TEXT NOT NULL DEFAULT '',
  started_at      BIGINT NOT NULL,
  last_seen_at    BIGINT NOT NULL,
  ended_at        BIGINT NOT NULL DEFAULT 0,
  input           TEXT NOT NULL DEFAULT '',
  input_truncated INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX idx_remote_session_device ON remote_session (device_id, id);
CREATE INDEX idx_remote_session_link ON remote_session (link_id, ended_at);
CREATE INDEX idx_remote_session_token ON remote_session (token_hash);
CREATE INDEX idx_remote_session_open ON remote_session (ended_at, kind, last_seen_at);
