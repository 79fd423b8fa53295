-- The fleet's sweep looks for devices still marked online whose node stopped refreshing them
-- (a crashed node) every 10 s: an index over the online rows only keeps that a short read on a
-- fleet of a million devices.
CREATE INDEX idx_device_state_online_seen ON device_state (last_seen_at) WHERE online = 1;
