package ocpp16

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/lorenzodonini/ocpp-go/ocpp1.6/core"
	"github.com/lorenzodonini/ocpp-go/ocpp1.6/extendedtriggermessage"
	"github.com/lorenzodonini/ocpp-go/ocpp1.6/remotetrigger"
	"github.com/lorenzodonini/ocpp-go/ocpp1.6/reservation"
	"github.com/lorenzodonini/ocpp-go/ocpp1.6/types"

	"chargeops/internal/fleet"
	"chargeops/internal/gateway/ocppj"
)

// Execute maps a control type to OCPP 1.6 (decisions §2) and interprets the answer.
func (c *conn) Execute(ctx context.Context, cmd fleet.Command) (fleet.Outcome, error) {
	dev := c.live.Load() // nil until a Pending connection is adopted
	if dev == nil {
		return fleet.Outcome{Result: fleet.ResultFailed, Message: "err.device_offline"}, nil
	}
	if c.dialect != nil {
		out, err := c.dialect.Execute(ctx, c, cmd)
		return callFailed(cmd, out, err)
	}
	f := c.g.fleet
	p := cmd.Params
	var out fleet.Outcome
	// status runs a call whose answer carries a status into out (statusCall).
	status := func(action string, req any, ok ...string) (string, error) {
		o, st, err := c.statusCall(ctx, action, req, ok...)
		if err == nil {
			out = o
		}
		return st, err
	}
	var err error
	switch cmd.ControlType {
	case fleet.CtlSoftReset:
		_, err = status(core.ResetFeatureName, core.NewResetRequest(core.ResetTypeSoft), "Accepted")
	case fleet.CtlHardReset:
		_, err = status(core.ResetFeatureName, core.NewResetRequest(core.ResetTypeHard), "Accepted")
	case fleet.CtlAvailability, fleet.CtlConnectorAvail:
		connector := 0
		if cmd.ControlType == fleet.CtlConnectorAvail {
			connector = p.ConnectorID
		}
		typ := core.AvailabilityTypeInoperative
		if p.Enable {
			typ = core.AvailabilityTypeOperative
		}
		_, err = status(core.ChangeAvailabilityFeatureName, core.NewChangeAvailabilityRequest(connector, typ), "Accepted", "Scheduled")
	case fleet.CtlUpdateFirmware: // UpdateFirmware, or SignedUpdateFirmware for a signed file (commands_signed.go)
		out, err = c.updateFirmware(ctx, dev, cmd)
	case fleet.CtlGetDiagnostics, fleet.CtlGetLog:
		// an upload to the signed URL of a diagnostics job (commands_signed.go)
		out, err = c.upload(ctx, dev, cmd)
	case fleet.CtlVPNStart, fleet.CtlVPNStop:
		msg := "VpnStart"
		if cmd.ControlType == fleet.CtlVPNStop {
			msg = "VpnStop"
		}
		req := core.NewDataTransferRequest(p.VendorID)
		req.MessageId = msg
		req.Data = p.Data
		var st string
		st, err = status(core.DataTransferFeatureName, req, "Accepted")
		if err == nil && (st == "UnknownVendorId" || st == "UnknownMessageId") {
			out.Message = "err.not_supported"
		}
	case fleet.CtlGetConfiguration:
		var raw json.RawMessage
		raw, err = c.call(ctx, core.GetConfigurationFeatureName, core.NewGetConfigurationRequest(p.Keys))
		if err == nil {
			var conf core.GetConfigurationConfirmation
			if jerr := json.Unmarshal(raw, &conf); jerr != nil {
				return fleet.Outcome{Result: fleet.ResultFailed, Message: "bad answer: " + jerr.Error(), Answer: raw}, nil
			}
			items := make([]fleet.ConfigValue, 0, len(conf.ConfigurationKey))
			for _, k := range conf.ConfigurationKey {
				v := ""
				if k.Value != nil {
					v = *k.Value
				}
				if k.Key == "AuthorizationKey" {
					v = "" // never stored in clear
				}
				items = append(items, fleet.ConfigValue{Key: k.Key, Value: v, Readonly: k.Readonly})
			}
			err = f.StoreConfig(context.WithoutCancel(ctx), dev.ID, items)
			out = fleet.Outcome{Result: fleet.ResultSuccess, Answer: raw, Message: fmt.Sprintf("%d keys", len(items))}
		}
	case fleet.CtlTriggerMessage:
		if ext, ok := extendedTrigger(p.Message); ok { // not in Remote Trigger: the security extension's
			_, err = status(extendedtriggermessage.ExtendedTriggerMessageFeatureName, extendedtriggermessage.NewExtendedTriggerMessageRequest(ext), "Accepted")
			break
		}
		trigger, ok := messageTrigger(p.Message)
		if !ok {
			return fleet.Outcome{Result: fleet.ResultFailed, Message: notSupported(cmd.ControlType)}, nil
		}
		req := remotetrigger.NewTriggerMessageRequest(trigger)
		if p.ConnectorID > 0 {
			req.ConnectorId = &p.ConnectorID
		}
		_, err = status(remotetrigger.TriggerMessageFeatureName, req, "Accepted")
	case fleet.CtlChangeConfig:
		var answers []json.RawMessage
		for _, it := range p.Items {
			var st string
			st, err = status(core.ChangeConfigurationFeatureName, core.NewChangeConfigurationRequest(it.Key, it.Value), "Accepted", "RebootRequired")
			if err != nil {
				break
			}
			answers = append(answers, out.Answer)
			if out.Result != fleet.ResultSuccess {
				out.Message = it.Key + ": device answered " + st
				break
			}
			// Saved only once the charger accepted it (the AuthorizationKey as a hash).
			if serr := f.SetConfigValue(context.WithoutCancel(ctx), dev, it.Key, it.Value); serr != nil {
				return fleet.Outcome{}, serr
			}
		}
		if b, jerr := json.Marshal(answers); jerr == nil && err == nil {
			out.Answer = b
		}
	case fleet.CtlRemoteStart:
		req := core.NewRemoteStartTransactionRequest(p.IDTag)
		if p.ConnectorID > 0 {
			req.ConnectorId = &p.ConnectorID
		}
		_, err = status(core.RemoteStartTransactionFeatureName, req, "Accepted")
	case fleet.CtlRemoteStop:
		// the charger knows the session by the id chargeops answered its StartTransaction with
		_, err = status(core.RemoteStopTransactionFeatureName, core.NewRemoteStopTransactionRequest(int(p.TransactionID)), "Accepted")
	case fleet.CtlUnlockConnector:
		_, err = status(core.UnlockConnectorFeatureName, core.NewUnlockConnectorRequest(p.ConnectorID), "Unlocked")
	case fleet.CtlClearCache:
		_, err = status(core.ClearCacheFeatureName, core.NewClearCacheRequest(), "Accepted")
	case fleet.CtlDataTransfer:
		req := core.NewDataTransferRequest(p.VendorID)
		req.MessageId = p.MessageID
		if p.Data != "" {
			req.Data = p.Data
		}
		_, err = status(core.DataTransferFeatureName, req, "Accepted") // the answer, data included, stays on the record
	case fleet.CtlReserveNow:
		req := reservation.NewReserveNowRequest(p.ConnectorID, types.NewDateTime(time.UnixMilli(p.ExpiryDate).UTC()), p.IDTag, int(p.ReservationID))
		req.ParentIdTag = p.ParentIDTag
		_, err = status(reservation.ReserveNowFeatureName, req, "Accepted")
	case fleet.CtlCancelReservation:
		_, err = status(reservation.CancelReservationFeatureName, reservation.NewCancelReservationRequest(int(p.ReservationID)), "Accepted")
	case fleet.CtlSendLocalList:
		out, err = c.sendLocalList(ctx, dev, p)
	case fleet.CtlGetLocalListVersion:
		out, err = c.getLocalListVersion(ctx, dev)
	case fleet.CtlRenewCertificate:
		// the charger answers, then sends a new CSR (SignCertificate, certificates.go)
		req := extendedtriggermessage.NewExtendedTriggerMessageRequest(extendedtriggermessage.ExtendedTriggerMessageTypeSignChargingStationCertificate)
		_, err = status(extendedtriggermessage.ExtendedTriggerMessageFeatureName, req, "Accepted")
	case fleet.CtlInstallCertificate: // certificates_install.go
		out, err = c.installCertificate(ctx, dev, p)
	case fleet.CtlGetCertificateIDs:
		out, err = c.getInstalledCertificateIDs(ctx, dev, p)
	case fleet.CtlDeleteCertificate:
		out, err = c.deleteCertificate(ctx, dev, p)
	case fleet.CtlSetChargingProfile: // commands_smartcharging.go
		out, err = c.setChargingProfile(ctx, p)
	case fleet.CtlClearChargingProfile:
		out, err = c.clearChargingProfile(ctx, p)
	case fleet.CtlGetCompositeSchedule:
		out, err = c.getCompositeSchedule(ctx, p)
	default:
		return fleet.Outcome{Result: fleet.ResultFailed, Message: notSupported(cmd.ControlType)}, nil
	}
	return callFailed(cmd, out, err)
}

// callFailed is the outcome of a command whose call the charger answered with a CALLERROR:
// failed with it (a NotImplemented or NotSupported one as the control type's "not supported").
func callFailed(cmd fleet.Command, out fleet.Outcome, err error) (fleet.Outcome, error) {
	var ce *CallError
	if !errors.As(err, &ce) {
		return out, err
	}
	msg := ce.Error()
	if ce.Code == codeNotImplemented || ce.Code == ocppj.CodeNotSupported {
		msg = notSupported(cmd.ControlType)
	}
	return fleet.Outcome{Result: fleet.ResultFailed, Message: msg}, nil
}

// statusCall runs a call whose answer carries a status: success when it is one of ok, else
// failed with "device answered <status>"; the answer is kept on the outcome. It also returns the
// status, for the callers that read more into it.
func (c *conn) statusCall(ctx context.Context, action string, req any, ok ...string) (fleet.Outcome, string, error) {
	raw, err := c.call(ctx, action, req)
	if err != nil {
		return fleet.Outcome{}, "", err
	}
	var s struct {
		Status string `json:"status"`
	}
	_ = json.Unmarshal(raw, &s)
	if slices.Contains(ok, s.Status) {
		return fleet.Outcome{Result: fleet.ResultSuccess, Answer: raw}, s.Status, nil
	}
	return fleet.Outcome{Result: fleet.ResultFailed, Message: "device answered " + s.Status, Answer: raw}, s.Status, nil
}

// notSupported is the message key of a control type the charger does not support: the VPN
// wording for VpnStart/VpnStop (the remote-link service reads it), the generic one otherwise.
func notSupported(ct int) string {
	if ct == fleet.CtlVPNStart || ct == fleet.CtlVPNStop {
		return "err.not_supported"
	}
	return "err.device_not_supported"
}
