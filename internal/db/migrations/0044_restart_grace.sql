-- A charger that drops its connection because it accepted a Reset from the console does not
-- open an Offline event unless it stays away longer than the restart grace (issue 30 item 17,
-- internal/fleet/restart_grace.go). restart_until: until when a disconnect is expected (set
-- when the Reset is accepted, moved to the disconnect time + grace when the charger leaves);
-- restart_left_at: when the charger left for its restart (0: it did not, or it is back). Both
-- are kept here, not in memory, so a node restart or another node finishes the wait.
ALTER TABLE device_state ADD COLUMN restart_until BIGINT NOT NULL DEFAULT 0;
ALTER TABLE device_state ADD COLUMN restart_left_at BIGINT NOT NULL DEFAULT 0;
-- The sweep walks the chargers away for a restart whose grace has run out.
CREATE INDEX idx_device_state_restart ON device_state (restart_until) WHERE restart_left_at > 0;
