package sim_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"chargeops/internal/config"
	"chargeops/internal/db"
	"chargeops/internal/fleet"
	"chargeops/internal/fleet/fleettest"
	"chargeops/internal/sim"
	"chargeops/internal/testutil"
	"chargeops/internal/testutil/apitest"
)

// The simulator answers the operator actions so a newcomer can try them on the demo fleet: a
// remote start begins a real session with meter values, a remote stop ends it with reason
// Remote, unlock answers Unlocked, a reservation shows Reserved and is used by a start.
func TestSimulatorAnswersOperatorActions(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		env := apitest.New(t, d, func(c *config.Config) { c.DataDir = t.TempDir() })
		org := fleettest.Seed(t, d)
		sns := fleettest.Devices(t, d, org, "SIMOPS-", 1)
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() {
			defer close(done)
			// Speed 1: the charger's own sessions start after 20 s idle at the earliest, so every
			// session here is a remote one.
			sim.Run(ctx, sim.Options{URL: "ws" + strings.TrimPrefix(env.URL, "http") + "/ocpp", SNs: sns, Connectors: 2,
				MeterInterval: 300 * time.Millisecond, FaultChance: -1})
		}()
		defer func() { cancel(); <-done }()
		var dev int64
		if err := d.QueryRow(ctx, `SELECT id FROM device WHERE sn = ?`, sns[0]).Scan(&dev); err != nil {
			t.Fatal(err)
		}
		count := func(q string, args ...any) int {
			var n int
			if err := d.QueryRow(context.Background(), q, args...).Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n
		}
		testutil.EventuallyWithin(t, 10*time.Second, "connectors reported", func() bool {
			return count(`SELECT COUNT(*) FROM device_connector WHERE device_id = ? AND connector_id > 0`, dev) == 2
		})
		root := env.Root()
		send := func(t *testing.T, ct int, params map[string]any) fleet.CommandView {
			t.Helper()
			var res fleet.SendResult
			apitest.Must(t, root.Call("POST", "/api/auth/sys/dev/control/send", map[string]any{"deviceIds": []int64{dev}, "controlType": ct, "params": params})).Into(t, &res)
			var v fleet.CommandView
			testutil.EventuallyWithin(t, 10*time.Second, "command result", func() bool {
				apitest.Must(t, root.Call("GET", "/api/auth/sys/dev/control/detail", map[string]any{"id": res.Commands[0].ID})).Into(t, &v)
				return v.Result != fleet.ResultWaiting
			})
			if v.Result != fleet.ResultSuccess {
				t.Fatalf("control %d: result %d %q", ct, v.Result, v.Message)
			}
			return v
		}

		t.Run("remote start begins a session with meter values; remote stop ends it with reason Remote", func(t *testing.T) {
			send(t, fleet.CtlRemoteStart, map[string]any{"connectorId": 1, "idTag": "SIMTAG1"})
			var tx int64
			testutil.EventuallyWithin(t, 10*time.Second, "the session", func() bool {
				_ = d.QueryRow(ctx, `SELECT id FROM device_transaction WHERE device_id = ? AND connector_id = 1 AND id_tag = 'SIMTAG1' AND stopped_at = 0`, dev).Scan(&tx)
				return tx > 0
			})
			testutil.EventuallyWithin(t, 10*time.Second, "meter values of the session", func() bool {
				return count(`SELECT COUNT(*) FROM device_series WHERE device_id = ? AND connector_id = 1 AND name = 'Power.Active.Import'`, dev) > 0
			})
			testutil.EventuallyWithin(t, 10*time.Second, "connector 1 Charging", func() bool {
				return count(`SELECT COUNT(*) FROM device_connector WHERE device_id = ? AND connector_id = 1 AND status = 'Charging'`, dev) == 1
			})
			send(t, fleet.CtlRemoteStop, map[string]any{"transactionId": tx})
			testutil.EventuallyWithin(t, 10*time.Second, "the session stopped remotely", func() bool {
				return count(`SELECT COUNT(*) FROM device_transaction WHERE id = ? AND stopped_at > 0 AND reason = 'Remote'`, tx) == 1
			})
		})

		t.Run("unlock answers Unlocked, clear cache and data transfer Accepted (echoed)", func(t *testing.T) {
			send(t, fleet.CtlUnlockConnector, map[string]any{"connectorId": 2})
			send(t, fleet.CtlClearCache, nil)
			if v := send(t, fleet.CtlDataTransfer, map[string]any{"vendorId": "com.example", "messageId": "Echo", "data": "hello-sim"}); !strings.Contains(v.Answer, "hello-sim") {
				t.Errorf("data transfer answer %q", v.Answer)
			}
		})

		t.Run("a reservation shows Reserved and a remote start with its token uses it", func(t *testing.T) {
			send(t, fleet.CtlReserveNow, map[string]any{"connectorId": 2, "idTag": "SIMRES", "expiryDate": time.Now().Add(10 * time.Minute).UnixMilli()})
			testutil.EventuallyWithin(t, 10*time.Second, "connector 2 Reserved", func() bool {
				return count(`SELECT COUNT(*) FROM device_connector WHERE device_id = ? AND connector_id = 2 AND status = 'Reserved'`, dev) == 1
			})
			var rid int64
			_ = d.QueryRow(ctx, `SELECT id FROM reservation WHERE device_id = ? AND status = ?`, dev, fleet.ReservationActive).Scan(&rid)
			if rid == 0 {
				t.Fatal("no active reservation")
			}
			send(t, fleet.CtlRemoteStart, map[string]any{"connectorId": 2, "idTag": "SIMRES"})
			testutil.EventuallyWithin(t, 10*time.Second, "the reservation used", func() bool {
				return count(`SELECT COUNT(*) FROM reservation WHERE id = ? AND status = ? AND transaction_id > 0`, rid, fleet.ReservationUsed) == 1
			})
		})

		t.Run("a cancelled reservation frees its connector", func(t *testing.T) {
			send(t, fleet.CtlReserveNow, map[string]any{"connectorId": 1, "idTag": "SIMRES2", "expiryDate": time.Now().Add(10 * time.Minute).UnixMilli()})
			testutil.EventuallyWithin(t, 10*time.Second, "connector 1 Reserved", func() bool {
				return count(`SELECT COUNT(*) FROM device_connector WHERE device_id = ? AND connector_id = 1 AND status = 'Reserved'`, dev) == 1
			})
			var rid int64
			_ = d.QueryRow(ctx, `SELECT id FROM reservation WHERE device_id = ? AND connector_id = 1 AND status = ?`, dev, fleet.ReservationActive).Scan(&rid)
			send(t, fleet.CtlCancelReservation, map[string]any{"reservationId": rid})
			testutil.EventuallyWithin(t, 10*time.Second, "connector 1 Available", func() bool {
				return count(`SELECT COUNT(*) FROM device_connector WHERE device_id = ? AND connector_id = 1 AND status = 'Available'`, dev) == 1
			})
		})
	})
}
