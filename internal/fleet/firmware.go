package fleet

import (
	"context"

	"chargeops/internal/db"
)

// Firmware and diagnostics jobs as the charger reports them.

// DiagnosticsUploadFailed is the DiagnosticsStatus of a charger that gave up uploading.
const DiagnosticsUploadFailed = "UploadFailed"

const (
	sqlFirmwareJob      = `UPDATE device_state SET firmware_job = ?, firmware_status = ?, updated_at = ? WHERE device_id = ?`
	sqlDiagnostics      = `UPDATE device_state SET diagnostics_status = ?, updated_at = ? WHERE device_id = ?`
	sqlDiagnosticsEnded = `UPDATE device_state SET diagnostics_status = ?, updated_at = ?, diagnostics_job = 0 WHERE device_id = ?`
)

// FirmwareJob starts (on an accepted UpdateFirmware) or ends a firmware job.
func (s *Service) FirmwareJob(ctx context.Context, deviceID int64, running bool, status string) error {
	return s.Ingest.Commit(ctx, &Unit{Step: func(ctx context.Context, b *Batch) error {
		if _, err := b.Tx.Exec(ctx, sqlFirmwareJob, db.BoolInt(running), status, db.NowMS(), deviceID); err != nil {
			return err
		}
		runtimeValue(b, deviceID, "FirmwareStatus", status)
		return s.recompute(ctx, b, deviceID)
	}})
}

// FirmwareStatus records a FirmwareStatusNotification: the job runs while the status is
// Downloading, Downloaded or Installing.
func (s *Service) FirmwareStatus(ctx context.Context, dev *Device, status string) error {
	return s.FirmwareJob(ctx, dev.ID, FirmwareJobRunning(status), status)
}

// DiagnosticsStatus records a DiagnosticsStatusNotification. UploadFailed (the charger gave
// up, after its retries) also closes the open diagnostics job, so its URL takes no upload.
func (s *Service) DiagnosticsStatus(ctx context.Context, dev *Device, status string) error {
	q := sqlDiagnostics
	if status == DiagnosticsUploadFailed {
		q = sqlDiagnosticsEnded
	}
	return s.Ingest.Commit(ctx, &Unit{Key: KeyOf(dev.SN), Step: func(ctx context.Context, b *Batch) error {
		if _, err := b.Tx.Exec(ctx, q, status, db.NowMS(), dev.ID); err != nil {
			return err
		}
		runtimeValue(b, dev.ID, "DiagnosticsStatus", status)
		return nil
	}})
}
