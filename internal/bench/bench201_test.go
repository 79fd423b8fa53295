package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/authorization"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/availability"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/data"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/meter"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/provisioning"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/remotecontrol"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/transactions"
	types2 "github.com/lorenzodonini/ocpp-go/ocpp2.0.1/types"

	"chargeops/internal/config"
	"chargeops/internal/db"
	"chargeops/internal/testutil"
	"chargeops/internal/testutil/apitest"
)

// decode201 reads a payload into an ocpp-go 2.0.1 type, refusing fields the type does not
// know, and runs the library's validation (the 2.0.1 schemas' rules).
func decode201(t *testing.T, what string, payload []byte, v any) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(payload))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		t.Fatalf("%s: %v\n%s", what, err, payload)
	}
	if err := types2.Validate.Struct(v); err != nil {
		t.Fatalf("%s: not valid 2.0.1: %v\n%s", what, err, payload)
	}
}

// TestPayloads201 checks every 2.0.1 payload the bench builds by hand against ocpp-go v0.19's
// 2.0.1 types and validation, and its answers to the CSMS's calls against the response types.
func TestPayloads201(t *testing.T) {
	now := time.Date(2026, 11, 30, 12, 0, 0, 123e6, time.UTC)
	txID := txID201("BENCH-0000001", now)

	var boot provisioning.BootNotificationRequest
	decode201(t, "BootNotification", bootPayload201, &boot)
	if boot.Reason != provisioning.BootReasonPowerUp || boot.ChargingStation.Model == "" || boot.ChargingStation.VendorName == "" {
		t.Fatalf("boot: %+v", boot)
	}
	var status availability.StatusNotificationRequest
	decode201(t, "StatusNotification", statusPayload201(now), &status)
	if status.ConnectorStatus != availability.ConnectorStatusOccupied || status.EvseID != 1 || status.ConnectorID != 1 || !status.Timestamp.Equal(now) {
		t.Fatalf("status: %+v", status)
	}
	var started transactions.TransactionEventRequest
	decode201(t, "TransactionEvent Started", txStartedPayload201(txID, now), &started)
	if started.EventType != transactions.TransactionEventStarted || started.TriggerReason != transactions.TriggerReasonAuthorized || started.SequenceNo != 0 ||
		`"`+started.TransactionInfo.TransactionID+`"` != string(txID) || started.TransactionInfo.ChargingState != transactions.ChargingStateCharging ||
		started.Evse == nil || started.Evse.ID != 1 || started.Evse.ConnectorID == nil || *started.Evse.ConnectorID != 1 ||
		started.IDToken == nil || started.IDToken.Type != types2.IdTokenTypeISO14443 || started.IDToken.IdToken != "BENCH" {
		t.Fatalf("started: %+v", started)
	}
	if id := txID201(strings.Repeat("S", 40), now); len(id) != txIDMax+2 {
		t.Fatalf("a long SN's transaction id: %s", id)
	}
	var hb availability.HeartbeatRequest
	decode201(t, "Heartbeat", []byte("{}"), &hb)

	want := []float64{70, 7400, 32, 230, 7, 35} // the 7th message's values (wire.go's measurands)
	for values := 1; values <= len(measurands); values++ {
		var mv meter.MeterValuesRequest
		decode201(t, "MeterValues", meterPayload201(nil, 7, values, now), &mv)
		var ev transactions.TransactionEventRequest
		decode201(t, "TransactionEvent Updated", txUpdatedPayload201(nil, txID, 42, 7, values, now), &ev)
		if mv.EvseID != 1 || ev.EventType != transactions.TransactionEventUpdated || ev.TriggerReason != transactions.TriggerReasonMeterValuePeriodic ||
			ev.SequenceNo != 42 || `"`+ev.TransactionInfo.TransactionID+`"` != string(txID) || ev.Evse != nil {
			t.Fatalf("meter values %+v, event %+v", mv, ev)
		}
		for _, mvs := range [][]types2.MeterValue{mv.MeterValue, ev.MeterValue} {
			if len(mvs) != 1 || !mvs[0].Timestamp.Equal(now) || len(mvs[0].SampledValue) != values {
				t.Fatalf("%d values: %+v", values, mvs)
			}
			for i, sv := range mvs[0].SampledValue {
				if sv.Value != want[i] || string(sv.Measurand) != measurands[i].name || sv.UnitOfMeasure == nil || sv.UnitOfMeasure.Unit != measurands[i].unit {
					t.Fatalf("value %d: %+v", i, sv)
				}
			}
		}
	}
	frame := callFrame(nil, 9, "TransactionEvent", txUpdatedPayload201(nil, txID, 1, 1, 2, now))
	var parts []json.RawMessage
	if err := json.Unmarshal(frame, &parts); err != nil || len(parts) != 4 || string(parts[2]) != `"TransactionEvent"` {
		t.Fatalf("%s: %v", frame, err)
	}

	// The answers to the CSMS's calls, for requests as ocpp-go builds them.
	evse := &types2.EVSE{ID: 1}
	items := []provisioning.GetVariableData{
		{Component: types2.Component{Name: "OCPPCommCtrlr"}, Variable: types2.Variable{Name: "HeartbeatInterval"}},
		{AttributeType: types2.AttributeActual, Component: types2.Component{Name: "EVSE", EVSE: evse}, Variable: types2.Variable{Name: "AvailabilityState"}},
	}
	calls := []struct {
		action string
		req    any
		resp   any
	}{
		{"TriggerMessage", remotecontrol.NewTriggerMessageRequest(remotecontrol.MessageTriggerHeartbeat), &remotecontrol.TriggerMessageResponse{}},
		{"TriggerMessage", remotecontrol.NewTriggerMessageRequest(remotecontrol.MessageTriggerStatusNotification), &remotecontrol.TriggerMessageResponse{}},
		{"GetVariables", provisioning.NewGetVariablesRequest(items), &provisioning.GetVariablesResponse{}},
		{"SetVariables", provisioning.NewSetVariablesRequest([]provisioning.SetVariableData{
			{AttributeValue: "30", Component: items[0].Component, Variable: items[0].Variable},
			{AttributeType: types2.AttributeTarget, AttributeValue: "Inoperative", Component: items[1].Component, Variable: items[1].Variable}}),
			&provisioning.SetVariablesResponse{}},
		{"Reset", provisioning.NewResetRequest(provisioning.ResetTypeImmediate), &provisioning.ResetResponse{}},
		{"ChangeAvailability", availability.NewChangeAvailabilityRequest(availability.OperationalStatusInoperative), &availability.ChangeAvailabilityResponse{}},
		{"ClearCache", authorization.NewClearCacheRequest(), &authorization.ClearCacheResponse{}},
		{"DataTransfer", data.NewDataTransferRequest("chargeops"), &data.DataTransferResponse{}},
		{"RequestStartTransaction", remotecontrol.NewRequestStartTransactionRequest(7, types2.IdToken{IdToken: "BENCH", Type: types2.IdTokenTypeISO14443}),
			&remotecontrol.RequestStartTransactionResponse{}},
		{"RequestStopTransaction", remotecontrol.NewRequestStopTransactionRequest("BENCH-0000001-x"), &remotecontrol.RequestStopTransactionResponse{}},
	}
	for i, c := range calls {
		req, err := json.Marshal(c.req)
		if err != nil {
			t.Fatal(err)
		}
		result, code, follow, hasFollow := serverCallAnswer201(c.action, req)
		if code != "" {
			t.Fatalf("%s: CALLERROR %s", c.action, code)
		}
		decode201(t, c.action+" answer", result, c.resp)
		if hasFollow != (i == 0) || (hasFollow && follow != kindHeartbeat) {
			t.Fatalf("%s: follow %v %v", c.action, follow, hasFollow)
		}
	}
	get := calls[2].resp.(*provisioning.GetVariablesResponse).GetVariableResult
	set := calls[3].resp.(*provisioning.SetVariablesResponse).SetVariableResult
	if len(get) != 2 || get[0].AttributeStatus != provisioning.GetVariableStatusAccepted || get[0].AttributeValue != "60" || get[0].Component.Name != "OCPPCommCtrlr" ||
		get[1].AttributeValue == "" || get[1].AttributeType != types2.AttributeActual || get[1].Component.EVSE == nil || get[1].Component.EVSE.ID != 1 ||
		get[1].Variable.Name != "AvailabilityState" {
		t.Fatalf("GetVariables answer: %+v", get)
	}
	if len(set) != 2 || set[0].AttributeStatus != provisioning.SetVariableStatusAccepted || set[1].AttributeType != types2.AttributeTarget || set[1].Variable.Name != "AvailabilityState" {
		t.Fatalf("SetVariables answer: %+v", set)
	}
	if _, code, _, _ := serverCallAnswer201("UnlockConnector", []byte(`{"evseId":1,"connectorId":1}`)); code != "NotImplemented" {
		t.Fatalf("not simulated: %q", code)
	}
}

// small201 is the scale of the 2.0.1 runs: 20 chargers, 100 load messages/s for 2 s.
func small201(url, load string) FleetOptions {
	return FleetOptions{URL: url, Prefix: "BENCH-", Digits: 7, First: 1, N: 20, ConnectRate: 1000, Rate: 100, Duration: 2 * time.Second,
		Timeout: 10 * time.Second, Protocol: Protocol201, LoadMessage: load}
}

// check201 asserts a healthy 2.0.1 run: checkLoad, no refusal, every charger's transaction
// Started answered, the load message named.
func check201(t *testing.T, rep *Report, o FleetOptions) {
	t.Helper()
	var table bytes.Buffer
	rep.Print(&table)
	t.Log("\n" + table.String())
	if len(rep.Problems) > 0 {
		t.Fatalf("not measured: %v", rep.Problems)
	}
	r := rep.Fleet
	checkLoad(t, r, o)
	if len(r.Connect.Refusals) > 0 || rep.Protocol != Protocol201 {
		t.Fatalf("refusals %v, protocol %q", r.Connect.Refusals, rep.Protocol)
	}
	msg := map[string]string{LoadMeterValues: "MeterValues", LoadTransactionEvent: "TransactionEvent Updated"}[o.LoadMessage]
	if r.Load.Message != msg {
		t.Fatalf("load message %q, want %q", r.Load.Message, msg)
	}
	for _, name := range []string{"BootNotification", "StatusNotification", "TransactionEvent Started", msg} {
		cs := r.Calls[name]
		if cs == nil || cs.Answered != cs.Sent || cs.CallErrors+cs.Timeouts+cs.SendErrors != 0 || cs.Sent == 0 {
			t.Fatalf("%s: %+v (calls %v)", name, cs, r.Calls)
		}
	}
	if r.Calls["TransactionEvent Started"].Sent != int64(o.N) {
		t.Fatalf("Started: %+v", r.Calls["TransactionEvent Started"])
	}
}

// TestRun201AgainstBare runs 2.0.1 chargers against ocpp-go's own 2.0.1 CSMS (which validates
// every request), with each load message.
func TestRun201AgainstBare(t *testing.T) {
	addr := startBare(t, Protocol201)
	for _, load := range []string{LoadMeterValues, LoadTransactionEvent} {
		o := small201("ws://"+addr+"/ocpp", load)
		rep, err := Run(context.Background(), RunOptions{Fleet: o, Settle: 100 * time.Millisecond, MetricsURL: "http://" + addr + "/metrics"})
		if err != nil {
			t.Fatal(err)
		}
		check201(t, rep, o)
		if s := rep.Server; s.Connections != float64(o.N) || s.LogRows != -1 {
			t.Fatalf("bare server figures: %+v", s)
		}
	}
	// A 1.6 charger is refused by the 2.0.1 CSMS, and says so.
	o := small201("ws://"+addr+"/ocpp", LoadMeterValues)
	o.Protocol, o.N, o.ConnectRetries = Protocol16, 1, 0
	f, err := NewFleet(o)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if reason := f.connectOne(context.Background(), f.chargers[0]); reason == "" {
		t.Fatal("a 1.6 charger connected to the 2.0.1 CSMS")
	}
}

// TestRun201AgainstChargeops runs 2.0.1 chargers against a whole chargeops node on each
// database (MeterValues on SQLite, TransactionEvent Updated on PostgreSQL, to keep it short):
// every charger negotiates 2.0.1, remote commands (TriggerMessage) succeed, every frame is in
// the protocol log, and every charger's transaction is a session under its own name.
func TestRun201AgainstChargeops(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		env := apitest.New(t, d, func(c *config.Config) { c.DataDir = t.TempDir() })
		url := "ws" + strings.TrimPrefix(env.URL, "http") + "/ocpp"
		if _, err := Seed(context.Background(), d, SeedOptions{Devices: 20, Prefix: "BENCH-", First: 1, Label: "Bench ", Code: "BENCH-"}); err != nil {
			t.Fatal(err)
		}
		loads := []string{LoadMeterValues}
		if d.Dialect() == db.Postgres {
			loads = []string{LoadTransactionEvent}
		}
		for _, load := range loads {
			o := small201(url, load)
			rep, err := Run(context.Background(), RunOptions{Fleet: o, Settle: 100 * time.Millisecond, IdleCommands: -1,
				API:        &APIOptions{URL: env.URL, User: apitest.RootName, Password: apitest.RootPassword},
				MetricsURL: env.URL + "/metrics"})
			if err != nil {
				t.Fatal(err)
			}
			check201(t, rep, o)
			s := rep.Server
			if s.Connections != float64(o.N) {
				t.Fatalf("server connections %v", s.Connections)
			}
			if s.LogRows != s.LogRowsExpected || s.LogRowsExpected != rep.Fleet.Frames.Sent+rep.Fleet.Frames.Received+2*int64(o.N) {
				t.Fatalf("protocol-log rows %d, expected %d, frames %+v", s.LogRows, s.LogRowsExpected, rep.Fleet.Frames)
			}
			if cs := rep.Commands.Load; cs == nil || cs.Count == 0 || cs.Outcomes["success"] != cs.Count {
				t.Fatalf("commands under load: %+v", cs)
			}
		}
		var protocol string
		var sessions int
		if err := d.QueryRow(context.Background(), `SELECT protocol FROM device_state s JOIN device d ON d.id = s.device_id WHERE d.sn = ?`, "BENCH-0000001").Scan(&protocol); err != nil || protocol != "ocpp2.0.1" {
			t.Fatalf("device protocol %q: %v", protocol, err)
		}
		if err := d.QueryRow(context.Background(), `SELECT COUNT(*) FROM device_transaction WHERE charger_tx_id LIKE 'BENCH-%'`).Scan(&sessions); err != nil || sessions != 20*len(loads) {
			t.Fatalf("%d sessions named by the chargers, want %d: %v", sessions, 20*len(loads), err)
		}
	})
}
