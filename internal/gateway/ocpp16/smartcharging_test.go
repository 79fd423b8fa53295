package ocpp16_test

import (
	"context"
	"encoding/json"
	"reflect"
	"sync"
	"testing"
	"time"

	ocpp "github.com/lorenzodonini/ocpp-go/ocpp1.6"
	"github.com/lorenzodonini/ocpp-go/ocpp1.6/core"
	"github.com/lorenzodonini/ocpp-go/ocpp1.6/smartcharging"
	"github.com/lorenzodonini/ocpp-go/ocpp1.6/types"
	ocppws "github.com/lorenzodonini/ocpp-go/ws"

	"chargeops/internal/config"
	"chargeops/internal/db"
	"chargeops/internal/fleet"
	"chargeops/internal/fleet/fleettest"
	sc "chargeops/internal/smartcharging"
	"chargeops/internal/testutil"
)

// scCP is an ocpp-go charge point's Smart Charging handler: it keeps the requests it gets and
// answers with the status a test sets per action (Accepted by default) and, for
// GetCompositeSchedule, the schedule it sets.
type scCP struct {
	mu        sync.Mutex
	set       []smartcharging.SetChargingProfileRequest
	clear     []smartcharging.ClearChargingProfileRequest
	composite []smartcharging.GetCompositeScheduleRequest
	status    map[string]string
	schedule  smartcharging.GetCompositeScheduleConfirmation // the Accepted answer
}

func (h *scCP) answer(action string) string {
	h.mu.Lock()
	defer h.mu.Unlock()
	if s := h.status[action]; s != "" {
		return s
	}
	return "Accepted"
}

func (h *scCP) setStatus(action, status string) {
	h.mu.Lock()
	h.status[action] = status
	h.mu.Unlock()
}

func (h *scCP) OnSetChargingProfile(r *smartcharging.SetChargingProfileRequest) (*smartcharging.SetChargingProfileConfirmation, error) {
	h.mu.Lock()
	h.set = append(h.set, *r)
	h.mu.Unlock()
	return smartcharging.NewSetChargingProfileConfirmation(smartcharging.ChargingProfileStatus(h.answer("SetChargingProfile"))), nil
}

func (h *scCP) OnClearChargingProfile(r *smartcharging.ClearChargingProfileRequest) (*smartcharging.ClearChargingProfileConfirmation, error) {
	h.mu.Lock()
	h.clear = append(h.clear, *r)
	h.mu.Unlock()
	return smartcharging.NewClearChargingProfileConfirmation(smartcharging.ClearChargingProfileStatus(h.answer("ClearChargingProfile"))), nil
}

func (h *scCP) OnGetCompositeSchedule(r *smartcharging.GetCompositeScheduleRequest) (*smartcharging.GetCompositeScheduleConfirmation, error) {
	h.mu.Lock()
	h.composite = append(h.composite, *r)
	res := h.schedule
	h.mu.Unlock()
	res.Status = smartcharging.GetCompositeScheduleStatus(h.answer("GetCompositeSchedule"))
	if res.Status != smartcharging.GetCompositeScheduleStatusAccepted {
		res = smartcharging.GetCompositeScheduleConfirmation{Status: res.Status}
	}
	return &res, nil
}

// startSmartCP connects an ocpp-go charge point as sn with the Smart Charging profile, reporting
// connectors 1 and 2.
func startSmartCP(t *testing.T, base, sn string) (ocpp.ChargePoint, *scCP) {
	t.Helper()
	cp := fleettest.ChargePoint(sn, ocppws.NewClient())
	h := &scCP{status: map[string]string{}}
	cp.SetCoreHandler(&opsCP{answers: map[string]string{}, reserve: map[int]int{}, expiry: map[int]time.Time{}})
	cp.SetSmartChargingHandler(h)
	if err := cp.Start(base); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cp.Stop)
	if _, err := cp.BootNotification("AC-22", "Test"); err != nil {
		t.Fatal(err)
	}
	for _, c := range []int{1, 2} {
		if _, err := cp.StatusNotification(c, core.NoError, core.ChargePointStatusAvailable); err != nil {
			t.Fatal(err)
		}
	}
	return cp, h
}

// storedMessage is a command's message as stored (the key, not its localised text).
func storedMessage(t *testing.T, d *db.DB, id int64) string {
	t.Helper()
	var m string
	if err := d.QueryRow(context.Background(), `SELECT message FROM command WHERE id = ?`, id).Scan(&m); err != nil {
		t.Fatalf("command %d: %v", id, err)
	}
	return m
}

func intp(n int) *int { return &n }

// TestSmartChargingOverOCPP16: control types 26-28 reach an ocpp-go 1.6 charge point as
// SetChargingProfile, ClearChargingProfile and GetCompositeSchedule with every field of the
// core's model mapped, and its answers end the commands as docs/ocpp16.md says.
func TestSmartChargingOverOCPP16(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		const sn = "SN-SC16"
		env, _, dev := fleettest.Node(t, d, sn, func(c *config.Config) { c.CommandTimeout = 5 * time.Second })
		root := env.Root()
		cp, h := startSmartCP(t, wsBase(env), sn)
		waitFor(t, "connectors stored", func() bool {
			var n int
			if err := d.QueryRow(ctx, `SELECT COUNT(*) FROM device_connector WHERE device_id = ? AND connector_id > 0`, dev).Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n == 2
		})
		lastSet := func(t *testing.T) smartcharging.SetChargingProfileRequest {
			t.Helper()
			h.mu.Lock()
			defer h.mu.Unlock()
			if len(h.set) == 0 {
				t.Fatal("no SetChargingProfile received")
			}
			return h.set[len(h.set)-1]
		}
		lastClear := func(t *testing.T) smartcharging.ClearChargingProfileRequest {
			t.Helper()
			h.mu.Lock()
			defer h.mu.Unlock()
			if len(h.clear) == 0 {
				t.Fatal("no ClearChargingProfile received")
			}
			return h.clear[len(h.clear)-1]
		}
		at := time.Now().Add(time.Hour).UTC().Truncate(time.Second)
		txDefault := sc.Profile{ID: 7, StackLevel: 2, Purpose: sc.PurposeTxDefault, Kind: sc.KindAbsolute,
			ValidFrom: at.Add(-time.Hour).UnixMilli(), ValidTo: at.Add(24 * time.Hour).UnixMilli(),
			Schedule: sc.Schedule{Start: at.UnixMilli(), Duration: 7200, Unit: sc.UnitA, MinRate: 6,
				Periods: []sc.Period{{Start: 0, Limit: 16, Phases: 3}, {Start: 1800, Limit: 10.5, Phases: 1}}}}

		t.Run("an absolute TxDefault profile in A arrives with every field mapped", func(t *testing.T) {
			h.setStatus("SetChargingProfile", "Accepted")
			v := sendOne(t, root, dev, fleet.CtlSetChargingProfile, map[string]any{"connectorId": 1, "profile": txDefault})
			if v.Result != fleet.ResultSuccess {
				t.Fatalf("result %d %q", v.Result, v.Message)
			}
			r := lastSet(t)
			p := r.ChargingProfile
			if r.ConnectorId != 1 || p.ChargingProfileId != 7 || p.StackLevel != 2 || p.TransactionId != 0 ||
				p.ChargingProfilePurpose != types.ChargingProfilePurposeTxDefaultProfile || p.ChargingProfileKind != types.ChargingProfileKindAbsolute ||
				p.RecurrencyKind != "" {
				t.Fatalf("profile %+v on connector %d", p, r.ConnectorId)
			}
			if p.ValidFrom == nil || !p.ValidFrom.Equal(at.Add(-time.Hour)) || p.ValidTo == nil || !p.ValidTo.Equal(at.Add(24*time.Hour)) {
				t.Fatalf("validity %v - %v", p.ValidFrom, p.ValidTo)
			}
			s := p.ChargingSchedule
			if s.StartSchedule == nil || !s.StartSchedule.Equal(at) || s.Duration == nil || *s.Duration != 7200 ||
				s.ChargingRateUnit != types.ChargingRateUnitAmperes || s.MinChargingRate == nil || *s.MinChargingRate != 6 {
				t.Fatalf("schedule %+v", s)
			}
			want := []types.ChargingSchedulePeriod{{StartPeriod: 0, Limit: 16, NumberPhases: intp(3)}, {StartPeriod: 1800, Limit: 10.5, NumberPhases: intp(1)}}
			if !reflect.DeepEqual(s.ChargingSchedulePeriod, want) {
				t.Fatalf("periods %+v", s.ChargingSchedulePeriod)
			}
		})

		t.Run("a relative ChargePointMax profile on connector 0 leaves out what is not set", func(t *testing.T) {
			prof := sc.Profile{ID: 8, Purpose: sc.PurposeStationMax, Kind: sc.KindRelative,
				Schedule: sc.Schedule{Unit: sc.UnitW, Periods: []sc.Period{{Start: 0, Limit: 22000}}}}
			v := sendOne(t, root, dev, fleet.CtlSetChargingProfile, map[string]any{"connectorId": 0, "profile": prof})
			if v.Result != fleet.ResultSuccess {
				t.Fatalf("result %d %q", v.Result, v.Message)
			}
			r := lastSet(t)
			p, s := r.ChargingProfile, r.ChargingProfile.ChargingSchedule
			if r.ConnectorId != 0 || p.ChargingProfilePurpose != types.ChargingProfilePurposeChargePointMaxProfile || p.ChargingProfileKind != types.ChargingProfileKindRelative ||
				p.ValidFrom != nil || p.ValidTo != nil || s.StartSchedule != nil || s.Duration != nil || s.MinChargingRate != nil ||
				s.ChargingRateUnit != types.ChargingRateUnitWatts || len(s.ChargingSchedulePeriod) != 1 || s.ChargingSchedulePeriod[0].NumberPhases != nil {
				t.Fatalf("profile %+v, schedule %+v", p, s)
			}
		})

		t.Run("a Tx profile names the session by the id chargeops gave its StartTransaction", func(t *testing.T) {
			st, err := cp.StartTransaction(1, "TAG-SC", 100, types.NewDateTime(time.Now().Add(-time.Minute).Truncate(time.Second)))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _, _ = cp.StopTransaction(200, types.NewDateTime(time.Now()), st.TransactionId) })
			prof := sc.Profile{ID: 9, StackLevel: 1, Purpose: sc.PurposeTx, Kind: sc.KindRelative, TransactionID: int64(st.TransactionId),
				Schedule: sc.Schedule{Unit: sc.UnitA, Periods: []sc.Period{{Start: 0, Limit: 8}}}}
			v := sendOne(t, root, dev, fleet.CtlSetChargingProfile, map[string]any{"connectorId": 1, "profile": prof})
			r := lastSet(t)
			if v.Result != fleet.ResultSuccess || r.ChargingProfile.TransactionId != st.TransactionId || r.ChargingProfile.ChargingProfilePurpose != types.ChargingProfilePurposeTxProfile {
				t.Fatalf("result %d %q; charger got transactionId %d (want %d), purpose %s", v.Result, v.Message,
					r.ChargingProfile.TransactionId, st.TransactionId, r.ChargingProfile.ChargingProfilePurpose)
			}
		})

		for _, c := range []struct{ status, message string }{{"Rejected", "err.sc_rejected"}, {"NotSupported", "err.sc_not_supported"}} {
			t.Run("SetChargingProfile answered "+c.status+" fails with "+c.message, func(t *testing.T) {
				h.setStatus("SetChargingProfile", c.status)
				defer h.setStatus("SetChargingProfile", "Accepted")
				v := sendOne(t, root, dev, fleet.CtlSetChargingProfile, map[string]any{"connectorId": 1, "profile": txDefault})
				if v.Result != fleet.ResultFailed || storedMessage(t, d, v.ID) != c.message {
					t.Fatalf("result %d, message %q", v.Result, storedMessage(t, d, v.ID))
				}
			})
		}

		t.Run("clear by id sends the id alone", func(t *testing.T) {
			v := sendOne(t, root, dev, fleet.CtlClearChargingProfile, map[string]any{"clear": sc.ClearFilter{ID: 7}})
			r := lastClear(t)
			if v.Result != fleet.ResultSuccess || r.Id == nil || *r.Id != 7 || r.ConnectorId != nil || r.ChargingProfilePurpose != "" || r.StackLevel != nil {
				t.Fatalf("result %d; charger got %+v", v.Result, r)
			}
		})

		t.Run("clear by criteria sends connector, purpose and stack level", func(t *testing.T) {
			v := sendOne(t, root, dev, fleet.CtlClearChargingProfile, map[string]any{"clear": sc.ClearFilter{ConnectorID: intp(1), Purpose: sc.PurposeTxDefault, StackLevel: intp(0)}})
			r := lastClear(t)
			if v.Result != fleet.ResultSuccess || r.Id != nil || r.ConnectorId == nil || *r.ConnectorId != 1 ||
				r.ChargingProfilePurpose != types.ChargingProfilePurposeTxDefaultProfile || r.StackLevel == nil || *r.StackLevel != 0 {
				t.Fatalf("result %d; charger got %+v", v.Result, r)
			}
		})

		t.Run("clear without a filter sends every field left out", func(t *testing.T) {
			v := sendOne(t, root, dev, fleet.CtlClearChargingProfile, map[string]any{})
			if r := lastClear(t); v.Result != fleet.ResultSuccess || !reflect.DeepEqual(r, smartcharging.ClearChargingProfileRequest{}) {
				t.Fatalf("result %d; charger got %+v", v.Result, r)
			}
		})

		t.Run("clear answered Unknown fails with err.sc_clear_unknown", func(t *testing.T) {
			h.setStatus("ClearChargingProfile", "Unknown")
			defer h.setStatus("ClearChargingProfile", "Accepted")
			v := sendOne(t, root, dev, fleet.CtlClearChargingProfile, map[string]any{"clear": sc.ClearFilter{ID: 99}})
			if v.Result != fleet.ResultFailed || storedMessage(t, d, v.ID) != "err.sc_clear_unknown" {
				t.Fatalf("result %d, message %q", v.Result, storedMessage(t, d, v.ID))
			}
		})

		t.Run("the composite schedule is kept on the command as a Composite", func(t *testing.T) {
			start := time.Now().UTC().Truncate(time.Second)
			h.mu.Lock()
			h.schedule = smartcharging.GetCompositeScheduleConfirmation{ConnectorId: intp(1), ScheduleStart: types.NewDateTime(start),
				ChargingSchedule: &types.ChargingSchedule{Duration: intp(3600), ChargingRateUnit: types.ChargingRateUnitAmperes,
					ChargingSchedulePeriod: []types.ChargingSchedulePeriod{{StartPeriod: 0, Limit: 16, NumberPhases: intp(3)}, {StartPeriod: 900, Limit: 8}}}}
			h.mu.Unlock()
			v := sendOne(t, root, dev, fleet.CtlGetCompositeSchedule, map[string]any{"connectorId": 1, "duration": 3600, "rateUnit": "A"})
			h.mu.Lock()
			r := h.composite[len(h.composite)-1]
			h.mu.Unlock()
			if r.ConnectorId != 1 || r.Duration != 3600 || r.ChargingRateUnit != types.ChargingRateUnitAmperes {
				t.Fatalf("charger got %+v", r)
			}
			if v.Result != fleet.ResultSuccess {
				t.Fatalf("result %d %q", v.Result, v.Message)
			}
			var got sc.Composite
			if err := json.Unmarshal([]byte(v.Answer), &got); err != nil {
				t.Fatalf("answer %q: %v", v.Answer, err)
			}
			want := sc.Composite{ConnectorID: 1, Start: start.UnixMilli(), Duration: 3600, Unit: sc.UnitA,
				Periods: []sc.Period{{Start: 0, Limit: 16, Phases: 3}, {Start: 900, Limit: 8}}}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("composite %+v, want %+v", got, want)
			}
		})

		t.Run("a composite schedule without a unit leaves it to the charger; Rejected fails with err.sc_rejected", func(t *testing.T) {
			h.setStatus("GetCompositeSchedule", "Rejected")
			defer h.setStatus("GetCompositeSchedule", "Accepted")
			v := sendOne(t, root, dev, fleet.CtlGetCompositeSchedule, map[string]any{"connectorId": 2, "duration": 600})
			h.mu.Lock()
			r := h.composite[len(h.composite)-1]
			h.mu.Unlock()
			if r.ConnectorId != 2 || r.Duration != 600 || r.ChargingRateUnit != "" {
				t.Fatalf("charger got %+v", r)
			}
			if v.Result != fleet.ResultFailed || storedMessage(t, d, v.ID) != "err.sc_rejected" {
				t.Fatalf("result %d, message %q", v.Result, storedMessage(t, d, v.ID))
			}
		})
	})
}
