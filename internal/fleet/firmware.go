package fleet

import (
	"context"

	"chargeops/internal/db"
	"chargeops/internal/fleet/ingest"
)

// Firmware and diagnostics jobs as the charger reports them: the adapter passes each step's
// name as the charger sent it (stored and shown) with where the job stands in the core's terms
// (FirmwarePhase, DiagnosticsReport.Ended), which is what the core decides on.

// FirmwarePhase is where an upgrade stands after a firmware step, in the core's terms.
type FirmwarePhase int

const (
	// FirmwareNone: the report is no step of an upgrade (OCPP 1.6 Idle, the answer to a
	// TriggerMessage; or a name the adapter does not know).
	FirmwareNone FirmwarePhase = iota
	// FirmwareRunning: the job goes on (downloading, downloaded, installing); the device
	// status is Firmware update meanwhile.
	FirmwareRunning
	// FirmwareInstalled: the upgrade ended, installed.
	FirmwareInstalled
	// FirmwareFailed: the upgrade ended, its download or installation failed.
	FirmwareFailed
)

// ended reports whether the phase ends the upgrade: its command's progress moves no more.
func (p FirmwarePhase) ended() bool { return p == FirmwareInstalled || p == FirmwareFailed }

// FirmwareReport is a firmware step of a charger (a FirmwareStatusNotification in OCPP 1.6).
type FirmwareReport struct {
	Device *Device
	Status string // the step as the charger named it: stored, shown, the command's progress
	Phase  FirmwarePhase
}

// DiagnosticsReport is a diagnostics step of a charger (a DiagnosticsStatusNotification in
// OCPP 1.6).
type DiagnosticsReport struct {
	Device *Device
	Status string // the step as the charger named it: stored and shown
	// Ended: the charger gave up the upload (OCPP 1.6 UploadFailed, after its retries); the
	// open diagnostics job closes, so its URL takes no upload.
	Ended bool
	// Log: the step is a GetLog upload's (OCPP 1.6 LogStatusNotification), also the progress of
	// the GetLog command it names (logs.go); nil for a GetDiagnostics upload.
	Log *LogStep
}

// The core's own words of a firmware job: the status of a job whose UpdateFirmware the charger
// accepted (until it reports a step) and the progress of that command meanwhile.
const (
	FirmwareScheduled    = "Scheduled"
	FirmwareAcceptedStep = "Accepted"
)

const (
	sqlFirmwareJob      = `UPDATE device_state SET firmware_job = ?, firmware_status = ?, updated_at = ? WHERE device_id = ?`
	sqlDiagnostics      = `UPDATE device_state SET diagnostics_status = ?, updated_at = ? WHERE device_id = ?`
	sqlDiagnosticsEnded = `UPDATE device_state SET diagnostics_status = ?, updated_at = ?, diagnostics_job = 0 WHERE device_id = ?`
	sqlFirmwareAccepted = `UPDATE command SET progress = ?, progress_at = ? WHERE id = ? AND progress = ''`
	// the device's latest UpdateFirmware (waiting for or given its answer), unless it ended
	sqlFirmwareProgress = `UPDATE command SET progress = ?, progress_at = ?, progress_end = ?
		WHERE id = (SELECT MAX(id) FROM command WHERE device_id = ? AND control_type = ? AND result IN (?, ?))
		AND progress_end = ?`
)

// FirmwareAccepted starts the firmware job of an accepted UpdateFirmware and marks the
// command's progress Accepted, unless the charger already reported a later step.
func (s *Service) FirmwareAccepted(ctx context.Context, dev *Device, commandID int64) error {
	deviceID := dev.ID
	return s.Ingest.Commit(ctx, &ingest.Unit{Key: ingest.KeyOf(dev.SN), Step: func(ctx context.Context, b *ingest.Batch) error {
		if _, err := b.Tx.Exec(ctx, sqlFirmwareJob, db.BoolInt(true), FirmwareScheduled, db.NowMS(), deviceID); err != nil {
			return err
		}
		if _, err := b.Tx.Exec(ctx, sqlFirmwareAccepted, FirmwareAcceptedStep, db.NowMS(), commandID); err != nil {
			return err
		}
		runtimeValue(b, deviceID, "FirmwareStatus", FirmwareScheduled)
		return s.recompute(ctx, b, deviceID)
	}})
}

// FirmwareStatus records a firmware step: the job runs while its phase is FirmwareRunning. A
// step of an upgrade (any phase but FirmwareNone) is also the progress of the device's latest
// UpdateFirmware (waiting for or given its answer) until a step installed or failed ends it.
func (s *Service) FirmwareStatus(ctx context.Context, r FirmwareReport) error {
	dev := r.Device
	return s.Ingest.Commit(ctx, &ingest.Unit{Key: ingest.KeyOf(dev.SN), Step: func(ctx context.Context, b *ingest.Batch) error {
		now := db.NowMS()
		if _, err := b.Tx.Exec(ctx, sqlFirmwareJob, db.BoolInt(r.Phase == FirmwareRunning), r.Status, now, dev.ID); err != nil {
			return err
		}
		if r.Phase != FirmwareNone {
			if _, err := b.Tx.Exec(ctx, sqlFirmwareProgress, r.Status, now, db.BoolInt(r.Phase.ended()), dev.ID, CtlUpdateFirmware,
				ResultWaiting, ResultSuccess, db.BoolInt(false)); err != nil {
				return err
			}
		}
		runtimeValue(b, dev.ID, "FirmwareStatus", r.Status)
		return s.recompute(ctx, b, dev.ID)
	}})
}

// DiagnosticsStatus records a diagnostics step; one that ended the job closes the open
// diagnostics job.
func (s *Service) DiagnosticsStatus(ctx context.Context, r DiagnosticsReport) error {
	q := sqlDiagnostics
	if r.Ended {
		q = sqlDiagnosticsEnded
	}
	dev := r.Device
	return s.Ingest.Commit(ctx, &ingest.Unit{Key: ingest.KeyOf(dev.SN), Step: func(ctx context.Context, b *ingest.Batch) error {
		if _, err := b.Tx.Exec(ctx, q, r.Status, db.NowMS(), dev.ID); err != nil {
			return err
		}
		if err := logProgress(ctx, b, dev.ID, r.Status, r.Log); err != nil {
			return err
		}
		runtimeValue(b, dev.ID, "DiagnosticsStatus", r.Status)
		return nil
	}})
}
