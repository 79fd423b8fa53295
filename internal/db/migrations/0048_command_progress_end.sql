-- Whether an upgrade's progress has ended (issue 28): set by the fleet core when the adapter
-- reports a step that installed the firmware or failed (fleet.FirmwarePhase), so the core stops
-- moving the command's progress without reading the step names. The commands stored before get
-- it from their OCPP 1.6 step names.
ALTER TABLE command ADD COLUMN progress_end INTEGER NOT NULL DEFAULT 0;
UPDATE command SET progress_end = 1 WHERE progress IN ('Installed', 'DownloadFailed', 'InstallationFailed');
