package ocpp16_test

import (
	"testing"

	"github.com/lorenzodonini/ocpp-go/ocpp1.6/core"
	"github.com/lorenzodonini/ocpp-go/ocpp1.6/firmware"

	"chargeops/internal/fleet"
	"chargeops/internal/gateway/ocpp16"
)

// A StatusNotification becomes the core's report: the words stored as sent, the problem and
// the connector's state in the core's terms.
func TestStatusReport(t *testing.T) {
	t.Parallel()
	dev := &fleet.Device{ID: 1, SN: "SN-WORDS"}
	cases := []struct {
		name  string
		req   core.StatusNotificationRequest
		want  fleet.Problem
		state int
	}{
		{"an available connector without error has no problem",
			core.StatusNotificationRequest{ConnectorId: 1, Status: core.ChargePointStatusAvailable, ErrorCode: core.NoError}, fleet.Problem{}, fleet.ConnectorIdle},
		{"a hardware failure is a major alarm",
			core.StatusNotificationRequest{ConnectorId: 1, Status: core.ChargePointStatusAvailable, ErrorCode: core.GroundFailure},
			fleet.Problem{Kind: fleet.KindAlarm, Level: fleet.LevelMA, Code: "GroundFailure", Name: "GroundFailure"}, fleet.ConnectorIdle},
		{"another error code is an ordinary alarm",
			core.StatusNotificationRequest{ConnectorId: 1, Status: core.ChargePointStatusCharging, ErrorCode: core.EVCommunicationError},
			fleet.Problem{Kind: fleet.KindAlarm, Level: fleet.LevelOA, Code: "EVCommunicationError", Name: "EVCommunicationError"}, fleet.ConnectorWorking},
		{"OtherError is named by the vendor's code",
			core.StatusNotificationRequest{ConnectorId: 2, Status: core.ChargePointStatusAvailable, ErrorCode: core.OtherError, VendorErrorCode: "E42"},
			fleet.Problem{Kind: fleet.KindAlarm, Level: fleet.LevelOA, Code: "OtherError", Name: "E42"}, fleet.ConnectorIdle},
		{"a Faulted connector is a critical fault, named Faulted without an error code",
			core.StatusNotificationRequest{ConnectorId: 1, Status: core.ChargePointStatusFaulted, ErrorCode: core.NoError},
			fleet.Problem{Kind: fleet.KindFault, Level: fleet.LevelCA, Code: "Faulted", Name: "Faulted"}, fleet.ConnectorFaulted},
		{"a Faulted connector with an error code is a fault of that code",
			core.StatusNotificationRequest{ConnectorId: 1, Status: core.ChargePointStatusFaulted, ErrorCode: core.HighTemperature},
			fleet.Problem{Kind: fleet.KindFault, Level: fleet.LevelCA, Code: "HighTemperature", Name: "HighTemperature"}, fleet.ConnectorFaulted},
		{"an Unavailable connector is out of service",
			core.StatusNotificationRequest{ConnectorId: 1, Status: core.ChargePointStatusUnavailable, ErrorCode: core.NoError}, fleet.Problem{}, fleet.ConnectorUnavailable},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := ocpp16.StatusReport(dev, &c.req)
			if r.Problem != c.want || r.State != c.state {
				t.Fatalf("problem %+v state %d, want %+v %d", r.Problem, r.State, c.want, c.state)
			}
			if r.Device != dev || r.Connector != c.req.ConnectorId || r.Status != string(c.req.Status) || r.ErrorCode != string(c.req.ErrorCode) ||
				r.VendorCode != c.req.VendorErrorCode || r.At == 0 {
				t.Fatalf("stored words changed: %+v", r)
			}
		})
	}
}

// mapping is a named case of a table from an OCPP 1.6 word to the core's value.
type mapping[W ~string, V comparable] struct {
	name string
	word W
	want V
}

// checkMappings runs each case through report, which returns the core's value and the word
// the report stores: the value must be the case's and the word kept as sent.
func checkMappings[W ~string, V comparable](t *testing.T, cases []mapping[W, V], report func(W) (V, string)) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, stored := report(c.word)
			if got != c.want || stored != string(c.word) {
				t.Fatalf("%q → %v, stored %q; want %v, stored as sent", c.word, got, stored, c.want)
			}
		})
	}
}

// Every ChargePointStatus maps to the state the core's status rule reads; migration 0047 gives
// the names stored before it the same states.
func TestStatusReportStates(t *testing.T) {
	t.Parallel()
	dev := &fleet.Device{ID: 1, SN: "SN-STATES"}
	checkMappings(t, []mapping[core.ChargePointStatus, int]{
		{"Available is idle", core.ChargePointStatusAvailable, fleet.ConnectorIdle},
		{"Preparing is working", core.ChargePointStatusPreparing, fleet.ConnectorWorking},
		{"Charging is working", core.ChargePointStatusCharging, fleet.ConnectorWorking},
		{"SuspendedEV is working", core.ChargePointStatusSuspendedEV, fleet.ConnectorWorking},
		{"SuspendedEVSE is working", core.ChargePointStatusSuspendedEVSE, fleet.ConnectorWorking},
		{"Finishing is working", core.ChargePointStatusFinishing, fleet.ConnectorWorking},
		{"Reserved is working", core.ChargePointStatusReserved, fleet.ConnectorWorking},
		{"Unavailable is unavailable", core.ChargePointStatusUnavailable, fleet.ConnectorUnavailable},
		{"Faulted is faulted", core.ChargePointStatusFaulted, fleet.ConnectorFaulted},
		{"a name OCPP 1.6 lacks is idle", core.ChargePointStatus("Occupied"), fleet.ConnectorIdle},
	}, func(st core.ChargePointStatus) (int, string) {
		r := ocpp16.StatusReport(dev, &core.StatusNotificationRequest{ConnectorId: 1, Status: st, ErrorCode: core.NoError})
		return r.State, r.Status
	})
}

// Every FirmwareStatus maps to the phase the core decides on (the job runs, the command's
// progress ends); the status is kept as sent. Migration 0048 ends the commands stored before it
// on the same names.
func TestFirmwareReportPhases(t *testing.T) {
	t.Parallel()
	dev := &fleet.Device{ID: 1, SN: "SN-PHASES"}
	checkMappings(t, []mapping[firmware.FirmwareStatus, fleet.FirmwarePhase]{
		{"Idle is no step", firmware.FirmwareStatusIdle, fleet.FirmwareNone},
		{"Downloading runs", firmware.FirmwareStatusDownloading, fleet.FirmwareRunning},
		{"Downloaded runs", firmware.FirmwareStatusDownloaded, fleet.FirmwareRunning},
		{"Installing runs", firmware.FirmwareStatusInstalling, fleet.FirmwareRunning},
		{"Installed is installed", firmware.FirmwareStatusInstalled, fleet.FirmwareInstalled},
		{"DownloadFailed fails", firmware.FirmwareStatusDownloadFailed, fleet.FirmwareFailed},
		{"InstallationFailed fails", firmware.FirmwareStatusInstallationFailed, fleet.FirmwareFailed},
		{"a name OCPP 1.6 lacks is no step", firmware.FirmwareStatus("Verifying"), fleet.FirmwareNone},
	}, func(st firmware.FirmwareStatus) (fleet.FirmwarePhase, string) {
		r := ocpp16.FirmwareReport(dev, &firmware.FirmwareStatusNotificationRequest{Status: st})
		return r.Phase, r.Status
	})
}

// Only UploadFailed ends a diagnostics job; every status is kept as sent.
func TestDiagnosticsReportEnds(t *testing.T) {
	t.Parallel()
	dev := &fleet.Device{ID: 1, SN: "SN-DIAG"}
	checkMappings(t, []mapping[firmware.DiagnosticsStatus, bool]{
		{"Idle goes on", firmware.DiagnosticsStatusIdle, false},
		{"Uploading goes on", firmware.DiagnosticsStatusUploading, false},
		{"Uploaded leaves the job to the upload", firmware.DiagnosticsStatusUploaded, false},
		{"UploadFailed ends the job", firmware.DiagnosticsStatusUploadFailed, true},
	}, func(st firmware.DiagnosticsStatus) (bool, string) {
		r := ocpp16.DiagnosticsReport(dev, &firmware.DiagnosticsStatusNotificationRequest{Status: st})
		return r.Ended, r.Status
	})
}
