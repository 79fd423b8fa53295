package sim_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	sc16 "github.com/lorenzodonini/ocpp-go/ocpp1.6/smartcharging"
	types16 "github.com/lorenzodonini/ocpp-go/ocpp1.6/types"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/availability"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/provisioning"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/remotecontrol"
	sc201 "github.com/lorenzodonini/ocpp-go/ocpp2.0.1/smartcharging"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/transactions"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/types"

	"chargeops/internal/sim"
	"chargeops/internal/smartcharging"
)

// The simulated chargers honour charging profiles: they take them under their limits, lose
// them on a reboot, compose them, and meter no more power than the limit allows. A 10 A limit
// on 3 phases at 230 V is 6,900 W; the chargers here are rated 22 kW so the cap shows.
const tenAmpsW = 10 * 230 * 3

// rated22 makes sn a 22 kW AC charger.
func rated22(sn string) map[string]sim.Profile {
	return map[string]sim.Profile{sn: {MaxPowerW: 22000}}
}

func TestSimulatedCharger16HonoursChargingProfiles(t *testing.T) {
	t.Parallel()
	const sn = "SC16-A"
	fleet := &sim.Fleet{}
	// Speed 1: the charger's own sessions start after 20 s idle at the earliest, so the only
	// session here is the remote one.
	s := start16(t, sim.Options{SNs: []string{sn}, Connectors: 2, Speed: 1, MeterInterval: 200 * time.Millisecond, FaultChance: -1,
		Profiles: rated22(sn), Fleet: fleet})
	s.await(t, "connector 2 Available", 0, "StatusNotification", func(m map[string]any) bool { return m["connectorId"] == 2.0 })

	t.Run("GetConfiguration reports the smart charging limits", func(t *testing.T) {
		var res struct {
			Keys []struct {
				Key, Value string
			} `json:"configurationKey"`
		}
		s.call(t, "GetConfiguration", map[string]any{}, &res)
		got := map[string]string{}
		for _, k := range res.Keys {
			got[k.Key] = k.Value
		}
		for k, v := range map[string]string{"ChargingScheduleAllowedChargingRateUnit": "Current,Power", "ChargeProfileMaxStackLevel": "10",
			"MaxChargingProfilesInstalled": "20", "ChargingScheduleMaxPeriods": "24"} {
			if got[k] != v {
				t.Errorf("%s = %q, want %q", k, got[k], v)
			}
		}
	})

	t.Run("without a profile GetCompositeSchedule is Rejected and Clear answers Unknown", func(t *testing.T) {
		if st := s.status(t, "GetCompositeSchedule", sc16.GetCompositeScheduleRequest{ConnectorId: 1, Duration: 600}); st != "Rejected" {
			t.Fatalf("GetCompositeSchedule %s", st)
		}
		id := 77
		if st := s.status(t, "ClearChargingProfile", sc16.ClearChargingProfileRequest{Id: &id}); st != "Unknown" {
			t.Fatalf("ClearChargingProfile %s", st)
		}
	})

	t.Run("a TxProfile of no running transaction is Rejected", func(t *testing.T) {
		p := profile16(1, types16.ChargingProfilePurposeTxProfile, types16.ChargingRateUnitAmperes, 10)
		p.TransactionId = 12345
		if st := s.status(t, "SetChargingProfile", sc16.SetChargingProfileRequest{ConnectorId: 1, ChargingProfile: p}); st != "Rejected" {
			t.Fatalf("%s", st)
		}
	})

	var txID int
	t.Run("a profile of 10 A makes the meter power fall to 6,900 W at most", func(t *testing.T) {
		from := s.count()
		if st := s.status(t, "RemoteStartTransaction", map[string]any{"connectorId": 1, "idTag": "SCTAG"}); st != "Accepted" {
			t.Fatalf("RemoteStartTransaction %s", st)
		}
		s.await(t, "StartTransaction", from, "StartTransaction", nil)
		txID = s.txID()
		s.await(t, "a reading above 10 A", from, "MeterValues", func(m map[string]any) bool { return power16(m) > tenAmpsW })
		p := profile16(1, types16.ChargingProfilePurposeTxDefaultProfile, types16.ChargingRateUnitAmperes, 10)
		if st := s.status(t, "SetChargingProfile", sc16.SetChargingProfileRequest{ConnectorId: 0, ChargingProfile: p}); st != "Accepted" {
			t.Fatalf("SetChargingProfile %s", st)
		}
		from = s.count()
		for range 3 {
			i, m := s.await(t, "a reading after the profile", from, "MeterValues", nil)
			if w := power16(m); w > tenAmpsW || w <= 0 {
				t.Fatalf("reading %d after the profile: %v W", i, w)
			}
			from = i + 1
		}
		if w := fleet.PowerW(sn, 1); w > tenAmpsW || w <= 0 {
			t.Fatalf("PowerW %v", w)
		}
		if w, ok := fleet.LimitW(sn, 1); !ok || w != tenAmpsW {
			t.Fatalf("LimitW %v %v", w, ok)
		}
	})

	t.Run("a TxProfile of 0 A pauses the session, which stays open", func(t *testing.T) {
		p := profile16(2, types16.ChargingProfilePurposeTxProfile, types16.ChargingRateUnitWatts, 0)
		p.TransactionId = txID
		if st := s.status(t, "SetChargingProfile", sc16.SetChargingProfileRequest{ConnectorId: 1, ChargingProfile: p}); st != "Accepted" {
			t.Fatalf("SetChargingProfile %s", st)
		}
		i, first := s.await(t, "a paused reading", s.count(), "MeterValues", nil)
		_, second := s.await(t, "another paused reading", i+1, "MeterValues", nil)
		if power16(first) != 0 || power16(second) != 0 || energy16(first) != energy16(second) {
			t.Fatalf("paused readings: %v W %v Wh, %v W %v Wh", power16(first), energy16(first), power16(second), energy16(second))
		}
		if n := len(s.calls("StopTransaction")); n != 0 {
			t.Fatalf("%d StopTransaction", n)
		}
		if len(fleet.Profiles(sn)) != 2 || fleet.PowerW(sn, 1) != 0 {
			t.Fatalf("profiles %+v, power %v", fleet.Profiles(sn), fleet.PowerW(sn, 1))
		}
		// clearing the Tx profile lets the car draw again (under the 10 A default)
		purpose := types16.ChargingProfilePurposeTxProfile
		if st := s.status(t, "ClearChargingProfile", sc16.ClearChargingProfileRequest{ChargingProfilePurpose: purpose}); st != "Accepted" {
			t.Fatalf("ClearChargingProfile %s", st)
		}
		s.await(t, "a reading drawing again", s.count(), "MeterValues", func(m map[string]any) bool { return power16(m) > 0 })
	})

	t.Run("GetCompositeSchedule answers the composed periods", func(t *testing.T) {
		// a station max begun a minute ago: 16 A, then 8 A from 3 minutes on, under which the
		// 10 A default of connector 0 applies to connector 2
		p := profile16(3, types16.ChargingProfilePurposeChargePointMaxProfile, types16.ChargingRateUnitAmperes, 16)
		p.ChargingSchedule.StartSchedule = types16.NewDateTime(time.Now().Add(-time.Minute).Truncate(time.Second))
		p.ChargingSchedule.ChargingSchedulePeriod = append(p.ChargingSchedule.ChargingSchedulePeriod, types16.ChargingSchedulePeriod{StartPeriod: 180, Limit: 8})
		if st := s.status(t, "SetChargingProfile", sc16.SetChargingProfileRequest{ConnectorId: 0, ChargingProfile: p}); st != "Accepted" {
			t.Fatalf("SetChargingProfile %s", st)
		}
		for _, unit := range []types16.ChargingRateUnitType{types16.ChargingRateUnitAmperes, types16.ChargingRateUnitWatts} {
			var res sc16.GetCompositeScheduleConfirmation
			s.call(t, "GetCompositeSchedule", sc16.GetCompositeScheduleRequest{ConnectorId: 2, Duration: 600, ChargingRateUnit: unit}, &res)
			if err := types16.Validate.Struct(&res); err != nil {
				t.Fatalf("answer: %v", err)
			}
			perA := 1.0
			if unit == types16.ChargingRateUnitWatts {
				perA = 690
			}
			cs := res.ChargingSchedule
			if res.Status != sc16.GetCompositeScheduleStatusAccepted || res.ConnectorId == nil || *res.ConnectorId != 2 || res.ScheduleStart == nil ||
				cs == nil || cs.ChargingRateUnit != unit || orZero(cs.Duration) != 600 || len(cs.ChargingSchedulePeriod) != 2 {
				t.Fatalf("composite %+v %+v", res, cs)
			}
			first, second := cs.ChargingSchedulePeriod[0], cs.ChargingSchedulePeriod[1]
			if first.StartPeriod != 0 || first.Limit != 10*perA || second.StartPeriod < 118 || second.StartPeriod > 120 || second.Limit != 8*perA {
				t.Fatalf("%s periods %+v", unit, cs.ChargingSchedulePeriod)
			}
		}
	})

	t.Run("a reboot loses the profiles", func(t *testing.T) {
		from := s.count()
		if st := s.status(t, "Reset", map[string]any{"type": "Soft"}); st != "Accepted" {
			t.Fatalf("Reset %s", st)
		}
		s.await(t, "the boot after the reset", from, "BootNotification", nil)
		if ps := fleet.Profiles(sn); len(ps) != 0 {
			t.Fatalf("profiles after the reboot %+v", ps)
		}
		if st := s.status(t, "GetCompositeSchedule", sc16.GetCompositeScheduleRequest{ConnectorId: 2, Duration: 600}); st != "Rejected" {
			t.Fatalf("GetCompositeSchedule after the reboot %s", st)
		}
	})
}

func TestSimulatedCharger16RefusesWhatItCannotTake(t *testing.T) {
	t.Parallel()
	const sn = "SC16-B"
	fleet := &sim.Fleet{}
	s := start16(t, sim.Options{SNs: []string{sn}, Connectors: 1, Speed: 1, FaultChance: -1, ProfileUnits: "Current", Fleet: fleet})
	s.await(t, "connector 1 Available", 0, "StatusNotification", func(m map[string]any) bool { return m["connectorId"] == 1.0 })
	set := func(p *types16.ChargingProfile) string {
		return s.status(t, "SetChargingProfile", sc16.SetChargingProfileRequest{ConnectorId: 0, ChargingProfile: p})
	}

	t.Run("a unit it does not allow is Rejected", func(t *testing.T) {
		if st := set(profile16(1, types16.ChargingProfilePurposeChargePointMaxProfile, types16.ChargingRateUnitWatts, 11000)); st != "Rejected" {
			t.Fatalf("W: %s", st)
		}
		if st := set(profile16(1, types16.ChargingProfilePurposeChargePointMaxProfile, types16.ChargingRateUnitAmperes, 16)); st != "Accepted" {
			t.Fatalf("A: %s", st)
		}
	})

	t.Run("a stack level above ChargeProfileMaxStackLevel is Rejected", func(t *testing.T) {
		p := profile16(2, types16.ChargingProfilePurposeTxDefaultProfile, types16.ChargingRateUnitAmperes, 16)
		p.StackLevel = 11
		if st := set(p); st != "Rejected" {
			t.Fatalf("%s", st)
		}
	})

	t.Run("the same stack level and purpose replace a profile; beyond 20 profiles is Rejected", func(t *testing.T) {
		p := profile16(3, types16.ChargingProfilePurposeTxDefaultProfile, types16.ChargingRateUnitAmperes, 16)
		if st := set(p); st != "Accepted" {
			t.Fatalf("%s", st)
		}
		p.ChargingProfileId = 4
		if st := set(p); st != "Accepted" || len(fleet.Profiles(sn)) != 2 {
			t.Fatalf("%s: %+v", st, fleet.Profiles(sn))
		}
		// 18 more on connector 1 (stack levels 0-9, both purposes that fit) make 20
		for i := range 18 {
			q := profile16(10+i, types16.ChargingProfilePurposeTxDefaultProfile, types16.ChargingRateUnitAmperes, 16)
			q.StackLevel = i % 10
			connector := 1
			if i >= 10 {
				connector = 0
				q.StackLevel = i - 10 + 1 // stack 0 holds profile 4 already
			}
			if st := s.status(t, "SetChargingProfile", sc16.SetChargingProfileRequest{ConnectorId: connector, ChargingProfile: q}); st != "Accepted" {
				t.Fatalf("profile %d: %s", i, st)
			}
		}
		if n := len(fleet.Profiles(sn)); n != 20 {
			t.Fatalf("%d profiles", n)
		}
		q := profile16(99, types16.ChargingProfilePurposeTxDefaultProfile, types16.ChargingRateUnitAmperes, 16)
		q.StackLevel = 10
		if st := set(q); st != "Rejected" {
			t.Fatalf("the 21st: %s", st)
		}
	})

	t.Run("ClearChargingProfile by connector removes its profiles only", func(t *testing.T) {
		one := 1
		if st := s.status(t, "ClearChargingProfile", sc16.ClearChargingProfileRequest{ConnectorId: &one}); st != "Accepted" {
			t.Fatalf("%s", st)
		}
		for _, in := range fleet.Profiles(sn) {
			if in.Connector != 0 {
				t.Fatalf("left %+v", in)
			}
		}
	})
}

func TestSimulatedChargerThatRefusesProfiles(t *testing.T) {
	t.Parallel()
	const sn = "SC16-C"
	s := start16(t, sim.Options{SNs: []string{sn}, Connectors: 1, Speed: 1, FaultChance: -1, RefuseProfiles: map[string]bool{sn: true}})
	s.await(t, "connector 1 Available", 0, "StatusNotification", func(m map[string]any) bool { return m["connectorId"] == 1.0 })
	p := profile16(1, types16.ChargingProfilePurposeChargePointMaxProfile, types16.ChargingRateUnitAmperes, 16)
	if st := s.status(t, "SetChargingProfile", sc16.SetChargingProfileRequest{ConnectorId: 0, ChargingProfile: p}); st != "Rejected" {
		t.Fatalf("%s", st)
	}
}

func TestSimulatedCharger201HonoursChargingProfiles(t *testing.T) {
	t.Parallel()
	const sn = "SC201-A"
	fleet := &sim.Fleet{}
	s := start201(t, sim.Options{SNs: []string{sn}, Protocol: sim.Protocol201, Connectors: 2, Speed: 1, MeterInterval: 200 * time.Millisecond,
		FaultChance: -1, Profiles: rated22(sn), Fleet: fleet})
	await(t, s, "EVSE 2 Available", 0, func(r *availability.StatusNotificationRequest) bool { return r.EvseID == 2 })

	t.Run("GetVariables reports the SmartChargingCtrlr", func(t *testing.T) {
		req := &provisioning.GetVariablesRequest{}
		for _, v := range [][2]string{{"Enabled", ""}, {"RateUnit", ""}, {"ProfileStackLevel", ""}, {"Entries", "ChargingProfiles"}, {"PeriodsPerSchedule", ""}} {
			req.GetVariableData = append(req.GetVariableData, provisioning.GetVariableData{Component: types.Component{Name: "SmartChargingCtrlr"},
				Variable: types.Variable{Name: v[0], Instance: v[1]}})
		}
		var got []string
		for _, r := range s.call(t, "GetVariables", req).(*provisioning.GetVariablesResponse).GetVariableResult {
			got = append(got, string(r.AttributeStatus)+" "+r.AttributeValue)
		}
		if want := []string{"Accepted true", "Accepted A,W", "Accepted 10", "Accepted 20", "Accepted 24"}; fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("got %q, want %q", got, want)
		}
	})

	t.Run("without a profile GetCompositeSchedule is Rejected and Clear answers Unknown", func(t *testing.T) {
		if res := composite201(t, s, 1, 300, types.ChargingRateUnitAmperes); res.Status != "Rejected" || res.Schedule != nil {
			t.Fatalf("%+v", res)
		}
		id := 5
		if r := s.call(t, "ClearChargingProfile", &sc201.ClearChargingProfileRequest{ChargingProfileID: &id}).(*sc201.ClearChargingProfileResponse); r.Status != sc201.ClearChargingProfileStatusUnknown {
			t.Fatalf("%+v", r)
		}
	})

	var txID string
	t.Run("a TxProfile of 10 A makes the power fall to 6,900 W at most", func(t *testing.T) {
		from := s.count()
		evse := 1
		res := s.call(t, "RequestStartTransaction", &remotecontrol.RequestStartTransactionRequest{EvseID: &evse, RemoteStartID: 1,
			IDToken: types.IdToken{IdToken: "SC201", Type: types.IdTokenTypeCentral}}).(*remotecontrol.RequestStartTransactionResponse)
		txID = res.TransactionID
		await(t, s, "a reading above 10 A", from, func(r *transactions.TransactionEventRequest) bool { return power201(r) > tenAmpsW })
		unknown := profile201(1, types.ChargingProfilePurposeTxProfile, types.ChargingRateUnitAmperes, 10)
		unknown.TransactionID = "no-such-transaction"
		if r := s.call(t, "SetChargingProfile", &sc201.SetChargingProfileRequest{EvseID: 1, ChargingProfile: unknown}).(*sc201.SetChargingProfileResponse); r.Status != sc201.ChargingProfileStatusRejected {
			t.Fatalf("a TxProfile of another transaction: %+v", r)
		}
		p := profile201(1, types.ChargingProfilePurposeTxProfile, types.ChargingRateUnitAmperes, 10)
		p.TransactionID = txID
		if r := s.call(t, "SetChargingProfile", &sc201.SetChargingProfileRequest{EvseID: 1, ChargingProfile: p}).(*sc201.SetChargingProfileResponse); r.Status != sc201.ChargingProfileStatusAccepted {
			t.Fatalf("%+v", r)
		}
		from = s.count()
		for range 3 {
			i, r := await(t, s, "a reading after the profile", from, func(r *transactions.TransactionEventRequest) bool {
				return r.EventType == transactions.TransactionEventUpdated
			})
			if w := power201(r); w > tenAmpsW || w <= 0 {
				t.Fatalf("reading after the profile: %v W", w)
			}
			from = i + 1
		}
		if w := fleet.PowerW(sn, 1); w > tenAmpsW || w <= 0 {
			t.Fatalf("PowerW %v", w)
		}
		if ps := fleet.Profiles(sn); len(ps) != 1 || ps[0].Connector != 1 || ps[0].Profile.Purpose != smartcharging.PurposeTx {
			t.Fatalf("profiles %+v", ps)
		}
	})

	t.Run("GetCompositeSchedule answers the composed periods", func(t *testing.T) {
		res := composite201(t, s, 1, 300, types.ChargingRateUnitWatts)
		if res.Status != "Accepted" || res.Schedule == nil {
			t.Fatalf("%+v", res)
		}
		c := res.Schedule
		if c.EvseID != 1 || c.Duration != 300 || c.ChargingRateUnit != "W" || len(c.ChargingSchedulePeriod) != 1 ||
			c.ChargingSchedulePeriod[0].StartPeriod != 0 || c.ChargingSchedulePeriod[0].Limit != tenAmpsW {
			t.Fatalf("%+v", c)
		}
		if _, err := time.Parse(time.RFC3339, c.ScheduleStart); err != nil {
			t.Fatalf("scheduleStart %q", c.ScheduleStart)
		}
	})

	t.Run("ClearChargingProfile by criteria removes the TxProfile", func(t *testing.T) {
		evse := 1
		r := s.call(t, "ClearChargingProfile", &sc201.ClearChargingProfileRequest{ChargingProfileCriteria: &sc201.ClearChargingProfileType{
			EvseID: &evse, ChargingProfilePurpose: types.ChargingProfilePurposeTxProfile}}).(*sc201.ClearChargingProfileResponse)
		if r.Status != sc201.ClearChargingProfileStatusAccepted || len(fleet.Profiles(sn)) != 0 {
			t.Fatalf("%+v, left %+v", r, fleet.Profiles(sn))
		}
		if _, ok := fleet.LimitW(sn, 1); ok {
			t.Fatal("a limit without profiles")
		}
	})
}

// profile16 is an Absolute 1.6 profile of one period of limit, begun a minute ago.
func profile16(id int, purpose types16.ChargingProfilePurposeType, unit types16.ChargingRateUnitType, limit float64) *types16.ChargingProfile {
	s := types16.NewChargingSchedule(unit, types16.NewChargingSchedulePeriod(0, limit))
	s.StartSchedule = types16.NewDateTime(time.Now().Add(-time.Minute))
	return types16.NewChargingProfile(id, 0, purpose, types16.ChargingProfileKindAbsolute, s)
}

// profile201 is an Absolute 2.0.1 profile of one period of limit, begun a minute ago.
func profile201(id int, purpose types.ChargingProfilePurposeType, unit types.ChargingRateUnitType, limit float64) *types.ChargingProfile {
	s := types.NewChargingSchedule(1, unit, types.NewChargingSchedulePeriod(0, limit))
	s.StartSchedule = types.NewDateTime(time.Now().Add(-time.Minute))
	return types.NewChargingProfile(id, 0, purpose, types.ChargingProfileKindAbsolute, []types.ChargingSchedule{*s})
}

// compositeAnswer201 is a 2.0.1 GetCompositeScheduleResponse as the schema has it (ocpp-go's
// type is a draft's).
type compositeAnswer201 struct {
	Status   string `json:"status"`
	Schedule *struct {
		EvseID                 int                            `json:"evseId"`
		Duration               int                            `json:"duration"`
		ScheduleStart          string                         `json:"scheduleStart"`
		ChargingRateUnit       string                         `json:"chargingRateUnit"`
		ChargingSchedulePeriod []types.ChargingSchedulePeriod `json:"chargingSchedulePeriod"`
	} `json:"schedule"`
}

func composite201(t *testing.T, s *csms201, evse, duration int, unit types.ChargingRateUnitType) compositeAnswer201 {
	t.Helper()
	frame := s.callRaw(t, "GetCompositeSchedule", &sc201.GetCompositeScheduleRequest{EvseID: evse, Duration: duration, ChargingRateUnit: unit})
	var res compositeAnswer201
	dec := json.NewDecoder(strings.NewReader(string(frame[2])))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&res); err != nil {
		t.Fatalf("GetCompositeSchedule: %v in %s", err, frame[2])
	}
	return res
}

// power201 is the Power.Active.Import of a TransactionEvent (-1: none).
func power201(r *transactions.TransactionEventRequest) float64 {
	for _, mv := range r.MeterValue {
		for _, v := range mv.SampledValue {
			if v.Measurand == types.MeasurandPowerActiveImport {
				return v.Value
			}
		}
	}
	return -1
}

func orZero[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

// power16 and energy16 are the Power.Active.Import and the register of a 1.6 MeterValues
// (-1: none).
func power16(m map[string]any) float64  { return measurand16(m, "Power.Active.Import") }
func energy16(m map[string]any) float64 { return measurand16(m, "Energy.Active.Import.Register") }

func measurand16(m map[string]any, name string) float64 {
	mvs, _ := m["meterValue"].([]any)
	for _, mv := range mvs {
		svs, _ := mv.(map[string]any)["sampledValue"].([]any)
		for _, sv := range svs {
			sv := sv.(map[string]any)
			if sv["measurand"] == name {
				var f float64
				_, _ = fmt.Sscan(sv["value"].(string), &f)
				return f
			}
		}
	}
	return -1
}

// csms16 is a tiny OCPP 1.6 central system of the test's own: it takes one charger
// connection at a time, keeps the charger's calls (action and payload, in order), answers
// them, and calls the charger.
type csms16 struct {
	srv *httptest.Server

	mu      sync.Mutex
	ws      *websocket.Conn
	actions []string
	msgs    []map[string]any
	pending map[string]chan []json.RawMessage
	seq     int
	tx      int // the last transactionId given
	wmu     sync.Mutex
}

func start16(t *testing.T, o sim.Options) *csms16 {
	s := &csms16{pending: map[string]chan []json.RawMessage{}}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
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
	})
	return s
}

func (s *csms16) write(ws *websocket.Conn, frame ...any) error {
	b, err := json.Marshal(frame)
	if err != nil {
		return err
	}
	s.wmu.Lock()
	defer s.wmu.Unlock()
	return ws.WriteMessage(websocket.TextMessage, b)
}

func (s *csms16) serve(w http.ResponseWriter, r *http.Request) {
	ws, err := (&websocket.Upgrader{Subprotocols: []string{"ocpp1.6"}}).Upgrade(w, r, nil)
	if err != nil {
		return
	}
	defer ws.Close()
	s.mu.Lock()
	s.ws = ws
	s.mu.Unlock()
	for {
		_, b, err := ws.ReadMessage()
		if err != nil {
			return
		}
		var frame []json.RawMessage
		var typ int
		var id, action string
		if json.Unmarshal(b, &frame) != nil || len(frame) < 3 || json.Unmarshal(frame[0], &typ) != nil || json.Unmarshal(frame[1], &id) != nil {
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
		var payload map[string]any
		if len(frame) != 4 || json.Unmarshal(frame[2], &action) != nil || json.Unmarshal(frame[3], &payload) != nil {
			continue
		}
		s.mu.Lock()
		s.actions, s.msgs = append(s.actions, action), append(s.msgs, payload)
		s.mu.Unlock()
		_ = s.write(ws, 3, id, s.answer(action))
	}
}

// answer is the central system's answer to a charger's call.
func (s *csms16) answer(action string) any {
	now := time.Now().UTC().Format(time.RFC3339)
	accepted := map[string]string{"status": "Accepted"}
	switch action {
	case "BootNotification":
		return map[string]any{"status": "Accepted", "interval": 60, "currentTime": now}
	case "Heartbeat":
		return map[string]any{"currentTime": now}
	case "Authorize":
		return map[string]any{"idTagInfo": accepted}
	case "StartTransaction":
		s.mu.Lock()
		s.tx++
		id := 100 + s.tx
		s.mu.Unlock()
		return map[string]any{"transactionId": id, "idTagInfo": accepted}
	}
	return map[string]any{}
}

// txID is the transactionId last given.
func (s *csms16) txID() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return 100 + s.tx
}

// call sends the charger a CALL and decodes its CALLRESULT into res.
func (s *csms16) call(t *testing.T, action string, req, res any) {
	t.Helper()
	s.mu.Lock()
	s.seq++
	id := fmt.Sprintf("cs-%d", s.seq)
	ch := make(chan []json.RawMessage, 1)
	s.pending[id] = ch
	ws := s.ws
	s.mu.Unlock()
	if err := s.write(ws, 2, id, action, req); err != nil {
		t.Fatalf("%s: %v", action, err)
	}
	select {
	case frame := <-ch:
		var typ int
		_ = json.Unmarshal(frame[0], &typ)
		if typ != 3 {
			t.Fatalf("%s: answered %s", action, frame)
		}
		if err := json.Unmarshal(frame[2], res); err != nil {
			t.Fatalf("%s: %v in %s", action, err, frame[2])
		}
	case <-time.After(5 * time.Second):
		t.Fatalf("%s: no answer", action)
	}
}

// status calls the charger and returns the status of its answer.
func (s *csms16) status(t *testing.T, action string, req any) string {
	t.Helper()
	var res struct {
		Status string `json:"status"`
	}
	s.call(t, action, req, &res)
	return res.Status
}

func (s *csms16) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.msgs)
}

// calls are the payloads of the charger's calls of action so far.
func (s *csms16) calls(action string) []map[string]any {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []map[string]any
	for i, a := range s.actions {
		if a == action {
			out = append(out, s.msgs[i])
		}
	}
	return out
}

// await waits (8 s at most) for a call of action, from the from-th on, that match accepts (nil:
// any). It returns its index and payload.
func (s *csms16) await(t *testing.T, what string, from int, action string, match func(map[string]any) bool) (int, map[string]any) {
	t.Helper()
	deadline := time.Now().Add(8 * time.Second)
	for {
		s.mu.Lock()
		for i := from; i < len(s.msgs); i++ {
			if s.actions[i] == action && (match == nil || match(s.msgs[i])) {
				m := s.msgs[i]
				s.mu.Unlock()
				return i, m
			}
		}
		s.mu.Unlock()
		if time.Now().After(deadline) {
			t.Fatalf("no %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
