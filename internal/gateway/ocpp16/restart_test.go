package ocpp16_test

import (
	"context"
	"testing"

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
