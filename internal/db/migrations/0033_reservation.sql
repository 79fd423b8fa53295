-- Reservations (control types 17 ReserveNow and 18 CancelReservation; docs/gateway.md,
-- "Reservations"). id is the reservationId the charger gets. status: requested (sent, no answer
-- yet), active (the charger answered Accepted), refused (any other answer, a timeout or a lost
-- connection), cancelled (CancelReservation Accepted), used (a StartTransaction named it),
-- expired (expires_at passed while requested or active). At most one reservation of a
-- connector is requested or active (uq_reservation_open).
CREATE TABLE reservation (
  id             {{ID}},
  device_id      BIGINT NOT NULL,
  customer_id    BIGINT NOT NULL,
  site_id        BIGINT NOT NULL,
  connector_id   INTEGER NOT NULL,
  id_tag         TEXT NOT NULL,
  parent_id_tag  TEXT NOT NULL DEFAULT '',
  expires_at     BIGINT NOT NULL,
  status         TEXT NOT NULL,
  answer         TEXT NOT NULL DEFAULT '',
  command_id     BIGINT NOT NULL DEFAULT 0,
  cancel_command BIGINT NOT NULL DEFAULT 0,
  transaction_id BIGINT NOT NULL DEFAULT 0,
  user_id        BIGINT NOT NULL,
  user_name      TEXT NOT NULL DEFAULT '',
  created_at     BIGINT NOT NULL,
  updated_at     BIGINT NOT NULL
);
CREATE UNIQUE INDEX uq_reservation_open ON reservation (device_id, connector_id) WHERE status IN ('requested', 'active');
CREATE INDEX idx_reservation_device ON reservation (device_id, id);
CREATE INDEX idx_reservation_expiry ON reservation (status, expires_at);
