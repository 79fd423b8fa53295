-- The admission order of the connection recorded in device_state (docs/gateway.md,
-- "Connections"): the time-ordered prefix of its conn_id, taken at the handshake. A connection
-- is recorded only when it is not older than the one recorded before it, so of two sockets of
-- one charger opened back to back the newer wins whatever order their writes commit in. Rows of
-- connections made before this column existed keep 0: any new connection is newer.
ALTER TABLE device_state ADD COLUMN conn_order BIGINT NOT NULL DEFAULT 0;
