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
func connectorState(d *db.DB, id int64) (status, info string) {
	_ = d.QueryRow(context.Background(), `SELECT status, info FROM device_connector WHERE device_id = ? AND connector_id = 1`, id).Scan(&status, &info)
	return
}

// TestAcceptedResetShowsConnectorsRestarting: an ocpp-go charge point reports connector 1
// Available and accepts a Reset; until it boots and reports again the connector is Unavailable
// ("Restarting"), not Available (issue 30 item 8).
func TestAcceptedResetShowsConnectorsRestarting(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		env := apitest.New(t, d, func(c *config.Config) { c.DataDir = t.TempDir() })
		org := fleettest.Seed(t, d)
		id := fleettest.Device(t, d, org, org.CustomerA, org.SiteA, "SN-REBOOT")
		cp, _, err := startCP(t, wsBase(env), "SN-REBOOT", "")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := cp.StatusNotification(1, core.NoError, core.ChargePointStatusAvailable); err != nil {
			t.Fatal(err)
		}
		waitFor(t, "connector 1 Available", func() bool { s, _ := connectorState(d, id); return s == "Available" })
		v := sendOne(t, env.Root(), id, fleet.CtlSoftReset, map[string]any{})
		if v.Result != fleet.ResultSuccess {
			t.Fatalf("reset result %d, want success", v.Result)
		}
		waitFor(t, "connector 1 Unavailable while the charger restarts", func() bool {
			s, info := connectorState(d, id)
			return s == "Unavailable" && info == fleet.InfoRestarting
		})
		// the charger boots again and reports its connector: that status wins
		if _, err := cp.BootNotification("AC-22", "Test"); err != nil {
			t.Fatal(err)
		}
		if _, err := cp.StatusNotification(1, core.NoError, core.ChargePointStatusAvailable); err != nil {
			t.Fatal(err)
		}
		waitFor(t, "connector 1 Available after the boot", func() bool { s, _ := connectorState(d, id); return s == "Available" })
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
	cp, h, err := startCP(t, wsBase(env), sn, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cp.BootNotification("AC-22", "Test"); err != nil {
		t.Fatal(err)
	}
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
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		env := apitest.New(t, d, func(c *config.Config) { c.DataDir = t.TempDir() })
		org := fleettest.Seed(t, d)
		id := fleettest.Device(t, d, org, org.CustomerA, org.SiteA, "SN-REBOOT-BACK")
		rebootFromConsole(t, env, d, id, "SN-REBOOT-BACK")
		if st, _ := deviceStatus(t, d, id); st != fleet.StatusOffline {
			t.Errorf("status while rebooting %d, want Offline", st)
		}
		if all, _ := offlineEvents(t, d, id); all != 0 {
			t.Fatalf("%d Offline event(s) while the charger reboots", all)
		}
		cp, _, err := startCP(t, wsBase(env), "SN-REBOOT-BACK", "")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := cp.BootNotification("AC-22", "Test"); err != nil {
			t.Fatal(err)
		}
		waitFor(t, "back online", func() bool { return online(d, id) })
		if n, err := env.App.Fleet.ExpireRestarts(context.Background(), db.NowMS()+24*3600_000); err != nil || n != 0 {
			t.Fatalf("a sweep after the charger came back opened %d Offline event(s) (%v)", n, err)
		}
		if all, _ := offlineEvents(t, d, id); all != 0 {
			t.Fatalf("%d Offline event(s) after a console reboot", all)
		}
	})
}

// A charger that accepted the console's Reset but stays away longer than the restart grace
// (shortened to a second here) is offline after all: one Offline event, starting when it
// disconnected, which ends when it comes back.
func TestRebootedChargerThatStaysAwayIsOffline(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		env := apitest.New(t, d, func(c *config.Config) { c.DataDir, c.RestartGrace = t.TempDir(), time.Second })
		org := fleettest.Seed(t, d)
		id := fleettest.Device(t, d, org, org.CustomerA, org.SiteA, "SN-REBOOT-GONE")
		rebootFromConsole(t, env, d, id, "SN-REBOOT-GONE")
		var left int64
		if err := d.QueryRow(context.Background(), `SELECT restart_left_at FROM device_state WHERE device_id = ?`, id).Scan(&left); err != nil || left == 0 {
			t.Fatalf("disconnect time not kept: %d (%v)", left, err)
		}
		if all, _ := offlineEvents(t, d, id); all != 0 {
			t.Fatalf("%d Offline event(s) within the grace", all)
		}
		// past the grace: the sweep (every 10 s, or this call) opens it, once
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
		cp, _, err := startCP(t, wsBase(env), "SN-REBOOT-GONE", "")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := cp.BootNotification("AC-22", "Test"); err != nil {
			t.Fatal(err)
		}
		waitFor(t, "the Offline event ended", func() bool { all, open := offlineEvents(t, d, id); return all == 1 && open == 0 })
	})
}
