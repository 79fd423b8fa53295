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

// charger is a minimal OCPP-J peer that accepts every call.
func charger(t *testing.T, url string) *websocket.Conn {
	t.Helper()
	d := websocket.Dialer{Subprotocols: []string{"ocpp1.6"}}
	c, _, err := d.Dial(url, nil)
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		for {
			_, msg, err := c.ReadMessage()
			if err != nil {
				return
			}
			var parts []json.RawMessage
			if json.Unmarshal(msg, &parts) == nil && len(parts) == 4 && string(parts[0]) == "2" {
				_ = c.WriteMessage(websocket.TextMessage, fmt.Appendf(nil, `[3,%s,{"status":"Accepted"}]`, parts[1]))
			}
		}
	}()
	return c
}

func TestTwoNodesOverNATS(t *testing.T) {
	url := testutil.NATS(t)
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		mk := func(node string) *apitest.Env {
			return apitest.New(t, d, func(c *config.Config) {
				c.NATSURL, c.NodeName, c.CommandTimeout, c.DataDir = url, node, 3*time.Second, t.TempDir()
			})
		}
		a, b := mk("node-a"), mk("node-b")
		// A console on node B sees status changes of a charger connected to node A.
		events, stop := b.App.Fleet.Hub.Subscribe()
		defer stop()
		org := fleettest.Seed(t, d)
		sn := fmt.Sprintf("NATS-%d", time.Now().UnixNano())
		id := fleettest.Device(t, d, org, org.CustomerA, org.SiteA, sn)
		status := func() int {
			var s int
			if err := d.QueryRow(context.Background(), `SELECT status FROM device WHERE id = ?`, id).Scan(&s); err != nil {
				t.Fatalf("device status: %v", err)
			}
			return s
		}
		wait := func(what string, cond func() bool) {
			t.Helper()
			for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
				if cond() {
					return
				}
			}
			t.Fatalf("timed out: %s", what)
		}
		send := func(env *apitest.Env) fleet.CommandView {
			t.Helper()
			root := env.Root()
			var res fleet.SendResult
			apitest.Must(t, root.Call("POST", "/api/auth/sys/dev/control/send", map[string]any{"deviceIds": []int64{id}, "controlType": 1})).Into(t, &res)
			var v fleet.CommandView
			wait("command result", func() bool {
				apitest.Must(t, root.Call("GET", "/api/auth/sys/dev/control/detail", map[string]any{"id": res.Commands[0].ID})).Into(t, &v)
				return v.Result != fleet.ResultWaiting
			})
			return v
		}
		// Offline everywhere: result 5 at once, on any node.
		if v := send(b); v.Result != fleet.ResultOffline {
			t.Fatalf("offline: %+v", v)
		}
		ws := func(env *apitest.Env) string { return "ws" + strings.TrimPrefix(env.URL, "http") + "/ocpp/" + sn }
		c1 := charger(t, ws(a))
		defer c1.Close()
		wait("online on node A", func() bool { return status() == fleet.StatusIdle })
		var firstConn string // node A's socket, named if the device goes offline after the move
		if err := d.QueryRow(context.Background(), `SELECT conn_id FROM device_state WHERE device_id = ?`, id).Scan(&firstConn); err != nil {
			t.Fatal(err)
		}
		// Other test processes may share the NATS server and its status subject: events of
		// other chargers are passed over until this one's comes.
		for heard, deadline := false, time.After(5*time.Second); !heard; {
			select {
			case e := <-events:
				heard = e.SN == sn
			case <-deadline:
				t.Fatal("node B's consoles did not hear of node A's charger")
			}
		}
		// The API of node B reaches the socket held by node A.
		if v := send(b); v.Result != fleet.ResultSuccess {
			t.Fatalf("command through node B to node A: %+v", v)
		}
		// The charger reconnects to node B: node A closes its old socket, the device stays online.
		c2 := charger(t, ws(b))
		defer c2.Close()
		_ = c1.SetReadDeadline(time.Now().Add(5 * time.Second))
		wait("node A's socket closed", func() bool { return a.App.Fleet.Registry.Count() == 0 })
		wait("the device idle on node B", func() bool { return status() == fleet.StatusIdle })
		testutil.Never(t, 200*time.Millisecond, "the device leaving idle after the move", func() bool {
			st := status()
			if st != fleet.StatusIdle {
				var online int
				var conn string
				_ = d.QueryRow(context.Background(), `SELECT online, conn_id FROM device_state WHERE device_id = ?`, id).Scan(&online, &conn)
				t.Logf("status %d online %d conn %s (node A's socket was %s)", st, online, conn, firstConn)
			}
			return st != fleet.StatusIdle
		})
		if v := send(a); v.Result != fleet.ResultSuccess {
			t.Fatalf("command through node A to node B: %+v", v)
		}
	})
}
