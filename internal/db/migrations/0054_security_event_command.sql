-- A critical security event an operator's command explains (issue 23, docs/security-profiles.md,
-- "Security events"): the reboot or firmware events of a charger after a Reset or a firmware
-- update sent from the console name that command here and open no alarm. 0: none.
ALTER TABLE device_security_event ADD COLUMN command_id BIGINT NOT NULL DEFAULT 0;
