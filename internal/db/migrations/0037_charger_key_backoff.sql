-- Wrong charger keys counted per SN and per client address (docs/gateway.md, "Key guesses"),
-- kept in the database so that every node of a cluster sees the same back-off. A row is one
-- subject ('sn:<SN>' or 'addr:<address>'): wrong keys since window_start, and until when
-- connection attempts of that subject are refused without checking their key.
CREATE TABLE charger_key_failure (
    subject       TEXT PRIMARY KEY,
    failures      INTEGER NOT NULL,
    window_start  BIGINT NOT NULL,
    blocked_until BIGINT NOT NULL DEFAULT 0
);
