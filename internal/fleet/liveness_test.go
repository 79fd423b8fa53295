package fleet_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"chargeops/internal/db"
	"chargeops/internal/fleet"
	"chargeops/internal/fleet/fleettest"
	"chargeops/internal/setting"
	"chargeops/internal/testutil"
)

// Node liveness (docs/gateway.md, "Scale-out"): of the live nodes only the first by name ends a
// lapsed node's connections, ending twice at once writes one Offline event, and a node
// restarted under its name ends what its previous run left online.
func TestLapsedNodeConnectionsEndOnce(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		o := fleettest.Seed(t, d)
		node := func(t *testing.T, name string) *fleet.Service {
			t.Helper()
			s, err := fleet.New(ctx, d, setting.NewStore(d), fleet.Options{DataDir: t.TempDir(), Node: name})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(s.Close)
			return s
		}
		connect := func(t *testing.T, s *fleet.Service, sn string) int64 {
			t.Helper()
			id := fleettest.Device(t, d, o, o.CustomerA, o.SiteA, sn)
			dev, err := s.DeviceByID(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Connected(ctx, dev, fleet.NewConnID(), "127.0.0.1:1", "ocpp1.6"); err != nil {
				t.Fatal(err)
			}
			return id
		}
		beat := func(t *testing.T, nodes ...*fleet.Service) {
			t.Helper()
			for _, s := range nodes {
				if err := s.Beat(ctx); err != nil {
					t.Fatal(err)
				}
			}
		}
		state := func(t *testing.T, id int64) (online bool, events int) {
			t.Helper()
			var o int
			if err := d.QueryRow(ctx, `SELECT online FROM device_state WHERE device_id = ?`, id).Scan(&o); err != nil {
				t.Fatal(err)
			}
			if err := d.QueryRow(ctx, `SELECT COUNT(*) FROM device_event WHERE device_id = ? AND kind = ?`, id, fleet.KindOffline).Scan(&events); err != nil {
				t.Fatal(err)
			}
			return o == 1, events
		}
		const lapse = 300 * time.Millisecond

		t.Run("the first live node by name ends them, once", func(t *testing.T) {
			n1, n2, n3 := node(t, "once-1"), node(t, "once-2"), node(t, "once-3")
			id := connect(t, n1, fmt.Sprintf("ONCE-%d", time.Now().UnixNano()%1e9))
			beat(t, n1, n2, n3)
			time.Sleep(lapse + 100*time.Millisecond)
			beat(t, n2, n3) // n1 has crashed
			if n, err := n3.ExpireLapsedNodes(ctx, lapse); err != nil || n != 0 {
				t.Fatalf("node 3 (not first by name): ended %d, %v", n, err)
			}
			if online, _ := state(t, id); !online {
				t.Fatal("node 3 ended the connection though node 2 is live")
			}
			var wg sync.WaitGroup
			for range 2 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					if _, err := n2.ExpireLapsedNodes(ctx, lapse); err != nil {
						t.Error(err)
					}
				}()
			}
			wg.Wait()
			if online, events := state(t, id); online || events != 1 {
				t.Fatalf("after node 2 ended it twice at once: online %v, %d Offline events (want offline, 1)", online, events)
			}
		})

		t.Run("a node that stops before its liveness loop beat is found lapsed", func(t *testing.T) {
			early, survivor := node(t, "early-1"), node(t, "early-2")
			id := connect(t, early, fmt.Sprintf("EARLY-%d", time.Now().UnixNano()%1e9)) // no beat of its own yet
			time.Sleep(lapse + 100*time.Millisecond)
			beat(t, survivor)
			if n, err := survivor.ExpireLapsedNodes(ctx, lapse); err != nil || n != 1 {
				t.Fatalf("the survivor ended %d connections (%v), want the early node's 1", n, err)
			}
			if online, events := state(t, id); online || events != 1 {
				t.Fatalf("charger of the stopped node: online %v, %d Offline events (want offline, 1)", online, events)
			}
		})

		t.Run("a node restarted under its name ends its leftovers", func(t *testing.T) {
			first := node(t, "again-1")
			id := connect(t, first, fmt.Sprintf("AGAIN-%d", time.Now().UnixNano()%1e9))
			beat(t, first)
			restarted := node(t, "again-1") // the same name, holding nothing yet
			runCtx, stop := context.WithCancel(ctx)
			done := make(chan struct{})
			go func() { defer close(done); restarted.RunLiveness(runCtx, fleet.LivenessOptions{Beat: time.Hour}) }()
			deadline := time.Now().Add(10 * time.Second)
			for online, _ := state(t, id); online && time.Now().Before(deadline); online, _ = state(t, id) {
				time.Sleep(20 * time.Millisecond)
			}
			stop()
			<-done
			if online, events := state(t, id); online || events != 1 {
				t.Fatalf("leftover of the previous run: online %v, %d Offline events", online, events)
			}
		})
	})
}
