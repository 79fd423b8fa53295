package ocpp201

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/authorization"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/availability"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/data"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/diagnostics"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/firmware"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/localauth"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/provisioning"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/remotecontrol"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/reservation"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/types"

	"chargeops/internal/fleet"
	"chargeops/internal/gateway/ocppj"
)

// Execute maps a control type to OCPP 2.0.1 (docs/ocpp201.md, "chargeops → charger") and
// interprets the answer. A CALLERROR answer reaches the runtime as such (it fails the command).
func (d *Dialect) Execute(ctx context.Context, s ocppj.Session, cmd fleet.Command) (fleet.Outcome, error) {
	dev := s.Device()
	if dev == nil {
		return fleet.Outcome{Result: fleet.ResultFailed, Message: "err.device_offline"}, nil
	}
	f, p := d.core, cmd.Params
	call := func(action string, req any, ok ...string) (fleet.Outcome, error) {
		out, _, err := statusCall(ctx, s, action, req, ok...)
		return out, err
	}
	switch cmd.ControlType {
	case fleet.CtlSoftReset:
		return call(provisioning.ResetFeatureName, provisioning.NewResetRequest(provisioning.ResetTypeOnIdle), "Accepted", "Scheduled")
	case fleet.CtlHardReset:
		return call(provisioning.ResetFeatureName, provisioning.NewResetRequest(provisioning.ResetTypeImmediate), "Accepted", "Scheduled")
	case fleet.CtlAvailability, fleet.CtlConnectorAvail:
		st := availability.OperationalStatusInoperative
		if p.Enable {
			st = availability.OperationalStatusOperative
		}
		req := availability.NewChangeAvailabilityRequest(st)
		if cmd.ControlType == fleet.CtlConnectorAvail {
			req.Evse = &types.EVSE{ID: p.ConnectorID}
		}
		return call(availability.ChangeAvailabilityFeatureName, req, "Accepted", "Scheduled")
	case fleet.CtlUpdateFirmware:
		return d.updateFirmware(ctx, s, dev, cmd)
	case fleet.CtlGetDiagnostics, fleet.CtlGetLog:
		return d.getLog(ctx, s, dev, cmd)
	case fleet.CtlVPNStart, fleet.CtlVPNStop:
		req := data.NewDataTransferRequest(p.VendorID)
		req.MessageID = "VpnStart"
		if cmd.ControlType == fleet.CtlVPNStop {
			req.MessageID = "VpnStop"
		}
		req.Data = p.Data
		out, st, err := statusCall(ctx, s, data.DataTransferFeatureName, req, "Accepted")
		if err == nil && (st == string(data.DataTransferStatusUnknownVendorId) || st == string(data.DataTransferStatusUnknownMessageId)) {
			out.Message = "err.not_supported"
		}
		return out, err
	case fleet.CtlGetConfiguration:
		if len(p.Keys) == 0 {
			return d.baseReport(ctx, s, cmd)
		}
		return d.getVariables(ctx, s, dev, p.Keys)
	case fleet.CtlChangeConfig:
		return d.setVariables(ctx, s, dev, p.Items)
	case fleet.CtlTriggerMessage:
		msg, ok := messageTrigger(p.Message)
		if !ok {
			return fleet.Outcome{Result: fleet.ResultFailed, Message: "err.device_not_supported"}, nil
		}
		req := remotecontrol.NewTriggerMessageRequest(msg)
		if p.ConnectorID > 0 {
			req.Evse = &types.EVSE{ID: p.ConnectorID}
		}
		return call(remotecontrol.TriggerMessageFeatureName, req, "Accepted")
	case fleet.CtlRemoteStart:
		req := remotecontrol.NewRequestStartTransactionRequest(fleet.RequestID(cmd.ID), idToken(p.IDTag))
		if p.ConnectorID > 0 {
			req.EvseID = &p.ConnectorID
		}
		return call(remotecontrol.RequestStartTransactionFeatureName, req, "Accepted")
	case fleet.CtlRemoteStop:
		// the charger knows the session by its own name (migration 0055's charger_tx_id)
		name, err := f.ChargerTransactionID(ctx, dev.ID, p.TransactionID)
		if err != nil {
			return fleet.Outcome{}, err
		}
		if name == "" {
			return fleet.Outcome{Result: fleet.ResultFailed, Message: "err.session_not_found"}, nil
		}
		return call(remotecontrol.RequestStopTransactionFeatureName, remotecontrol.NewRequestStopTransactionRequest(name), "Accepted")
	case fleet.CtlUnlockConnector:
		// the core's connector is the EVSE; its first connector is unlocked
		return call(remotecontrol.UnlockConnectorFeatureName, remotecontrol.NewUnlockConnectorRequest(p.ConnectorID, 1), "Unlocked")
	case fleet.CtlClearCache:
		return call(authorization.ClearCacheFeatureName, authorization.NewClearCacheRequest(), "Accepted")
	case fleet.CtlDataTransfer:
		req := data.NewDataTransferRequest(p.VendorID)
		req.MessageID = p.MessageID
		if p.Data != "" {
			req.Data = p.Data
		}
		return call(data.DataTransferFeatureName, req, "Accepted")
	case fleet.CtlReserveNow:
		req := reservation.NewReserveNowRequest(int(p.ReservationID), types.NewDateTime(time.UnixMilli(p.ExpiryDate).UTC()), idToken(p.IDTag))
		if p.ConnectorID > 0 {
			req.EvseID = &p.ConnectorID
		}
		if p.ParentIDTag != "" {
			g := idToken(p.ParentIDTag)
			req.GroupIdToken = &g
		}
		return call(reservation.ReserveNowFeatureName, req, "Accepted")
	case fleet.CtlCancelReservation:
		return call(reservation.CancelReservationFeatureName, reservation.NewCancelReservationRequest(int(p.ReservationID)), "Accepted")
	case fleet.CtlSendLocalList:
		return d.sendLocalList(ctx, s, dev, p)
	case fleet.CtlGetLocalListVersion:
		return d.getLocalListVersion(ctx, s, dev)
	case fleet.CtlRenewCertificate:
		req := remotecontrol.NewTriggerMessageRequest(remotecontrol.MessageTriggerSignChargingStationCertificate)
		return call(remotecontrol.TriggerMessageFeatureName, req, "Accepted")
	case fleet.CtlInstallCertificate: // certificates.go
		return d.installCertificate(ctx, s, dev, p)
	case fleet.CtlGetCertificateIDs:
		return d.getInstalledCertificateIDs(ctx, s, dev, p)
	case fleet.CtlDeleteCertificate:
		return d.deleteCertificate(ctx, s, dev, p)
	case fleet.CtlSetChargingProfile: // commands_smartcharging.go
		return d.setChargingProfile(ctx, s, dev, p)
	case fleet.CtlClearChargingProfile:
		return d.clearChargingProfile(ctx, s, p)
	case fleet.CtlGetCompositeSchedule:
		return d.getCompositeSchedule(ctx, s, p)
	}
	return fleet.Outcome{Result: fleet.ResultFailed, Message: "err.device_not_supported"}, nil
}

// statusCall runs a call whose answer carries a status: success when it is one of ok, else
// failed with "device answered <status>"; the answer is kept on the outcome.
func statusCall(ctx context.Context, s ocppj.Session, action string, req any, ok ...string) (fleet.Outcome, string, error) {
	raw, err := s.Call(ctx, action, req)
	if err != nil {
		return fleet.Outcome{}, "", err
	}
	var a struct {
		Status string `json:"status"`
	}
	_ = json.Unmarshal(raw, &a)
	if slices.Contains(ok, a.Status) {
		return fleet.Outcome{Result: fleet.ResultSuccess, Answer: raw}, a.Status, nil
	}
	return fleet.Outcome{Result: fleet.ResultFailed, Message: "device answered " + a.Status, Answer: raw}, a.Status, nil
}

// idToken is a token chargeops sends (a remote start, a reservation): one of the customer's
// RFID tokens, as the charger's reader would present it.
func idToken(tag string) types.IdToken {
	return types.IdToken{IdToken: tag, Type: types.IdTokenTypeISO14443}
}

// messageTrigger is the 2.0.1 MessageTrigger of a message the core asks to trigger: 2.0.1 has
// no DiagnosticsStatusNotification (GetLog's LogStatusNotification stands for it).
func messageTrigger(t fleet.Trigger) (remotecontrol.MessageTrigger, bool) {
	switch t {
	case fleet.TriggerBootNotification:
		return remotecontrol.MessageTriggerBootNotification, true
	case fleet.TriggerFirmwareStatusNotification:
		return remotecontrol.MessageTriggerFirmwareStatusNotification, true
	case fleet.TriggerHeartbeat:
		return remotecontrol.MessageTriggerHeartbeat, true
	case fleet.TriggerMeterValues, "":
		return remotecontrol.MessageTriggerMeterValues, true
	case fleet.TriggerStatusNotification:
		return remotecontrol.MessageTriggerStatusNotification, true
	case fleet.TriggerLogStatusNotification, fleet.TriggerDiagnosticsStatusNotification:
		return remotecontrol.MessageTriggerLogStatusNotification, true
	}
	return "", false
}

// updateFirmware runs control type 5: UpdateFirmware with the file's signed download URL and,
// for a signed file, its signing certificate and signature; Accepted or AcceptedCanceled starts
// the firmware job.
func (d *Dialect) updateFirmware(ctx context.Context, s ocppj.Session, dev *fleet.Device, cmd fleet.Command) (fleet.Outcome, error) {
	f, p := d.core, cmd.Params
	sig, err := f.FirmwareSigning(ctx, p.FirmwareID)
	if err != nil {
		return fleet.Outcome{}, err
	}
	fw := firmware.Firmware{Location: f.FirmwareURL(s.BaseURL(), p.FirmwareID), RetrieveDateTime: now()}
	if sig.Signed() {
		fw.SigningCertificate, fw.Signature = sig.Certificate, sig.Signature
	}
	req := firmware.NewUpdateFirmwareRequest(fleet.RequestID(cmd.ID), fw)
	if r := p.Retries; r > 0 {
		req.Retries = &r
	}
	out, _, err := statusCall(ctx, s, firmware.UpdateFirmwareFeatureName, req,
		string(firmware.UpdateFirmwareStatusAccepted), string(firmware.UpdateFirmwareStatusAcceptedCanceled))
	if err != nil || out.Result != fleet.ResultSuccess {
		return out, err
	}
	return out, f.FirmwareAccepted(context.WithoutCancel(ctx), dev, cmd.ID)
}

// getLog runs control types 6 and 25 as GetLog (2.0.1 has no GetDiagnostics): the charger
// uploads to the signed URL of the command's diagnostics job, which opens before the call and
// closes when the call fails or the charger refuses. Accepted or AcceptedCanceled succeeds with
// the file name the charger gave.
func (d *Dialect) getLog(ctx context.Context, s ocppj.Session, dev *fleet.Device, cmd fleet.Command) (fleet.Outcome, error) {
	f := d.core
	if err := f.OpenDiagnosticsJob(ctx, dev.ID, cmd.ID); err != nil {
		return fleet.Outcome{}, err
	}
	typ := diagnostics.LogTypeDiagnostics
	if cmd.ControlType == fleet.CtlGetLog && cmd.Params.LogType == fleet.LogSecurity {
		typ = diagnostics.LogTypeSecurity
	}
	req := diagnostics.NewGetLogRequest(typ, fleet.RequestID(cmd.ID), diagnostics.LogParameters{RemoteLocation: f.DiagnosticsURL(s.BaseURL(), dev.ID, cmd.ID)})
	if r := cmd.Params.Retries; r > 0 {
		req.Retries = &r
	}
	out, _, err := statusCall(ctx, s, diagnostics.GetLogFeatureName, req, string(diagnostics.LogStatusAccepted), string(diagnostics.LogStatusAcceptedCanceled))
	if err != nil || out.Result != fleet.ResultSuccess {
		f.EndDiagnosticsJob(context.WithoutCancel(ctx), dev.ID, cmd.ID)
		return out, err
	}
	var ans struct {
		Filename string `json:"filename"`
	}
	_ = json.Unmarshal(out.Answer, &ans)
	out.Message = ans.Filename
	return out, nil
}

// baseReport runs control type 9 without keys: GetBaseReport FullInventory. The values arrive
// afterwards in NotifyReport messages (stored as the device's configuration values).
func (d *Dialect) baseReport(ctx context.Context, s ocppj.Session, cmd fleet.Command) (fleet.Outcome, error) {
	req := provisioning.NewGetBaseReportRequest(fleet.RequestID(cmd.ID), provisioning.ReportTypeFullInventory)
	out, _, err := statusCall(ctx, s, provisioning.GetBaseReportFeatureName, req, string(types.GenericDeviceModelStatusAccepted))
	if err == nil && out.Result == fleet.ResultSuccess {
		out.Message = "full report requested"
	}
	return out, err
}

// getVariables runs control type 9 with keys (configuration keys: reports.go's VariableKey):
// GetVariables, the accepted values stored.
func (d *Dialect) getVariables(ctx context.Context, s ocppj.Session, dev *fleet.Device, keys []string) (fleet.Outcome, error) {
	req := provisioning.GetVariablesRequest{}
	for _, k := range keys {
		c, v, ok := ParseVariableKey(k)
		if !ok {
			return fleet.Outcome{Result: fleet.ResultFailed, Message: "not a component/variable key: " + k}, nil
		}
		req.GetVariableData = append(req.GetVariableData, provisioning.GetVariableData{Component: c, Variable: v})
	}
	raw, err := s.Call(ctx, provisioning.GetVariablesFeatureName, req)
	if err != nil {
		return fleet.Outcome{}, err
	}
	var conf provisioning.GetVariablesResponse
	if err := json.Unmarshal(raw, &conf); err != nil {
		return fleet.Outcome{Result: fleet.ResultFailed, Message: "bad answer: " + err.Error(), Answer: raw}, nil
	}
	var items []fleet.ConfigValue
	var refused []string
	for _, r := range conf.GetVariableResult {
		key := VariableKey(r.Component, r.Variable)
		if r.AttributeStatus != provisioning.GetVariableStatusAccepted {
			refused = append(refused, key+": "+string(r.AttributeStatus))
			continue
		}
		items = append(items, fleet.ConfigValue{Key: key, Value: r.AttributeValue})
	}
	if err := d.core.StoreConfig(context.WithoutCancel(ctx), dev.ID, items); err != nil {
		return fleet.Outcome{}, err
	}
	out := fleet.Outcome{Result: fleet.ResultSuccess, Answer: raw, Message: fmt.Sprintf("%d keys", len(items))}
	if len(refused) > 0 {
		out.Message += "; " + strings.Join(refused, ", ")
	}
	return out, nil
}

// passwordKey is the 2.0.1 variable of the charger's Basic-auth password: an accepted change is
// the device's key (kept as its hash, never in clear), as 1.6's AuthorizationKey.
const passwordKey = "SecurityCtrlr/BasicAuthPassword"

// setVariables runs control type 11: SetVariables with every item; each accepted one
// (Accepted, RebootRequired) is saved; the command fails with the first refused one.
func (d *Dialect) setVariables(ctx context.Context, s ocppj.Session, dev *fleet.Device, items []fleet.KV) (fleet.Outcome, error) {
	req := provisioning.SetVariablesRequest{}
	for _, it := range items {
		c, v, ok := ParseVariableKey(it.Key)
		if !ok {
			return fleet.Outcome{Result: fleet.ResultFailed, Message: "not a component/variable key: " + it.Key}, nil
		}
		req.SetVariableData = append(req.SetVariableData, provisioning.SetVariableData{AttributeValue: it.Value, Component: c, Variable: v})
	}
	raw, err := s.Call(ctx, provisioning.SetVariablesFeatureName, req)
	if err != nil {
		return fleet.Outcome{}, err
	}
	var conf provisioning.SetVariablesResponse
	if err := json.Unmarshal(raw, &conf); err != nil {
		return fleet.Outcome{Result: fleet.ResultFailed, Message: "bad answer: " + err.Error(), Answer: raw}, nil
	}
	values := map[string]string{}
	for _, it := range items {
		c, v, _ := ParseVariableKey(it.Key)
		values[VariableKey(c, v)] = it.Value
	}
	out := fleet.Outcome{Result: fleet.ResultSuccess, Answer: raw}
	for _, r := range conf.SetVariableResult {
		key := VariableKey(r.Component, r.Variable)
		if r.AttributeStatus != provisioning.SetVariableStatusAccepted && r.AttributeStatus != provisioning.SetVariableStatusRebootRequired {
			if out.Result == fleet.ResultSuccess {
				out.Result, out.Message = fleet.ResultFailed, key+": device answered "+string(r.AttributeStatus)
			}
			continue
		}
		value, ok := values[key]
		if !ok {
			continue
		}
		if key == passwordKey {
			key = "AuthorizationKey"
		}
		if err := d.core.SetConfigValue(context.WithoutCancel(ctx), dev, key, value); err != nil {
			return fleet.Outcome{}, err
		}
	}
	return out, nil
}

// sendLocalList runs control type 19 (docs/tokens.md): the list the core builds, sent as
// SendLocalList; an accepted one becomes the version the charger holds.
func (d *Dialect) sendLocalList(ctx context.Context, s ocppj.Session, dev *fleet.Device, p fleet.Params) (fleet.Outcome, error) {
	lists := d.opt.LocalLists
	list, failed, err := fleet.LocalListToSend(ctx, lists, dev, p.UpdateType)
	if failed != nil {
		return *failed, nil
	}
	if err != nil {
		return fleet.Outcome{}, err
	}
	typ := localauth.UpdateTypeDifferential
	if list.Full {
		typ = localauth.UpdateTypeFull
	}
	req := localauth.NewSendLocalListRequest(int(list.Version), typ)
	for _, e := range list.Entries {
		req.LocalAuthorizationList = append(req.LocalAuthorizationList, localauth.AuthorizationData{IdToken: idToken(e.IDTag), IdTokenInfo: idTokenInfo(e.Info)})
	}
	out, _, err := statusCall(ctx, s, localauth.SendLocalListFeatureName, req, string(localauth.SendLocalListStatusAccepted))
	if err != nil || out.Result != fleet.ResultSuccess {
		return out, err
	}
	return out, lists.Held(context.WithoutCancel(ctx), dev, list.Version, true)
}

// getLocalListVersion runs control type 20 and keeps the version the charger holds.
func (d *Dialect) getLocalListVersion(ctx context.Context, s ocppj.Session, dev *fleet.Device) (fleet.Outcome, error) {
	raw, err := s.Call(ctx, localauth.GetLocalListVersionFeatureName, localauth.NewGetLocalListVersionRequest())
	if err != nil {
		return fleet.Outcome{}, err
	}
	var conf localauth.GetLocalListVersionResponse
	if err := json.Unmarshal(raw, &conf); err != nil {
		return fleet.Outcome{Result: fleet.ResultFailed, Message: "bad answer: " + err.Error(), Answer: raw}, nil
	}
	if lists := d.opt.LocalLists; lists != nil {
		if err := lists.Held(context.WithoutCancel(ctx), dev, int64(conf.VersionNumber), false); err != nil {
			return fleet.Outcome{}, err
		}
	}
	return fleet.Outcome{Result: fleet.ResultSuccess, Answer: raw, Message: fmt.Sprintf("version %d", conf.VersionNumber)}, nil
}
