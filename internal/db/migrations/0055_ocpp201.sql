-- OCPP 2.0.1 on the same fleet core (issue 24, docs/ocpp201.md).
--
-- A device's protocol setting: '' (auto: the newest sub-protocol both sides speak, ocpp2.0.1
-- when a charger offers both), 'ocpp1.6' or 'ocpp2.0.1' (only that one is admitted).
ALTER TABLE device ADD COLUMN ocpp_protocol TEXT NOT NULL DEFAULT '';

-- The connectors of a 2.0.1 charger's EVSEs. The core's connector of a 2.0.1 charger is the EVSE
-- (device_connector, sessions, meter values and events are the EVSE's); each EVSE's connectors
-- (plugs) keep their own status here as the charger's StatusNotifications give it.
CREATE TABLE device_evse_connector (
  device_id    BIGINT NOT NULL,
  evse_id      INTEGER NOT NULL,
  connector_id INTEGER NOT NULL,
  status       TEXT NOT NULL DEFAULT '',
  updated_at   BIGINT NOT NULL,
  PRIMARY KEY (device_id, evse_id, connector_id)
);

-- A 2.0.1 charger names its transactions itself (transactionId, up to 36 characters): kept
-- beside chargeops' session id so that a TransactionEvent sent again, late or after a restart
-- finds its session. '' for OCPP 1.6 sessions (chargeops gives their id).
ALTER TABLE device_transaction ADD COLUMN charger_tx_id TEXT NOT NULL DEFAULT '';
CREATE INDEX idx_device_transaction_charger ON device_transaction (device_id, charger_tx_id) WHERE charger_tx_id <> '';
