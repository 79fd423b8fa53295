package sim

import (
	"context"
	"encoding/json"
	"strconv"
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
)

// The 2.0.1 charger's answers to the CSMS's calls. Each takes its request decoded into
// ocpp-go's type and checked against its rules (a payload that is not one is answered with a
// CALLERROR FormatViolation or PropertyConstraintViolation), and starts what follows it the way
// the 1.6 charger does (sim.go, operations.go, locallist.go). Any other action is answered
// NotImplemented.

// handler201 answers one action: the response payload, or the code of a CALLERROR.
type handler201 func(v *ocpp201, ctx context.Context, raw json.RawMessage) (any, string)

var handlers201 = map[string]handler201{
	"Reset":                   on((*ocpp201).reset),
	"ChangeAvailability":      on((*ocpp201).changeAvailability),
	"TriggerMessage":          on((*ocpp201).triggerMessage),
	"GetVariables":            on((*ocpp201).getVariables),
	"SetVariables":            on((*ocpp201).setVariables),
	"GetBaseReport":           on((*ocpp201).getBaseReport),
	"RequestStartTransaction": on((*ocpp201).requestStartTransaction),
	"RequestStopTransaction":  on((*ocpp201).requestStopTransaction),
	"UnlockConnector":         on((*ocpp201).unlockConnector),
	"ClearCache":              on((*ocpp201).clearCache),
	"DataTransfer":            on((*ocpp201).dataTransfer),
	"UpdateFirmware":          on((*ocpp201).updateFirmware),
	"GetLog":                  on((*ocpp201).getLog),
	"ReserveNow":              on((*ocpp201).reserveNow),
	"CancelReservation":       on((*ocpp201).cancelReservation),
	"SendLocalList":           on((*ocpp201).sendLocalList),
	"GetLocalListVersion":     on((*ocpp201).getLocalListVersion),
	"SetChargingProfile":      on((*ocpp201).setChargingProfile),
	"ClearChargingProfile":    on((*ocpp201).clearChargingProfile),
	"GetCompositeSchedule":    on((*ocpp201).getCompositeSchedule),
}

// answer replies to a CSMS's call.
func (v *ocpp201) answer(ctx context.Context, action string, raw json.RawMessage) (any, string) {
	h, ok := handlers201[action]
	if !ok {
		return nil, "NotImplemented"
	}
	return h(v, ctx, raw)
}

// on is the handler of an answer to a request of type Req.
func on[Req any](answer func(*ocpp201, context.Context, *Req) any) handler201 {
	return func(v *ocpp201, ctx context.Context, raw json.RawMessage) (any, string) {
		req := new(Req)
		if err := json.Unmarshal(raw, req); err != nil {
			return nil, "FormatViolation"
		}
		if err := types.Validate.Struct(req); err != nil {
			return nil, "PropertyConstraintViolation"
		}
		return answer(v, ctx, req), ""
	}
}

// resetResponse is provisioning.ResetResponse without its statusInfo, which ocpp-go writes as
// null when there is none (not schema-valid).
type resetResponse struct {
	Status provisioning.ResetStatus `json:"status"`
}

// reset reboots the charger as the 1.6 Reset does (OnIdle as Immediate); an EVSE alone cannot be
// reset (Rejected).
func (v *ocpp201) reset(ctx context.Context, req *provisioning.ResetRequest) any {
	if req.EvseID != nil && *req.EvseID > 0 {
		return resetResponse{Status: provisioning.ResetStatusRejected}
	}
	v.c.mu.Lock()
	v.bootReason = provisioning.BootReasonRemoteReset
	v.c.mu.Unlock()
	v.c.rebootSoon(ctx)
	return resetResponse{Status: provisioning.ResetStatusAccepted}
}

// changeAvailability makes an EVSE (no evse: the charging station) inoperative or operative.
func (v *ocpp201) changeAvailability(ctx context.Context, req *availability.ChangeAvailabilityRequest) any {
	id := 0
	if req.Evse != nil {
		id = req.Evse.ID
	}
	if v.evses(id) == nil {
		return &availability.ChangeAvailabilityResponse{Status: availability.ChangeAvailabilityStatusRejected}
	}
	v.c.changeAvailability(ctx, id, req.OperationalStatus == availability.OperationalStatusInoperative)
	return &availability.ChangeAvailabilityResponse{Status: availability.ChangeAvailabilityStatusAccepted}
}

// triggerMessage sends the message asked for a moment after the answer: of the EVSE asked, or of
// each one.
func (v *ocpp201) triggerMessage(ctx context.Context, req *remotecontrol.TriggerMessageRequest) any {
	id := 0
	if req.Evse != nil {
		id = req.Evse.ID
	}
	evses := v.evses(id)
	if evses == nil {
		return &remotecontrol.TriggerMessageResponse{Status: remotecontrol.TriggerMessageStatusRejected}
	}
	var send func()
	switch req.RequestedMessage {
	case remotecontrol.MessageTriggerBootNotification:
		send = func() { _, _ = v.c.call(ctx, "BootNotification", v.bootRequest(provisioning.BootReasonTriggered)) }
	case remotecontrol.MessageTriggerHeartbeat:
		send = func() { _, _ = v.c.call(ctx, "Heartbeat", &availability.HeartbeatRequest{}) }
	case remotecontrol.MessageTriggerStatusNotification:
		send = func() {
			for _, e := range evses {
				v.c.mu.Lock()
				st := v.connectors[e]
				v.c.mu.Unlock()
				if st == "" {
					st = availability.ConnectorStatusAvailable
				}
				v.sendStatus(ctx, e, st)
			}
		}
	case remotecontrol.MessageTriggerMeterValues:
		send = func() {
			for _, e := range evses {
				v.c.meter(ctx, e, 0, 50)
			}
		}
	case remotecontrol.MessageTriggerFirmwareStatusNotification:
		send = func() {
			_, _ = v.c.call(ctx, "FirmwareStatusNotification", &firmware.FirmwareStatusNotificationRequest{Status: firmware.FirmwareStatusIdle})
		}
	case remotecontrol.MessageTriggerLogStatusNotification:
		send = func() {
			v.c.mu.Lock()
			id := v.logRequest
			v.c.mu.Unlock()
			_, _ = v.c.call(ctx, "LogStatusNotification", &diagnostics.LogStatusNotificationRequest{Status: diagnostics.UploadLogStatusIdle, RequestID: id})
		}
	default:
		return &remotecontrol.TriggerMessageResponse{Status: remotecontrol.TriggerMessageStatusNotImplemented}
	}
	go func() {
		v.c.sleep(ctx, 100*time.Millisecond)
		send()
	}()
	return &remotecontrol.TriggerMessageResponse{Status: remotecontrol.TriggerMessageStatusAccepted}
}

// variable201 is a variable of the charger's device model: a component's variable (and
// instance), the charger setting it is (a c.config key; the 1.6 key where there is one), its
// data type and unit, and whether the CSMS may read and set it.
type variable201 struct {
	component, name, instance string
	key                       string
	dataType                  provisioning.DataType
	unit, valuesList          string
	mutability                provisioning.Mutability
}

// variables201 is the device model the charger reports (GetVariables, SetVariables,
// GetBaseReport).
var variables201 = []variable201{
	{component: "OCPPCommCtrlr", name: "HeartbeatInterval", key: "HeartbeatInterval", dataType: provisioning.TypeInteger, unit: "s", mutability: provisioning.MutabilityReadWrite},
	{component: "AuthCtrlr", name: "AuthorizeRemoteStart", key: "AuthorizeRemoteTxRequests", dataType: provisioning.TypeBoolean, mutability: provisioning.MutabilityReadWrite},
	{component: "SampledDataCtrlr", name: "TxUpdatedInterval", key: "MeterValueSampleInterval", dataType: provisioning.TypeInteger, unit: "s", mutability: provisioning.MutabilityReadWrite},
	{component: "SampledDataCtrlr", name: "TxUpdatedMeasurands", key: "MeterValuesSampledData", dataType: provisioning.TypeMemberList, valuesList: measurands201, mutability: provisioning.MutabilityReadWrite},
	{component: "DeviceDataCtrlr", name: "ItemsPerMessage", instance: "GetVariables", key: "ItemsPerMessageGetVariables", dataType: provisioning.TypeInteger, mutability: provisioning.MutabilityReadOnly},
	{component: "DeviceDataCtrlr", name: "ItemsPerMessage", instance: "SetVariables", key: "ItemsPerMessageSetVariables", dataType: provisioning.TypeInteger, mutability: provisioning.MutabilityReadOnly},
	{component: "SecurityCtrlr", name: "SecurityProfile", key: "SecurityProfile", dataType: provisioning.TypeInteger, mutability: provisioning.MutabilityReadOnly},
	{component: "SecurityCtrlr", name: "BasicAuthPassword", key: "AuthorizationKey", dataType: provisioning.TypeString, mutability: provisioning.MutabilityWriteOnly},
	{component: "ChargingStation", name: "Model", key: "Model", dataType: provisioning.TypeString, mutability: provisioning.MutabilityReadOnly},
	// the smart charging limits (smartcharging.go), read-only as on most stations
	{component: "SmartChargingCtrlr", name: "Enabled", key: "SmartChargingEnabled", dataType: provisioning.TypeBoolean, mutability: provisioning.MutabilityReadOnly},
	{component: "SmartChargingCtrlr", name: "RateUnit", key: "SmartChargingRateUnit", dataType: provisioning.TypeMemberList, valuesList: "A,W", mutability: provisioning.MutabilityReadOnly},
	{component: "SmartChargingCtrlr", name: "ProfileStackLevel", key: "ChargeProfileMaxStackLevel", dataType: provisioning.TypeInteger, mutability: provisioning.MutabilityReadOnly},
	{component: "SmartChargingCtrlr", name: "Entries", instance: "ChargingProfiles", key: "MaxChargingProfilesInstalled", dataType: provisioning.TypeInteger, mutability: provisioning.MutabilityReadOnly},
	{component: "SmartChargingCtrlr", name: "PeriodsPerSchedule", key: "ChargingScheduleMaxPeriods", dataType: provisioning.TypeInteger, mutability: provisioning.MutabilityReadOnly},
}

// lookup finds a component's variable (names are case-insensitive; without an instance, the
// first of its instances), or says which of the two is unknown: UnknownComponent, UnknownVariable.
func lookup(component types.Component, variable types.Variable) (*variable201, string) {
	known := false
	for i, x := range variables201 {
		if !strings.EqualFold(x.component, component.Name) {
			continue
		}
		known = true
		if strings.EqualFold(x.name, variable.Name) && (variable.Instance == "" || strings.EqualFold(x.instance, variable.Instance)) {
			return &variables201[i], ""
		}
	}
	if !known {
		return nil, "UnknownComponent"
	}
	return nil, "UnknownVariable"
}

// valueLocked is x's value (c.mu held).
func (v *ocpp201) valueLocked(x *variable201) string {
	if x.key == "AuthorizationKey" {
		return v.c.key
	}
	return v.c.config[x.key]
}

// valid reports whether value fits x's data type.
func (x *variable201) valid(value string) bool {
	switch x.dataType {
	case provisioning.TypeInteger:
		_, err := strconv.Atoi(value)
		return err == nil
	case provisioning.TypeBoolean:
		return value == "true" || value == "false"
	}
	return len(value) <= 1000
}

func actual(t types.Attribute) bool { return t == "" || t == types.AttributeActual }

func (v *ocpp201) getVariables(_ context.Context, req *provisioning.GetVariablesRequest) any {
	res := &provisioning.GetVariablesResponse{}
	v.c.mu.Lock()
	defer v.c.mu.Unlock()
	for _, d := range req.GetVariableData {
		r := provisioning.GetVariableResult{AttributeType: d.AttributeType, Component: d.Component, Variable: d.Variable}
		x, unknown := lookup(d.Component, d.Variable)
		switch {
		case unknown != "":
			r.AttributeStatus = provisioning.GetVariableStatus(unknown)
		case !actual(d.AttributeType):
			r.AttributeStatus = provisioning.GetVariableStatusNotSupported
		case x.mutability == provisioning.MutabilityWriteOnly:
			r.AttributeStatus = provisioning.GetVariableStatusRejected
		default:
			r.AttributeStatus, r.AttributeValue = provisioning.GetVariableStatusAccepted, v.valueLocked(x)
		}
		res.GetVariableResult = append(res.GetVariableResult, r)
	}
	return res
}

func (v *ocpp201) setVariables(_ context.Context, req *provisioning.SetVariablesRequest) any {
	res := &provisioning.SetVariablesResponse{}
	v.c.mu.Lock()
	defer v.c.mu.Unlock()
	for _, d := range req.SetVariableData {
		r := provisioning.SetVariableResult{AttributeType: d.AttributeType, Component: d.Component, Variable: d.Variable}
		x, unknown := lookup(d.Component, d.Variable)
		switch {
		case unknown != "":
			r.AttributeStatus = provisioning.SetVariableStatus(unknown)
		case !actual(d.AttributeType):
			r.AttributeStatus = provisioning.SetVariableStatusNotSupported
		case x.mutability == provisioning.MutabilityReadOnly || !x.valid(d.AttributeValue):
			r.AttributeStatus = provisioning.SetVariableStatusRejected
		default:
			v.c.setConfigLocked(x.key, d.AttributeValue)
			r.AttributeStatus = provisioning.SetVariableStatusAccepted
		}
		res.SetVariableResult = append(res.SetVariableResult, r)
	}
	return res
}

// getBaseReport reports the device model (every base the same) in two NotifyReports.
func (v *ocpp201) getBaseReport(ctx context.Context, req *provisioning.GetBaseReportRequest) any {
	go v.notifyReport(ctx, req.RequestID)
	return &provisioning.GetBaseReportResponse{Status: types.GenericDeviceModelStatusAccepted}
}

func (v *ocpp201) notifyReport(ctx context.Context, requestID int) {
	v.c.sleep(ctx, 100*time.Millisecond)
	report := make([]provisioning.ReportData, len(variables201))
	v.c.mu.Lock()
	for i := range variables201 {
		x := &variables201[i]
		attr := provisioning.VariableAttribute{Type: types.AttributeActual, Mutability: x.mutability}
		if x.mutability != provisioning.MutabilityWriteOnly {
			attr.Value = v.valueLocked(x)
		}
		report[i] = provisioning.ReportData{Component: types.Component{Name: x.component}, Variable: types.Variable{Name: x.name, Instance: x.instance},
			VariableAttribute:       []provisioning.VariableAttribute{attr},
			VariableCharacteristics: &provisioning.VariableCharacteristics{Unit: x.unit, DataType: x.dataType, ValuesList: x.valuesList}}
	}
	v.c.mu.Unlock()
	half := (len(report) + 1) / 2
	for seqNo, part := range [][]provisioning.ReportData{report[:half], report[half:]} {
		if _, err := v.c.call(ctx, "NotifyReport", &provisioning.NotifyReportRequest{RequestID: requestID, GeneratedAt: types.Now(),
			Tbc: seqNo == 0, SeqNo: seqNo, ReportData: part}); err != nil {
			return
		}
	}
}

// requestStartTransaction begins a session of the idToken like the 1.6 remote start, with a
// transactionId given at once.
func (v *ocpp201) requestStartTransaction(ctx context.Context, req *remotecontrol.RequestStartTransactionRequest) any {
	conn := 0
	if req.EvseID != nil {
		conn = *req.EvseID
	}
	tag, id := req.IDToken.IdToken, newTransactionID()
	v.c.mu.Lock()
	v.remote[tag] = remoteStart201{transactionID: id, remoteStartID: req.RemoteStartID, idToken: req.IDToken}
	v.c.mu.Unlock()
	if v.c.remoteStart(ctx, conn, tag) != "Accepted" {
		v.c.mu.Lock()
		delete(v.remote, tag)
		v.c.mu.Unlock()
		return &remotecontrol.RequestStartTransactionResponse{Status: remotecontrol.RequestStartStopStatusRejected}
	}
	return &remotecontrol.RequestStartTransactionResponse{Status: remotecontrol.RequestStartStopStatusAccepted, TransactionID: id}
}

// requestStopTransaction ends a running transaction like the 1.6 remote stop; Rejected for
// another one.
func (v *ocpp201) requestStopTransaction(_ context.Context, req *remotecontrol.RequestStopTransactionRequest) any {
	num := 0
	v.c.mu.Lock()
	for _, tx := range v.tx {
		if tx.id == req.TransactionID {
			num = tx.num
		}
	}
	v.c.mu.Unlock()
	return &remotecontrol.RequestStopTransactionResponse{Status: remotecontrol.RequestStartStopStatus(v.c.remoteStop(num))}
}

func (v *ocpp201) unlockConnector(_ context.Context, req *remotecontrol.UnlockConnectorRequest) any {
	if req.EvseID < 1 || req.EvseID > v.c.o.Connectors || req.ConnectorID != 1 {
		return &remotecontrol.UnlockConnectorResponse{Status: remotecontrol.UnlockStatusUnknownConnector}
	}
	return &remotecontrol.UnlockConnectorResponse{Status: remotecontrol.UnlockStatusUnlocked}
}

func (v *ocpp201) clearCache(context.Context, *authorization.ClearCacheRequest) any {
	return &authorization.ClearCacheResponse{Status: authorization.ClearCacheStatusAccepted}
}

// dataTransfer answers the remote link's messages as the 1.6 charger does; any other is
// echoed.
func (v *ocpp201) dataTransfer(ctx context.Context, req *data.DataTransferRequest) any {
	if d, ok := v.c.remoteLink(ctx, req.MessageID, req.Data); ok {
		return &data.DataTransferResponse{Status: data.DataTransferStatusAccepted, Data: d}
	}
	return &data.DataTransferResponse{Status: data.DataTransferStatusAccepted, Data: req.Data}
}

// updateFirmware downloads firmware.location like the 1.6 update, and reboots into it.
func (v *ocpp201) updateFirmware(ctx context.Context, req *firmware.UpdateFirmwareRequest) any {
	v.c.mu.Lock()
	v.firmwareRequest = req.RequestID
	v.c.mu.Unlock()
	go v.c.updateFirmware(ctx, req.Firmware.Location)
	return &firmware.UpdateFirmwareResponse{Status: firmware.UpdateFirmwareStatusAccepted}
}

// getLog uploads a log to log.remoteLocation like the 1.6 diagnostics upload.
func (v *ocpp201) getLog(ctx context.Context, req *diagnostics.GetLogRequest) any {
	name := v.c.logFileName()
	v.c.mu.Lock()
	v.logRequest = req.RequestID
	v.c.mu.Unlock()
	go v.c.uploadDiagnostics(ctx, req.Log.RemoteLocation, name)
	return &diagnostics.GetLogResponse{Status: diagnostics.LogStatusAccepted, Filename: name}
}

// reserveNow holds the EVSE (none given: the first free one) like the 1.6 reservation.
func (v *ocpp201) reserveNow(ctx context.Context, req *reservation.ReserveNowRequest) any {
	conn := 0
	if req.EvseID != nil {
		conn = *req.EvseID
	}
	if conn == 0 { // Occupied when none is free
		conn = 1
		for i := 1; i <= v.c.o.Connectors; i++ {
			if v.c.free(i) {
				conn = i
				break
			}
		}
	}
	status := v.c.reserveNow(ctx, conn, req.ID, req.IdToken.IdToken, req.ExpiryDateTime.Time)
	return &reservation.ReserveNowResponse{Status: reservation.ReserveNowStatus(status)}
}

func (v *ocpp201) cancelReservation(ctx context.Context, req *reservation.CancelReservationRequest) any {
	status := v.c.cancelReservation(ctx, req.ReservationID)
	return &reservation.CancelReservationResponse{Status: reservation.CancelReservationStatus(status)}
}

// sendLocalList updates the charger's local list (locallist.go), which takes it in 1.6 terms.
func (v *ocpp201) sendLocalList(_ context.Context, req *localauth.SendLocalListRequest) any {
	list := make([]map[string]any, 0, len(req.LocalAuthorizationList))
	for _, e := range req.LocalAuthorizationList {
		entry := map[string]any{"idTag": e.IdToken.IdToken}
		if e.IdTokenInfo != nil {
			entry["idTagInfo"] = map[string]any{"status": e.IdTokenInfo.Status}
		}
		list = append(list, entry)
	}
	raw, _ := json.Marshal(map[string]any{"listVersion": req.VersionNumber, "updateType": req.UpdateType, "localAuthorizationList": list})
	status := v.c.answerSendLocalList(raw)["status"]
	return &localauth.SendLocalListResponse{Status: localauth.SendLocalListStatus(status)}
}

func (v *ocpp201) getLocalListVersion(context.Context, *localauth.GetLocalListVersionRequest) any {
	return &localauth.GetLocalListVersionResponse{VersionNumber: v.c.answerGetLocalListVersion()["listVersion"]}
}
