package natsreg_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"chargeops/internal/config"
	"chargeops/internal/db"
	"chargeops/internal/fleet"
	"chargeops/internal/fleet/fleettest"
	"chargeops/internal/testutil"
	"chargeops/internal/testutil/apitest"
)

// TestCredentialCrossesNodesButIsStoredMasked (issue 7, finding 2): a ChangeConfiguration of
// the AuthorizationKey sent on node B reaches the charger held by node A with the real value
// (the relay carries the command in memory), while the command row keeps only a mask.
func TestCredentialCrossesNodesButIsStoredMasked(t *testing.T) {
	url := testutil.NATS(t)
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		mk := func(node string) *apitest.Env {
			return apitest.New(t, d, func(c *config.Config) {
				c.NATSURL, c.NodeName, c.CommandTimeout, c.DataDir = url, node, 3*time.Second, t.TempDir()
			})
		}
		a, b := mk("key-node-a"), mk("key-node-b")
		org := fleettest.Seed(t, d)
		sn := fmt.Sprintf("NATSKEY-%d", time.Now().UnixNano())
		id := fleettest.Device(t, d, org, org.CustomerA, org.SiteA, sn)

		got := make(chan string, 4)
		dialer := websocket.Dialer{Subprotocols: []string{"ocpp1.6"}}
		conn, _, err := dialer.Dial("ws"+strings.TrimPrefix(a.URL, "http")+"/ocpp/"+sn, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
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
				if strings.Contains(string(frame[2]), "ChangeConfiguration") {
					got <- string(frame[3])
				}
				_ = conn.WriteMessage(websocket.TextMessage, fmt.Appendf(nil, `[3,%s,{"status":"Accepted"}]`, frame[1]))
			}
		}()
		for end := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
			if _, ok := b.App.Fleet.Registry.Lookup(sn); ok {
				break
			}
			if time.Now().After(end) {
				t.Fatal("node B does not see the charger held by node A")
			}
		}

		const key = "cross-node-key-0123456789ab"
		root := b.Root()
		var res fleet.SendResult
		apitest.Must(t, root.Call("POST", "/api/auth/sys/dev/control/send", map[string]any{"deviceIds": []int64{id}, "controlType": fleet.CtlChangeConfig,
			"params": map[string]any{"items": []map[string]string{{"key": "AuthorizationKey", "value": key}}}})).Into(t, &res)
		select {
		case payload := <-got:
			if !strings.Contains(payload, key) {
				t.Fatalf("the charger got %s", payload)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("the charger got no ChangeConfiguration")
		}
		var params string
		if err := d.QueryRow(context.Background(), `SELECT params FROM command WHERE id = ?`, res.Commands[0].ID).Scan(&params); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(params, key) || !strings.Contains(params, `"***"`) {
			t.Fatalf("stored params: %s", params)
		}
	})
}
