package sim_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/lorenzodonini/ocpp-go/ocpp"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/authorization"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/availability"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/data"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/diagnostics"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/display"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/firmware"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/iso15118"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/localauth"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/meter"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/provisioning"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/remotecontrol"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/reservation"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/security"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/smartcharging"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/tariffcost"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/transactions"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/types"

	"chargeops/internal/sim"
)

// The OCPP 2.0.1 chargers run against a small CSMS of the test's own (no chargeops server):
// every message they send and every answer they give must decode strictly into ocpp-go's 2.0.1
// type (no unknown field, no null) and pass ocpp-go's validation.

func TestCharger201BootsAndRunsWholeTransactions(t *testing.T) {
	t.Parallel()
	// Speed 100: idle periods of 0.2-0.9 s, sessions of 0.6-3 s, a meter value every 0.1 s.
	s := start201(t, sim.Options{SNs: []string{"SIM201-A"}, Protocol: sim.Protocol201, Connectors: 2, Speed: 100,
		MeterInterval: 10 * time.Second, FaultChance: -1})
	_, boot := await[provisioning.BootNotificationRequest](t, s, "boot", 0, nil)
	if cs := boot.ChargingStation; boot.Reason != provisioning.BootReasonPowerUp || cs.SerialNumber != "SIM201-A" || cs.VendorName != "ChargeopsSim" ||
		cs.Model != "SIM-AC22" || cs.FirmwareVersion != "1.0.0" {
		t.Fatalf("boot %+v", boot)
	}
	if offered := s.offeredProtocols(); len(offered) != 1 || !slices.Equal(offered[0], []string{"ocpp2.0.1"}) {
		t.Fatalf("offered sub-protocols %v", offered)
	}
	for evse := 1; evse <= 2; evse++ {
		await(t, s, fmt.Sprintf("EVSE %d Available", evse), 0, func(r *availability.StatusNotificationRequest) bool {
			return r.EvseID == evse && r.ConnectorID == 1 && r.ConnectorStatus == availability.ConnectorStatusAvailable
		})
	}

	endIdx, end := await(t, s, "a transaction's end", 0, func(r *transactions.TransactionEventRequest) bool {
		return r.EventType == transactions.TransactionEventEnded
	})
	txID := end.TransactionInfo.TransactionID
	var events []*transactions.TransactionEventRequest
	for _, r := range all[transactions.TransactionEventRequest](s) {
		if r.TransactionInfo.TransactionID == txID {
			events = append(events, r)
		}
	}
	if len(txID) != 36 || len(events) < 3 {
		t.Fatalf("transaction %q: %d events", txID, len(events))
	}
	start := events[0]
	if start.EventType != transactions.TransactionEventStarted || start.SequenceNo != 0 || start.TriggerReason != transactions.TriggerReasonAuthorized ||
		start.TransactionInfo.ChargingState != transactions.ChargingStateEVConnected || start.IDToken == nil ||
		start.IDToken.Type != types.IdTokenTypeISO14443 || start.Evse == nil || start.Evse.ConnectorID == nil || *start.Evse.ConnectorID != 1 {
		t.Fatalf("start %+v", start)
	}
	checkRegister(t, "start", start.MeterValue, types.ReadingContextTransactionBegin)
	// the driver authorized the card before
	authIdx, _ := await(t, s, "the driver's Authorize", 0, func(r *authorization.AuthorizeRequest) bool {
		return r.IdToken.IdToken == start.IDToken.IdToken
	})
	if startIdx := s.index(start); authIdx > startIdx {
		t.Fatalf("Authorize at %d after the start at %d", authIdx, startIdx)
	}
	lastEnergy := 0.0
	for i, u := range events[1 : len(events)-1] {
		if u.EventType != transactions.TransactionEventUpdated || u.SequenceNo != i+1 || u.TriggerReason != transactions.TriggerReasonMeterValuePeriodic ||
			u.TransactionInfo.ChargingState != transactions.ChargingStateCharging || len(u.MeterValue) != 1 {
			t.Fatalf("update %d: %+v", i, u)
		}
		units := map[types.Measurand]string{}
		for _, v := range u.MeterValue[0].SampledValue {
			if v.Context != types.ReadingContextSamplePeriodic || v.UnitOfMeasure == nil || v.Value <= 0 {
				t.Fatalf("update %d: sampled value %+v", i, v)
			}
			units[v.Measurand] = v.UnitOfMeasure.Unit
			if v.Measurand == types.MeasurandEnergyActiveImportRegister {
				if v.Value < lastEnergy {
					t.Fatalf("update %d: the energy register went back from %v to %v", i, lastEnergy, v.Value)
				}
				lastEnergy = v.Value
			}
		}
		want := map[types.Measurand]string{types.MeasurandEnergyActiveImportRegister: "Wh", types.MeasurandPowerActiveImport: "W",
			types.MeasurandCurrentImport: "A", types.MeasurandVoltage: "V", types.MeasurandSoC: "Percent"}
		if !reflect.DeepEqual(units, want) {
			t.Fatalf("update %d: measurands %v", i, units)
		}
	}
	if end.SequenceNo != len(events)-1 || events[len(events)-1] != end || end.TransactionInfo.StoppedReason == "" {
		t.Fatalf("end %+v after %d events", end, len(events))
	}
	switch end.TransactionInfo.StoppedReason {
	case transactions.ReasonLocal:
		if end.TriggerReason != transactions.TriggerReasonStopAuthorized {
			t.Fatalf("end %+v", end)
		}
	case transactions.ReasonEVDisconnected:
		if end.TriggerReason != transactions.TriggerReasonEVCommunicationLost {
			t.Fatalf("end %+v", end)
		}
	default:
		t.Fatalf("end %+v", end)
	}
	if e := checkRegister(t, "end", end.MeterValue, types.ReadingContextTransactionEnd); e < lastEnergy {
		t.Fatalf("the register ends at %v after %v", e, lastEnergy)
	}
	evse := start.Evse.ID
	await(t, s, "the EVSE Available after the session", endIdx, func(r *availability.StatusNotificationRequest) bool {
		return r.EvseID == evse && r.ConnectorStatus == availability.ConnectorStatusAvailable
	})
	occupied := false
	for _, r := range all[availability.StatusNotificationRequest](s) {
		occupied = occupied || (r.EvseID == evse && r.ConnectorStatus == availability.ConnectorStatusOccupied)
	}
	if !occupied {
		t.Fatalf("EVSE %d never Occupied", evse)
	}
}

func TestCharger201AnswersTheCSMS(t *testing.T) {
	t.Parallel()
	// Speed 1: the charger's own sessions start after 20 s idle at the earliest, so the only
	// session here is the remote one.
	s := start201(t, sim.Options{SNs: []string{"SIM201-B"}, Protocol: sim.Protocol201, Connectors: 2, Speed: 1,
		MeterInterval: 200 * time.Millisecond, FaultChance: -1})
	await(t, s, "EVSE 2 Available", 0, func(r *availability.StatusNotificationRequest) bool { return r.EvseID == 2 })

	t.Run("GetVariables and SetVariables", func(t *testing.T) {
		cv := func(component, variable, instance string) (types.Component, types.Variable) {
			return types.Component{Name: component}, types.Variable{Name: variable, Instance: instance}
		}
		get := func(names ...[3]string) []provisioning.GetVariableResult {
			req := &provisioning.GetVariablesRequest{}
			for _, n := range names {
				c, v := cv(n[0], n[1], n[2])
				req.GetVariableData = append(req.GetVariableData, provisioning.GetVariableData{Component: c, Variable: v})
			}
			return s.call(t, "GetVariables", req).(*provisioning.GetVariablesResponse).GetVariableResult
		}
		res := get([3]string{"OCPPCommCtrlr", "HeartbeatInterval"}, [3]string{"ChargingStation", "Model"}, [3]string{"DeviceDataCtrlr", "ItemsPerMessage"},
			[3]string{"AuthCtrlr", "AuthorizeRemoteStart"}, [3]string{"SampledDataCtrlr", "TxUpdatedInterval"}, [3]string{"SecurityCtrlr", "SecurityProfile"},
			[3]string{"SampledDataCtrlr", "TxUpdatedMeasurands"}, [3]string{"NoSuchCtrlr", "HeartbeatInterval"}, [3]string{"OCPPCommCtrlr", "NoSuchVariable"})
		var got []string
		for _, r := range res {
			got = append(got, string(r.AttributeStatus)+" "+r.AttributeValue)
		}
		want := []string{"Accepted 60", "Accepted SIM-AC22", "Accepted 50", "Accepted false", "Accepted 0", "Accepted 0",
			"Accepted Energy.Active.Import.Register,Power.Active.Import,Current.Import,Voltage,SoC", "UnknownComponent ", "UnknownVariable "}
		if !slices.Equal(got, want) {
			t.Fatalf("GetVariables\n got %q\nwant %q", got, want)
		}
		set := &provisioning.SetVariablesRequest{}
		for _, x := range [][4]string{{"OCPPCommCtrlr", "HeartbeatInterval", "90"}, {"ChargingStation", "Model", "X"}, {"OCPPCommCtrlr", "HeartbeatInterval", "soon"}} {
			c, v := cv(x[0], x[1], "")
			set.SetVariableData = append(set.SetVariableData, provisioning.SetVariableData{Component: c, Variable: v, AttributeValue: x[2]})
		}
		var sets []provisioning.SetVariableStatus
		for _, r := range s.call(t, "SetVariables", set).(*provisioning.SetVariablesResponse).SetVariableResult {
			sets = append(sets, r.AttributeStatus)
		}
		if !slices.Equal(sets, []provisioning.SetVariableStatus{"Accepted", "Rejected", "Rejected"}) {
			t.Fatalf("SetVariables %v", sets)
		}
		if r := get([3]string{"OCPPCommCtrlr", "HeartbeatInterval"}); r[0].AttributeValue != "90" {
			t.Fatalf("after SetVariables: %+v", r)
		}
	})

	t.Run("GetBaseReport", func(t *testing.T) {
		from := s.count()
		res := s.call(t, "GetBaseReport", &provisioning.GetBaseReportRequest{RequestID: 3, ReportBase: provisioning.ReportTypeFullInventory})
		if res.(*provisioning.GetBaseReportResponse).Status != types.GenericDeviceModelStatusAccepted {
			t.Fatalf("%+v", res)
		}
		i, first := await(t, s, "the first report", from, func(r *provisioning.NotifyReportRequest) bool { return true })
		_, second := await(t, s, "the second report", i+1, func(r *provisioning.NotifyReportRequest) bool { return true })
		if first.RequestID != 3 || second.RequestID != 3 || first.SeqNo != 0 || !first.Tbc || second.SeqNo != 1 || second.Tbc ||
			len(first.ReportData)+len(second.ReportData) != 14 || first.GeneratedAt == nil {
			t.Fatalf("reports %+v\n%+v", first, second)
		}
	})

	t.Run("RequestStartTransaction and RequestStopTransaction", func(t *testing.T) {
		from := s.count()
		evse := 2
		token := types.IdToken{IdToken: "REMOTE1", Type: types.IdTokenTypeCentral}
		res := s.call(t, "RequestStartTransaction", &remotecontrol.RequestStartTransactionRequest{EvseID: &evse, RemoteStartID: 7, IDToken: token}).(*remotecontrol.RequestStartTransactionResponse)
		if res.Status != remotecontrol.RequestStartStopStatusAccepted || len(res.TransactionID) != 36 {
			t.Fatalf("%+v", res)
		}
		_, start := await(t, s, "the remote start", from, func(r *transactions.TransactionEventRequest) bool {
			return r.EventType == transactions.TransactionEventStarted
		})
		if start.TransactionInfo.TransactionID != res.TransactionID || start.TriggerReason != transactions.TriggerReasonRemoteStart ||
			start.TransactionInfo.RemoteStartID == nil || *start.TransactionInfo.RemoteStartID != 7 || start.Evse == nil || start.Evse.ID != 2 ||
			start.IDToken == nil || start.IDToken.IdToken != token.IdToken || start.IDToken.Type != token.Type {
			t.Fatalf("start %+v", start)
		}
		await(t, s, "meter values of the session", from, func(r *transactions.TransactionEventRequest) bool {
			return r.TransactionInfo.TransactionID == res.TransactionID && r.EventType == transactions.TransactionEventUpdated && r.SequenceNo == 2
		})
		stop := s.call(t, "RequestStopTransaction", &remotecontrol.RequestStopTransactionRequest{TransactionID: res.TransactionID})
		if stop.(*remotecontrol.RequestStopTransactionResponse).Status != remotecontrol.RequestStartStopStatusAccepted {
			t.Fatalf("%+v", stop)
		}
		_, end := await(t, s, "the remote stop", from, func(r *transactions.TransactionEventRequest) bool {
			return r.EventType == transactions.TransactionEventEnded
		})
		if end.TransactionInfo.TransactionID != res.TransactionID || end.TriggerReason != transactions.TriggerReasonRemoteStop ||
			end.TransactionInfo.StoppedReason != transactions.ReasonRemote || end.SequenceNo < 3 {
			t.Fatalf("end %+v", end)
		}
		again := s.call(t, "RequestStopTransaction", &remotecontrol.RequestStopTransactionRequest{TransactionID: res.TransactionID})
		if again.(*remotecontrol.RequestStopTransactionResponse).Status != remotecontrol.RequestStartStopStatusRejected {
			t.Fatalf("a stop of an ended transaction: %+v", again)
		}
	})

	t.Run("ChangeAvailability and TriggerMessage", func(t *testing.T) {
		from := s.count()
		res := s.call(t, "ChangeAvailability", &availability.ChangeAvailabilityRequest{OperationalStatus: availability.OperationalStatusInoperative,
			Evse: &types.EVSE{ID: 1}})
		if res.(*availability.ChangeAvailabilityResponse).Status != availability.ChangeAvailabilityStatusAccepted {
			t.Fatalf("%+v", res)
		}
		await(t, s, "EVSE 1 Unavailable", from, func(r *availability.StatusNotificationRequest) bool {
			return r.EvseID == 1 && r.ConnectorStatus == availability.ConnectorStatusUnavailable
		})
		from = s.count()
		trig := s.call(t, "TriggerMessage", &remotecontrol.TriggerMessageRequest{RequestedMessage: remotecontrol.MessageTriggerStatusNotification})
		if trig.(*remotecontrol.TriggerMessageResponse).Status != remotecontrol.TriggerMessageStatusAccepted {
			t.Fatalf("%+v", trig)
		}
		for _, st := range []struct {
			evse int
			want availability.ConnectorStatus
		}{{1, availability.ConnectorStatusUnavailable}, {2, availability.ConnectorStatusAvailable}} {
			await(t, s, fmt.Sprintf("EVSE %d %s", st.evse, st.want), from, func(r *availability.StatusNotificationRequest) bool {
				return r.EvseID == st.evse && r.ConnectorStatus == st.want
			})
		}
		from = s.count()
		s.call(t, "TriggerMessage", &remotecontrol.TriggerMessageRequest{RequestedMessage: remotecontrol.MessageTriggerMeterValues, Evse: &types.EVSE{ID: 2}})
		_, mv := await(t, s, "triggered meter values", from, func(r *meter.MeterValuesRequest) bool { return true })
		if mv.EvseID != 2 || len(mv.MeterValue) != 1 || mv.MeterValue[0].SampledValue[0].Context != types.ReadingContextTrigger {
			t.Fatalf("%+v", mv)
		}
	})

	t.Run("an action it does not implement is a CALLERROR NotImplemented", func(t *testing.T) {
		if code := s.callError(t, "CostUpdated", &tariffcost.CostUpdatedRequest{TotalCost: 1, TransactionID: "x"}); code != "NotImplemented" {
			t.Fatalf("CALLERROR %q", code)
		}
	})
}

func TestCharger201ReportsFaultsAndUploadsLogs(t *testing.T) {
	t.Parallel()
	// every idle period (0.2-0.9 s) ends in a fault of 0.1-0.4 s
	s := start201(t, sim.Options{SNs: []string{"SIM201-C"}, Protocol: sim.Protocol201, Connectors: 1, Speed: 100, FaultChance: 1})
	i, _ := await(t, s, "a fault", 0, func(r *availability.StatusNotificationRequest) bool {
		return r.ConnectorStatus == availability.ConnectorStatusFaulted && r.EvseID == 1
	})
	check := func(ev *diagnostics.NotifyEventRequest, raised bool) {
		t.Helper()
		d := ev.EventData[0]
		if len(ev.EventData) != 1 || d.Trigger != diagnostics.EventTriggerDelta || d.Component.Name != "Connector" || d.Component.EVSE == nil ||
			d.Component.EVSE.ID != 1 || d.Component.EVSE.ConnectorID == nil || *d.Component.EVSE.ConnectorID != 1 || d.Variable.Name != "Problem" ||
			d.EventNotificationType != diagnostics.EventHardWiredNotification || d.ActualValue != fmt.Sprint(raised) || d.Cleared == raised {
			t.Fatalf("event %+v", ev)
		}
	}
	i, raised := await(t, s, "the problem raised", i, func(r *diagnostics.NotifyEventRequest) bool { return true })
	check(raised, true)
	if raised.EventData[0].TechCode == "" {
		t.Fatalf("no techCode: %+v", raised)
	}
	i, cleared := await(t, s, "the problem cleared", i+1, func(r *diagnostics.NotifyEventRequest) bool { return true })
	check(cleared, false)
	await(t, s, "Available again", i, func(r *availability.StatusNotificationRequest) bool {
		return r.ConnectorStatus == availability.ConnectorStatusAvailable
	})

	from := s.count()
	res := s.call(t, "GetLog", &diagnostics.GetLogRequest{LogType: diagnostics.LogTypeDiagnostics, RequestID: 11,
		Log: diagnostics.LogParameters{RemoteLocation: s.srv.URL + "/upload"}}).(*diagnostics.GetLogResponse)
	if res.Status != diagnostics.LogStatusAccepted || !strings.HasPrefix(res.Filename, "SIM201-C-") {
		t.Fatalf("%+v", res)
	}
	var statuses []string
	await(t, s, "the upload", from, func(r *diagnostics.LogStatusNotificationRequest) bool {
		statuses = append(statuses, fmt.Sprint(r.Status, " ", r.RequestID))
		return r.Status != diagnostics.UploadLogStatusUploading
	})
	if !slices.Equal(statuses, []string{"Uploading 11", "Uploaded 11"}) {
		t.Fatalf("log statuses %v", statuses)
	}
	if up := s.uploaded(); up[res.Filename] == 0 {
		t.Fatalf("uploads %v", up)
	}

	t.Run("the local list and DataTransfer answer as in 1.6", func(t *testing.T) {
		info := &types.IdTokenInfo{Status: types.AuthorizationStatusAccepted}
		list := &localauth.SendLocalListRequest{VersionNumber: 4, UpdateType: localauth.UpdateTypeFull, LocalAuthorizationList: []localauth.AuthorizationData{
			{IdToken: types.IdToken{IdToken: "CARD1", Type: types.IdTokenTypeISO14443}, IdTokenInfo: info}}}
		if r := s.call(t, "SendLocalList", list).(*localauth.SendLocalListResponse); r.Status != localauth.SendLocalListStatusAccepted {
			t.Fatalf("%+v", r)
		}
		list.UpdateType = localauth.UpdateTypeDifferential
		if r := s.call(t, "SendLocalList", list).(*localauth.SendLocalListResponse); r.Status != localauth.SendLocalListStatusVersionMismatch {
			t.Fatalf("%+v", r)
		}
		if r := s.call(t, "GetLocalListVersion", &localauth.GetLocalListVersionRequest{}).(*localauth.GetLocalListVersionResponse); r.VersionNumber != 4 {
			t.Fatalf("%+v", r)
		}
		echo := s.call(t, "DataTransfer", &data.DataTransferRequest{VendorID: "chargeops", MessageID: "Ping", Data: "hello"}).(*data.DataTransferResponse)
		if echo.Status != data.DataTransferStatusAccepted || echo.Data != "hello" {
			t.Fatalf("%+v", echo)
		}
	})
}

func TestCharger201UpdatesFirmwareAndResets(t *testing.T) {
	t.Parallel()
	s := start201(t, sim.Options{SNs: []string{"SIM201-D"}, Protocol: sim.Protocol201, Connectors: 1, Speed: 1, FaultChance: -1})
	await(t, s, "EVSE 1", 0, func(r *availability.StatusNotificationRequest) bool { return true })
	from := s.count()
	res := s.call(t, "UpdateFirmware", &firmware.UpdateFirmwareRequest{RequestID: 5, Firmware: firmware.Firmware{Location: s.srv.URL + "/firmware.bin",
		RetrieveDateTime: types.Now()}})
	if res.(*firmware.UpdateFirmwareResponse).Status != firmware.UpdateFirmwareStatusAccepted {
		t.Fatalf("%+v", res)
	}
	var statuses []string
	await(t, s, "the firmware installed", from, func(r *firmware.FirmwareStatusNotificationRequest) bool {
		if r.RequestID == nil || *r.RequestID != 5 {
			t.Errorf("firmware status %+v", r)
		}
		statuses = append(statuses, string(r.Status))
		return r.Status == firmware.FirmwareStatusInstalled
	})
	if !slices.Equal(statuses, []string{"Downloading", "Downloaded", "Installing", "Installed"}) {
		t.Fatalf("firmware statuses %v", statuses)
	}
	i, boot := await(t, s, "the boot into the new firmware", from, func(r *provisioning.BootNotificationRequest) bool { return true })
	if boot.Reason != provisioning.BootReasonFirmwareUpdate || boot.ChargingStation.FirmwareVersion == "1.0.0" {
		t.Fatalf("boot %+v", boot)
	}
	await(t, s, "EVSE 1 after the boot", i, func(r *availability.StatusNotificationRequest) bool { return true })
	from = s.count()
	if r := s.call(t, "Reset", &provisioning.ResetRequest{Type: provisioning.ResetTypeImmediate}).(*provisioning.ResetResponse); r.Status != provisioning.ResetStatusAccepted {
		t.Fatalf("%+v", r)
	}
	_, boot = await(t, s, "the boot after the reset", from, func(r *provisioning.BootNotificationRequest) bool { return true })
	if boot.Reason != provisioning.BootReasonRemoteReset {
		t.Fatalf("boot %+v", boot)
	}
	if n := len(s.offeredProtocols()); n != 3 {
		t.Fatalf("%d connections", n)
	}
}

// checkRegister checks the meter value of a transaction's start or end: the energy register in
// context rc; it returns the register.
func checkRegister(t *testing.T, what string, mv []types.MeterValue, rc types.ReadingContext) float64 {
	t.Helper()
	if len(mv) != 1 || len(mv[0].SampledValue) != 1 {
		t.Fatalf("%s: meter values %+v", what, mv)
	}
	v := mv[0].SampledValue[0]
	if v.Context != rc || v.Measurand != types.MeasurandEnergyActiveImportRegister || v.UnitOfMeasure == nil || v.UnitOfMeasure.Unit != "Wh" {
		t.Fatalf("%s: sampled value %+v", what, v)
	}
	return v.Value
}

// csms201 is the test's CSMS: it takes one charger connection at a time, keeps every call of
// the charger (decoded, in order), answers them, and calls the charger.
type csms201 struct {
	srv *httptest.Server

	mu       sync.Mutex
	ws       *websocket.Conn
	offered  [][]string // the sub-protocols each connection offered
	msgs     []any      // the charger's requests, in order (*provisioning.BootNotificationRequest, ...)
	pending  map[string]chan []json.RawMessage
	seq      int
	problems []string       // payloads that are not valid 2.0.1
	uploads  map[string]int // bytes uploaded by file name
	wmu      sync.Mutex     // serializes writes
}

// start201 runs a fleet of o (its URL set to the test CSMS's) until the test ends.
func start201(t *testing.T, o sim.Options) *csms201 {
	s := &csms201{pending: map[string]chan []json.RawMessage{}, uploads: map[string]int{}}
	mux := http.NewServeMux()
	mux.HandleFunc("/ocpp/", s.serve)
	mux.HandleFunc("GET /firmware.bin", func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte("firmware image")) })
	mux.HandleFunc("POST /upload", func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		s.mu.Lock()
		s.uploads[r.URL.Query().Get("name")] += len(b)
		s.mu.Unlock()
	})
	s.srv = httptest.NewServer(mux)
	o.URL = "ws" + strings.TrimPrefix(s.srv.URL, "http") + "/ocpp"
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		sim.Run(ctx, o)
	}()
	t.Cleanup(func() {
		cancel()
		<-done
		s.srv.Close()
		s.mu.Lock()
		defer s.mu.Unlock()
		for _, p := range s.problems {
			t.Error(p)
		}
	})
	return s
}

var profiles201 = []*ocpp.Profile{authorization.Profile, availability.Profile, data.Profile, diagnostics.Profile, display.Profile,
	firmware.Profile, iso15118.Profile, localauth.Profile, meter.Profile, provisioning.Profile, remotecontrol.Profile,
	reservation.Profile, security.Profile, smartcharging.Profile, tariffcost.Profile, transactions.Profile}

func feature201(action string) ocpp.Feature {
	for _, p := range profiles201 {
		if f := p.GetFeature(action); f != nil {
			return f
		}
	}
	return nil
}

// decode201 decodes a payload strictly into a new value of type typ: no unknown field, no null,
// and ocpp-go's validation.
func decode201(raw json.RawMessage, typ reflect.Type) (any, error) {
	var generic any
	if err := json.Unmarshal(raw, &generic); err != nil {
		return nil, err
	}
	if hasNull(generic) {
		return nil, fmt.Errorf("a null in %s", raw)
	}
	v := reflect.New(typ).Interface()
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return nil, fmt.Errorf("%w in %s", err, raw)
	}
	if err := types.Validate.Struct(v); err != nil {
		return nil, fmt.Errorf("%w in %s", err, raw)
	}
	return v, nil
}

func hasNull(v any) bool {
	switch v := v.(type) {
	case nil:
		return true
	case map[string]any:
		for _, x := range v {
			if hasNull(x) {
				return true
			}
		}
	case []any:
		for _, x := range v {
			if hasNull(x) {
				return true
			}
		}
	}
	return false
}

func (s *csms201) problem(format string, args ...any) {
	s.mu.Lock()
	s.problems = append(s.problems, fmt.Sprintf(format, args...))
	s.mu.Unlock()
}

func (s *csms201) write(ws *websocket.Conn, frame ...any) error {
	b, err := json.Marshal(frame)
	if err != nil {
		return err
	}
	s.wmu.Lock()
	defer s.wmu.Unlock()
	return ws.WriteMessage(websocket.TextMessage, b)
}

func (s *csms201) serve(w http.ResponseWriter, r *http.Request) {
	offered := websocket.Subprotocols(r)
	ws, err := (&websocket.Upgrader{Subprotocols: []string{"ocpp2.0.1"}}).Upgrade(w, r, nil)
	if err != nil {
		return
	}
	defer ws.Close()
	s.mu.Lock()
	s.ws = ws
	s.offered = append(s.offered, offered)
	s.mu.Unlock()
	sn := path.Base(r.URL.Path)
	for {
		_, b, err := ws.ReadMessage()
		if err != nil {
			return
		}
		var frame []json.RawMessage
		var typ int
		var id, action string
		if json.Unmarshal(b, &frame) != nil || len(frame) < 3 || json.Unmarshal(frame[0], &typ) != nil || json.Unmarshal(frame[1], &id) != nil {
			s.problem("%s: not an OCPP-J frame: %s", sn, b)
			continue
		}
		if typ != 2 {
			s.mu.Lock()
			ch := s.pending[id]
			s.mu.Unlock()
			if ch != nil {
				ch <- frame
			}
			continue
		}
		if len(frame) != 4 || json.Unmarshal(frame[2], &action) != nil {
			s.problem("%s: a bad CALL %s", sn, b)
			continue
		}
		f := feature201(action)
		if f == nil {
			s.problem("%s: no 2.0.1 action %q", sn, action)
			continue
		}
		req, err := decode201(frame[3], f.GetRequestType())
		if err != nil {
			s.problem("%s: %s: %v", sn, action, err)
			continue
		}
		s.mu.Lock()
		s.msgs = append(s.msgs, req)
		s.mu.Unlock()
		_ = s.write(ws, 3, id, answer201(req, f))
	}
}

// answer201 is the CSMS's answer to a charger's request.
func answer201(req any, f ocpp.Feature) any {
	switch r := req.(type) {
	case *provisioning.BootNotificationRequest:
		return &provisioning.BootNotificationResponse{CurrentTime: types.Now(), Interval: 60, Status: provisioning.RegistrationStatusAccepted}
	case *availability.HeartbeatRequest:
		return &availability.HeartbeatResponse{CurrentTime: *types.Now()}
	case *authorization.AuthorizeRequest:
		return &authorization.AuthorizeResponse{IdTokenInfo: types.IdTokenInfo{Status: types.AuthorizationStatusAccepted}}
	case *transactions.TransactionEventRequest:
		if r.IDToken != nil {
			return &transactions.TransactionEventResponse{IDTokenInfo: &types.IdTokenInfo{Status: types.AuthorizationStatusAccepted}}
		}
	}
	return reflect.New(f.GetResponseType()).Interface() // the empty answers
}

// callRaw sends the charger a CALL and returns its answer's frame.
func (s *csms201) callRaw(t *testing.T, action string, req any) []json.RawMessage {
	t.Helper()
	if err := types.Validate.Struct(req); err != nil {
		t.Fatalf("the test's %s: %v", action, err)
	}
	s.mu.Lock()
	s.seq++
	id := fmt.Sprintf("csms-%d", s.seq)
	ch := make(chan []json.RawMessage, 1)
	s.pending[id] = ch
	ws := s.ws
	s.mu.Unlock()
	if err := s.write(ws, 2, id, action, req); err != nil {
		t.Fatalf("%s: %v", action, err)
	}
	select {
	case frame := <-ch:
		return frame
	case <-time.After(5 * time.Second):
		t.Fatalf("%s: no answer", action)
		return nil
	}
}

// call sends the charger a CALL and returns its answer, checked as the action's response type.
func (s *csms201) call(t *testing.T, action string, req any) any {
	t.Helper()
	frame := s.callRaw(t, action, req)
	var typ int
	_ = json.Unmarshal(frame[0], &typ)
	if typ != 3 {
		t.Fatalf("%s: answered %s", action, frame)
	}
	res, err := decode201(frame[2], feature201(action).GetResponseType())
	if err != nil {
		t.Fatalf("%s: %v", action, err)
	}
	return res
}

// callError sends the charger a CALL it must answer with a CALLERROR, and returns its code.
func (s *csms201) callError(t *testing.T, action string, req any) string {
	t.Helper()
	frame := s.callRaw(t, action, req)
	var typ int
	var code string
	_ = json.Unmarshal(frame[0], &typ)
	if typ != 4 || len(frame) != 5 || json.Unmarshal(frame[2], &code) != nil {
		t.Fatalf("%s: answered %s", action, frame)
	}
	return code
}

func (s *csms201) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.msgs)
}

func (s *csms201) index(req any) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Index(s.msgs, req)
}

func (s *csms201) offeredProtocols() [][]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.offered)
}

func (s *csms201) uploaded() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[string]int{}
	for k, v := range s.uploads {
		out[k] = v
	}
	return out
}

// all are the charger's requests of type R so far.
func all[R any](s *csms201) []*R {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*R
	for _, m := range s.msgs {
		if r, ok := m.(*R); ok {
			out = append(out, r)
		}
	}
	return out
}

// await waits (8 s at most) for a request of type R, from the from-th on, that match accepts
// (nil: any); match sees each request once. It returns the request and its index.
func await[R any](t *testing.T, s *csms201, what string, from int, match func(*R) bool) (int, *R) {
	t.Helper()
	deadline := time.Now().Add(8 * time.Second)
	for next := from; ; {
		s.mu.Lock()
		msgs := s.msgs[min(next, len(s.msgs)):]
		s.mu.Unlock()
		for i, m := range msgs {
			if r, ok := m.(*R); ok && (match == nil || match(r)) {
				return next + i, r
			}
		}
		next += len(msgs)
		if time.Now().After(deadline) {
			t.Fatalf("no %s in %d messages", what, next)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
