package ocpp16_test

import (
	"testing"

	"github.com/lorenzodonini/ocpp-go/ocpp1.6/logging"
	"github.com/lorenzodonini/ocpp-go/ocpp1.6/securefirmware"

	"chargeops/internal/fleet"
	"chargeops/internal/gateway/ocpp16"
)

// Every status of a SignedFirmwareStatusNotification maps to the phase of the same firmware
// progress as a FirmwareStatusNotification; the status is kept as sent.
func TestSignedFirmwareReportPhases(t *testing.T) {
	t.Parallel()
	dev := &fleet.Device{ID: 1, SN: "SN-SIGNED-PHASES"}
	checkMappings(t, []mapping[securefirmware.FirmwareStatus, fleet.FirmwarePhase]{
		{"Idle is no step", securefirmware.FirmwareStatusIdle, fleet.FirmwareNone},
		{"DownloadScheduled runs", securefirmware.FirmwareStatusDownloadScheduled, fleet.FirmwareRunning},
		{"Downloading runs", securefirmware.FirmwareStatusDownloading, fleet.FirmwareRunning},
		{"DownloadPaused runs", securefirmware.FirmwareStatusDownloadPaused, fleet.FirmwareRunning},
		{"Downloaded runs", securefirmware.FirmwareStatusDownloaded, fleet.FirmwareRunning},
		{"SignatureVerified runs", securefirmware.FirmwareStatusSignatureVerified, fleet.FirmwareRunning},
		{"InstallScheduled runs", securefirmware.FirmwareStatusInstallScheduled, fleet.FirmwareRunning},
		{"Installing runs", securefirmware.FirmwareStatusInstalling, fleet.FirmwareRunning},
		{"InstallRebooting runs", securefirmware.FirmwareStatusInstallRebooting, fleet.FirmwareRunning},
		{"Installed is installed", securefirmware.FirmwareStatusInstalled, fleet.FirmwareInstalled},
		{"DownloadFailed fails", securefirmware.FirmwareStatusDownloadFailed, fleet.FirmwareFailed},
		{"InstallationFailed fails", securefirmware.FirmwareStatusInstallationFailed, fleet.FirmwareFailed},
		{"InstallVerificationFailed fails", securefirmware.FirmwareStatusInstallVerificationFailed, fleet.FirmwareFailed},
		{"InvalidSignature fails", securefirmware.FirmwareStatusInvalidSignature, fleet.FirmwareFailed},
		{"a name the whitepaper lacks is no step", securefirmware.FirmwareStatus("Verifying"), fleet.FirmwareNone},
	}, func(st securefirmware.FirmwareStatus) (fleet.FirmwarePhase, string) {
		r := ocpp16.SignedFirmwareReport(dev, &securefirmware.SignedFirmwareStatusNotificationRequest{Status: st})
		return r.Phase, r.Status
	})
}

// Every status of a LogStatusNotification maps to the upload's phase; a failure or refusal
// ends the job; the status is kept as sent and the requestId passed on.
func TestLogReportPhases(t *testing.T) {
	t.Parallel()
	dev := &fleet.Device{ID: 1, SN: "SN-LOG-PHASES"}
	checkMappings(t, []mapping[logging.UploadLogStatus, fleet.UploadPhase]{
		{"Idle is no step", logging.UploadLogStatusIdle, fleet.UploadNone},
		{"Uploading runs", logging.UploadLogStatusUploading, fleet.UploadRunning},
		{"Uploaded is done", logging.UploadLogStatusUploaded, fleet.UploadDone},
		{"UploadFailure fails", logging.UploadLogStatusUploadFailure, fleet.UploadFailed},
		{"BadMessage fails", logging.UploadLogStatusBadMessage, fleet.UploadFailed},
		{"NotSupportedOperation fails", logging.UploadLogStatusNotSupportedOp, fleet.UploadFailed},
		{"PermissionDenied fails", logging.UploadLogStatusPermissionDenied, fleet.UploadFailed},
	}, func(st logging.UploadLogStatus) (fleet.UploadPhase, string) {
		id := 7
		r := ocpp16.LogReport(dev, &ocpp16.LogStatusRequest{Status: st, RequestID: &id})
		if r.Log == nil || r.Log.RequestID == nil || *r.Log.RequestID != 7 || r.Ended != (r.Log.Phase == fleet.UploadFailed) {
			t.Fatalf("report %+v", r)
		}
		return r.Log.Phase, r.Status
	})
}
