package fleettest

import (
	"strings"
	"testing"
	"time"

	"chargeops/internal/fleet"
	"chargeops/internal/testutil/apitest"
)

// WSBase is the gateway's WebSocket base URL on a test node: chargers connect to WSBase + "/" + SN.
func WSBase(env *apitest.Env) string { return "ws" + strings.TrimPrefix(env.URL, "http") + "/ocpp" }

// SendAnswer is control/send's answer.
type SendAnswer struct {
	BatchID  string              `json:"batchId"`
	Commands []fleet.SentCommand `json:"commands"`
}

// Control sends a control type to devices through the API and returns the answer.
func Control(t testing.TB, c *apitest.Client, ids []int64, ct int, params any) (apitest.Answer, SendAnswer) {
	t.Helper()
	a := c.Call("POST", "/api/auth/sys/dev/control/send", map[string]any{"deviceIds": ids, "controlType": ct, "params": params})
	var s SendAnswer
	if len(a.Data) > 0 && string(a.Data) != "null" {
		a.Into(t, &s)
	}
	return a, s
}

// Result polls control/detail until command id is no longer waiting.
func Result(t testing.TB, c *apitest.Client, id int64) fleet.CommandView {
	t.Helper()
	var v fleet.CommandView
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		apitest.Must(t, c.Call("GET", "/api/auth/sys/dev/control/detail", map[string]any{"id": id})).Into(t, &v)
		if v.Result != fleet.ResultWaiting {
			return v
		}
		time.Sleep(30 * time.Millisecond)
	}
	t.Fatalf("command %d still waiting", id)
	return v
}

// SendOne sends one control type to device id and waits for its result.
func SendOne(t testing.TB, c *apitest.Client, id int64, ct int, params any) fleet.CommandView {
	t.Helper()
	a, s := Control(t, c, []int64{id}, ct, params)
	apitest.Must(t, a)
	if len(s.Commands) != 1 || s.Commands[0].ID == 0 {
		t.Fatalf("control %d: %s", ct, a.Data)
	}
	return Result(t, c, s.Commands[0].ID)
}
