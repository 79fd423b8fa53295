-- Tokens (idTags) of a customer and the charger's local authorization list (docs/tokens.md).
-- id_tag is kept as entered; tag_key is its ASCII upper case, the key a presented idTag is
-- looked up by (OCPP 1.6's IdToken is a case-insensitive string of at most 20 characters).
-- status 0 active, 1 blocked; expires_at 0: never; origin 0 added, 1 imported, 2 recorded when
-- an unknown token was accepted by the customer's policy. version is the list version of the
-- token's last change (token_seq), so a differential local list is "version > held version".
CREATE TABLE token (
  id            {{ID}},
  customer_id   BIGINT NOT NULL,
  id_tag        TEXT NOT NULL,
  tag_key       TEXT NOT NULL,
  parent_id_tag TEXT NOT NULL DEFAULT '',
  parent_key    TEXT NOT NULL DEFAULT '',
  name          TEXT NOT NULL DEFAULT '',
  note          TEXT NOT NULL DEFAULT '',
  status        INTEGER NOT NULL DEFAULT 0,
  expires_at    BIGINT NOT NULL DEFAULT 0,
  origin        INTEGER NOT NULL DEFAULT 0,
  version       BIGINT NOT NULL DEFAULT 0,
  last_used_at  BIGINT NOT NULL DEFAULT 0,
  created_at    BIGINT NOT NULL,
  updated_at    BIGINT NOT NULL,
  CONSTRAINT uq_token_tag UNIQUE (customer_id, tag_key)
);
CREATE INDEX idx_token_version ON token (customer_id, version);
CREATE INDEX idx_token_parent ON token (customer_id, parent_key);

-- A deleted token, so that a differential list can remove it from the chargers.
CREATE TABLE token_tombstone (
  customer_id BIGINT NOT NULL,
  tag_key     TEXT NOT NULL,
  id_tag      TEXT NOT NULL,
  version     BIGINT NOT NULL,
  PRIMARY KEY (customer_id, tag_key)
);
CREATE INDEX idx_token_tombstone_version ON token_tombstone (customer_id, version);

-- The one counter of list versions: every change of tokens takes the next value.
CREATE TABLE token_seq (
  id    INTEGER PRIMARY KEY,
  value BIGINT NOT NULL
);
INSERT INTO token_seq (id, value) VALUES (1, 0);

-- A customer's policy for unknown tokens: 0 accept and record (the default, as before tokens
-- existed), 1 refuse (Invalid).
CREATE TABLE token_policy (
  customer_id BIGINT PRIMARY KEY,
  unknown     INTEGER NOT NULL DEFAULT 0,
  updated_at  BIGINT NOT NULL
);

-- The local list a charger holds: held_version from its GetLocalListVersion answer or an
-- accepted SendLocalList (held_at 0: not known yet; -1: the charger has no local list),
-- sent_version/sent_at the last list sent, checked_at when the sweep last asked after a
-- (re)connect, pending 1 while the sweep's GetLocalListVersion waits for its answer.
CREATE TABLE token_device_list (
  device_id    BIGINT PRIMARY KEY,
  held_version BIGINT NOT NULL DEFAULT 0,
  held_at      BIGINT NOT NULL DEFAULT 0,
  sent_version BIGINT NOT NULL DEFAULT 0,
  sent_at      BIGINT NOT NULL DEFAULT 0,
  checked_at   BIGINT NOT NULL DEFAULT 0,
  pending      INTEGER NOT NULL DEFAULT 0
);

-- A session keeps the status its StartTransaction was answered with ('' : Accepted).
ALTER TABLE device_transaction ADD COLUMN auth_status TEXT NOT NULL DEFAULT '';
-- The open sessions of a token, asked on every StartTransaction (ConcurrentTx).
CREATE INDEX idx_device_transaction_open_tag ON device_transaction (customer_id, id_tag) WHERE stopped_at = 0;
