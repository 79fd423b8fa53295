-- The progress of an accepted UpdateFirmware as the charger reports it (issue 30 item 9): the
-- step of its last FirmwareStatusNotification (Accepted, Downloading, Downloaded, Installing,
-- Installed, DownloadFailed, InstallationFailed; '' for other commands) and when it came.
ALTER TABLE command ADD COLUMN progress TEXT NOT NULL DEFAULT '';
ALTER TABLE command ADD COLUMN progress_at BIGINT NOT NULL DEFAULT 0;
