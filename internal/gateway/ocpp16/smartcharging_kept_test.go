package ocpp16_test

import (
	"context"
	"sync"
	"testing"
	"time"

	ocpp "github.com/lorenzodonini/ocpp-go/ocpp1.6"
	"github.com/lorenzodonini/ocpp-go/ocpp1.6/core"
	ocppws "github.com/lorenzodonini/ocpp-go/ws"

	"chargeops/internal/apperr"
	"chargeops/internal/config"
	"chargeops/internal/db"
	"chargeops/internal/fleet"
	"chargeops/internal/fleet/fleettest"
	sc "chargeops/internal/smartcharging"
	"chargeops/internal/testutil"
	"chargeops/internal/testutil/apitest"
)

// TestChargingProfilesKept: what chargeops keeps of the profiles it set, and what it holds a new
// one to. An accepted profile is listed as installed and sent again, with its id, after the
// charger reboots (a BootNotification); a refused one is listed as refused with its message; a
// clear removes what it matched. The charger's own limits from its configuration refuse a
// profile before anything is sent: its units, its highest stack level, the number it holds.
func TestChargingProfilesKept(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		const sn = "SN-SCKEPT"
		env, _, dev := fleettest.Node(t, d, sn, func(c *config.Config) { c.CommandTimeout = 5 * time.Second })
		root := env.Root()
		// connect is an ocpp-go charge point with the Smart Charging profile; stop ends it once
		connect := func(boot bool) (cp ocpp.ChargePoint, h *scCP, stop func()) {
			cp = fleettest.ChargePoint(sn, ocppws.NewClient())
			h = &scCP{status: map[string]string{}}
			cp.SetCoreHandler(&opsCP{answers: map[string]string{}, reserve: map[int]int{}, expiry: map[int]time.Time{}})
			cp.SetSmartChargingHandler(h)
			if err := cp.Start(wsBase(env)); err != nil {
				t.Fatal(err)
			}
			stop = sync.OnceFunc(cp.Stop)
			t.Cleanup(stop)
			if boot {
				if _, err := cp.BootNotification("AC-22", "Test"); err != nil {
					t.Fatal(err)
				}
				for _, c := range []int{1, 2} {
					if _, err := cp.StatusNotification(c, core.NoError, core.ChargePointStatusAvailable); err != nil {
						t.Fatal(err)
					}
				}
			}
			return cp, h, stop
		}
		cp, h, stopFirst := connect(true)
		waitFor(t, "connectors stored", func() bool {
			return testutil.Count(t, d, `SELECT COUNT(*) FROM device_connector WHERE device_id = ? AND connector_id > 0`, dev) == 2
		})
		profile := func(id, stack int, unit string) sc.Profile {
			return sc.Profile{ID: id, StackLevel: stack, Purpose: sc.PurposeTxDefault, Kind: sc.KindRelative,
				Schedule: sc.Schedule{Unit: unit, Periods: []sc.Period{{Start: 0, Limit: 16}}}}
		}
		type kept struct {
			ConnectorID int        `json:"connectorId"`
			Profile     sc.Profile `json:"profile"`
			Source      string     `json:"source"`
			State       int        `json:"state"`
			Message     string     `json:"message"`
		}
		list := func(t *testing.T) map[int]kept {
			t.Helper()
			var l []kept
			apitest.Must(t, root.Call("GET", "/api/auth/sys/dev/profile/list", map[string]any{"deviceId": dev})).Into(t, &l)
			m := map[int]kept{}
			for _, k := range l {
				m[k.Profile.ID] = k
			}
			return m
		}
		sets := func() int {
			h.mu.Lock()
			defer h.mu.Unlock()
			return len(h.set)
		}

		t.Run("an accepted profile is listed as installed", func(t *testing.T) {
			if v := sendOne(t, root, dev, fleet.CtlSetChargingProfile, map[string]any{"connectorId": 1, "profile": profile(11, 1, sc.UnitA)}); v.Result != fleet.ResultSuccess {
				t.Fatalf("result %d %q", v.Result, v.Message)
			}
			if k, ok := list(t)[11]; !ok || k.State != fleet.ProfileInstalled || k.ConnectorID != 1 || k.Source != fleet.SourceOperator {
				t.Fatalf("kept %+v (found %v)", k, ok)
			}
		})

		t.Run("a refused profile is listed as refused with the charger's answer", func(t *testing.T) {
			h.setStatus("SetChargingProfile", "Rejected")
			defer h.setStatus("SetChargingProfile", "Accepted")
			if v := sendOne(t, root, dev, fleet.CtlSetChargingProfile, map[string]any{"connectorId": 2, "profile": profile(12, 1, sc.UnitA)}); v.Result != fleet.ResultFailed {
				t.Fatalf("result %d %q", v.Result, v.Message)
			}
			if k := list(t)[12]; k.State != fleet.ProfileRefused || k.Message == "" || k.Message == "err.sc_rejected" {
				t.Fatalf("kept %+v: want refused with a localised message", k)
			}
		})

		t.Run("after a reboot the installed profile is sent again", func(t *testing.T) {
			before := sets()
			if _, err := cp.BootNotification("AC-22", "Test"); err != nil {
				t.Fatal(err)
			}
			waitFor(t, "the profile sent again", func() bool { return sets() > before })
			h.mu.Lock()
			again := h.set[before]
			h.mu.Unlock()
			if again.ConnectorId != 1 || again.ChargingProfile.ChargingProfileId != 11 {
				t.Fatalf("sent again %+v on %d", again.ChargingProfile, again.ConnectorId)
			}
			time.Sleep(1500 * time.Millisecond) // the refused one is not sent
			if n := sets(); n != before+1 {
				t.Fatalf("%d profiles sent after the boot, want 1", n-before)
			}
			waitFor(t, "the follow-up's commands ended", func() bool {
				return testutil.Count(t, d, `SELECT COUNT(*) FROM command WHERE device_id = ? AND result = ?`, dev, fleet.ResultWaiting) == 0
			})
		})

		t.Run("after a reconnect without a boot the installed profile is sent again", func(t *testing.T) {
			stopFirst()
			waitFor(t, "the charger offline", func() bool {
				return testutil.Count(t, d, `SELECT COUNT(*) FROM device_state WHERE device_id = ? AND online = 1`, dev) == 0
			})
			_, h2, _ := connect(false)
			waitFor(t, "the profile sent again", func() bool {
				h2.mu.Lock()
				defer h2.mu.Unlock()
				return len(h2.set) == 1 && h2.set[0].ChargingProfile.ChargingProfileId == 11
			})
			h = h2 // the charger from now on
			waitFor(t, "the follow-up's commands ended", func() bool {
				return testutil.Count(t, d, `SELECT COUNT(*) FROM command WHERE device_id = ? AND result = ?`, dev, fleet.ResultWaiting) == 0
			})
		})

		t.Run("a clear removes what it matched", func(t *testing.T) {
			if v := sendOne(t, root, dev, fleet.CtlClearChargingProfile, map[string]any{"clear": map[string]any{"id": 11}}); v.Result != fleet.ResultSuccess {
				t.Fatalf("result %d %q", v.Result, v.Message)
			}
			if _, ok := list(t)[11]; ok {
				t.Fatal("cleared profile still listed")
			}
		})

		t.Run("the load manager's slot is refused to an operator", func(t *testing.T) {
			if _, err := d.Exec(ctx, `INSERT INTO device_charging_profile (device_id, profile_id, connector_id, purpose, stack_level, profile, source, state, updated_at)
				VALUES (?, ?, 0, 'TxDefault', 0, '{}', ?, ?, ?)`, dev, fleet.ReservedProfileIDs+100, fleet.SourceLoad, fleet.ProfileInstalled, time.Now().UnixMilli()); err != nil {
				t.Fatal(err)
			}
			a, _ := fleettest.Control(t, root, []int64{dev}, fleet.CtlSetChargingProfile, map[string]any{"connectorId": 0, "profile": profile(31, 0, sc.UnitA)})
			apitest.WantCode(t, a, apperr.Invalid)
			if _, err := d.Exec(ctx, `DELETE FROM device_charging_profile WHERE device_id = ? AND profile_id = ?`, dev, fleet.ReservedProfileIDs+100); err != nil {
				t.Fatal(err)
			}
		})

		t.Run("the charger's own limits refuse a profile before it is sent", func(t *testing.T) {
			for _, kv := range [][2]string{{"ChargingScheduleAllowedChargingRateUnit", "Current"}, {"ChargeProfileMaxStackLevel", "3"}, {"MaxChargingProfilesInstalled", "2"}} {
				if _, err := d.Exec(ctx, `INSERT INTO device_config (device_id, key, value, updated_at) VALUES (?, ?, ?, ?)`, dev, kv[0], kv[1], time.Now().UnixMilli()); err != nil {
					t.Fatal(err)
				}
			}
			before := sets()
			send := func(p sc.Profile) apitest.Answer {
				a, _ := fleettest.Control(t, root, []int64{dev}, fleet.CtlSetChargingProfile, map[string]any{"connectorId": 1, "profile": p})
				return a
			}
			for _, c := range []struct {
				name, field string
				p           sc.Profile
			}{
				{"a unit the charger does not take", "params.profile.schedule.unit", profile(21, 1, sc.UnitW)},
				{"a stack level above the charger's", "params.profile.stackLevel", profile(22, 4, sc.UnitA)},
			} {
				a := send(c.p)
				apitest.WantCode(t, a, apperr.Invalid)
				if a.Message == "" {
					t.Fatalf("%s: no message", c.name)
				}
			}
			// the charger holds at most 2 (a refused profile is not held): two fit, a third does not
			if v := sendOne(t, root, dev, fleet.CtlSetChargingProfile, map[string]any{"connectorId": 1, "profile": profile(23, 1, sc.UnitA)}); v.Result != fleet.ResultSuccess {
				t.Fatalf("result %d %q", v.Result, v.Message)
			}
			if v := sendOne(t, root, dev, fleet.CtlSetChargingProfile, map[string]any{"connectorId": 2, "profile": profile(24, 2, sc.UnitA)}); v.Result != fleet.ResultSuccess {
				t.Fatalf("result %d %q", v.Result, v.Message)
			}
			apitest.WantCode(t, send(profile(25, 3, sc.UnitA)), apperr.Invalid)
			if n := sets(); n != before+2 {
				t.Fatalf("the charger got %d profiles, want only the 2 that fit", n-before)
			}
		})
	})
}
