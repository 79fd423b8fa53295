package ocpp16_test

import (
	"context"
	"fmt"
	"os"
	"strconv"
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

// TestReconnectStorm opens N chargers at once, drops them all at once, and reconnects them
// all at once (loopback only; N defaults to 2,000: 4,000 sockets, under the 20,000 open-file
// limit). The gateway must admit every one, end with every device online, and keep answering
// a probe charger meanwhile. CHARGEOPS_STORM_N changes N.
func TestReconnectStorm(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("storm skipped in -short")
	}
	n := 2000
	if v, err := strconv.Atoi(os.Getenv("CHARGEOPS_STORM_N")); err == nil && v > 0 {
		n = v
	}
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		env := apitest.New(t, d, func(c *config.Config) { c.DataDir = t.TempDir() })
		org := fleettest.Seed(t, d)
		sns := fleettest.Devices(t, d, org, "STORM-", n)
		fleettest.Device(t, d, org, org.CustomerA, org.SiteA, "PROBE")
		base := wsBase(env)
		probe, _, err := dialRaw(base, "PROBE", "", "")
		if err != nil {
			t.Fatal(err)
		}
		defer probe.Close()
		var worstProbe atomic.Int64
		stopProbe := make(chan struct{})
		probeDone := make(chan struct{})
		go func() { // the gateway must keep answering during the storm
			defer close(probeDone)
			for i := 0; ; i++ {
				select {
				case <-stopProbe:
					return
				case <-time.After(100 * time.Millisecond):
				}
				start := time.Now()
				_ = probe.WriteMessage(websocket.TextMessage, fmt.Appendf(nil, `[2,"p%d","Heartbeat",{}]`, i))
				_ = probe.SetReadDeadline(time.Now().Add(30 * time.Second))
				if _, _, err := probe.ReadMessage(); err != nil {
					return
				}
				if el := time.Since(start).Milliseconds(); el > worstProbe.Load() {
					worstProbe.Store(el)
				}
			}
		}()
		conns := make([]*websocket.Conn, n)
		connectAll := func(phase string) time.Duration {
			start := time.Now()
			var wg sync.WaitGroup
			var failed atomic.Int64
			for i := range sns {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for attempt := 0; attempt < 20; attempt++ {
						c, _, err := dialRaw(base, sns[i], "", "")
						if err == nil {
							conns[i] = c
							return
						}
						time.Sleep(time.Duration(50+attempt*50) * time.Millisecond)
					}
					failed.Add(1)
				}()
			}
			wg.Wait()
			if failed.Load() > 0 {
				t.Fatalf("%s: %d chargers could not connect", phase, failed.Load())
			}
			return time.Since(start)
		}
		onlineCount := func() int {
			var c int
			_ = d.QueryRow(context.Background(), `SELECT COUNT(*) FROM device WHERE sn LIKE 'STORM-%' AND status = ?`, fleet.StatusIdle).Scan(&c)
			return c
		}
		waitOnline := func(phase string, want int) time.Duration {
			start := time.Now()
			for onlineCount() != want {
				if time.Since(start) > 90*time.Second {
					t.Fatalf("%s: only %d of %d devices online after 90 s", phase, onlineCount(), want)
				}
				time.Sleep(50 * time.Millisecond)
			}
			return time.Since(start)
		}
		connect1 := connectAll("connect")
		settle1 := waitOnline("connect", n)

		dropStart := time.Now()
		var wg sync.WaitGroup
		for _, c := range conns {
			wg.Add(1)
			go func() { defer wg.Done(); c.UnderlyingConn().Close() }()
		}
		wg.Wait()
		for onlineCount() != 0 {
			if time.Since(dropStart) > 90*time.Second {
				t.Fatalf("drop: %d devices still online after 90 s", onlineCount())
			}
			time.Sleep(50 * time.Millisecond)
		}
		drop := time.Since(dropStart)

		connect2 := connectAll("reconnect")
		settle2 := waitOnline("reconnect", n)
		close(stopProbe)
		<-probeDone
		// A connection is registered just after its device is marked online (conn.go): under load
		// the last registrations may trail the database by a moment.
		for start := time.Now(); env.App.Fleet.Registry.Count() != n+1; time.Sleep(20 * time.Millisecond) {
			if time.Since(start) > 10*time.Second {
				t.Fatalf("registry holds %d connections, want %d", env.App.Fleet.Registry.Count(), n+1)
			}
		}
		t.Logf("STORM %s n=%d: connect %v (+%v until all online), drop all → all offline %v, reconnect %v (+%v until all online), slowest probe heartbeat %d ms",
			d.Dialect(), n, connect1.Round(time.Millisecond), settle1.Round(time.Millisecond), drop.Round(time.Millisecond),
			connect2.Round(time.Millisecond), settle2.Round(time.Millisecond), worstProbe.Load())
		for _, c := range conns {
			c.Close()
		}
	})
}
