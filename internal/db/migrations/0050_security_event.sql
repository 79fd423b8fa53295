-- Security events (issue 23, docs/security-profiles.md, "Security events"): every
-- SecurityEventNotification a charger sends, with the charger's time (occurred_at) and whether
-- its type is critical; event_id is the alarm (device_event) a critical one opened, or the open
-- alarm a repeat of its type joined (0: none). customer_id and site_id are the device's place
-- when the charger sent it: the lists are scoped by them, as device_event is.
CREATE TABLE device_security_event (
  id          {{ID}},
  device_id   BIGINT NOT NULL,
  customer_id BIGINT NOT NULL DEFAULT 0,
  site_id     BIGINT NOT NULL DEFAULT 0,
  type        TEXT NOT NULL,
  tech_info   TEXT NOT NULL DEFAULT '',
  critical    INTEGER NOT NULL DEFAULT 0,
  occurred_at BIGINT NOT NULL,
  created_at  BIGINT NOT NULL,
  event_id    BIGINT NOT NULL DEFAULT 0
);
-- a device's list and the scoped lists, newest (charger time) first
CREATE INDEX idx_device_security_event_device ON device_security_event (device_id, occurred_at, id);
CREATE INDEX idx_device_security_event_customer ON device_security_event (customer_id, occurred_at, id);
CREATE INDEX idx_device_security_event_site ON device_security_event (site_id, occurred_at, id);
-- the retention purge (created_at) and the acknowledgement of an alarm's events (event_id)
CREATE INDEX idx_device_security_event_created ON device_security_event (created_at, id);
CREATE INDEX idx_device_security_event_alarm ON device_security_event (event_id);

-- What opened a device event, and so what may end it: 0 a connector's status report (a later
-- report without the problem ends it), 1 a security event (an operator's acknowledgement ends
-- it), 2 the certificate-expiry check (a renewed certificate ends it).
ALTER TABLE device_event ADD COLUMN source INTEGER NOT NULL DEFAULT 0;

-- The certificate-expiry check reads each device's newest installed certificate.
CREATE INDEX idx_device_certificate_installed ON device_certificate (device_id, state, not_after);
