package natsreg_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
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

// peer is a minimal OCPP-J charger that accepts every call and knows whether its socket is
// still open.
type peer struct {
	ws     *websocket.Conn
	closed atomic.Bool
	calls  atomic.Int64
}

func dialPeer(t *testing.T, url string) *peer {
	t.Helper()
	d := websocket.Dialer{Subprotocols: []string{"ocpp1.6"}}
	c, _, err := d.Dial(url, nil)
	if err != nil {
		t.Fatal(err)
	}
	p := &peer{ws: c}
	t.Cleanup(func() { _ = c.Close() })
	go func() {
		defer p.closed.Store(true)
		for {
			_, msg, err := c.ReadMessage()
			if err != nil {
				return
			}
			var parts []json.RawMessage
			if json.Unmarshal(msg, &parts) == nil && len(parts) == 4 && string(parts[0]) == "2" {
				p.calls.Add(1)
				_ = c.WriteMessage(websocket.TextMessage, fmt.Appendf(nil, `[3,%s,{"status":"Accepted"}]`, parts[1]))
			}
		}
	}()
	return p
}

func (p *peer) close() {
	_ = p.ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""), time.Now().Add(time.Second))
	_ = p.ws.Close()
	p.closed.Store(true)
}

// The newest admission wins across nodes (docs/gateway.md, "Connections"): sockets of one SN
// opened at once on two nodes end with one open, registered on its node alone, recorded online
// under its conn_id, and reached by a command sent through either node; and a Pending socket on
// one node becomes the device added through the other node's API.
func TestNewestConnectionWinsAcrossNodes(t *testing.T) {
	url := testutil.NATS(t)
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		mk := func(node string) *apitest.Env {
			return apitest.New(t, d, func(c *config.Config) {
				c.NATSURL, c.NodeName, c.CommandTimeout, c.DataDir, c.OCPPAllowUnknown = url, node, 3*time.Second, t.TempDir(), true
			})
		}
		nodes := []*apitest.Env{mk("order-a"), mk("order-b")}
		roots := []*apitest.Client{nodes[0].Root(), nodes[1].Root()}
		org := fleettest.Seed(t, d)
		ctx := context.Background()
		ws := func(env *apitest.Env, sn string) string {
			return "ws" + strings.TrimPrefix(env.URL, "http") + "/ocpp/" + sn
		}
		wait := func(t *testing.T, what string, cond func() bool) {
			t.Helper()
			for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
				if cond() {
					return
				}
			}
			t.Fatalf("timed out: %s", what)
		}
		state := func(id int64) (online bool, conn string) {
			var o int
			_ = d.QueryRow(ctx, `SELECT online, conn_id FROM device_state WHERE device_id = ?`, id).Scan(&o, &conn)
			return o == 1, conn
		}
		// held is the distinct connections the nodes find for sn (a node that holds none finds
		// the other's through a proxy with the same conn_id).
		held := func(sn string) []string {
			var out []string
			for _, env := range nodes {
				if l, ok := env.App.Fleet.Registry.Lookup(sn); ok && !slices.Contains(out, l.ConnID()) {
					out = append(out, l.ConnID())
				}
			}
			return out
		}
		send := func(t *testing.T, root *apitest.Client, id int64) fleet.CommandView {
			t.Helper()
			var res fleet.SendResult
			apitest.Must(t, root.Call("POST", "/api/auth/sys/dev/control/send", map[string]any{"deviceIds": []int64{id}, "controlType": fleet.CtlSoftReset})).Into(t, &res)
			var v fleet.CommandView
			wait(t, "command result", func() bool {
				apitest.Must(t, root.Call("GET", "/api/auth/sys/dev/control/detail", map[string]any{"id": res.Commands[0].ID})).Into(t, &v)
				return v.Result != fleet.ResultWaiting
			})
			return v
		}

		t.Run("sockets opened at once on two nodes", func(t *testing.T) {
			sn := fmt.Sprintf("ORDER-%d", time.Now().UnixNano())
			id := fleettest.Device(t, d, org, org.CustomerA, org.SiteA, sn)
			for round := range 20 {
				peers := make([]*peer, 2)
				var wg sync.WaitGroup
				for i := range peers {
					wg.Add(1)
					go func() { defer wg.Done(); peers[i] = dialPeer(t, ws(nodes[(i+round)%2], sn)) }()
				}
				wg.Wait()
				var open *peer
				wait(t, "one socket left, registered and recorded", func() bool {
					n := 0
					for _, p := range peers {
						if !p.closed.Load() {
							open, n = p, n+1
						}
					}
					h := held(sn)
					online, conn := state(id)
					return n == 1 && len(h) == 1 && online && conn == h[0]
				})
				before := open.calls.Load()
				if v := send(t, roots[round%2], id); v.Result != fleet.ResultSuccess || open.calls.Load() != before+1 {
					t.Fatalf("round %d: command to the open socket: result %d %s", round, v.Result, v.Message)
				}
				open.close()
				wait(t, "offline after the last socket closed", func() bool {
					online, _ := state(id)
					return !online && len(held(sn)) == 0
				})
			}
		})

		t.Run("a Pending socket on one node becomes the device added on the other", func(t *testing.T) {
			sn := fmt.Sprintf("ADOPT-%d", time.Now().UnixNano()%1e9)
			p := dialPeer(t, ws(nodes[0], sn))
			wait(t, "the Pending socket registered on node A", func() bool { return len(held(sn)) == 1 })
			var added struct {
				ID int64 `json:"id"`
			}
			apitest.Must(t, roots[1].Call("POST", "/api/auth/sys/dev/basic/add", map[string]any{"sn": sn, "name": "Charger " + sn,
				"modelId": org.ModelID, "siteId": org.SiteA})).Into(t, &added)
			wait(t, "online on node A without reconnecting", func() bool {
				online, conn := state(added.ID)
				h := held(sn)
				return online && len(h) == 1 && conn == h[0] && !p.closed.Load()
			})
			if v := send(t, roots[1], added.ID); v.Result != fleet.ResultSuccess {
				t.Fatalf("command through node B to the adopted socket on node A: result %d %s", v.Result, v.Message)
			}
		})
	})
}
