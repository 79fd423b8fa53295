-- Signed meter values (OCPP 1.6 sampledValue format "SignedData", e.g. OCMF), kept as received
-- for the charging session they belong to (docs/ocpp16.md, "MeterValues"). They never feed the
-- numeric series or the session's energy register. A replayed message adds nothing (unique key).
CREATE TABLE session_signed_value (
  id             {{ID}},
  transaction_id BIGINT NOT NULL DEFAULT 0,
  device_id      BIGINT NOT NULL,
  connector_id   INTEGER NOT NULL DEFAULT 0,
  measurand      TEXT NOT NULL DEFAULT '',
  context        TEXT NOT NULL DEFAULT '',
  format         TEXT NOT NULL DEFAULT 'SignedData',
  value          TEXT NOT NULL,
  ts             BIGINT NOT NULL,
  created_at     BIGINT NOT NULL,
  UNIQUE (device_id, connector_id, ts, measurand, context)
);
CREATE INDEX idx_session_signed_tx ON session_signed_value (transaction_id, ts);
