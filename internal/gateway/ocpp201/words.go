package ocpp201

import (
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/availability"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/diagnostics"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/firmware"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/transactions"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/types"

	"chargeops/internal/fleet"
)

// The adapter's words: 2.0.1 names turned into the core's values (docs/ocpp201.md).

// evseStatus is the status of an EVSE, made of its connectors' statuses and the charging state
// of its transaction: a faulted connector makes it Faulted; an occupied one makes it its
// transaction's charging state (Charging, SuspendedEV, SuspendedEVSE, EVConnected, Idle), or
// Occupied without one; then Reserved; Available when one connector is; Unavailable when all
// are. With no connector reported it is the charging state, else "".
func (e *evse) status() string {
	var available, reserved, occupied, unavailable bool
	for _, st := range e.plugs {
		switch st {
		case availability.ConnectorStatusFaulted:
			return string(availability.ConnectorStatusFaulted)
		case availability.ConnectorStatusOccupied:
			occupied = true
		case availability.ConnectorStatusReserved:
			reserved = true
		case availability.ConnectorStatusAvailable:
			available = true
		case availability.ConnectorStatusUnavailable:
			unavailable = true
		}
	}
	switch {
	case occupied && e.charging != "":
		return string(e.charging)
	case occupied:
		return string(availability.ConnectorStatusOccupied)
	case reserved:
		return string(availability.ConnectorStatusReserved)
	case available:
		return string(availability.ConnectorStatusAvailable)
	case unavailable:
		return string(availability.ConnectorStatusUnavailable)
	}
	return string(e.charging)
}

// connectorState is the core's state of an EVSE status (evse.status): Faulted and Unavailable
// are theirs, Available (and "") idle, everything else (occupied, charging, reserved) working.
func connectorState(status string) int {
	switch status {
	case string(availability.ConnectorStatusAvailable), "":
		return fleet.ConnectorIdle
	case string(availability.ConnectorStatusFaulted):
		return fleet.ConnectorFaulted
	case string(availability.ConnectorStatusUnavailable):
		return fleet.ConnectorUnavailable
	}
	return fleet.ConnectorWorking
}

// chargingStates are the charging states that mean a vehicle is plugged in.
func plugged(cs transactions.ChargingState) bool {
	switch cs {
	case transactions.ChargingStateCharging, transactions.ChargingStateEVConnected, transactions.ChargingStateSuspendedEV,
		transactions.ChargingStateSuspendedEVSE:
		return true
	}
	return false
}

// firmwarePhase is the core's phase of a 2.0.1 FirmwareStatus: the download, signature check
// and installation steps run the job, Installed ends it, a failed download, installation or
// verification and an invalid signature fail it; Idle (the answer to a trigger) is no step.
func firmwarePhase(st firmware.FirmwareStatus) fleet.FirmwarePhase {
	switch st {
	case firmware.FirmwareStatusDownloadScheduled, firmware.FirmwareStatusDownloading, firmware.FirmwareStatusDownloadPaused,
		firmware.FirmwareStatusDownloaded, firmware.FirmwareStatusSignatureVerified, firmware.FirmwareStatusInstallScheduled,
		firmware.FirmwareStatusInstalling, firmware.FirmwareStatusInstallRebooting:
		return fleet.FirmwareRunning
	case firmware.FirmwareStatusInstalled:
		return fleet.FirmwareInstalled
	case firmware.FirmwareStatusDownloadFailed, firmware.FirmwareStatusInstallationFailed,
		firmware.FirmwareStatusInstallVerificationFailed, firmware.FirmwareStatusInvalidSignature:
		return fleet.FirmwareFailed
	}
	return fleet.FirmwareNone
}

// logReport is a LogStatusNotification in the core's terms: a step of the GetLog (control type
// 25, or 6: 2.0.1 has no GetDiagnostics) its requestId names.
func logReport(dev *fleet.Device, req *diagnostics.LogStatusNotificationRequest) fleet.DiagnosticsReport {
	ph := uploadPhase(req.Status)
	id := req.RequestID
	return fleet.DiagnosticsReport{Device: dev, Status: string(req.Status), Ended: ph == fleet.UploadFailed,
		Log: &fleet.LogStep{RequestID: &id, Phase: ph}}
}

// uploadPhase is the core's phase of an UploadLogStatus: Uploading runs, Uploaded is done;
// UploadFailure, BadMessage, NotSupportedOperation and PermissionDenied fail; Idle is no step.
func uploadPhase(st diagnostics.UploadLogStatus) fleet.UploadPhase {
	switch st {
	case diagnostics.UploadLogStatusUploading:
		return fleet.UploadRunning
	case diagnostics.UploadLogStatusUploaded:
		return fleet.UploadDone
	case diagnostics.UploadLogStatusUploadFailure, diagnostics.UploadLogStatusBadMessage, diagnostics.UploadLogStatusNotSupportedOp,
		diagnostics.UploadLogStatusPermissionDenied:
		return fleet.UploadFailed
	}
	return fleet.UploadNone
}

// authStatus is a token verdict as a 2.0.1 AuthorizationStatus.
func authStatus(v fleet.TokenVerdict) types.AuthorizationStatus {
	switch v {
	case fleet.TokenAccepted:
		return types.AuthorizationStatusAccepted
	case fleet.TokenBlocked:
		return types.AuthorizationStatusBlocked
	case fleet.TokenExpired:
		return types.AuthorizationStatusExpired
	case fleet.TokenConcurrentTx:
		return types.AuthorizationStatusConcurrentTx
	}
	return types.AuthorizationStatusInvalid
}

// The security event types of OCPP 2.0.1 (Part 2, appendix "Security events") and which are
// critical (docs/security-profiles.md, "Security events"): the same rule as the 1.6 whitepaper's
// table (ocpp16.SecurityEventCritical), with 2.0.1's names (Csms for CentralSystem) and its
// maintenance-login events. A type not listed (a vendor's) is recorded as not critical.
var securityEventCritical = map[string]bool{
	"FirmwareUpdated":                     true,
	"FailedToAuthenticateAtCsms":          false,
	"CsmsFailedToAuthenticate":            false,
	"SettingSystemTime":                   true,
	"StartupOfTheDevice":                  true,
	"ResetOrReboot":                       true,
	"SecurityLogWasCleared":               true,
	"ReconfigurationOfSecurityParameters": false,
	"MemoryExhaustion":                    true,
	"InvalidMessages":                     false,
	"AttemptedReplayAttacks":              false,
	"TamperDetectionActivated":            true,
	"InvalidFirmwareSignature":            false,
	"InvalidFirmwareSigningCertificate":   false,
	"InvalidCsmsCertificate":              false,
	"InvalidChargingStationCertificate":   false,
	"InvalidTLSVersion":                   false,
	"InvalidTLSCipherSuite":               false,
	"MaintenanceLoginAccepted":            false,
	"MaintenanceLoginFailed":              false,
}

// SecurityEventCritical reports whether a 2.0.1 security event type is critical.
func SecurityEventCritical(typ string) bool { return securityEventCritical[typ] }

// securityEventExplainedBy: the control types whose command explains a critical event (a
// reboot after a Reset or a firmware update, a new firmware after the latter: no alarm).
var securityEventExplainedBy = map[string][]int{
	"StartupOfTheDevice": {fleet.CtlSoftReset, fleet.CtlHardReset, fleet.CtlUpdateFirmware},
	"ResetOrReboot":      {fleet.CtlSoftReset, fleet.CtlHardReset, fleet.CtlUpdateFirmware},
	"FirmwareUpdated":    {fleet.CtlUpdateFirmware},
}

// StopReasons are the stop reasons a 2.0.1 station may give a session (transactionInfo's
// stoppedReason), stored as sent: with ocpp16.StopReasons, the values the session filter accepts.
var StopReasons = []string{string(transactions.ReasonDeAuthorized), string(transactions.ReasonEmergencyStop),
	string(transactions.ReasonEnergyLimitReached), string(transactions.ReasonEVDisconnected), string(transactions.ReasonGroundFault),
	string(transactions.ReasonImmediateReset), string(transactions.ReasonLocal), string(transactions.ReasonLocalOutOfCredit),
	string(transactions.ReasonMasterPass), string(transactions.ReasonOther), string(transactions.ReasonOvercurrentFault),
	string(transactions.ReasonPowerLoss), string(transactions.ReasonPowerQuality), string(transactions.ReasonReboot),
	string(transactions.ReasonRemote), string(transactions.ReasonSOCLimitReached), string(transactions.ReasonStoppedByEV),
	string(transactions.ReasonTimeLimitReached), string(transactions.ReasonTimeout)}
