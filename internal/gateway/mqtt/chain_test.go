package mqtt_test

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"chargeops/internal/agent"
	"chargeops/internal/db"
	"chargeops/internal/devstate"
	"chargeops/internal/ess"
	"chargeops/internal/fleet"
	"chargeops/internal/fleet/fleettest"
	"chargeops/internal/gateway/mqtt"
	"chargeops/internal/sunspec"
	"chargeops/internal/testutil"
	"chargeops/internal/testutil/mosquitto"
)

// The whole chain with real parts (issue 26): a SunSpec battery system served over Modbus TCP
// (sunspec.Sim, read with simonvetter/modbus), the edge agent, a broker, the adapter, the
// database. Only the battery is simulated.

const chainPoll = 100 * time.Millisecond

// runAgent runs the agent for one unit against broker until the test ends.
func runAgent(t *testing.T, broker, sn, key, modbus string) *agent.Agent {
	t.Helper()
	ag, err := agent.New(agent.Config{Broker: []string{broker}, BufferDir: t.TempDir(),
		Units: []agent.UnitConfig{{SN: sn, Key: key, Modbus: modbus, UnitID: 1, Interval: chainPoll}}},
		slog.Default(), agent.Options{ReconnectDelay: 200 * time.Millisecond, AckTimeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _ = ag.Run(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	return ag
}

func acked(ag *agent.Agent, sn string) uint64 {
	st, _ := ag.Stats(sn)
	return st.Acked
}

// TestAgentToEmbeddedBroker: the agent reads the battery and publishes it; the console's
// commands become Modbus writes read back from the battery; a BMS fault opens an alarm.
func TestAgentToEmbeddedBroker(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		env, _, id := fleettest.Node(t, d, "ESS-C001")
		const key = "ess-key-chain-0001"
		fleettest.Secure(t, d, id, env.App.Fleet.HashAuthKey("ESS-C001", key), 1)
		b, _ := start(t, env)
		sim, err := sunspec.StartSim(sunspec.SimOptions{Vendor: "Harbour Power", Model: "BESS-200kWh", Serial: "ESS-C001", CapacityWh: 200_000, RatedPowerW: 100_000, SoC: 60})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = sim.Close() })
		ag := runAgent(t, "mqtt://"+b.Addr(), "ESS-C001", key, sim.URL())

		testutil.Eventually(t, "readings stored", func() bool {
			return testutil.Count(t, d, `SELECT COUNT(*) FROM device_series WHERE device_id = ? AND name = ?`, id, ess.SoC) >= 5
		})
		if n := testutil.Count(t, d, `SELECT COUNT(*) FROM device_state WHERE device_id = ? AND online = 1 AND protocol = ?`, id, devstate.ProtocolMQTT); n != 1 {
			t.Fatal("the unit is not online over mqtt")
		}
		if n := testutil.Count(t, d, `SELECT COUNT(*) FROM device_runtime WHERE device_id = ? AND name = ? AND value = '200000'`, id, ess.Capacity); n != 1 {
			t.Fatal("the capacity of the birth is not kept")
		}

		root := env.Root()
		t.Run("a power setpoint is written to the battery and read back", func(t *testing.T) {
			got := fleettest.SendOne(t, root, id, fleet.CtlStoragePower, map[string]any{"powerW": -20000})
			if got.Result != devstate.ResultSuccess {
				t.Fatalf("set power: %+v", got)
			}
			if v := sim.Values(); v[ess.PCSSetpoint] != -20000.0 || v[ess.PCSMode] != ess.ModeManual {
				t.Fatalf("the battery holds setpoint %v in mode %v", v[ess.PCSSetpoint], v[ess.PCSMode])
			}
			over := fleettest.SendOne(t, root, id, fleet.CtlStoragePower, map[string]any{"powerW": 500000})
			if over.Result != devstate.ResultFailed {
				t.Fatalf("a setpoint over the rating: %+v", over)
			}
		})
		t.Run("configuration read and written through the model's items", func(t *testing.T) {
			if got := fleettest.SendOne(t, root, id, fleet.CtlGetConfiguration, map[string]any{}); got.Result != devstate.ResultSuccess {
				t.Fatalf("get config: %+v", got)
			}
			if n := testutil.Count(t, d, `SELECT COUNT(*) FROM device_config WHERE device_id = ? AND key = 'PeakLimitW'`, id); n != 1 {
				t.Fatal("the unit's configuration is not stored")
			}
			got := fleettest.SendOne(t, root, id, fleet.CtlChangeConfig, map[string]any{"items": []map[string]string{{"key": "PeakLimitW", "value": "42000"}}})
			if got.Result != devstate.ResultSuccess {
				t.Fatalf("set config: %+v", got)
			}
			if n := testutil.Count(t, d, `SELECT COUNT(*) FROM device_config WHERE device_id = ? AND key = 'PeakLimitW' AND value = '42000'`, id); n != 1 {
				t.Fatal("the written value is not stored")
			}
		})
		t.Run("a BMS fault opens an alarm, a fault reset ends it", func(t *testing.T) {
			sim.SetAlarm("BMS.CellOverTemperature", true)
			open := func() int {
				return testutil.Count(t, d, `SELECT COUNT(*) FROM device_event WHERE device_id = ? AND code = ? AND status = ?`, id, "BMS.CellOverTemperature", devstate.EventOpen)
			}
			testutil.Eventually(t, "alarm open", func() bool { return open() == 1 })
			sim.SetAlarm("BMS.CellOverTemperature", false)
			if got := fleettest.SendOne(t, root, id, fleet.CtlStorageFaultReset, map[string]any{}); got.Result != devstate.ResultSuccess {
				t.Fatalf("fault reset: %+v", got)
			}
			testutil.Eventually(t, "alarm ended", func() bool { return open() == 0 })
		})
		if acked(ag, "ESS-C001") == 0 {
			t.Fatal("the agent counts no acknowledged readings")
		}
	})
}

// TestAgentThroughBrokerRestartLosesNothing: the broker (Mosquitto) is away for two seconds
// while the agent keeps reading; afterwards every reading the agent took is stored, in order,
// with no gap where the broker was away.
func TestAgentThroughBrokerRestartLosesNothing(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		const key = "ess-key-chain-0002"
		broker := mosquitto.Start(t, mosquitto.Users{"chargeops": "chargeops-pw", "ESS-C002": key})
		env, _, id := fleettest.Node(t, d, "ESS-C002")
		bus, err := mqtt.DialExternal(context.Background(), mqtt.ExternalOptions{URL: broker.URL(), Username: "chargeops", Password: "chargeops-pw",
			ClientID: "chargeops-node-a", Log: slog.Default()})
		if err != nil {
			t.Fatal(err)
		}
		a := mqtt.New(env.App.Fleet, env.App.Fleet.Registry, bus, mqtt.Options{Node: "node-a", Shared: true})
		if err := a.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { a.Close(); _ = bus.Close() })
		sim, err := sunspec.StartSim(sunspec.SimOptions{Serial: "ESS-C002", SoC: 50})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = sim.Close() })
		ag := runAgent(t, broker.URL(), "ESS-C002", key, sim.URL())
		testutil.Eventually(t, "readings before the outage", func() bool { return acked(ag, "ESS-C002") >= 10 })
		outage := time.Now()
		broker.RestartAfter(2 * time.Second)
		back := time.Now()
		testutil.EventuallyWithin(t, 30*time.Second, "readings after the outage", func() bool {
			st, _ := ag.Stats("ESS-C002")
			return st.Connected && st.Buffered == 0 && testutil.Count(t, d, `SELECT COUNT(*) FROM device_series WHERE device_id = ? AND name = ? AND ts > ?`,
				id, ess.SoC, back.Add(time.Second).UnixMilli()) > 5
		})
		ts, err := db.Column[int64](context.Background(), d, `SELECT ts FROM device_series WHERE device_id = ? AND name = ? ORDER BY ts`, id, ess.SoC)
		if err != nil {
			t.Fatal(err)
		}
		covered := false
		for i := 1; i < len(ts); i++ {
			if gap := time.Duration(ts[i]-ts[i-1]) * time.Millisecond; gap > 5*chainPoll {
				t.Fatalf("a gap of %v in the stored readings at %v (outage %v to %v)", gap, time.UnixMilli(ts[i-1]), outage, back)
			}
			if ts[i-1] < outage.UnixMilli() && ts[i] > back.UnixMilli() {
				t.Fatal("no reading of the outage was stored")
			}
			if ts[i] > outage.UnixMilli() && ts[i] < back.UnixMilli() {
				covered = true
			}
		}
		if !covered {
			t.Fatalf("no reading taken while the broker was away was stored (%d readings)", len(ts))
		}
		st, _ := ag.Stats("ESS-C002")
		if st.Dropped != 0 {
			t.Fatalf("the agent dropped %d readings", st.Dropped)
		}
	})
}
