package httpapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"chargeops/internal/config"
	"chargeops/internal/db"
	"chargeops/internal/fleet"
	"chargeops/internal/fleet/fleettest"
	"chargeops/internal/i18n"
	"chargeops/internal/testutil"
	"chargeops/internal/testutil/apitest"
)

// lvCharger is an OCPP-J 1.6 charger on a raw WebSocket: it answers GetConfiguration with its
// keys (including, like a careless firmware, its AuthorizationKey), accepts every other call,
// and records each call it got, so a test sees exactly what reached the device.
type lvCharger struct {
	mu     sync.Mutex
	calls  []lvCall
	config []map[string]any
}

type lvCall struct {
	Action  string
	Payload json.RawMessage
}

func lvConnect(t *testing.T, env *apitest.Env, sn string, config []map[string]any) *lvCharger {
	t.Helper()
	ch := &lvCharger{config: config}
	dialer := websocket.Dialer{Subprotocols: []string{"ocpp1.6"}}
	conn, _, err := dialer.Dial("ws"+strings.TrimPrefix(env.URL, "http")+"/ocpp/"+sn, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	go func() {
		for {
			_, msg, err := conn.ReadMessage()
			if err != nil {
				return
			}
			var frame []json.RawMessage
			if json.Unmarshal(msg, &frame) != nil || len(frame) != 4 || string(frame[0]) != "2" {
				continue
			}
			var action string
			_ = json.Unmarshal(frame[2], &action)
			ch.mu.Lock()
			ch.calls = append(ch.calls, lvCall{action, frame[3]})
			answer := any(map[string]string{"status": "Accepted"})
			if action == "GetConfiguration" {
				answer = map[string]any{"configurationKey": ch.config}
			}
			ch.mu.Unlock()
			b, _ := json.Marshal(answer)
			_ = conn.WriteMessage(websocket.TextMessage, fmt.Appendf(nil, `[3,%s,%s]`, frame[1], b))
		}
	}()
	lvWait(t, "charger online", func() bool { _, ok := env.App.Fleet.Registry.Lookup(sn); return ok })
	return ch
}

// got returns the calls of one action the charger received.
func (c *lvCharger) got(action string) []json.RawMessage {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []json.RawMessage
	for _, x := range c.calls {
		if x.Action == action {
			out = append(out, x.Payload)
		}
	}
	return out
}

func lvWait(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("timed out waiting for %s", what)
}

// lvSend sends a remote operation to one device; on success it waits for the command's end.
func lvSend(t *testing.T, c *apitest.Client, deviceID int64, ct int, params any) (apitest.Answer, fleet.CommandView) {
	t.Helper()
	a := c.Call("POST", "/api/auth/sys/dev/control/send", map[string]any{"deviceIds": []int64{deviceID}, "controlType": ct, "params": params})
	var v fleet.CommandView
	if a.Code != 0 {
		return a, v
	}
	var res fleet.SendResult
	a.Into(t, &res)
	lvWait(t, "command result", func() bool {
		apitest.Must(t, c.Call("GET", "/api/auth/sys/dev/control/detail", map[string]any{"id": res.Commands[0].ID})).Into(t, &v)
		return v.Result != fleet.ResultWaiting
	})
	if v.Result != fleet.ResultSuccess {
		t.Fatalf("control %d: result %d %s", ct, v.Result, v.Message)
	}
	return a, v
}

// lvItem adds a config or param item to a model.
func lvItem(t *testing.T, d *db.DB, modelID int64, kind, key string, read, write int, dataType, dataRange string) {
	t.Helper()
	now := db.NowMS()
	if _, err := d.Exec(context.Background(), `INSERT INTO model_item (model_id, kind, config_item, protocol_key, read_level, write_level, data_type, data_range, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, modelID, kind, key, key, read, write, dataType, dataRange, now, now); err != nil {
		t.Fatal(err)
	}
}

// lvControl adds a control item to a model.
func lvControl(t *testing.T, d *db.DB, modelID int64, code, level int) {
	t.Helper()
	now := db.NowMS()
	if _, err := d.Exec(context.Background(), `INSERT INTO model_item (model_id, kind, control_name, control_type_code, control_level, created_at, updated_at)
		VALUES (?, 'control', ?, ?, ?, ?, ?)`, modelID, fmt.Sprintf("control %d", code), code, level, now, now); err != nil {
		t.Fatal(err)
	}
}

// lvUser makes a user whose role may operate devices, with the given data settings.
func lvUser(t *testing.T, env *apitest.Env, root *apitest.Client, name string, settings map[string]any) *apitest.Client {
	t.Helper()
	_, roleID := env.CreateUser(root, name, "Level#Pass123", "auth_device_edit", "auth_device_detail")
	body := map[string]any{"id": roleID, "customerAccess": 0, "siteAccess": 0, "webSshAccess": 0, "webSshLevel": 5,
		"cfgReadLevel": 5, "cfgWriteLevel": 5, "cfgDownloadLevel": 5, "paramLevel": 5, "docLevel": 5, "attachLevel": 5}
	for k, v := range settings {
		body[k] = v
	}
	apitest.Must(t, root.Call("POST", "/api/auth/sys/role/auth/data", body))
	return env.Client().MustLogin(name, "Level#Pass123")
}

func lvKeys(t *testing.T, raw string) []string {
	t.Helper()
	var doc struct {
		ConfigurationKey []struct {
			Key   string `json:"key"`
			Value string `json:"value"`
		} `json:"configurationKey"`
	}
	if err := json.Unmarshal([]byte(raw), &doc); err != nil {
		t.Fatalf("answer %q: %v", raw, err)
	}
	var keys []string
	for _, k := range doc.ConfigurationKey {
		keys = append(keys, k.Key+"="+k.Value)
	}
	return keys
}

func lvHas(list []string, s string) bool {
	for _, x := range list {
		if strings.HasPrefix(x, s) {
			return true
		}
	}
	return false
}

const lvChargerKey = "charger-key-0123456789abcdef"

func lvConfig() []map[string]any {
	return []map[string]any{
		{"key": "HeartbeatInterval", "readonly": false, "value": "60"},
		{"key": "MeterValueSampleInterval", "readonly": false, "value": "30"},
		{"key": "MaxCurrent", "readonly": false, "value": "16"},
		{"key": "NumberOfConnectors", "readonly": true, "value": "2"},
		{"key": "AuthorizationKey", "readonly": false, "value": lvChargerKey},
	}
}

// TestConfigLevelsEnforcedByServer (issue 7, finding 9): config write/read/download levels, the
// parameter level, read-only keys, value ranges and WEB/SSH access hold on the server, whatever
// the console offers.
func TestConfigLevelsEnforcedByServer(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		env := apitest.New(t, d, func(c *config.Config) { c.CommandTimeout, c.DataDir = 3*time.Second, t.TempDir() })
		org := fleettest.Seed(t, d)
		dev := fleettest.Device(t, d, org, org.CustomerA, org.SiteA, "LEVEL-0001")
		lvItem(t, d, org.ModelID, "config", "HeartbeatInterval", 2, 2, "int", "10~3600")
		lvItem(t, d, org.ModelID, "config", "MeterValueSampleInterval", 1, 1, "int", "5~600")
		lvItem(t, d, org.ModelID, "param", "MaxCurrent", 3, 2, "int", "6~32")
		for _, code := range []int{1, 7, 8, 9, 11} {
			lvControl(t, d, org.ModelID, code, 3)
		}
		root := env.Root()
		ch := lvConnect(t, env, "LEVEL-0001", lvConfig())
		lvSend(t, root, dev, fleet.CtlGetConfiguration, nil) // the device's keys, read-only flags included
		user := lvUser(t, env, root, "level_two", map[string]any{"cfgReadLevel": 2, "cfgWriteLevel": 2, "cfgDownloadLevel": 3, "paramLevel": 3})
		set := func(c *apitest.Client, key, value string) apitest.Answer {
			a, _ := lvSend(t, c, dev, fleet.CtlChangeConfig, map[string]any{"items": []map[string]string{{"key": key, "value": value}}})
			return a
		}
		changes := func() int { return len(ch.got("ChangeConfiguration")) }

		t.Run("write level 2 changes a level-2 item within its range", func(t *testing.T) {
			apitest.Must(t, set(user, "HeartbeatInterval", "120"))
		})
		t.Run("write level 2 cannot change a level-1 item", func(t *testing.T) {
			before := changes()
			apitest.WantCode(t, set(user, "MeterValueSampleInterval", "40"), 20013)
			if changes() != before {
				t.Fatal("the charger got the change")
			}
		})
		t.Run("write level 2 cannot set AuthorizationKey", func(t *testing.T) {
			apitest.WantCode(t, set(user, "AuthorizationKey", "attacker-key-000000000"), 20013)
		})
		t.Run("write level 2 cannot set a key the model does not list", func(t *testing.T) {
			apitest.WantCode(t, set(user, "VendorBackdoor", "1"), 20013)
		})
		t.Run("a key differing only in case is held to the model item", func(t *testing.T) {
			apitest.WantCode(t, set(user, "metervaluesampleinterval", "40"), 20013)
		})
		t.Run("parameter level 3 cannot change a param item of write level 2", func(t *testing.T) {
			apitest.WantCode(t, set(user, "MaxCurrent", "20"), 20013)
		})
		t.Run("out-of-range values are refused and nothing is sent", func(t *testing.T) {
			before := changes()
			for _, v := range []string{"abc", "5", "3601", "60.5", ""} {
				a := set(user, "HeartbeatInterval", v)
				apitest.WantCode(t, a, 10001)
				if !strings.Contains(a.Message, i18n.FieldName(i18n.EnUS, "params.items[0].value")) {
					t.Fatalf("value %q: message %q does not name the field", v, a.Message)
				}
			}
			apitest.WantCode(t, set(root, "HeartbeatInterval", "abc"), 10001)
			if changes() != before {
				t.Fatal("the charger got an out-of-range value")
			}
		})
		t.Run("a read-only key is refused even to root", func(t *testing.T) {
			apitest.WantCode(t, set(root, "NumberOfConnectors", "4"), 10001)
		})
		t.Run("WEB/SSH disabled cannot start or stop a VPN", func(t *testing.T) {
			a, _ := lvSend(t, user, dev, fleet.CtlVPNStart, nil)
			apitest.WantCode(t, a, 20013)
			a, _ = lvSend(t, user, dev, fleet.CtlVPNStop, nil)
			apitest.WantCode(t, a, 20013)
			if n := len(ch.got("DataTransfer")); n != 0 {
				t.Fatalf("the charger got %d DataTransfer calls", n)
			}
		})
		t.Run("web engineer opens a web link as engineer, never SSH", func(t *testing.T) {
			eng := lvUser(t, env, root, "web_engineer", map[string]any{"webSshAccess": 3, "webSshLevel": 3})
			a, _ := lvSend(t, eng, dev, fleet.CtlVPNStart, map[string]any{"link": "ssh"})
			apitest.WantCode(t, a, 20013)
			// The console sends a permitted VPN start through the link service (internal/remote),
			// which sends the fleet's command as here; the account comes from the role, never
			// from the caller.
			var engID int64
			if err := env.DB.QueryRow(context.Background(), `SELECT id FROM app_user WHERE user_name = ?`, "web_engineer").Scan(&engID); err != nil {
				t.Fatal(err)
			}
			p, err := env.App.Auth.PrincipalOf(context.Background(), engID)
			if err != nil {
				t.Fatal(err)
			}
			res, err := env.App.Fleet.Send(context.Background(), p, fleet.SendInput{DeviceIDs: []int64{dev}, ControlType: fleet.CtlVPNStart,
				Params: fleet.Params{Link: "web", Data: `{"account":"root"}`}})
			if err != nil || len(res.Commands) != 1 {
				t.Fatalf("VPN start: %v %+v", err, res)
			}
			lvWait(t, "the VPN start's DataTransfer", func() bool { return len(ch.got("DataTransfer")) == 1 })
			got := ch.got("DataTransfer")
			var req struct {
				Data string `json:"data"`
			}
			if len(got) != 1 || json.Unmarshal(got[0], &req) != nil || req.Data != `{"link":"web","account":"engineer"}` {
				t.Fatalf("charger got %s", got)
			}
			low := lvUser(t, env, root, "web_engineer_low", map[string]any{"webSshAccess": 3, "webSshLevel": 4})
			a, _ = lvSend(t, low, dev, fleet.CtlVPNStart, nil)
			apitest.WantCode(t, a, 20013)
		})
		t.Run("GetConfiguration answers hide items above the read level", func(t *testing.T) {
			_, v := lvSend(t, user, dev, fleet.CtlGetConfiguration, nil)
			keys := lvKeys(t, v.Answer)
			if !lvHas(keys, "HeartbeatInterval=") || !lvHas(keys, "MaxCurrent=") || lvHas(keys, "MeterValueSampleInterval") {
				t.Fatalf("level-2 reader sees %v", keys)
			}
			if !lvHas(keys, "AuthorizationKey=***") {
				t.Fatalf("AuthorizationKey not masked: %v", keys)
			}
			var list struct {
				List []fleet.CommandView `json:"list"`
			}
			apitest.Must(t, user.Call("POST", "/api/auth/sys/dev/control/list", map[string]any{"deviceId": dev, "page": 1, "pageSize": 100})).Into(t, &list)
			for _, c := range list.List {
				if strings.Contains(c.Answer, "MeterValueSampleInterval") || strings.Contains(string(c.Params), "MeterValueSampleInterval") {
					t.Fatalf("command %d shows a level-1 item: %s %s", c.ID, c.Params, c.Answer)
				}
			}
			// Root's own answer still lists every key.
			_, rv := lvSend(t, root, dev, fleet.CtlGetConfiguration, nil)
			if !lvHas(lvKeys(t, rv.Answer), "MeterValueSampleInterval=") {
				t.Fatalf("root sees %s", rv.Answer)
			}
		})
		t.Run("config values hide items above the read level", func(t *testing.T) {
			var cfg []fleet.ConfigItem
			apitest.Must(t, user.Call("GET", "/api/auth/sys/dev/config/values", map[string]any{"deviceId": dev})).Into(t, &cfg)
			var keys []string
			for _, it := range cfg {
				keys = append(keys, it.Key)
			}
			if !lvHas(keys, "HeartbeatInterval") || lvHas(keys, "MeterValueSampleInterval") {
				t.Fatalf("level-2 reader sees %v", keys)
			}
		})
		t.Run("config download level 4 cannot read the configuration off the device", func(t *testing.T) {
			low := lvUser(t, env, root, "download_four", map[string]any{"cfgDownloadLevel": 4})
			a, _ := lvSend(t, low, dev, fleet.CtlGetConfiguration, nil)
			apitest.WantCode(t, a, 20013)
		})
	})
}

// TestChargerKeyNeverShown (issue 7, finding 2): the AuthorizationKey reaches the charger but
// no command row, command answer or config value shows it; only root or config write level 0
// may set it.
func TestChargerKeyNeverShown(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		env := apitest.New(t, d, func(c *config.Config) { c.CommandTimeout, c.DataDir = 3*time.Second, t.TempDir() })
		org := fleettest.Seed(t, d)
		dev := fleettest.Device(t, d, org, org.CustomerA, org.SiteA, "KEY-0001")
		root := env.Root()
		ch := lvConnect(t, env, "KEY-0001", lvConfig())
		const newKey = "new-secret-key-9876543210zyx"
		setKey := func(c *apitest.Client, key string) apitest.Answer {
			a, _ := lvSend(t, c, dev, fleet.CtlChangeConfig, map[string]any{"items": []map[string]string{{"key": "AuthorizationKey", "value": key}}})
			return a
		}
		noKey := func(t *testing.T, what, text string) {
			t.Helper()
			if strings.Contains(text, newKey) || strings.Contains(text, lvChargerKey) {
				t.Fatalf("%s shows the key: %s", what, text)
			}
		}

		t.Run("the charger gets the key, the command row only a mask", func(t *testing.T) {
			apitest.Must(t, setKey(root, newKey))
			got := ch.got("ChangeConfiguration")
			if len(got) != 1 || !strings.Contains(string(got[0]), newKey) {
				t.Fatalf("charger got %s", got)
			}
			var params string
			if err := d.QueryRow(ctx, `SELECT params FROM command WHERE device_id = ? AND control_type = 11`, dev).Scan(&params); err != nil {
				t.Fatal(err)
			}
			noKey(t, "stored params", params)
			if !strings.Contains(params, `"***"`) {
				t.Fatalf("stored params: %s", params)
			}
		})
		t.Run("a GetConfiguration answer listing the key is stored and shown masked", func(t *testing.T) {
			_, v := lvSend(t, root, dev, fleet.CtlGetConfiguration, nil)
			if !lvHas(lvKeys(t, v.Answer), "AuthorizationKey=***") {
				t.Fatalf("answer: %s", v.Answer)
			}
			var answer string
			if err := d.QueryRow(ctx, `SELECT answer FROM command WHERE id = ?`, v.ID).Scan(&answer); err != nil {
				t.Fatal(err)
			}
			noKey(t, "stored answer", answer)
		})
		t.Run("control detail, control list and config values never show it", func(t *testing.T) {
			// A row written before parameters and answers were masked.
			if _, err := d.Exec(ctx, `INSERT INTO command (device_id, sn, control_type, params, result, answer, created_at, finished_at) VALUES (?, ?, 11, ?, 2, ?, ?, ?)`,
				dev, "KEY-0001", `{"items":[{"key":"AuthorizationKey","value":"`+newKey+`"}]}`,
				`{"configurationKey":[{"key":"AuthorizationKey","value":"`+lvChargerKey+`"}]}`, db.NowMS(), db.NowMS()); err != nil {
				t.Fatal(err)
			}
			list := apitest.Must(t, root.Call("POST", "/api/auth/sys/dev/control/list", map[string]any{"deviceId": dev, "page": 1, "pageSize": 100}))
			noKey(t, "control/list", string(list.Data))
			var l struct {
				List []fleet.CommandView `json:"list"`
			}
			list.Into(t, &l)
			if len(l.List) < 3 {
				t.Fatalf("list: %s", list.Data)
			}
			for _, c := range l.List {
				noKey(t, "control/detail", string(apitest.Must(t, root.Call("GET", "/api/auth/sys/dev/control/detail", map[string]any{"id": c.ID})).Data))
			}
			cfg := apitest.Must(t, root.Call("GET", "/api/auth/sys/dev/config/values", map[string]any{"deviceId": dev}))
			noKey(t, "config/values", string(cfg.Data))
		})
		t.Run("only root or config write level 0 may set it", func(t *testing.T) {
			one := lvUser(t, env, root, "write_one", map[string]any{"cfgWriteLevel": 1})
			apitest.WantCode(t, setKey(one, "other-secret-key-00000000"), 20013)
			zero := lvUser(t, env, root, "write_zero", map[string]any{"cfgWriteLevel": 0})
			apitest.Must(t, setKey(zero, "other-secret-key-00000000"))
		})
	})
}

// TestSeriesInputsBounded (issue 7, finding 15): every number of a series call is bounded, with
// a 10001 naming the field, before any arithmetic (a huge step divided by zero: 10500).
func TestSeriesInputsBounded(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		env := apitest.New(t, d, nil)
		org := fleettest.Seed(t, d)
		dev := fleettest.Device(t, d, org, org.CustomerA, org.SiteA, "SERIES-0001")
		root := env.Root()
		const day = int64(24 * 3600 * 1000)
		now := time.Now().UnixMilli()
		ok := map[string]any{"deviceId": dev, "names": []string{"Voltage"}, "connectorId": 0, "startTime": now - day, "endTime": now, "step": 15}
		with := func(k string, v any) map[string]any {
			m := map[string]any{}
			for key, val := range ok {
				m[key] = val
			}
			m[k] = v
			return m
		}
		apitest.Must(t, root.Call("POST", "/api/auth/sys/dev/data/series", ok))
		for _, c := range []struct {
			name  string
			body  map[string]any
			field string
		}{
			{"step so large that step×60000 overflows to zero", with("step", int64(1)<<62), "step"},
			{"step of zero", with("step", 0), "step"},
			{"negative step", with("step", -15), "step"},
			{"step beyond a month", with("step", 43201), "step"},
			{"too many points per series", with("step", 1), "step"},
			{"start time zero", with("startTime", 0), "startTime"},
			{"start time beyond 2100", with("startTime", int64(1)<<62), "startTime"},
			{"end time negative", with("endTime", -1), "endTime"},
			{"end before start", with("endTime", now-2*day), "endTime"},
			{"range longer than ten years", with("startTime", now-3661*day), "endTime"},
			{"negative connector", with("connectorId", -1), "connectorId"},
			{"connector beyond 100", with("connectorId", 101), "connectorId"},
			{"no names", with("names", []string{}), "names"},
			{"more than 20 names", with("names", strings.Split(strings.Repeat("Voltage,", 21), ",")[:21]), "names"},
			{"an empty name", with("names", []string{""}), "names[0]"},
		} {
			t.Run(c.name, func(t *testing.T) {
				if c.name == "too many points per series" {
					c.body["startTime"] = now - 30*day // 43,200 one-minute buckets
				}
				a := root.Call("POST", "/api/auth/sys/dev/data/series", c.body)
				apitest.WantCode(t, a, 10001)
				if name := i18n.FieldName(i18n.EnUS, c.field); !strings.Contains(a.Message, name) {
					t.Fatalf("message %q does not name %s (%q)", a.Message, c.field, name)
				}
			})
		}
	})
}
