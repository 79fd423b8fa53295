-- Certificates installed on chargers (issue 23, docs/security-profiles.md, "Certificates on the
-- charger"): the roots a charger holds, as its last GetInstalledCertificateIds answer named them
-- (OCPP CertificateHashData), one row per certificate. A read replaces the rows of its
-- certificate type; a root chargeops installed itself is added when the charger accepts it, with
-- its subject and end of validity (kept when a later read names the same certificate); a
-- DeleteCertificate the charger accepted (or answered NotFound) removes its row.
CREATE TABLE device_installed_certificate (
  id               {{ID}},
  device_id        BIGINT NOT NULL,
  -- CentralSystemRootCertificate or ManufacturerRootCertificate
  certificate_type TEXT NOT NULL,
  -- SHA256, SHA384 or SHA512; the hashes and the serial number hex, as the charger gave them
  hash_algorithm   TEXT NOT NULL,
  issuer_name_hash TEXT NOT NULL,
  issuer_key_hash  TEXT NOT NULL,
  serial_number    TEXT NOT NULL,
  -- known when chargeops installed the certificate ('' and 0 otherwise)
  subject          TEXT NOT NULL DEFAULT '',
  not_after        BIGINT NOT NULL DEFAULT 0,
  updated_at       BIGINT NOT NULL
);
CREATE INDEX idx_device_installed_certificate_device ON device_installed_certificate (device_id, certificate_type);
