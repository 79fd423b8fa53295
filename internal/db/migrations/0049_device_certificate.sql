-- Certificates of devices (issue 23, docs/security-profiles.md): each client certificate the
-- charge-point CA signed for a charger (SignCertificate), with what the charger answered to
-- CertificateSigned. The device's Security tab lists them; the newest valid one is its
-- certificate.
CREATE TABLE device_certificate (
  id          {{ID}},
  device_id   BIGINT NOT NULL,
  serial      TEXT NOT NULL,
  subject     TEXT NOT NULL,
  issuer      TEXT NOT NULL,
  not_before  BIGINT NOT NULL,
  not_after   BIGINT NOT NULL,
  fingerprint TEXT NOT NULL,
  -- 0 sent, waiting; 1 installed (Accepted); 2 refused by the charger (Rejected); 3 not delivered
  state       INTEGER NOT NULL DEFAULT 0,
  created_at  BIGINT NOT NULL,
  updated_at  BIGINT NOT NULL
);
CREATE INDEX idx_device_certificate_device ON device_certificate (device_id, id);
