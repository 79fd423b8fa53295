package fleet_test

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"chargeops/internal/db"
	"chargeops/internal/fleet"
	"chargeops/internal/testutil"
)

func countLogs(t testing.TB, d *db.DB) int {
	var n int
	if err := d.QueryRow(context.Background(), `SELECT COUNT(*) FROM protocol_log`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// A tiny queue and a slow writer: producers block (backpressure) instead of dropping rows or
// growing memory; every row lands.
func TestProtocolLogBackpressure(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		var inFlight, maxInFlight atomic.Int64
		w := fleet.NewLogWriter(d, fleet.LogOptions{QueueSize: 8, BatchSize: 4, BeforeFlush: func(n int) {
			time.Sleep(5 * time.Millisecond) // a slow database
		}})
		const producers, each = 20, 50
		var wg sync.WaitGroup
		var before runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		for p := range producers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range each {
					if q := int64(w.QueueLen()); q > maxInFlight.Load() {
						maxInFlight.Store(q)
					}
					inFlight.Add(1)
					w.Write(fleet.LogRow{SN: fmt.Sprintf("SN-%d", p), Type: fleet.LogReceived, Data: fmt.Sprintf(`[2,"%d","Heartbeat",{}]`, i)})
					inFlight.Add(-1)
				}
			}()
		}
		wg.Wait()
		w.Close()
		if got := countLogs(t, d); got != producers*each {
			t.Fatalf("%d rows written, want %d", got, producers*each)
		}
		written, blocked, maxBatch := w.Stats()
		if written != producers*each || blocked == 0 || maxBatch > 4 || maxInFlight.Load() > 8 {
			t.Fatalf("written %d, blocked %d, max batch %d, max queued %d", written, blocked, maxBatch, maxInFlight.Load())
		}
		// After Close, a late row is written synchronously, not lost.
		w.Write(fleet.LogRow{SN: "late", Type: fleet.LogClose})
		if got := countLogs(t, d); got != producers*each+1 {
			t.Fatalf("late row lost: %d", got)
		}
		var after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&after)
		if grow := int64(after.HeapAlloc) - int64(before.HeapAlloc); grow > 16<<20 {
			t.Fatalf("heap grew %d bytes", grow)
		}
		t.Logf("%s: %d rows, %d blocked writes, queue never above %d", d.Dialect(), written, blocked, maxInFlight.Load())
	})
}

func TestPurgeLogs(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		old := time.Now().Add(-40 * 24 * time.Hour).UnixMilli()
		for i := range 3 {
			if _, err := d.Exec(ctx, `INSERT INTO protocol_log (sn, type, data, created_at) VALUES (?, 2, '', ?)`, "X", old+int64(i)); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := d.Exec(ctx, `INSERT INTO protocol_log (sn, type, data, created_at) VALUES ('X', 2, '', ?)`, db.NowMS()); err != nil {
			t.Fatal(err)
		}
		n, err := fleet.PurgeLogs(ctx, d, 30)
		if err != nil || n != 3 || countLogs(t, d) != 1 {
			t.Fatalf("purged %d (%v), left %d", n, err, countLogs(t, d))
		}
	})
}

func TestComputeStatus(t *testing.T) {
	for _, c := range []struct {
		in   fleet.StatusInput
		want int
	}{
		{fleet.StatusInput{Enabled: false, Online: true}, fleet.StatusDisabled},
		{fleet.StatusInput{Enabled: true, Online: false, FirmwareJob: true}, fleet.StatusOffline},
		{fleet.StatusInput{Enabled: true, Online: true, FirmwareJob: true, Maintain: true}, fleet.StatusFirmware},
		{fleet.StatusInput{Enabled: true, Online: true, Maintain: true, Connectors: []string{"Faulted"}}, fleet.StatusMaintain},
		{fleet.StatusInput{Enabled: true, Online: true, Connectors: []string{"Charging", "Faulted"}}, fleet.StatusFaulted},
		{fleet.StatusInput{Enabled: true, Online: true, Connectors: []string{"Available", "SuspendedEV"}}, fleet.StatusWorking},
		{fleet.StatusInput{Enabled: true, Online: true, Connectors: []string{"Available", "Unavailable"}}, fleet.StatusIdle},
	} {
		if got := fleet.ComputeStatus(c.in); got != c.want {
			t.Errorf("%+v → %d, want %d", c.in, got, c.want)
		}
	}
}

// BenchmarkProtocolLogWrite measures batched protocol-log throughput (rows/s) on both databases.
func BenchmarkProtocolLogWrite(b *testing.B) {
	for _, name := range []string{"sqlite", "postgres"} {
		b.Run(name, func(b *testing.B) {
			var d *db.DB
			if name == "sqlite" {
				d = testutil.OpenSQLite(b)
			} else {
				d = testutil.OpenPostgres(b)
			}
			w := fleet.NewLogWriter(d, fleet.LogOptions{QueueSize: 10000, BatchSize: 500})
			frame := `[2,"123456","MeterValues",{"connectorId":1,"meterValue":[{"timestamp":"2026-11-22T03:00:00Z","sampledValue":[{"value":"230.1","measurand":"Voltage"}]}]}]`
			b.ResetTimer()
			start := time.Now()
			var wg sync.WaitGroup
			per := b.N/8 + 1
			for p := range 8 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for range per {
						w.Write(fleet.LogRow{SN: fmt.Sprintf("SN-%04d", p), Type: fleet.LogReceived, Data: frame})
					}
				}()
			}
			wg.Wait()
			w.Close()
			el := time.Since(start)
			b.ReportMetric(float64(per*8)/el.Seconds(), "rows/s")
		})
	}
}
