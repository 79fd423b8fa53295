-- Files belong to a customer; 0 is a platform file every caller may use (docs/gateway.md,
-- "Files"). A diagnostics file belongs to its device's customer; a firmware file uploaded
-- before owners existed goes to its uploader's customer (platform users: 0).
ALTER TABLE fleet_file ADD COLUMN customer_id BIGINT NOT NULL DEFAULT 0;
UPDATE fleet_file SET customer_id = COALESCE((SELECT d.customer_id FROM device d WHERE d.id = fleet_file.device_id), 0) WHERE kind = 'diagnostics';
UPDATE fleet_file SET customer_id = COALESCE((SELECT u.customer_id FROM app_user u WHERE u.user_name = fleet_file.created_by), 0) WHERE kind = 'firmware';
CREATE INDEX idx_fleet_file_customer ON fleet_file (kind, customer_id, id);

-- The GetDiagnostics command whose signed upload URL may still deliver one file (0: none).
ALTER TABLE device_state ADD COLUMN diagnostics_job BIGINT NOT NULL DEFAULT 0;
