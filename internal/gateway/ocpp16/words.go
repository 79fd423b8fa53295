package ocpp16

import (
	"github.com/lorenzodonini/ocpp-go/ocpp1.6/core"

	"chargeops/internal/fleet"
)

// The OCPP 1.6 words of the core's values: the core (internal/fleet) names no OCPP string in
// what it acts on; this adapter maps its messages to the core's reports
// (docs/architecture.md, "The fleet core and its adapters").

// StatusReport is a StatusNotification of dev in the core's terms: the status, error and
// vendor codes stored as sent; a Faulted connector a critical fault (CA) named by its error
// code ("Faulted" without one); another error code an alarm, major (MA) for the hardware
// failures, ordinary (OA) otherwise, named by the vendor's code where the error is OtherError;
// an Unavailable connector out of service.
func StatusReport(dev *fleet.Device, req *core.StatusNotificationRequest) fleet.ConnectorReport {
	r := fleet.ConnectorReport{Device: dev, Connector: req.ConnectorId, Status: string(req.Status), ErrorCode: string(req.ErrorCode),
		VendorCode: req.VendorErrorCode, Info: req.Info, At: ms(req.Timestamp), Unavailable: req.Status == core.ChargePointStatusUnavailable}
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
