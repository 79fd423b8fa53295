package ocpp16_test

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"chargeops/internal/config"
	"chargeops/internal/db"
	"chargeops/internal/fleet/fleettest"
	"chargeops/internal/testutil"
	"chargeops/internal/testutil/apitest"
)

// The gateway's one pinger reaches every connection about once per interval, and chargers that
// answer stay online.
func TestOnePingerPingsEveryConnection(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		env := apitest.New(t, d, func(c *config.Config) { c.OCPPPingInterval = 200 * time.Millisecond })
		org := fleettest.Seed(t, d)
		sns := fleettest.Devices(t, d, org, "PING-", 20)
		pings := make([]atomic.Int64, len(sns))
		for i, sn := range sns {
			ws, _, err := websocket.DefaultDialer.Dial(wsBase(env)+"/"+sn, map[string][]string{"Sec-WebSocket-Protocol": {"ocpp1.6"}})
			if err != nil {
				t.Fatal(err)
			}
			defer ws.Close()
			ws.SetPingHandler(func(data string) error {
				pings[i].Add(1)
				return ws.WriteControl(websocket.PongMessage, []byte(data), time.Now().Add(time.Second))
			})
			go func() {
				for {
					if _, _, err := ws.ReadMessage(); err != nil {
						return
					}
				}
			}()
		}
		time.Sleep(1500 * time.Millisecond)
		for i := range pings {
			if n := pings[i].Load(); n < 4 || n > 12 {
				t.Errorf("%s got %d pings in 1.5 s at a 200 ms interval", sns[i], n)
			}
		}
		if n := countRows(t, d, `SELECT COUNT(*) FROM device_state WHERE online = 1 AND device_id IN (SELECT id FROM device WHERE sn LIKE 'PING-%')`); n != len(sns) {
			t.Fatalf("%d of %d chargers online", n, len(sns))
		}
	})
}
