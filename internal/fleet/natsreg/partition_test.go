package natsreg_test

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"chargeops/internal/db"
	"chargeops/internal/fleet"
	"chargeops/internal/fleet/fleettest"
	"chargeops/internal/testutil"
)

// A command to a charger held on another node while NATS is down answers "cluster link
// unavailable, try again" (result 3, localised, logged), not "offline"; a charger no node holds
// still answers offline, the charger's own node still reaches it, and once NATS is back the
// other node reaches it again.
func TestClusterLinkDownIsNotOffline(t *testing.T) {
	ns := startNATS(t)
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		t.Cleanup(func() {
			if ns.cmd == nil {
				ns.start()
			}
		})
		logs := captureLogs(t)
		c := newCluster(t, d, "down", ns.url(), ns.url())
		sn := fmt.Sprintf("DOWN-%d", time.Now().UnixNano()%1e9)
		id := fleettest.Device(t, d, c.org, c.org.CustomerA, c.org.SiteA, sn)
		offID := fleettest.Device(t, d, c.org, c.org.CustomerA, c.org.SiteA, sn+"-OFF")
		h := c.charger(0, sn)
		waitFor(t, 10*time.Second, "online on node a", func() bool {
			online, node, _ := c.state(id)
			return online && node == c.names[0]
		})
		if _, v := c.send(1, id); v.Result != fleet.ResultSuccess {
			t.Fatalf("bus up: command through node b: result %d %s", v.Result, v.Message)
		}

		ns.stop()
		waitFor(t, 10*time.Second, "both nodes notice the bus is down", func() bool {
			return !c.registry(0).Conn().IsConnected() && !c.registry(1).Conn().IsConnected()
		})
		started := time.Now()
		sent, v := c.send(1, id)
		took := time.Since(started)
		if sent.Result != fleet.ResultFailed || v.Result != fleet.ResultFailed {
			t.Fatalf("bus down: command through node b to a charger online on node a: sent %d, ended %d %q (want %d, not offline %d)",
				sent.Result, v.Result, v.Message, fleet.ResultFailed, fleet.ResultOffline)
		}
		if !strings.HasPrefix(sent.Message, "Cluster link unavailable, try again") || sent.Message != v.Message {
			t.Fatalf("bus down: answer %q, detail %q", sent.Message, v.Message)
		}
		if took > 5*time.Second {
			t.Fatalf("bus down: the answer took %s (it must not wait for a timeout)", took)
		}
		zh := c.nodes[1].Root()
		zh.Locale = "zh-CN"
		if _, v := c.sendAs(zh, id); !strings.HasPrefix(v.Message, "集群链路不可用") {
			t.Fatalf("bus down, zh-CN: %q", v.Message)
		}
		var rowResult int
		var rowMessage string
		if err := d.QueryRow(context.Background(), `SELECT result, message FROM command WHERE id = ?`, sent.ID).Scan(&rowResult, &rowMessage); err != nil {
			t.Fatal(err)
		}
		if rowResult != fleet.ResultFailed || rowMessage != "err.cluster_unavailable" {
			t.Fatalf("command row: result %d message %q", rowResult, rowMessage)
		}
		if out := logs.String(); !strings.Contains(out, "level=WARN msg=\"command not sent: cluster link unavailable\" sn="+sn) {
			t.Fatalf("no warning logged for the command; log:\n%s", out)
		}
		if _, v := c.send(1, offID); v.Result != fleet.ResultOffline {
			t.Fatalf("bus down: a device no node holds: result %d %q, want offline", v.Result, v.Message)
		}
		if _, v := c.send(0, id); v.Result != fleet.ResultSuccess {
			t.Fatalf("bus down: command through the charger's own node: result %d %q", v.Result, v.Message)
		}
		t.Logf("bus down: answered in %s", took)

		ns.start()
		waitFor(t, 20*time.Second, "both nodes reconnect", func() bool {
			return c.registry(0).Conn().IsConnected() && c.registry(1).Conn().IsConnected()
		})
		if _, v := c.send(1, id); v.Result != fleet.ResultSuccess {
			t.Fatalf("bus back: command through node b: result %d %q", v.Result, v.Message)
		}
		if n := h.resets.Load(); n != 3 {
			t.Fatalf("the charger got %d resets, want 3 (two through node b while the bus was up, one through node a)", n)
		}
	})
}

// silentPeer is a socket a charger left behind: open, but nothing answers on it.
type silentPeer struct{ closed atomic.Bool }

func dialSilent(t *testing.T, url string) *silentPeer {
	t.Helper()
	d := websocket.Dialer{Subprotocols: []string{"ocpp1.6"}}
	ws, _, err := d.Dial(url, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ws.Close() })
	p := &silentPeer{}
	go func() {
		defer p.closed.Store(true)
		for {
			if _, _, err := ws.ReadMessage(); err != nil {
				return
			}
		}
	}()
	return p
}

// After a partition the newest connection wins everywhere: a charger connected to node a
// reconnects to node b during the partition (its socket on node a left open and silent); once
// the partition heals both nodes agree node b holds it, node a has closed the stale socket, and
// a command sent through node a reaches the charger on node b. Two partitions: the NATS server
// stopped and started again, and node a alone cut off from NATS while node b keeps it (node b's
// announcement of the new socket then reaches nobody, so only the re-announcement after the
// reconnect tells node a).
func TestRegistryConvergesAfterPartition(t *testing.T) {
	ns := startNATS(t)
	t.Cleanup(func() {
		if ns.cmd == nil {
			ns.start()
		}
	})
	type partition struct {
		name        string
		urlA        func() string
		split, heal func()
		down        func(c *cluster) bool // the bus is down where the partition puts it
	}
	var cutA *linkCut
	partitions := []partition{
		{name: "NATS server stopped", urlA: ns.url, split: ns.stop, heal: ns.start, down: func(c *cluster) bool {
			return !c.registry(0).Conn().IsConnected() && !c.registry(1).Conn().IsConnected()
		}},
		{name: "node a cut off", urlA: func() string { cutA = newLinkCut(t, ns.url()); return cutA.url() },
			split: func() { cutA.cut() }, heal: func() { cutA.heal() }, down: func(c *cluster) bool {
				return !c.registry(0).Conn().IsConnected() && c.registry(1).Conn().IsConnected()
			}},
	}
	for _, pt := range partitions {
		t.Run(pt.name, func(t *testing.T) {
			testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
				c := newCluster(t, d, "heal", pt.urlA(), ns.url())
				sn := fmt.Sprintf("HEAL-%d", time.Now().UnixNano()%1e9)
				id := fleettest.Device(t, d, c.org, c.org.CustomerA, c.org.SiteA, sn)
				stale := dialSilent(t, c.ws(0)+"/"+sn)
				waitFor(t, 10*time.Second, "online on node a", func() bool {
					online, node, _ := c.state(id)
					return online && node == c.names[0]
				})

				pt.split()
				waitFor(t, 10*time.Second, "the nodes notice the partition", func() bool { return pt.down(c) })
				h := c.charger(1, sn)
				var newest string
				waitFor(t, 10*time.Second, "recorded online on node b", func() bool {
					online, node, conn := c.state(id)
					newest = conn
					return online && node == c.names[1]
				})
				if l, ok := c.registry(0).Lookup(sn); !ok || l.ConnID() == newest || stale.closed.Load() {
					t.Fatal("precondition: during the partition node a still holds its own, older socket")
				}

				pt.heal()
				took := waitFor(t, 20*time.Second, "both nodes agree node b holds it, node a closed its stale socket", func() bool {
					la, oka := c.registry(0).Lookup(sn)
					lb, okb := c.registry(1).Lookup(sn)
					return stale.closed.Load() && oka && okb && la.ConnID() == newest && lb.ConnID() == newest
				})
				t.Logf("converged %s after the partition healed", took)
				if _, v := c.send(0, id); v.Result != fleet.ResultSuccess || h.resets.Load() != 1 {
					t.Fatalf("command through node a to the charger on node b: result %d %q, resets %d", v.Result, v.Message, h.resets.Load())
				}
				if online, node, conn := c.state(id); !online || node != c.names[1] || conn != newest {
					t.Fatalf("device_state after healing: online %v node %s conn %s", online, node, conn)
				}
			})
		})
	}
}

// During a partition a node does not use a socket that a newer connection on another node
// replaced: node a, cut off from NATS, still holds the charger's old socket when the charger
// reconnects to node b; a command through node a ends at once as "cluster link unavailable"
// (not a timeout on the dead socket), node a closes the stale socket, and once node a is back
// on NATS its commands reach the charger on node b.
func TestStaleSocketNotUsedDuringPartition(t *testing.T) {
	ns := startNATS(t)
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		cutA := newLinkCut(t, ns.url())
		c := newCluster(t, d, "stale", cutA.url(), ns.url())
		sn := fmt.Sprintf("STALE-%d", time.Now().UnixNano()%1e9)
		id := fleettest.Device(t, d, c.org, c.org.CustomerA, c.org.SiteA, sn)
		stale := dialSilent(t, c.ws(0)+"/"+sn)
		waitFor(t, 10*time.Second, "online on node a", func() bool {
			online, node, _ := c.state(id)
			return online && node == c.names[0]
		})
		cutA.cut()
		waitFor(t, 10*time.Second, "node a notices it is cut off", func() bool { return !c.registry(0).Conn().IsConnected() })
		h := c.charger(1, sn)
		waitFor(t, 10*time.Second, "recorded online on node b", func() bool {
			online, node, _ := c.state(id)
			return online && node == c.names[1]
		})
		started := time.Now()
		sent, v := c.send(0, id)
		took := time.Since(started)
		if v.Result != fleet.ResultFailed || !strings.HasPrefix(sent.Message, "Cluster link unavailable") || took > 3*time.Second {
			t.Fatalf("command through node a during the partition: result %d %q after %s (want 3, cluster link unavailable, at once)", v.Result, v.Message, took)
		}
		waitFor(t, 10*time.Second, "node a closes the stale socket", func() bool { return stale.closed.Load() })
		if online, node, _ := c.state(id); !online || node != c.names[1] {
			t.Fatalf("closing the stale socket changed the record: online %v node %s", online, node)
		}
		cutA.heal()
		waitFor(t, 20*time.Second, "node a back on NATS", func() bool { return c.registry(0).Conn().IsConnected() })
		if _, v := c.send(0, id); v.Result != fleet.ResultSuccess || h.resets.Load() != 1 {
			t.Fatalf("command through node a after healing: result %d %q, resets %d", v.Result, v.Message, h.resets.Load())
		}
	})
}
