package ocpp16_test

import (
	"fmt"
	"sync"
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

// BenchmarkGatewayMeterValues drives 500 raw WebSocket chargers in one process with the whole
// node (gateway, ingest pipeline, database) answering MeterValues of a transaction as fast as
// it can, closed loop: messages/s through the full path, every frame logged. `chargeops bench`
// measures the same across processes at a fixed rate; this one is for profiles
// (-cpuprofile).
func BenchmarkGatewayMeterValues(b *testing.B) {
	for _, name := range []string{"sqlite", "postgres"} {
		b.Run(name, func(b *testing.B) {
			var d *db.DB
			if name == "sqlite" {
				d = testutil.OpenSQLite(b)
			} else {
				d = testutil.OpenPostgres(b)
			}
			env := apitest.New(b, d, func(c *config.Config) { c.DataDir = b.TempDir() })
			org := fleettest.Seed(b, d)
			sns := fleettest.Devices(b, d, org, "TP-", 500)
			conns := make([]*websocket.Conn, len(sns))
			for i, sn := range sns {
				c, _, err := dialRaw(wsBase(env), sn, "", "")
				if err != nil {
					b.Fatal(err)
				}
				defer c.Close()
				conns[i] = c
			}
			var next atomic.Int64
			b.ResetTimer()
			start := time.Now()
			var wg sync.WaitGroup
			for _, c := range conns {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for {
						n := next.Add(1)
						if n > int64(b.N) {
							return
						}
						ts := time.UnixMilli(1_700_000_000_000 + n).UTC().Format(time.RFC3339Nano)
						frame := fmt.Sprintf(`[2,"%d","MeterValues",{"connectorId":1,"transactionId":7,"meterValue":[{"timestamp":"%s","sampledValue":[{"value":"230.1","measurand":"Voltage","unit":"V"},{"value":"7100","measurand":"Power.Active.Import","unit":"W"}]}]}]`, n, ts)
						if err := c.WriteMessage(websocket.TextMessage, []byte(frame)); err != nil {
							b.Error(err)
							return
						}
						if _, _, err := c.ReadMessage(); err != nil {
							b.Error(err)
							return
						}
					}
				}()
			}
			wg.Wait()
			b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "msgs/s")
		})
	}
}
