package fleet

import (
	"context"

	"chargeops/internal/db"
	"chargeops/internal/fleet/ingest"
)

// Firmware and diagnostics jobs as the charger reports them.

// DiagnosticsUploadFailed is the DiagnosticsStatus of a charger that gave up uploading.
const DiagnosticsUploadFailed = "UploadFailed"

const (
	sqlFirmwareJob      = `UPDATE device_state SET firmware_job = ?, firmware_status = ?, updated_at = ? WHERE device_id = ?`
	sqlDiagnostics      = `UPDATE device_state SET diagnostics_status = ?, updated_at = ? WHERE device_id = ?`
	sqlDiagnosticsEnded = `UPDATE device_state SET diagnostics_status = ?, updated_at = ?, diagnostics_job = 0 WHERE device_id = ?`
)

// FirmwareAccepted starts the firmware job of an accepted UpdateFirmware and marks the
// command's progress Accepted, unless the charger already reported a later step.
func (s *Service) FirmwareAccepted(ctx context.Context, dev *Device, commandID int64) error {
	deviceID := dev.ID
	return s.Ingest.Commit(ctx, &ingest.Unit{Key: ingest.KeyOf(dev.SN), Step: func(ctx context.Context, b *ingest.Batch) error {
		if _, err := b.Tx.Exec(ctx, sqlFirmwareJob, db.BoolInt(true), "Scheduled", db.NowMS(), deviceID); err != nil {
			return err
		}
		if _, err := b.Tx.Exec(ctx, sqlFirmwareAccepted, FirmwareAcceptedStep, db.NowMS(), commandID); err != nil {
			return err
		}
		runtimeValue(b, deviceID, "FirmwareStatus", "Scheduled")
		return s.recompute(ctx, b, deviceID)
	}})
}

// FirmwareStatus records a FirmwareStatusNotification: the job runs while the status is
// Downloading, Downloaded or Installing. A step of an upgrade is also the progress of the
// device's latest UpdateFirmware (waiting for or given its answer) until that ends with
// Installed or a failure; Idle (the answer to a TriggerMessage) is no step.
func (s *Service) FirmwareStatus(ctx context.Context, dev *Device, status string) error {
	return s.Ingest.Commit(ctx, &ingest.Unit{Key: ingest.KeyOf(dev.SN), Step: func(ctx context.Context, b *ingest.Batch) error {
		now := db.NowMS()
		if _, err := b.Tx.Exec(ctx, sqlFirmwareJob, db.BoolInt(FirmwareJobRunning(status)), status, now, dev.ID); err != nil {
			return err
		}
		if FirmwareStep(status) {
			if _, err := b.Tx.Exec(ctx, sqlFirmwareProgress, status, now, dev.ID, CtlUpdateFirmware, ResultWaiting, ResultSuccess,
				"Installed", "DownloadFailed", "InstallationFailed"); err != nil {
				return err
			}
		}
		runtimeValue(b, dev.ID, "FirmwareStatus", status)
		return s.recompute(ctx, b, dev.ID)
	}})
}

// FirmwareAcceptedStep is the progress of an UpdateFirmware the charger accepted, before it
// reports a step of its own.
const FirmwareAcceptedStep = "Accepted"

// FirmwareStep reports whether a FirmwareStatusNotification status is a step of an upgrade
// (not Idle, nor a value OCPP 1.6 does not name).
func FirmwareStep(status string) bool {
	switch status {
	case "Downloading", "Downloaded", "Installing", "Installed", "DownloadFailed", "InstallationFailed":
		return true
	}
	return false
}

const (
	sqlFirmwareAccepted = `UPDATE command SET progress = ?, progress_at = ? WHERE id = ? AND progress = ''`
	sqlFirmwareProgress = `UPDATE command SET progress = ?, progress_at = ?
		WHERE id = (SELECT MAX(id) FROM command WHERE device_id = ? AND control_type = ? AND result IN (?, ?))
		AND progress NOT IN (?, ?, ?)`
)

// DiagnosticsStatus records a DiagnosticsStatusNotification. UploadFailed (the charger gave
// up, after its retries) also closes the open diagnostics job, so its URL takes no upload.
func (s *Service) DiagnosticsStatus(ctx context.Context, dev *Device, status string) error {
	q := sqlDiagnostics
	if status == DiagnosticsUploadFailed {
		q = sqlDiagnosticsEnded
	}
	return s.Ingest.Commit(ctx, &ingest.Unit{Key: ingest.KeyOf(dev.SN), Step: func(ctx context.Context, b *ingest.Batch) error {
		if _, err := b.Tx.Exec(ctx, q, status, db.NowMS(), dev.ID); err != nil {
			return err
		}
		runtimeValue(b, dev.ID, "DiagnosticsStatus", status)
		return nil
	}})
}
