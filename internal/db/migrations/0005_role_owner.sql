-- Roles belong to a customer (0: platform roles). A customer's administrators manage only
-- their customer's roles, so one tenant can never change what another tenant's users may do.
ALTER TABLE role ADD COLUMN customer_id BIGINT NOT NULL DEFAULT 0;
CREATE INDEX idx_role_customer ON role (customer_id);
