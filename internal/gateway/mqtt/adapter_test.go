package mqtt_test

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"testing"
	"time"

	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/devstate"
	"chargeops/internal/ess"
	"chargeops/internal/fleet"
	"chargeops/internal/fleet/fleettest"
	"chargeops/internal/gateway/mqtt"
	"chargeops/internal/mqttwire"
	"chargeops/internal/testutil"
	"chargeops/internal/testutil/apitest"
)

// start runs the embedded broker on a free loopback port and the adapter on env's fleet; set
// changes the broker's options first (its listeners, its admission).
func start(t *testing.T, env *apitest.Env, set ...func(*mqtt.BrokerOptions)) (*mqtt.Broker, *mqtt.Adapter) {
	t.Helper()
	log := slog.Default()
	o := mqtt.BrokerOptions{Addr: "127.0.0.1:0", Log: log, Admission: &mqtt.Admission{Core: env.App.Fleet, KeyBackoff: time.Minute, Log: log}}
	for _, f := range set {
		f(&o)
	}
	b, err := mqtt.StartBroker(o)
	if err != nil {
		t.Fatal(err)
	}
	a := mqtt.New(env.App.Fleet, env.App.Fleet.Registry, b.Bus(), mqtt.Options{Node: "node-1", Log: log})
	if err := a.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close(); _ = b.Close() })
	return b, a
}

func reading(ts int64, values map[string]any) mqttwire.Reading {
	r := mqttwire.Reading{TS: ts, Values: map[string]json.RawMessage{}}
	for k, v := range values {
		r.Values[k], _ = json.Marshal(v)
	}
	return r
}

// TestStorageUnitOverEmbeddedBroker: a storage unit connects to the embedded broker with its
// SN and key, and its birth, readings, alarms, command answers and last will reach the fleet
// core; what it may not do is refused and changes nothing.
func TestStorageUnitOverEmbeddedBroker(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		env, org, id := fleettest.Node(t, d, "ESS-0001")
		otherID := fleettest.Device(t, d, org, org.CustomerA, org.SiteA, "ESS-0002")
		b, a := start(t, env)
		root := env.Root()
		// the unit's key, made by the console and shown once (docs/mqtt.md, "Credentials and ACL")
		apitest.WantCode(t, root.Call("POST", "/api/auth/sys/dev/basic/key", map[string]any{"id": id, "authKey": "short"}), apperr.Invalid)
		var made struct{ AuthKey string }
		apitest.Must(t, root.Call("POST", "/api/auth/sys/dev/basic/key", map[string]any{"id": id})).Into(t, &made)
		key := made.AuthKey
		if len(key) != 24 || testutil.Count(t, d, `SELECT COUNT(*) FROM device WHERE id = ? AND security_profile = 1 AND auth_key_hash LIKE 'hmac-sha256:%'`, id) != 1 {
			t.Fatalf("made key %q: not stored as a hash with profile 1", key)
		}

		t.Run("unknown unit refused and listed pending", func(t *testing.T) {
			if _, ok := dial(t, b.Addr(), "ESS-NOBODY", "x"); ok {
				t.Fatal("an unknown SN was admitted")
			}
			testutil.Eventually(t, "pending row", func() bool {
				return testutil.Count(t, d, `SELECT COUNT(*) FROM device_refusal WHERE sn = ? AND reason = ?`, "ESS-NOBODY", fleet.RefuseUnknown) == 1
			})
		})
		t.Run("wrong key refused", func(t *testing.T) {
			if _, ok := dial(t, b.Addr(), "ESS-0001", "wrong-key-000000"); ok {
				t.Fatal("a wrong key was admitted")
			}
		})

		dev, ok := dial(t, b.Addr(), "ESS-0001", key)
		if !ok {
			t.Fatal("the unit's own key was refused")
		}
		t.Run("birth marks the unit online over mqtt", func(t *testing.T) {
			dev.birth()
			testutil.Eventually(t, "online over mqtt", func() bool {
				return testutil.Count(t, d, `SELECT COUNT(*) FROM device_state WHERE device_id = ? AND online = 1 AND protocol = ?`, id, devstate.ProtocolMQTT) == 1
			})
			testutil.Eventually(t, "capacity kept", func() bool {
				return testutil.Count(t, d, `SELECT COUNT(*) FROM device_runtime WHERE device_id = ? AND name = ? AND value = '200000'`, id, ess.Capacity) == 1
			})
		})

		now := time.Now().UnixMilli()
		t.Run("readings stored and acknowledged, a replay adds nothing", func(t *testing.T) {
			msg := mqttwire.Telemetry{ID: "t-1", Readings: []mqttwire.Reading{
				reading(now-10_000, map[string]any{ess.SoC: 55.5, ess.BatteryPower: -20000, ess.PCSState: ess.StateCharging, ess.PCSMode: ess.ModeSelfConsumption}),
				reading(now-5_000, map[string]any{ess.SoC: 55.9, ess.BatteryPower: -19500, ess.EnergyCharged: 1234.5}),
			}}
			dev.publish(mqttwire.Topic("ESS-0001", mqttwire.KindTelemetry), msg, false)
			if ack := dev.waitAck("t-1"); !ack.OK {
				t.Fatalf("ack: %+v", ack)
			}
			if n := testutil.Count(t, d, `SELECT COUNT(*) FROM device_series WHERE device_id = ? AND name = ?`, id, ess.SoC); n != 2 {
				t.Fatalf("SoC points: %d", n)
			}
			if n := testutil.Count(t, d, `SELECT COUNT(*) FROM device_runtime WHERE device_id = ? AND name = ? AND value = ?`, id, ess.PCSState, ess.StateCharging); n != 1 {
				t.Fatalf("state latest value: %d", n)
			}
			msg.ID = "t-1-again"
			dev.publish(mqttwire.Topic("ESS-0001", mqttwire.KindTelemetry), msg, false)
			dev.waitAck("t-1-again")
			if n := testutil.Count(t, d, `SELECT COUNT(*) FROM device_series WHERE device_id = ? AND name = ?`, id, ess.SoC); n != 2 {
				t.Fatalf("a replay added points: %d", n)
			}
		})

		t.Run("malformed payloads answered with the reason, nothing stored", func(t *testing.T) {
			before := testutil.Count(t, d, `SELECT COUNT(*) FROM device_series WHERE device_id = ?`, id)
			cases := map[string]any{
				"m-text":  mqttwire.Telemetry{ID: "m-text", Readings: []mqttwire.Reading{reading(now, map[string]any{ess.SoC: "full"})}},
				"m-state": mqttwire.Telemetry{ID: "m-state", Readings: []mqttwire.Reading{reading(now, map[string]any{ess.PCSState: "exploding"})}},
				"m-ts":    mqttwire.Telemetry{ID: "m-ts", Readings: []mqttwire.Reading{reading(0, map[string]any{ess.SoC: 50})}},
				"m-name":  mqttwire.Telemetry{ID: "m-name", Readings: []mqttwire.Reading{reading(now, map[string]any{"bad name!": 1})}},
				"m-extra": []byte(`{"id":"m-extra","readings":[{"ts":1,"values":{"Battery.SoC":1}}],"surprise":1}`),
				"m-half":  mqttwire.Telemetry{ID: "m-half", Readings: []mqttwire.Reading{reading(now+1, map[string]any{ess.SoC: 50}), reading(now+2, map[string]any{ess.SoC: true})}},
				"m-alarm": mqttwire.AlarmReport{ID: "m-alarm", TS: now, Alarms: []mqttwire.Alarm{{Code: "ESS.NotASource", Active: true}}},
			}
			for want, msg := range cases {
				topic := mqttwire.Topic("ESS-0001", mqttwire.KindTelemetry)
				if _, isAlarm := msg.(mqttwire.AlarmReport); isAlarm {
					topic = mqttwire.Topic("ESS-0001", mqttwire.KindAlarms)
				}
				dev.publish(topic, msg, false)
				if want == "m-extra" {
					continue // its id is read, the unknown field refused: acknowledged under it below
				}
				if ack := dev.waitAck(want); ack.OK || ack.Error == "" {
					t.Errorf("%s: %+v", want, ack)
				}
			}
			if ack := dev.waitAck("m-extra"); ack.OK {
				t.Errorf("m-extra: %+v", ack)
			}
			if after := testutil.Count(t, d, `SELECT COUNT(*) FROM device_series WHERE device_id = ?`, id); after != before {
				t.Fatalf("malformed messages stored points: %d → %d", before, after)
			}
			if a.Stats().Malformed.Load() < int64(len(cases)) {
				t.Fatalf("malformed counted: %d", a.Stats().Malformed.Load())
			}
			// each is in the protocol log with its payload
			testutil.Eventually(t, "the malformed message in the protocol log", func() bool {
				return testutil.Count(t, d, `SELECT COUNT(*) FROM protocol_log WHERE sn = ? AND data LIKE ?`, "ESS-0001", "%m-state%") > 0
			})
		})

		t.Run("a unit cannot publish for another unit", func(t *testing.T) {
			refused := b.Refused.Load()
			code := dev.publish(mqttwire.Topic("ESS-0002", mqttwire.KindTelemetry),
				mqttwire.Telemetry{ID: "spoof", Readings: []mqttwire.Reading{reading(now, map[string]any{ess.SoC: 1})}}, false)
			if code != 0x87 {
				t.Fatalf("PUBACK reason %#x, want 0x87 not authorised", code)
			}
			if b.Refused.Load() != refused+1 {
				t.Fatal("the refusal is not counted")
			}
			time.Sleep(200 * time.Millisecond)
			if n := testutil.Count(t, d, `SELECT COUNT(*) FROM device_series WHERE device_id = ?`, otherID); n != 0 {
				t.Fatalf("the other unit got %d points", n)
			}
		})

		t.Run("alarms open and a full report ends the rest", func(t *testing.T) {
			dev.publish(mqttwire.Topic("ESS-0001", mqttwire.KindAlarms), mqttwire.AlarmReport{ID: "a-1", TS: now, Alarms: []mqttwire.Alarm{
				{Code: "BMS.CellOverTemperature", Active: true, Info: "cell 12: 58.1 °C"}, {Code: "PCS.FanFault", Active: true}}}, false)
			if ack := dev.waitAck("a-1"); !ack.OK {
				t.Fatalf("ack: %+v", ack)
			}
			open := func(code string) int {
				return testutil.Count(t, d, `SELECT COUNT(*) FROM device_event WHERE device_id = ? AND code = ? AND status = ?`, id, code, devstate.EventOpen)
			}
			if open("BMS.CellOverTemperature") != 1 || open("PCS.FanFault") != 1 {
				t.Fatal("alarms not open")
			}
			if n := testutil.Count(t, d, `SELECT COUNT(*) FROM device_event WHERE device_id = ? AND code = ? AND kind = ? AND level = ?`,
				id, "BMS.CellOverTemperature", devstate.KindFault, devstate.LevelCA); n != 1 {
				t.Fatal("a cell over-temperature is a critical fault")
			}
			dev.publish(mqttwire.Topic("ESS-0001", mqttwire.KindAlarms), mqttwire.AlarmReport{ID: "a-2", TS: now + 1000, Full: true,
				Alarms: []mqttwire.Alarm{{Code: "PCS.FanFault", Active: true}}}, false)
			dev.waitAck("a-2")
			if open("BMS.CellOverTemperature") != 0 || open("PCS.FanFault") != 1 {
				t.Fatal("the full report did not end the unlisted alarm only")
			}
		})

		t.Run("commands go out and their answers come back", func(t *testing.T) {
			dev.mu.Lock()
			dev.answer = func(c mqttwire.Command) mqttwire.CommandResult {
				switch c.Name {
				case ess.CmdSetPower:
					if *c.Params.PowerW > 50000 {
						return mqttwire.CommandResult{ID: c.ID, Status: ess.StatusRejected, Message: "over the discharge rate"}
					}
					return mqttwire.CommandResult{ID: c.ID, Status: ess.StatusAccepted, Values: map[string]json.RawMessage{ess.PCSSetpoint: json.RawMessage(fmt.Sprint(*c.Params.PowerW))}}
				case ess.CmdGetConfig:
					return mqttwire.CommandResult{ID: c.ID, Status: ess.StatusAccepted, Items: []ess.Item{{Key: "PeakLimitW", Value: "80000"}, {Key: "WHRtg", Value: "200000", Readonly: true}}}
				}
				return mqttwire.CommandResult{ID: c.ID, Status: ess.StatusNotSupported}
			}
			dev.mu.Unlock()
			ok := fleettest.SendOne(t, root, id, fleet.CtlStoragePower, map[string]any{"powerW": 30000})
			if ok.Result != devstate.ResultSuccess {
				t.Fatalf("set power: %+v", ok)
			}
			no := fleettest.SendOne(t, root, id, fleet.CtlStoragePower, map[string]any{"powerW": 90000})
			if no.Result != devstate.ResultFailed || no.Message == "" {
				t.Fatalf("set power over the rate: %+v", no)
			}
			cfg := fleettest.SendOne(t, root, id, fleet.CtlGetConfiguration, map[string]any{})
			if cfg.Result != devstate.ResultSuccess {
				t.Fatalf("get config: %+v", cfg)
			}
			if n := testutil.Count(t, d, `SELECT COUNT(*) FROM device_config WHERE device_id = ? AND key = 'PeakLimitW' AND value = '80000'`, id); n != 1 {
				t.Fatalf("config not stored: %d", n)
			}
			bad := fleettest.SendOne(t, root, id, fleet.CtlClearCache, map[string]any{})
			if bad.Result != devstate.ResultFailed || bad.Message != "Not supported by this device" {
				t.Fatalf("a charger's command on a storage unit: %+v", bad)
			}
		})

		t.Run("the last will marks the unit offline", func(t *testing.T) {
			dev.drop()
			testutil.Eventually(t, "offline", func() bool {
				return testutil.Count(t, d, `SELECT COUNT(*) FROM device_state WHERE device_id = ? AND online = 0`, id) == 1
			})
		})
	})
}
