package ocpp201_test

import (
	"context"
	"encoding/json"
	"reflect"
	"sync"
	"testing"
	"time"

	ocpp2 "github.com/lorenzodonini/ocpp-go/ocpp2.0.1"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/availability"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/provisioning"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/smartcharging"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/transactions"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/types"
	ocppws "github.com/lorenzodonini/ocpp-go/ws"

	"chargeops/internal/config"
	"chargeops/internal/db"
	"chargeops/internal/fleet"
	"chargeops/internal/fleet/fleettest"
	sc "chargeops/internal/smartcharging"
	"chargeops/internal/testutil"
)

// scStation is the Smart Charging handler of an ocpp-go 2.0.1 charging station: it keeps the
// requests it gets and answers with the status a test sets per action (Accepted by default),
// the statusInfo it sets, and for GetCompositeSchedule the schedule it sets.
type scStation struct {
	mu        sync.Mutex
	set       []smartcharging.SetChargingProfileRequest
	clear     []smartcharging.ClearChargingProfileRequest
	composite []smartcharging.GetCompositeScheduleRequest
	status    map[string]string
	info      *types.StatusInfo                // sent with every answer while set
	schedule  *smartcharging.CompositeSchedule // the Accepted GetCompositeSchedule's
}

func (h *scStation) answer(action string) (string, *types.StatusInfo) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if s := h.status[action]; s != "" {
		return s, h.info
	}
	return "Accepted", h.info
}

// refuse makes the station answer action with status and info until the test ends.
func (h *scStation) refuse(t *testing.T, action, status string, info *types.StatusInfo) {
	h.mu.Lock()
	h.status[action], h.info = status, info
	h.mu.Unlock()
	t.Cleanup(func() {
		h.mu.Lock()
		delete(h.status, action)
		h.info = nil
		h.mu.Unlock()
	})
}

func (h *scStation) OnSetChargingProfile(r *smartcharging.SetChargingProfileRequest) (*smartcharging.SetChargingProfileResponse, error) {
	h.mu.Lock()
	h.set = append(h.set, *r)
	h.mu.Unlock()
	st, info := h.answer("SetChargingProfile")
	res := smartcharging.NewSetChargingProfileResponse(smartcharging.ChargingProfileStatus(st))
	res.StatusInfo = info
	return res, nil
}

func (h *scStation) OnClearChargingProfile(r *smartcharging.ClearChargingProfileRequest) (*smartcharging.ClearChargingProfileResponse, error) {
	h.mu.Lock()
	h.clear = append(h.clear, *r)
	h.mu.Unlock()
	st, info := h.answer("ClearChargingProfile")
	res := smartcharging.NewClearChargingProfileResponse(smartcharging.ClearChargingProfileStatus(st))
	res.StatusInfo = info
	return res, nil
}

func (h *scStation) OnGetChargingProfiles(*smartcharging.GetChargingProfilesRequest) (*smartcharging.GetChargingProfilesResponse, error) {
	return smartcharging.NewGetChargingProfilesResponse(smartcharging.GetChargingProfileStatusNoProfiles), nil
}

func (h *scStation) OnGetCompositeSchedule(r *smartcharging.GetCompositeScheduleRequest) (*smartcharging.GetCompositeScheduleResponse, error) {
	h.mu.Lock()
	h.composite = append(h.composite, *r)
	schedule := h.schedule
	h.mu.Unlock()
	st, _ := h.answer("GetCompositeSchedule") // ocpp-go v0.19's answer has no statusInfo
	res := smartcharging.NewGetCompositeScheduleResponse(smartcharging.GetCompositeScheduleStatus(st), r.EvseID)
	if res.Status == smartcharging.GetCompositeScheduleStatusAccepted {
		res.Schedule = schedule
	}
	return res, nil
}

// startSmartStation connects a 2.0.1 charging station as sn with station_test.go's handlers and
// the Smart Charging one (set before it starts), boots it and reports EVSEs 1 and 2.
func startSmartStation(t *testing.T, base, sn string) (*station, *scStation) {
	t.Helper()
	s := &station{cs: ocpp2.NewChargingStation(sn, nil, ocppws.NewClient()), answers: map[string]string{}, vars: map[string]string{}}
	h := &scStation{status: map[string]string{}}
	s.cs.SetProvisioningHandler(s)
	s.cs.SetAuthorizationHandler(s)
	s.cs.SetRemoteControlHandler(s)
	s.cs.SetAvailabilityHandler(s)
	s.cs.SetSmartChargingHandler(h)
	if err := s.cs.Start(base); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.cs.Stop)
	if _, err := s.cs.BootNotification(provisioning.BootReasonPowerUp, "AC-2", "Vendor201"); err != nil {
		t.Fatal(err)
	}
	for _, evse := range []int{1, 2} {
		if _, err := s.cs.StatusNotification(now(), availability.ConnectorStatusAvailable, evse, 1); err != nil {
			t.Fatal(err)
		}
	}
	return s, h
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

// TestSmartChargingOver201: control types 26-28 reach ocpp-go's 2.0.1 charging station as
// SetChargingProfile (the core's connector as the EVSE, one schedule, a Tx profile naming the
// station's own transactionId), ClearChargingProfile and GetCompositeSchedule, and its answers
// end the commands as docs/ocpp201.md says, on both databases.
func TestSmartChargingOver201(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		const sn = "SN-V201-SC"
		env, _, dev := fleettest.Node(t, d, sn, func(c *config.Config) { c.CommandTimeout = 5 * time.Second })
		root := env.Root()
		st, h := startSmartStation(t, fleettest.WSBase(env), sn)
		testutil.Eventually(t, "EVSEs stored", func() bool {
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
		lastComposite := func(t *testing.T) smartcharging.GetCompositeScheduleRequest {
			t.Helper()
			h.mu.Lock()
			defer h.mu.Unlock()
			if len(h.composite) == 0 {
				t.Fatal("no GetCompositeSchedule received")
			}
			return h.composite[len(h.composite)-1]
		}
		at := time.Now().Add(time.Hour).UTC().Truncate(time.Second)
		txDefault := sc.Profile{ID: 7, StackLevel: 2, Purpose: sc.PurposeTxDefault, Kind: sc.KindAbsolute,
			ValidFrom: at.Add(-time.Hour).UnixMilli(), ValidTo: at.Add(24 * time.Hour).UnixMilli(),
			Schedule: sc.Schedule{Start: at.UnixMilli(), Duration: 7200, Unit: sc.UnitA, MinRate: 6,
				Periods: []sc.Period{{Start: 0, Limit: 16, Phases: 3}, {Start: 1800, Limit: 10.5, Phases: 1}}}}

		t.Run("an absolute TxDefault profile in A arrives on the EVSE with every field mapped", func(t *testing.T) {
			v := fleettest.SendOne(t, root, dev, fleet.CtlSetChargingProfile, map[string]any{"connectorId": 1, "profile": txDefault})
			if v.Result != fleet.ResultSuccess {
				t.Fatalf("result %d %q", v.Result, v.Message)
			}
			r := lastSet(t)
			p := r.ChargingProfile
			if r.EvseID != 1 || p.ID != 7 || p.StackLevel != 2 || p.TransactionID != "" ||
				p.ChargingProfilePurpose != types.ChargingProfilePurposeTxDefaultProfile || p.ChargingProfileKind != types.ChargingProfileKindAbsolute ||
				p.RecurrencyKind != "" || len(p.ChargingSchedule) != 1 {
				t.Fatalf("profile %+v on EVSE %d", p, r.EvseID)
			}
			if p.ValidFrom == nil || !p.ValidFrom.Equal(at.Add(-time.Hour)) || p.ValidTo == nil || !p.ValidTo.Equal(at.Add(24*time.Hour)) {
				t.Fatalf("validity %v - %v", p.ValidFrom, p.ValidTo)
			}
			s := p.ChargingSchedule[0]
			if s.ID != 7 || s.StartSchedule == nil || !s.StartSchedule.Equal(at) || s.Duration == nil || *s.Duration != 7200 ||
				s.ChargingRateUnit != types.ChargingRateUnitAmperes || s.MinChargingRate == nil || *s.MinChargingRate != 6 || s.SalesTariff != nil {
				t.Fatalf("schedule %+v", s)
			}
			want := []types.ChargingSchedulePeriod{{StartPeriod: 0, Limit: 16, NumberPhases: intp(3)}, {StartPeriod: 1800, Limit: 10.5, NumberPhases: intp(1)}}
			if !reflect.DeepEqual(s.ChargingSchedulePeriod, want) {
				t.Fatalf("periods %+v", s.ChargingSchedulePeriod)
			}
		})

		t.Run("a recurring ChargePointMax profile on the station is ChargingStationMaxProfile, unset fields left out", func(t *testing.T) {
			prof := sc.Profile{ID: 8, Purpose: sc.PurposeStationMax, Kind: sc.KindRecurring, Recurrency: sc.RecurDaily,
				Schedule: sc.Schedule{Start: at.UnixMilli(), Unit: sc.UnitW, Periods: []sc.Period{{Start: 0, Limit: 22000}}}}
			v := fleettest.SendOne(t, root, dev, fleet.CtlSetChargingProfile, map[string]any{"connectorId": 0, "profile": prof})
			if v.Result != fleet.ResultSuccess {
				t.Fatalf("result %d %q", v.Result, v.Message)
			}
			r := lastSet(t)
			p, s := r.ChargingProfile, r.ChargingProfile.ChargingSchedule[0]
			if r.EvseID != 0 || p.ChargingProfilePurpose != types.ChargingProfilePurposeChargingStationMaxProfile ||
				p.ChargingProfileKind != types.ChargingProfileKindRecurring || p.RecurrencyKind != types.RecurrencyKindDaily ||
				p.ValidFrom != nil || p.ValidTo != nil || s.Duration != nil || s.MinChargingRate != nil ||
				s.ChargingRateUnit != types.ChargingRateUnitWatts || len(s.ChargingSchedulePeriod) != 1 || s.ChargingSchedulePeriod[0].NumberPhases != nil {
				t.Fatalf("profile %+v, schedule %+v", p, s)
			}
		})

		t.Run("a Tx profile names the session by the station's own transactionId", func(t *testing.T) {
			const txName = "TX-201-SC"
			started := time.Now().Add(-time.Minute).UTC().Truncate(time.Second)
			if _, err := st.cs.TransactionEvent(transactions.TransactionEventStarted, types.NewDateTime(started), transactions.TriggerReasonAuthorized, 0,
				transactions.Transaction{TransactionID: txName, ChargingState: transactions.ChargingStateCharging}, func(r *transactions.TransactionEventRequest) {
					r.Evse = &types.EVSE{ID: 1, ConnectorID: intp(1)}
					r.IDToken = &types.IdToken{IdToken: "RFID-SC", Type: types.IdTokenTypeISO14443}
				}); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() {
				_, _ = st.cs.TransactionEvent(transactions.TransactionEventEnded, now(), transactions.TriggerReasonStopAuthorized, 1,
					transactions.Transaction{TransactionID: txName, StoppedReason: transactions.ReasonLocal})
			})
			var session int64
			if err := d.QueryRow(ctx, `SELECT id FROM device_transaction WHERE device_id = ? AND charger_tx_id = ?`, dev, txName).Scan(&session); err != nil {
				t.Fatalf("session %s: %v", txName, err)
			}
			prof := sc.Profile{ID: 9, StackLevel: 1, Purpose: sc.PurposeTx, Kind: sc.KindRelative, TransactionID: session,
				Schedule: sc.Schedule{Unit: sc.UnitA, Periods: []sc.Period{{Start: 0, Limit: 8}}}}
			v := fleettest.SendOne(t, root, dev, fleet.CtlSetChargingProfile, map[string]any{"connectorId": 1, "profile": prof})
			r := lastSet(t)
			if v.Result != fleet.ResultSuccess || r.ChargingProfile.TransactionID != txName || r.ChargingProfile.ChargingProfilePurpose != types.ChargingProfilePurposeTxProfile {
				t.Fatalf("result %d %q; station got transactionId %q (want %q), purpose %s", v.Result, v.Message,
					r.ChargingProfile.TransactionID, txName, r.ChargingProfile.ChargingProfilePurpose)
			}
		})

		for _, c := range []struct {
			name    string
			info    *types.StatusInfo
			message string
		}{
			{"SetChargingProfile answered Rejected fails with err.sc_rejected", nil, "err.sc_rejected"},
			{"a Rejected with a statusInfo has its reasonCode after the key", types.NewStatusInfo("InvalidSchedule", ""), "err.sc_rejected: InvalidSchedule"},
		} {
			t.Run(c.name, func(t *testing.T) {
				h.refuse(t, "SetChargingProfile", "Rejected", c.info)
				v := fleettest.SendOne(t, root, dev, fleet.CtlSetChargingProfile, map[string]any{"connectorId": 1, "profile": txDefault})
				if v.Result != fleet.ResultFailed || storedMessage(t, d, v.ID) != c.message {
					t.Fatalf("result %d, message %q", v.Result, storedMessage(t, d, v.ID))
				}
			})
		}

		t.Run("clear by id sends chargingProfileId alone", func(t *testing.T) {
			v := fleettest.SendOne(t, root, dev, fleet.CtlClearChargingProfile, map[string]any{"clear": sc.ClearFilter{ID: 7}})
			r := lastClear(t)
			if v.Result != fleet.ResultSuccess || r.ChargingProfileID == nil || *r.ChargingProfileID != 7 || r.ChargingProfileCriteria != nil {
				t.Fatalf("result %d; station got %+v", v.Result, r)
			}
		})

		t.Run("clear by criteria sends evseId, purpose and stack level as chargingProfileCriteria", func(t *testing.T) {
			v := fleettest.SendOne(t, root, dev, fleet.CtlClearChargingProfile, map[string]any{"clear": sc.ClearFilter{ConnectorID: intp(1), Purpose: sc.PurposeStationMax, StackLevel: intp(2)}})
			r := lastClear(t)
			want := &smartcharging.ClearChargingProfileType{EvseID: intp(1), ChargingProfilePurpose: types.ChargingProfilePurposeChargingStationMaxProfile, StackLevel: intp(2)}
			if v.Result != fleet.ResultSuccess || r.ChargingProfileID != nil || !reflect.DeepEqual(r.ChargingProfileCriteria, want) {
				t.Fatalf("result %d; station got %+v, criteria %+v", v.Result, r, r.ChargingProfileCriteria)
			}
		})

		t.Run("clear without a filter sends neither id nor criteria", func(t *testing.T) {
			v := fleettest.SendOne(t, root, dev, fleet.CtlClearChargingProfile, map[string]any{})
			if r := lastClear(t); v.Result != fleet.ResultSuccess || r.ChargingProfileID != nil || r.ChargingProfileCriteria != nil {
				t.Fatalf("result %d; station got %+v", v.Result, r)
			}
		})

		t.Run("clear answered Unknown fails with err.sc_clear_unknown, a statusInfo or not", func(t *testing.T) {
			h.refuse(t, "ClearChargingProfile", "Unknown", types.NewStatusInfo("NoProfile", ""))
			v := fleettest.SendOne(t, root, dev, fleet.CtlClearChargingProfile, map[string]any{"clear": sc.ClearFilter{ID: 99}})
			if v.Result != fleet.ResultFailed || storedMessage(t, d, v.ID) != "err.sc_clear_unknown" {
				t.Fatalf("result %d, message %q", v.Result, storedMessage(t, d, v.ID))
			}
		})

		t.Run("the composite schedule is kept on the command as a Composite", func(t *testing.T) {
			start := time.Now().UTC().Truncate(time.Second)
			h.mu.Lock()
			h.schedule = &smartcharging.CompositeSchedule{StartDateTime: types.NewDateTime(start), ChargingSchedule: &types.ChargingSchedule{ID: 1,
				Duration: intp(3600), ChargingRateUnit: types.ChargingRateUnitWatts,
				ChargingSchedulePeriod: []types.ChargingSchedulePeriod{{StartPeriod: 0, Limit: 11000, NumberPhases: intp(3)}, {StartPeriod: 900, Limit: 3700}}}}
			h.mu.Unlock()
			v := fleettest.SendOne(t, root, dev, fleet.CtlGetCompositeSchedule, map[string]any{"connectorId": 1, "duration": 3600, "rateUnit": "W"})
			if r := lastComposite(t); r.EvseID != 1 || r.Duration != 3600 || r.ChargingRateUnit != types.ChargingRateUnitWatts {
				t.Fatalf("station got %+v", r)
			}
			if v.Result != fleet.ResultSuccess {
				t.Fatalf("result %d %q", v.Result, v.Message)
			}
			var got sc.Composite
			if err := json.Unmarshal([]byte(v.Answer), &got); err != nil {
				t.Fatalf("answer %q: %v", v.Answer, err)
			}
			want := sc.Composite{ConnectorID: 1, Start: start.UnixMilli(), Duration: 3600, Unit: sc.UnitW,
				Periods: []sc.Period{{Start: 0, Limit: 11000, Phases: 3}, {Start: 900, Limit: 3700}}}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("composite %+v, want %+v", got, want)
			}
		})

		t.Run("a composite schedule without a unit asks for A; Rejected fails with err.sc_rejected", func(t *testing.T) {
			h.refuse(t, "GetCompositeSchedule", "Rejected", nil)
			v := fleettest.SendOne(t, root, dev, fleet.CtlGetCompositeSchedule, map[string]any{"connectorId": 2, "duration": 600})
			if r := lastComposite(t); r.EvseID != 2 || r.Duration != 600 || r.ChargingRateUnit != types.ChargingRateUnitAmperes {
				t.Fatalf("station got %+v", r)
			}
			if v.Result != fleet.ResultFailed || storedMessage(t, d, v.ID) != "err.sc_rejected" {
				t.Fatalf("result %d, message %q", v.Result, storedMessage(t, d, v.ID))
			}
		})
	})
}
