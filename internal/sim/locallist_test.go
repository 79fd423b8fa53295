package sim_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"chargeops/internal/db"
	"chargeops/internal/fleet"
	"chargeops/internal/fleet/fleettest"
	"chargeops/internal/sim"
	"chargeops/internal/testutil"
	"chargeops/internal/testutil/apitest"
	"chargeops/internal/token"
)

func TestSimulatedChargerKeepsALocalList(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		env := apitest.New(t, d, nil)
		org := fleettest.Seed(t, d)
		sns := fleettest.Devices(t, d, org, "SIMLL-", 1)
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() {
			defer close(done)
			// no sessions during the test: the connectors stay idle for a simulated week
			sim.RunStats(ctx, sim.Options{URL: "ws" + strings.TrimPrefix(env.URL, "http") + "/ocpp", SNs: sns, Speed: 1, MeterInterval: time.Hour}, &sim.Stats{})
		}()
		defer func() { cancel(); <-done }()
		var id int64
		if err := d.QueryRow(context.Background(), `SELECT id FROM device WHERE sn = ?`, sns[0]).Scan(&id); err != nil {
			t.Fatal(err)
		}
		testutil.EventuallyWithin(t, 10*time.Second, "online", func() bool {
			var n int
			_ = d.QueryRow(context.Background(), `SELECT online FROM device_state WHERE device_id = ?`, id).Scan(&n)
			return n == 1
		})
		root := env.Root()
		for _, tag := range []string{"SIM-CARD-1", "SIM-CARD-2"} {
			apitest.Must(t, root.Call("POST", "/api/auth/sys/token/add", map[string]any{"customerId": org.CustomerA, "idTag": tag}))
		}
		run := func(ct int, params any) fleet.CommandView {
			t.Helper()
			var res fleet.SendResult
			testutil.EventuallyWithin(t, 10*time.Second, "command accepted", func() bool {
				a := root.Call("POST", "/api/auth/sys/dev/control/send", map[string]any{"deviceIds": []int64{id}, "controlType": ct, "params": params})
				if a.Code != 0 {
					return false
				}
				a.Into(t, &res)
				return true
			})
			var v fleet.CommandView
			testutil.EventuallyWithin(t, 10*time.Second, "command result", func() bool {
				apitest.Must(t, root.Call("GET", "/api/auth/sys/dev/control/detail", map[string]any{"id": res.Commands[0].ID})).Into(t, &v)
				return v.Result != fleet.ResultWaiting
			})
			return v
		}
		state := func() token.ListState {
			var st token.ListState
			apitest.Must(t, root.Call("GET", "/api/auth/sys/token/locallist/state", map[string]any{"deviceId": id})).Into(t, &st)
			return st
		}
		t.Run("GetConfiguration reports SendLocalListMaxLength", func(t *testing.T) {
			if v := run(fleet.CtlGetConfiguration, map[string]any{}); v.Result != fleet.ResultSuccess {
				t.Fatalf("%+v", v)
			}
			if st := state(); st.MaxLength != 1000 || st.Enabled == nil || !*st.Enabled {
				t.Fatalf("%+v", st)
			}
		})
		t.Run("GetLocalListVersion answers 0 before any list", func(t *testing.T) {
			if v := run(fleet.CtlGetLocalListVersion, nil); v.Result != fleet.ResultSuccess || !strings.Contains(v.Answer, `"listVersion":0`) {
				t.Fatalf("%+v", v)
			}
			if st := state(); !st.HeldKnown || st.HeldVersion != 0 || st.InSync {
				t.Fatalf("%+v", st)
			}
		})
		t.Run("SendLocalList Full is accepted and then held", func(t *testing.T) {
			if v := run(fleet.CtlSendLocalList, map[string]any{"updateType": "Full"}); v.Result != fleet.ResultSuccess {
				t.Fatalf("%+v", v)
			}
			if v := run(fleet.CtlGetLocalListVersion, nil); v.Result != fleet.ResultSuccess {
				t.Fatalf("%+v", v)
			}
			if st := state(); !st.InSync || st.HeldVersion == 0 {
				t.Fatalf("%+v", st)
			}
		})
		t.Run("a differential with nothing new is refused before it is sent", func(t *testing.T) {
			a := root.Call("POST", "/api/auth/sys/token/locallist/send", map[string]any{"deviceId": id, "updateType": "Differential"})
			if a.Code == 0 {
				t.Fatalf("%+v", a)
			}
		})
	})
}
