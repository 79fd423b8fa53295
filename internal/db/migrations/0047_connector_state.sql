-- A connector's state in the fleet core's terms (issue 28): what the status rule reads, set by
-- the adapter with each status it reports (devstate.Connector*: 0 idle, 1 working, 2 faulted,
-- 3 unavailable), beside the status name stored as the charger sent it. The connectors stored
-- before get the state of their OCPP 1.6 name (ocpp16.StatusReport maps the same), so every
-- device keeps its status.
ALTER TABLE device_connector ADD COLUMN state INTEGER NOT NULL DEFAULT 0;
UPDATE device_connector SET state = CASE
  WHEN status IN ('Preparing', 'Charging', 'SuspendedEV', 'SuspendedEVSE', 'Finishing', 'Reserved') THEN 1
  WHEN status = 'Faulted' THEN 2
  WHEN status = 'Unavailable' THEN 3
  ELSE 0
END;
