-- Signed firmware (issue 23; docs/security-profiles.md, "Signed firmware and logs"): a firmware
-- file may carry the certificate its maker signed it with (PEM X.509, at most 5500 characters)
-- and its signature (base64, at most 800), both or neither. Control type 5 on a file that has
-- them sends SignedUpdateFirmware with both instead of UpdateFirmware; '' is an unsigned file.
ALTER TABLE fleet_file ADD COLUMN signing_certificate TEXT NOT NULL DEFAULT '';
ALTER TABLE fleet_file ADD COLUMN signature TEXT NOT NULL DEFAULT '';
