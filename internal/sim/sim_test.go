package sim_test

import (
	"bytes"
	"context"
	"net/http"
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

func TestSimulatedFleet(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		env := apitest.New(t, d, func(c *config.Config) { c.DataDir = t.TempDir() })
		org := fleettest.Seed(t, d)
		sns := fleettest.Devices(t, d, org, "SIM-", 3)
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		st := &sim.Stats{}
		go func() {
			defer close(done)
			sim.RunStats(ctx, sim.Options{URL: "ws" + strings.TrimPrefix(env.URL, "http") + "/ocpp", SNs: sns, Speed: 60,
				MeterInterval: 6 * time.Second, FaultChance: 0.3}, st)
		}()
		defer func() { cancel(); <-done }()
		count := func(q string, args ...any) int {
			var n int
			if err := d.QueryRow(context.Background(), q, args...).Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n
		}
		testutil.EventuallyWithin(t, 10*time.Second, "all online", func() bool { return count(`SELECT COUNT(*) FROM device WHERE status <> 0`) == 3 })
		testutil.EventuallyWithin(t, 15*time.Second, "a charging session with meter values", func() bool {
			return count(`SELECT COUNT(*) FROM device_series WHERE name = 'Power.Active.Import'`) > 0
		})
		root := env.Root()
		var ids []int64
		rows, _ := d.Query(context.Background(), `SELECT id FROM device WHERE sn LIKE 'SIM-%' ORDER BY id`)
		for rows.Next() {
			var id int64
			_ = rows.Scan(&id)
			ids = append(ids, id)
		}
		rows.Close()
		send := func(ct int, params any) {
			t.Helper()
			var res fleet.SendResult
			// A charger may be busy answering an earlier command; retry briefly.
			testutil.EventuallyWithin(t, 10*time.Second, "command accepted", func() bool {
				a := root.Call("POST", "/api/auth/sys/dev/control/send", map[string]any{"deviceIds": ids[:1], "controlType": ct, "params": params})
				if a.Code != 0 {
					return false
				}
				a.Into(t, &res)
				return true
			})
			testutil.EventuallyWithin(t, 15*time.Second, "command result", func() bool {
				var v fleet.CommandView
				apitest.Must(t, root.Call("GET", "/api/auth/sys/dev/control/detail", map[string]any{"id": res.Commands[0].ID})).Into(t, &v)
				if v.Result != fleet.ResultWaiting && v.Result != fleet.ResultSuccess {
					t.Fatalf("control %d: %+v", ct, v)
				}
				return v.Result == fleet.ResultSuccess
			})
		}
		send(9, nil)
		send(11, map[string]any{"items": []map[string]string{{"key": "HeartbeatInterval", "value": "90"}}})
		send(10, map[string]any{"message": "StatusNotification"})
		send(6, nil)
		testutil.EventuallyWithin(t, 10*time.Second, "diagnostics file", func() bool {
			return count(`SELECT COUNT(*) FROM fleet_file WHERE kind = 'diagnostics' AND complete = 1 AND device_id = ?`, ids[0]) == 1
		})
		var fw struct {
			ID        int64  `json:"id"`
			UploadURL string `json:"uploadUrl"`
		}
		apitest.Must(t, root.Call("POST", "/api/auth/sys/dev/firmware/add", map[string]any{"name": "sim.bin"})).Into(t, &fw)
		req, err := http.NewRequest("PUT", env.URL+fw.UploadURL, bytes.NewReader([]byte("firmware image")))
		if err != nil {
			t.Fatal(err)
		}
		if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != 201 {
			t.Fatalf("upload: %v %v", resp, err)
		}
		send(5, map[string]any{"firmwareId": fw.ID})
		testutil.EventuallyWithin(t, 15*time.Second, "firmware installed", func() bool {
			var s string
			_ = d.QueryRow(context.Background(), `SELECT firmware_status FROM device_state WHERE device_id = ?`, ids[0]).Scan(&s)
			return s == "Installed"
		})
		// Installing ends with a reboot into the new firmware: the charger reconnects.
		testutil.EventuallyWithin(t, 15*time.Second, "reconnect after the firmware update", func() bool { return st.Connects.Load() >= 4 })
		time.Sleep(time.Second)
		send(1, nil) // soft reset: the charger reboots and reconnects again
		testutil.EventuallyWithin(t, 15*time.Second, "reconnect after reset", func() bool { return st.Connects.Load() >= 5 })
		t.Logf("%s: connects %d, frames %d, sessions %d, faults %d, commands %d", d.Dialect(), st.Connects.Load(), st.Frames.Load(),
			st.Sessions.Load(), st.Faults.Load(), st.Commands.Load())
	})
}
