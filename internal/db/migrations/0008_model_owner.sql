-- Device models belong to a customer (0: platform models, which every existing model becomes).
-- Who may read and change which model, and which models a device may use:
-- docs/decisions.md#device-models.
ALTER TABLE device_model ADD COLUMN customer_id BIGINT NOT NULL DEFAULT 0;
CREATE INDEX idx_device_model_customer ON device_model (customer_id, name);
