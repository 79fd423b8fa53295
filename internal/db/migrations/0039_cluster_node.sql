-- Node liveness (docs/gateway.md, "Scale-out"): every node writes its beat here; when a node's
-- beat lapses (a few missed beats: it crashed or lost the database), one surviving node marks
-- the connections device_state records on it offline, so a crashed node's chargers that do not
-- come back do not stay "online". A lapsed node's row goes once none of its connections is left.
CREATE TABLE cluster_node (
  name       TEXT PRIMARY KEY,
  started_at BIGINT NOT NULL,
  beat_at    BIGINT NOT NULL
);
CREATE INDEX idx_device_state_node ON device_state (node, online);
