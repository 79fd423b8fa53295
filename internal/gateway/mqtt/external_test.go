package mqtt_test

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"chargeops/internal/db"
	"chargeops/internal/devstate"
	"chargeops/internal/ess"
	"chargeops/internal/fleet"
	"chargeops/internal/fleet/fleettest"
	"chargeops/internal/gateway/mqtt"
	"chargeops/internal/mqttwire"
	"chargeops/internal/testutil"
	"chargeops/internal/testutil/mosquitto"
)

// TestStorageUnitsOverMosquitto: two adapters (two nodes' worth) share one external broker,
// Debian's Mosquitto with the ACL of docs/mqtt.md: each message of a unit is handled by one
// of them, commands are answered to the node that sent them, the broker refuses a unit's
// publish to another unit's topic, and the adapters come back after the broker restarts.
func TestStorageUnitsOverMosquitto(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		const key = "ess-key-mosq-0001"
		broker := mosquitto.Start(t, mosquitto.Users{"chargeops": "chargeops-pw", "ESS-M001": key, "ESS-M002": "other-key-0002"})
		env, org, id := fleettest.Node(t, d, "ESS-M001")
		otherID := fleettest.Device(t, d, org, org.CustomerA, org.SiteA, "ESS-M002")
		var adapters []*mqtt.Adapter
		for _, node := range []string{"node-a", "node-b"} {
			bus, err := mqtt.DialExternal(context.Background(), mqtt.ExternalOptions{URL: broker.URL(), Username: "chargeops",
				Password: "chargeops-pw", ClientID: "chargeops-" + node, Log: slog.Default()})
			if err != nil {
				t.Fatal(err)
			}
			a := mqtt.New(env.App.Fleet, env.App.Fleet.Registry, bus, mqtt.Options{Node: node, Shared: true})
			if err := a.Start(); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { a.Close(); _ = bus.Close() })
			adapters = append(adapters, a)
		}
		dev, ok := dial(t, broker.Addr(), "ESS-M001", key)
		if !ok {
			t.Fatal("the broker refused the unit")
		}
		dev.birth()
		testutil.Eventually(t, "online over mqtt", func() bool {
			return testutil.Count(t, d, `SELECT COUNT(*) FROM device_state WHERE device_id = ? AND online = 1 AND protocol = ?`, id, devstate.ProtocolMQTT) == 1
		})

		t.Run("each message handled by one node", func(t *testing.T) {
			base := time.Now().UnixMilli()
			const n = 40
			for i := range n {
				dev.publish(mqttwire.Topic("ESS-M001", mqttwire.KindTelemetry), mqttwire.Telemetry{ID: "m-" + string(rune('A'+i%26)) + string(rune('a'+i/26)),
					Readings: []mqttwire.Reading{reading(base+int64(i)*1000, map[string]any{ess.SoC: 40 + i})}}, false)
			}
			testutil.Eventually(t, "every reading stored", func() bool {
				return testutil.Count(t, d, `SELECT COUNT(*) FROM device_series WHERE device_id = ? AND name = ?`, id, ess.SoC) == n
			})
			time.Sleep(300 * time.Millisecond) // a second handling would ack again by now
			dev.mu.Lock()
			acks := len(dev.got[mqttwire.Topic("ESS-M001", mqttwire.KindAck)])
			dev.mu.Unlock()
			if acks != n {
				t.Fatalf("%d acks for %d messages: a message was handled twice or not at all", acks, n)
			}
			ra, rb := adapters[0].Stats().Readings.Load(), adapters[1].Stats().Readings.Load()
			if ra+rb != n || ra == 0 || rb == 0 {
				t.Fatalf("readings per node: %d and %d (the shared subscription should split %d)", ra, rb, n)
			}
		})

		t.Run("a command is answered to the node that sent it", func(t *testing.T) {
			dev.mu.Lock()
			dev.answer = func(c mqttwire.Command) mqttwire.CommandResult {
				return mqttwire.CommandResult{ID: c.ID, Status: ess.StatusAccepted}
			}
			dev.mu.Unlock()
			root := env.Root()
			for range 3 {
				if got := fleettest.SendOne(t, root, id, fleet.CtlStorageMode, map[string]any{"mode": ess.ModePeakShaving}); got.Result != devstate.ResultSuccess {
					t.Fatalf("set mode: %+v", got)
				}
			}
		})

		t.Run("the broker refuses a unit's publish to another unit's topic", func(t *testing.T) {
			code := dev.publish(mqttwire.Topic("ESS-M002", mqttwire.KindTelemetry),
				mqttwire.Telemetry{ID: "spoof", Readings: []mqttwire.Reading{reading(time.Now().UnixMilli(), map[string]any{ess.SoC: 1})}}, false)
			if code != 0x87 {
				t.Fatalf("PUBACK reason %#x, want 0x87", code)
			}
			time.Sleep(200 * time.Millisecond)
			if n := testutil.Count(t, d, `SELECT COUNT(*) FROM device_series WHERE device_id = ?`, otherID); n != 0 {
				t.Fatalf("the other unit got %d points", n)
			}
		})

		t.Run("the adapters come back after the broker restarts", func(t *testing.T) {
			broker.Restart()
			again, ok := dial(t, broker.Addr(), "ESS-M001", key)
			if !ok {
				t.Fatal("the unit could not reconnect")
			}
			at := time.Now().UnixMilli() + 100_000
			deadline := time.Now().Add(20 * time.Second)
			// the adapters resubscribe once reconnected: the unit sends until it is acknowledged,
			// as the agent does
			for i := 0; ; i++ {
				again.publish(mqttwire.Topic("ESS-M001", mqttwire.KindTelemetry), mqttwire.Telemetry{ID: "after-restart",
					Readings: []mqttwire.Reading{reading(at, map[string]any{ess.SoC: 77})}}, false)
				time.Sleep(300 * time.Millisecond)
				if _, ok := again.acks()["after-restart"]; ok {
					break
				}
				if time.Now().After(deadline) {
					t.Fatal("no ack after the broker restarted")
				}
			}
			if n := testutil.Count(t, d, `SELECT COUNT(*) FROM device_series WHERE device_id = ? AND ts = ?`, id, at); n != 1 {
				t.Fatalf("the reading after the restart: %d rows", n)
			}
		})
	})
}
