package natsreg_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"chargeops/internal/db"
	"chargeops/internal/fleet"
	"chargeops/internal/fleet/fleettest"
	"chargeops/internal/testutil"
)

// A crashed node's chargers that do not come back go offline from the node's liveness: two
// nodes beat (every 200 ms here, lapsed after 3 missed beats; 10 s and 3 in production), node a
// is killed without a clean shutdown (its beats stop and its NATS connection drops, nothing
// announced, its charger's socket left as it was), and node b marks the charger offline within
// the bound, once: one Offline event, however many times the survivor looks again.
func TestCrashedNodeChargersGoOffline(t *testing.T) {
	ns := startNATS(t)
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		c := newCluster(t, d, "crash", ns.url(), ns.url())
		opts := fleet.LivenessOptions{Beat: 200 * time.Millisecond, Misses: 3}
		liveA, killA := context.WithCancel(ctx)
		t.Cleanup(killA)
		liveB, stopB := context.WithCancel(ctx)
		t.Cleanup(stopB)
		doneA := make(chan struct{})
		go func() { defer close(doneA); c.nodes[0].App.Fleet.RunLiveness(liveA, opts) }()
		go c.nodes[1].App.Fleet.RunLiveness(liveB, opts)

		sn := fmt.Sprintf("CRASH-%d", time.Now().UnixNano()%1e9)
		id := fleettest.Device(t, d, c.org, c.org.CustomerA, c.org.SiteA, sn)
		c.charger(0, sn)
		waitFor(t, 10*time.Second, "online on node a", func() bool {
			online, node, _ := c.state(id)
			return online && node == c.names[0]
		})
		offlineEvents := func() int {
			var n int
			if err := d.QueryRow(ctx, `SELECT COUNT(*) FROM device_event WHERE device_id = ? AND kind = ?`, id, fleet.KindOffline).Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n
		}
		testutil.Never(t, 3*opts.Lapse(), "with both nodes alive the charger goes offline", func() bool {
			online, _, _ := c.state(id)
			return !online || offlineEvents() != 0
		})

		killA()
		<-doneA
		c.registry(0).Conn().Close()
		took := waitFor(t, 15*time.Second, "node b marks the crashed node's charger offline", func() bool {
			online, _, _ := c.state(id)
			return !online
		})
		t.Logf("offline %s after the crash (lapse %s)", took, opts.Lapse())
		// the survivor looks again a few times: no second Offline event
		testutil.Never(t, 3*opts.Beat, "a second Offline event", func() bool { return offlineEvents() > 1 })
		if n, err := c.nodes[1].App.Fleet.ExpireLapsedNodes(ctx, opts.Lapse()); err != nil || n != 0 {
			t.Fatalf("expiring again: %d ended, %v (want nothing left)", n, err)
		}
		if n := offlineEvents(); n != 1 {
			t.Fatalf("%d Offline events, want 1", n)
		}
		var status int
		if err := d.QueryRow(ctx, `SELECT status FROM device WHERE id = ?`, id).Scan(&status); err != nil || status != fleet.StatusOffline {
			t.Fatalf("device status %d (%v), want offline %d", status, err, fleet.StatusOffline)
		}
		if _, v := c.send(1, id); v.Result != fleet.ResultOffline {
			t.Fatalf("command through node b after the crash: result %d %q, want offline", v.Result, v.Message)
		}
		var left int
		if err := d.QueryRow(ctx, `SELECT COUNT(*) FROM cluster_node WHERE name = ?`, c.names[0]).Scan(&left); err != nil || left != 0 {
			t.Fatalf("the crashed node's row: %d (%v), want forgotten", left, err)
		}
	})
}

// A node whose beats stop for a while without crashing (it could not write to the database) is
// taken for crashed and its charger marked offline; when it beats again it records the charger
// it still holds online again, the Offline event ends, and commands reach the charger.
func TestLapsedNodeReclaimsItsChargers(t *testing.T) {
	ns := startNATS(t)
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		c := newCluster(t, d, "lapse", ns.url(), ns.url())
		opts := fleet.LivenessOptions{Beat: 200 * time.Millisecond, Misses: 3}
		liveA, pauseA := context.WithCancel(ctx)
		liveB, stopB := context.WithCancel(ctx)
		t.Cleanup(stopB)
		doneA := make(chan struct{})
		go func() { defer close(doneA); c.nodes[0].App.Fleet.RunLiveness(liveA, opts) }()
		go c.nodes[1].App.Fleet.RunLiveness(liveB, opts)

		sn := fmt.Sprintf("LAPSE-%d", time.Now().UnixNano()%1e9)
		id := fleettest.Device(t, d, c.org, c.org.CustomerA, c.org.SiteA, sn)
		h := c.charger(0, sn)
		waitFor(t, 10*time.Second, "online on node a", func() bool {
			online, node, _ := c.state(id)
			return online && node == c.names[0]
		})
		pauseA()
		<-doneA
		waitFor(t, 15*time.Second, "node b takes node a for crashed", func() bool {
			online, _, _ := c.state(id)
			return !online
		})
		again, stopA := context.WithCancel(ctx)
		t.Cleanup(stopA)
		go c.nodes[0].App.Fleet.RunLiveness(again, opts)
		took := waitFor(t, 15*time.Second, "node a records its charger online again", func() bool {
			online, node, _ := c.state(id)
			return online && node == c.names[0]
		})
		t.Logf("online again %s after node a beat again", took)
		var open int
		if err := d.QueryRow(ctx, `SELECT COUNT(*) FROM device_event WHERE device_id = ? AND kind = ? AND status = ?`, id, fleet.KindOffline, fleet.EventOpen).Scan(&open); err != nil || open != 0 {
			t.Fatalf("open Offline events: %d (%v), want 0", open, err)
		}
		if _, v := c.send(1, id); v.Result != fleet.ResultSuccess || h.resets.Load() != 1 {
			t.Fatalf("command through node b: result %d %q, resets %d", v.Result, v.Message, h.resets.Load())
		}
	})
}
