package ocpp16_test

import (
	"context"
	"testing"
	"time"

	"github.com/lorenzodonini/ocpp-go/ocpp1.6/core"

	"chargeops/internal/config"
	"chargeops/internal/db"
	"chargeops/internal/fleet"
	"chargeops/internal/fleet/fleettest"
	"chargeops/internal/testutil"
	"chargeops/internal/testutil/apitest"
)

// connectorState is connector 1's status and info as stored.
func connectorState(t *testing.T, d *db.DB, id int64) (status, info string) {
	t.Helper()
	if err := d.QueryRow(context.Background(), `SELECT status, info FROM device_connector WHERE device_id = ? AND connector_id = 1`, id).Scan(&status, &info); err != nil && !db.NotFound(err) {
		t.Fatal(err)
	}
	return
}

// TestAcceptedResetShowsConnectorsRestarting: an ocpp-go charge point reports connector 1
// Available and accepts a Reset; until it boots and reports again the connector is Unavailable
// ("Restarting"), not Available (issue 30 item 8).
func TestAcceptedResetShowsConnectorsRestarting(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		env, _, id := fleettest.Node(t, d, "SN-REBOOT")
		cp, _, err := startCP(t, wsBase(env), "SN-REBOOT", "")
		if err != nil {
			t.Fatal(err)
		}
		available := func() bool { s, _ := connectorState(t, d, id); return s == "Available" }
		if _, err := cp.StatusNotification(1, core.NoError, core.ChargePointStatusAvailable); err != nil {
			t.Fatal(err)
		}
		waitFor(t, "connector 1 Available", available)
		t.Run("an accepted Reset shows the connector Restarting", func(t *testing.T) {
			if v := sendOne(t, env.Root(), id, fleet.CtlSoftReset, map[string]any{}); v.Result != fleet.ResultSuccess {
				t.Fatalf("reset result %d, want success", v.Result)
			}
			waitFor(t, "connector 1 Unavailable while the charger restarts", func() bool {
				s, info := connectorState(t, d, id)
				return s == "Unavailable" && info == fleet.InfoRestarting
			})
		})
		t.Run("the status reported after the boot wins", func(t *testing.T) {
			if _, err := cp.BootNotification("AC-22", "Test"); err != nil {
				t.Fatal(err)
			}
			if _, err := cp.StatusNotification(1, core.NoError, core.ChargePointStatusAvailable); err != nil {
				t.Fatal(err)
			}
			waitFor(t, "connector 1 Available after the boot", available)
		})
	})
}

// offlineEvents counts the device's Offline events (open or ended) and how many are open.
func offlineEvents(t *testing.T, d *db.DB, id int64) (all, open int) {
	t.Helper()
	if err := d.QueryRow(context.Background(), `SELECT COUNT(*), COALESCE(SUM(CASE WHEN status = ? THEN 1 ELSE 0 END), 0) FROM device_event WHERE device_id = ? AND kind = ?`,
		fleet.EventOpen, id, fleet.KindOffline).Scan(&all, &open); err != nil {
		t.Fatal(err)
	}
	return
}

// rebootFromConsole connects an ocpp-go charge point for sn, has the console send it a soft
// Reset, which it accepts, and drops its connection as a rebooting charger does; it returns
// when the core has recorded the disconnect.
func rebootFromConsole(t *testing.T, env *apitest.Env, d *db.DB, id int64, sn string) {
	t.Helper()
	_, h := connectCP(t, env, sn)
	waitFor(t, sn+" online", func() bool { return online(d, id) })
	if v := sendOne(t, env.Root(), id, fleet.CtlSoftReset, map[string]any{}); v.Result != fleet.ResultSuccess {
		t.Fatalf("reset result %d, want success", v.Result)
	}
	h.stop()
	waitFor(t, sn+" disconnected", func() bool { return !online(d, id) })
}

// Issue 30 item 17: a charger that reboots because the console told it to is not an outage.
// It accepts the Reset, drops its connection and comes back (connects and boots): no Offline
// event is ever opened, not even by a sweep long after; meanwhile its status is Offline.
func TestConsoleRebootOpensNoOfflineEvent(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		env, _, id := fleettest.Node(t, d, "SN-REBOOT-BACK")
		rebootFromConsole(t, env, d, id, "SN-REBOOT-BACK")
		t.Run("while it reboots it is Offline without an Offline event", func(t *testing.T) {
			if st, _ := deviceStatus(t, d, id); st != fleet.StatusOffline {
				t.Errorf("status while rebooting %d, want Offline", st)
			}
			if all, _ := offlineEvents(t, d, id); all != 0 {
				t.Fatalf("%d Offline event(s) while the charger reboots", all)
			}
		})
		connectCP(t, env, "SN-REBOOT-BACK")
		waitFor(t, "back online", func() bool { return online(d, id) })
		t.Run("a sweep after it came back opens nothing", func(t *testing.T) {
			if n, err := env.App.Fleet.ExpireRestarts(context.Background(), db.NowMS()+24*3600_000); err != nil || n != 0 {
				t.Fatalf("a sweep after the charger came back opened %d Offline event(s) (%v)", n, err)
			}
			if all, _ := offlineEvents(t, d, id); all != 0 {
				t.Fatalf("%d Offline event(s) after a console reboot", all)
			}
		})
	})
}

// A charger that accepted the console's Reset but stays away longer than the restart grace
// (shortened to a second here) is offline after all: one Offline event, starting when it
// disconnected, which ends when it comes back.
func TestRebootedChargerThatStaysAwayIsOffline(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		env, _, id := fleettest.Node(t, d, "SN-REBOOT-GONE", func(c *config.Config) { c.RestartGrace = time.Second })
		rebootFromConsole(t, env, d, id, "SN-REBOOT-GONE")
		var left int64
		t.Run("within the grace: the disconnect time kept, no Offline event", func(t *testing.T) {
			if err := d.QueryRow(context.Background(), `SELECT restart_left_at FROM device_state WHERE device_id = ?`, id).Scan(&left); err != nil || left == 0 {
				t.Fatalf("disconnect time not kept: %d (%v)", left, err)
			}
			if all, _ := offlineEvents(t, d, id); all != 0 {
				t.Fatalf("%d Offline event(s) within the grace", all)
			}
		})
		t.Run("past the grace the sweep opens one Offline event from the disconnect", func(t *testing.T) {
			// the sweep runs every 10 s; this call runs it at once
			waitFor(t, "the Offline event after the grace", func() bool {
				if _, err := env.App.Fleet.ExpireRestarts(context.Background(), db.NowMS()); err != nil {
					t.Fatal(err)
				}
				all, open := offlineEvents(t, d, id)
				return all == 1 && open == 1
			})
			var started int64
			if err := d.QueryRow(context.Background(), `SELECT started_at FROM device_event WHERE device_id = ? AND kind = ?`, id, fleet.KindOffline).Scan(&started); err != nil || started != left {
				t.Fatalf("Offline event starts at %d, want the disconnect %d (%v)", started, left, err)
			}
			if n, err := env.App.Fleet.ExpireRestarts(context.Background(), db.NowMS()); err != nil || n != 0 {
				t.Fatalf("a second sweep opened %d more (%v)", n, err)
			}
		})
		t.Run("coming back ends the Offline event", func(t *testing.T) {
			connectCP(t, env, "SN-REBOOT-GONE")
			waitFor(t, "the Offline event ended", func() bool { all, open := offlineEvents(t, d, id); return all == 1 && open == 0 })
		})
	})
}
