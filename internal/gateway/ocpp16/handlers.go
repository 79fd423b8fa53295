package ocpp16

import (
	"context"
	"encoding/json"
	"time"

	"github.com/lorenzodonini/ocpp-go/ocpp1.6/core"
	"github.com/lorenzodonini/ocpp-go/ocpp1.6/firmware"
	"github.com/lorenzodonini/ocpp-go/ocpp1.6/security"
	"github.com/lorenzodonini/ocpp-go/ocpp1.6/types"

	"chargeops/internal/fleet"
)

func ms(dt *types.DateTime) int64 {
	if dt == nil || dt.IsZero() {
		return time.Now().UnixMilli()
	}
	return dt.UnixMilli()
}

func now() *types.DateTime { return types.NewDateTime(time.Now().UTC()) }

// stopReason is a StopTransaction's reason; OCPP 1.6 makes an absent one Local.
func stopReason(r core.Reason) string {
	if r == "" {
		return string(core.ReasonLocal)
	}
	return string(r)
}

// dispatch handles one charger-initiated message of Core, Firmware Management, Remote Trigger
// and the security extension and returns the confirmation.
func (c *conn) dispatch(action string, raw json.RawMessage) (any, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	f := c.g.fleet
	interval := int(f.HeartbeatInterval().Seconds())
	if c.dev == nil {
		// An unknown SN admitted as Pending may only boot and beat until an admin adds it.
		switch action {
		case core.BootNotificationFeatureName:
			var req core.BootNotificationRequest
			if err := decode(raw, &req); err != nil {
				return nil, err
			}
			f.RecordPending(ctx, fleet.Attempt{SN: c.sn, Addr: c.addr, Protocol: SubProtocol}, bootInfo(&req))
			return core.NewBootNotificationConfirmation(now(), interval, core.RegistrationStatusPending), nil
		case core.HeartbeatFeatureName:
			return core.NewHeartbeatConfirmation(now()), nil
		}
		return nil, callErr(codeSecurity, "the charge point is not accepted yet")
	}
	dev := c.dev
	switch action {
	case core.BootNotificationFeatureName:
		var req core.BootNotificationRequest
		if err := decode(raw, &req); err != nil {
			return nil, err
		}
		if err := f.Booted(ctx, dev, bootInfo(&req)); err != nil {
			return nil, err
		}
		return core.NewBootNotificationConfirmation(now(), interval, core.RegistrationStatusAccepted), nil
	case core.HeartbeatFeatureName:
		return core.NewHeartbeatConfirmation(now()), nil
	case core.StatusNotificationFeatureName:
		var req core.StatusNotificationRequest
		if err := decode(raw, &req); err != nil {
			return nil, err
		}
		if err := f.ConnectorStatus(ctx, StatusReport(dev, &req)); err != nil {
			return nil, err
		}
		return core.NewStatusNotificationConfirmation(), nil
	case core.MeterValuesFeatureName:
		if err := c.boundMeter(raw); err != nil {
			return nil, err
		}
		var req core.MeterValuesRequest
		if err := decode(raw, &req); err != nil {
			return nil, err
		}
		report := fleet.MeterReport{Device: dev, Connector: req.ConnectorId, Samples: samples(req.MeterValue)}
		if req.TransactionId != nil {
			report.TransactionID = int64(*req.TransactionId)
		}
		if err := f.Meter(ctx, report); err != nil {
			return nil, err
		}
		return core.NewMeterValuesConfirmation(), nil
	case core.AuthorizeFeatureName:
		var req core.AuthorizeRequest
		if err := decode(raw, &req); err != nil {
			return nil, err
		}
		ans, err := f.Authorize(ctx, dev, req.IdTag)
		if err != nil {
			return nil, err
		}
		return core.NewAuthorizationConfirmation(idTagInfo(&ans)), nil
	case core.StartTransactionFeatureName:
		var req core.StartTransactionRequest
		if err := decode(raw, &req); err != nil {
			return nil, err
		}
		// Asked before the session is stored; a refused session is stored all the same (the
		// charger records it, OCPP 1.6 §4.8) with the status it was answered with.
		ans, err := f.Authorize(fleet.ForStart(ctx, req.ConnectorId), dev, req.IdTag)
		if err != nil {
			return nil, err
		}
		id, err := f.StartTransaction(ctx, fleet.TransactionStart{Device: dev, Connector: req.ConnectorId, IDTag: req.IdTag,
			MeterStart: int64(req.MeterStart), At: ms(req.Timestamp)})
		if err != nil {
			return nil, err
		}
		f.UseReservation(ctx, dev, req.ReservationId, id)
		f.SessionStatus(dev, id, ans.Status, string(authStatus(ans.Status)))
		return core.NewStartTransactionConfirmation(idTagInfo(&ans), int(id)), nil
	case core.StopTransactionFeatureName:
		var req core.StopTransactionRequest
		if err := decode(raw, &req); err != nil {
			return nil, err
		}
		if err := f.StopTransaction(ctx, fleet.TransactionStop{Device: dev, ID: int64(req.TransactionId), IDTag: req.IdTag, MeterStop: int64(req.MeterStop),
			At: ms(req.Timestamp), Reason: stopReason(req.Reason), Samples: samples(req.TransactionData)}); err != nil {
			return nil, err
		}
		conf := core.NewStopTransactionConfirmation()
		if req.IdTag != "" {
			ans, err := f.Authorize(ctx, dev, req.IdTag)
			if err != nil {
				return nil, err
			}
			conf.IdTagInfo = idTagInfo(&ans)
		}
		return conf, nil
	case core.DataTransferFeatureName:
		var req core.DataTransferRequest
		if err := decode(raw, &req); err != nil {
			return nil, err
		}
		return dataTransfer(&req), nil
	case firmware.FirmwareStatusNotificationFeatureName:
		var req firmware.FirmwareStatusNotificationRequest
		if err := decode(raw, &req); err != nil {
			return nil, err
		}
		if err := f.FirmwareStatus(ctx, FirmwareReport(dev, &req)); err != nil {
			return nil, err
		}
		return firmware.NewFirmwareStatusNotificationConfirmation(), nil
	case actionSignedFirmwareStatus: // commands_signed.go
		return c.signedFirmwareStatus(ctx, dev, raw)
	case actionLogStatus:
		return c.logStatus(ctx, dev, raw)
	case security.SignCertificateFeatureName:
		return c.signCertificate(dev, raw)
	case security.SecurityEventNotificationFeatureName:
		return c.securityEvent(dev, raw) // security_events.go
	case firmware.DiagnosticsStatusNotificationFeatureName:
		var req firmware.DiagnosticsStatusNotificationRequest
		if err := decode(raw, &req); err != nil {
			return nil, err
		}
		if err := f.DiagnosticsStatus(ctx, DiagnosticsReport(dev, &req)); err != nil {
			return nil, err
		}
		return firmware.NewDiagnosticsStatusNotificationConfirmation(), nil
	}
	return nil, callErr(codeNotImplemented, "action %s is not supported", action)
}

func bootInfo(r *core.BootNotificationRequest) fleet.BootInfo {
	return fleet.BootInfo{Vendor: r.ChargePointVendor, Model: r.ChargePointModel, SerialNumber: r.ChargePointSerialNumber,
		FirmwareVersion: r.FirmwareVersion, ICCID: r.Iccid, IMSI: r.Imsi, MeterType: r.MeterType, MeterSerial: r.MeterSerialNumber}
}

// samples are the sampled values of MeterValue elements, each with its element's index and
// timestamp. ocpp-go's types.DateTime refuses a timestamp that is not ISO 8601 (the message is
// answered with a CALLERROR, so nothing acknowledged is lost) and reads a zone-less one as UTC;
// it parses "0001-01-01T00:00:00Z" to the zero time, and "1970-01-01T00:00:00Z" is unix 0:
// both become 0 (missing). fleet's sampleTimes gives missing and impossible times (before 2015,
// far ahead) the server's time, each element a distinct one, in order.
func samples(mvs []types.MeterValue) []fleet.Sample {
	var out []fleet.Sample
	for i, mv := range mvs {
		var at int64
		if mv.Timestamp != nil && !mv.Timestamp.IsZero() {
			at = mv.Timestamp.UnixMilli()
		}
		for _, sv := range mv.SampledValue {
			out = append(out, fleet.Sample{Measurand: string(sv.Measurand), Phase: string(sv.Phase), Location: string(sv.Location),
				Unit: string(sv.Unit), Value: sv.Value, Context: string(sv.Context), Format: string(sv.Format), At: at, Element: i})
		}
	}
	return out
}
