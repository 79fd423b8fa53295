package ocpp16_test

import (
	"testing"
	"time"

	"chargeops/internal/config"
	"chargeops/internal/db"
	"chargeops/internal/fleet"
	"chargeops/internal/fleet/fleettest"
	"chargeops/internal/testutil"
	"chargeops/internal/testutil/apitest"
)

// TestParameterSetTimeout: a charger (raw WebSocket frames) that never answers a
// ChangeConfiguration: the parameter set (control type 11) ends as a timeout whose message is
// "Setting timeout" in the caller's language, not the generic "Command execution timeout",
// which a reset left unanswered still shows.
func TestParameterSetTimeout(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		env := apitest.New(t, d, func(c *config.Config) { c.CommandTimeout, c.DataDir = 1200*time.Millisecond, t.TempDir() })
		org := fleettest.Seed(t, d)
		id := fleettest.Device(t, d, org, org.CustomerA, org.SiteA, "SN-SILENT")
		root := env.Root()
		ws, code, err := dialRaw(wsBase(env), "SN-SILENT", "", "")
		if err != nil {
			t.Fatalf("dial: %d %v", code, err)
		}
		defer ws.Close()
		go func() { // read (and so answer pings), never answer a call
			for {
				if _, _, err := ws.ReadMessage(); err != nil {
					return
				}
			}
		}()
		waitFor(t, "online", func() bool { s, _ := deviceStatus(t, d, id); return s != fleet.StatusOffline })

		set := sendOne(t, root, id, fleet.CtlChangeConfig, map[string]any{"items": []map[string]string{{"key": "HeartbeatInterval", "value": "120"}}})
		if set.Result != fleet.ResultTimeout || set.Message != "Setting timeout" {
			t.Fatalf("parameter set: result %d, message %q; want timeout, \"Setting timeout\"", set.Result, set.Message)
		}
		root.Locale = "zh-CN"
		apitest.Must(t, root.Call("GET", "/api/auth/sys/dev/control/detail", map[string]any{"id": set.ID})).Into(t, &set)
		if set.Message != "设置超时" {
			t.Fatalf("zh-CN: %q", set.Message)
		}
		root.Locale = "en-US"
		reset := sendOne(t, root, id, 1, nil)
		if reset.Result != fleet.ResultTimeout || reset.Message != "Command execution timeout" {
			t.Fatalf("reset: result %d, message %q", reset.Result, reset.Message)
		}
	})
}
