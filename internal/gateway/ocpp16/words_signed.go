package ocpp16

import (
	"github.com/lorenzodonini/ocpp-go/ocpp1.6/logging"
	"github.com/lorenzodonini/ocpp-go/ocpp1.6/securefirmware"

	"chargeops/internal/fleet"
)

// The OCPP 1.6 security extension's words of signed firmware and logs in the core's terms
// (docs/security-profiles.md, "Signed firmware and logs"; words.go for the rest).

// SignedFirmwareReport is a SignedFirmwareStatusNotification of dev in the core's terms: the
// same firmware progress as a FirmwareStatusNotification, the status stored as sent, with the
// phase it puts the upgrade in (signedFirmwarePhase).
func SignedFirmwareReport(dev *fleet.Device, req *securefirmware.SignedFirmwareStatusNotificationRequest) fleet.FirmwareReport {
	return fleet.FirmwareReport{Device: dev, Status: string(req.Status), Phase: signedFirmwarePhase(req.Status)}
}

// signedFirmwarePhase is the core's phase of a signed upgrade's status: the download, signature
// check and installation steps (scheduled, paused and rebooting included) run the job,
// Installed ends it, a failed download, installation or verification and an invalid signature
// fail it; Idle (the answer to a trigger) is no step.
func signedFirmwarePhase(st securefirmware.FirmwareStatus) fleet.FirmwarePhase {
	switch st {
	case securefirmware.FirmwareStatusDownloadScheduled, securefirmware.FirmwareStatusDownloading, securefirmware.FirmwareStatusDownloadPaused,
		securefirmware.FirmwareStatusDownloaded, securefirmware.FirmwareStatusSignatureVerified, securefirmware.FirmwareStatusInstallScheduled,
		securefirmware.FirmwareStatusInstalling, securefirmware.FirmwareStatusInstallRebooting:
		return fleet.FirmwareRunning
	case securefirmware.FirmwareStatusInstalled:
		return fleet.FirmwareInstalled
	case securefirmware.FirmwareStatusDownloadFailed, securefirmware.FirmwareStatusInstallationFailed,
		securefirmware.FirmwareStatusInstallVerificationFailed, securefirmware.FirmwareStatusInvalidSignature:
		return fleet.FirmwareFailed
	}
	return fleet.FirmwareNone
}

// LogStatusRequest is a LogStatusNotification as the whitepaper's schema has it: its requestId
// is optional (ocpp-go's type requires it, so a charger answering a trigger without one would
// be refused).
type LogStatusRequest struct {
	Status    logging.UploadLogStatus `json:"status" validate:"required,uploadLogStatus16"`
	RequestID *int                    `json:"requestId,omitempty"`
}

// LogReport is a LogStatusNotification of dev in the core's terms: a diagnostics step, the
// status stored as sent, with the phase of the upload (uploadPhase); a failure or refusal ends
// the job.
func LogReport(dev *fleet.Device, req *LogStatusRequest) fleet.DiagnosticsReport {
	ph := uploadPhase(req.Status)
	return fleet.DiagnosticsReport{Device: dev, Status: string(req.Status), Ended: ph == fleet.UploadFailed,
		Log: &fleet.LogStep{RequestID: req.RequestID, Phase: ph}}
}

// uploadPhase is the core's phase of an UploadLogStatus: Uploading runs, Uploaded is done;
// UploadFailure, and BadMessage, NotSupportedOperation and PermissionDenied (the upload server
// refused it) fail; Idle (the answer to a trigger) is no step.
func uploadPhase(st logging.UploadLogStatus) fleet.UploadPhase {
	switch st {
	case logging.UploadLogStatusUploading:
		return fleet.UploadRunning
	case logging.UploadLogStatusUploaded:
		return fleet.UploadDone
	case logging.UploadLogStatusUploadFailure, logging.UploadLogStatusBadMessage, logging.UploadLogStatusNotSupportedOp,
		logging.UploadLogStatusPermissionDenied:
		return fleet.UploadFailed
	}
	return fleet.UploadNone
}

// logType is the LogType of the log the core asks for (fleet.LogDiagnostics, fleet.LogSecurity).
func logType(kind string) logging.LogType {
	if kind == fleet.LogSecurity {
		return logging.LogTypeSecurity
	}
	return logging.LogTypeDiagnostics
}
