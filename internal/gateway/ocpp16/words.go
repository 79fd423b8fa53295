package ocpp16

import (
	"github.com/lorenzodonini/ocpp-go/ocpp1.6/core"
	"github.com/lorenzodonini/ocpp-go/ocpp1.6/extendedtriggermessage"
	"github.com/lorenzodonini/ocpp-go/ocpp1.6/firmware"
	"github.com/lorenzodonini/ocpp-go/ocpp1.6/remotetrigger"

	"chargeops/internal/fleet"
)

// The OCPP 1.6 words of the core's values: the core (internal/fleet) names no OCPP string in
// what it acts on; this adapter maps its messages to the core's reports
// (docs/architecture.md, "The fleet core and its adapters").

// StatusReport is a StatusNotification of dev in the core's terms: the status, error and
// vendor codes stored as sent; a Faulted connector a critical fault (CA) named by its error
// code ("Faulted" without one); another error code an alarm, major (MA) for the hardware
// failures, ordinary (OA) otherwise, named by the vendor's code where the error is OtherError;
// the connector's state from its status (connectorState).
func StatusReport(dev *fleet.Device, req *core.StatusNotificationRequest) fleet.ConnectorReport {
	r := fleet.ConnectorReport{Device: dev, Connector: req.ConnectorId, Status: string(req.Status), State: connectorState(req.Status),
		ErrorCode: string(req.ErrorCode), VendorCode: req.VendorErrorCode, Info: req.Info, At: ms(req.Timestamp)}
	faulted := req.Status == core.ChargePointStatusFaulted
	hasError := req.ErrorCode != "" && req.ErrorCode != core.NoError
	if !faulted && !hasError {
		return r
	}
	code := string(req.ErrorCode)
	if !hasError {
		code = string(core.ChargePointStatusFaulted)
	}
	r.Problem = fleet.Problem{Kind: fleet.KindAlarm, Level: errorLevel(req.ErrorCode), Code: code, Name: code}
	if faulted {
		r.Problem.Kind, r.Problem.Level = fleet.KindFault, fleet.LevelCA
	}
	if req.ErrorCode == core.OtherError && req.VendorErrorCode != "" {
		r.Problem.Name = req.VendorErrorCode
	}
	return r
}

// connectorState is the core's state of a ChargePointStatus: Preparing, Charging, SuspendedEV,
// SuspendedEVSE, Finishing and Reserved take the connector (the device is Working), Faulted
// and Unavailable are theirs, Available (and a name OCPP 1.6 does not have) is idle.
// Migration 0047 gave the connectors stored before it the same states.
func connectorState(st core.ChargePointStatus) int {
	switch st {
	case core.ChargePointStatusPreparing, core.ChargePointStatusCharging, core.ChargePointStatusSuspendedEV, core.ChargePointStatusSuspendedEVSE,
		core.ChargePointStatusFinishing, core.ChargePointStatusReserved:
		return fleet.ConnectorWorking
	case core.ChargePointStatusFaulted:
		return fleet.ConnectorFaulted
	case core.ChargePointStatusUnavailable:
		return fleet.ConnectorUnavailable
	}
	return fleet.ConnectorIdle
}

// errorLevel is the level of an alarm with a ChargePointErrorCode: hardware failures are
// major (MA), the rest ordinary (OA).
func errorLevel(code core.ChargePointErrorCode) int {
	switch code {
	case core.GroundFailure, core.HighTemperature, core.OverCurrentFailure, core.OverVoltage, core.UnderVoltage,
		core.PowerMeterFailure, core.PowerSwitchFailure, core.ReaderFailure, core.ResetFailure, core.ConnectorLockFailure, core.InternalError:
		return fleet.LevelMA
	}
	return fleet.LevelOA
}

// FirmwareReport is a FirmwareStatusNotification of dev in the core's terms: the status stored
// as sent, with the phase it puts the upgrade in (firmwarePhase).
func FirmwareReport(dev *fleet.Device, req *firmware.FirmwareStatusNotificationRequest) fleet.FirmwareReport {
	return fleet.FirmwareReport{Device: dev, Status: string(req.Status), Phase: firmwarePhase(req.Status)}
}

// firmwarePhase is the core's phase of a FirmwareStatus: Downloading, Downloaded and
// Installing run the job, Installed ends it, DownloadFailed and InstallationFailed fail it;
// Idle (the answer to a TriggerMessage) is no step. Migration 0048 ended the commands stored
// before it on the same names.
func firmwarePhase(st firmware.FirmwareStatus) fleet.FirmwarePhase {
	switch st {
	case firmware.FirmwareStatusDownloading, firmware.FirmwareStatusDownloaded, firmware.FirmwareStatusInstalling:
		return fleet.FirmwareRunning
	case firmware.FirmwareStatusInstalled:
		return fleet.FirmwareInstalled
	case firmware.FirmwareStatusDownloadFailed, firmware.FirmwareStatusInstallationFailed:
		return fleet.FirmwareFailed
	}
	return fleet.FirmwareNone
}

// DiagnosticsReport is a DiagnosticsStatusNotification of dev in the core's terms: the status
// stored as sent; UploadFailed (the charger gave up, after its retries) ends the job.
func DiagnosticsReport(dev *fleet.Device, req *firmware.DiagnosticsStatusNotificationRequest) fleet.DiagnosticsReport {
	return fleet.DiagnosticsReport{Device: dev, Status: string(req.Status), Ended: req.Status == firmware.DiagnosticsStatusUploadFailed}
}

// messageTrigger is the MessageTrigger of a message the core asks to trigger; false: OCPP 1.6
// has none for it.
func messageTrigger(t fleet.Trigger) (remotetrigger.MessageTrigger, bool) {
	switch t {
	case fleet.TriggerBootNotification:
		return core.BootNotificationFeatureName, true
	case fleet.TriggerDiagnosticsStatusNotification:
		return firmware.DiagnosticsStatusNotificationFeatureName, true
	case fleet.TriggerFirmwareStatusNotification:
		return firmware.FirmwareStatusNotificationFeatureName, true
	case fleet.TriggerHeartbeat:
		return core.HeartbeatFeatureName, true
	case fleet.TriggerMeterValues:
		return core.MeterValuesFeatureName, true
	case fleet.TriggerStatusNotification:
		return core.StatusNotificationFeatureName, true
	}
	return "", false
}

// extendedTrigger is the security extension's ExtendedTriggerMessage for a message the Remote
// Trigger profile cannot ask for (false: none; messageTrigger's are asked the plain way).
func extendedTrigger(t fleet.Trigger) (extendedtriggermessage.ExtendedTriggerMessageType, bool) {
	if t == fleet.TriggerLogStatusNotification {
		return extendedtriggermessage.ExtendedTriggerMessageTypeLogStatusNotification, true
	}
	return "", false
}

// StopReasons are the stop reasons an OCPP 1.6 charger may give a session (StopTransaction's
// Reason), stored as sent: the values the session filter accepts (read.Options.StopReasons).
var StopReasons = []string{string(core.ReasonDeAuthorized), string(core.ReasonEmergencyStop), string(core.ReasonEVDisconnected),
	string(core.ReasonHardReset), string(core.ReasonLocal), string(core.ReasonOther), string(core.ReasonPowerLoss), string(core.ReasonReboot),
	string(core.ReasonRemote), string(core.ReasonSoftReset), string(core.ReasonUnlockCommand)}
