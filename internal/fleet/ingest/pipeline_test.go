package ingest_test

import (
	"chargeops/internal/fleet/ingest"
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"chargeops/internal/db"
	"chargeops/internal/fleet"
	"chargeops/internal/fleet/fleettest"
	"chargeops/internal/testutil"
)

// seedDevice adds one device row the pipeline's writes can point at.
func seedDevice(t testing.TB, d *db.DB, sn string) int64 {
	t.Helper()
	o := fleettest.Seed(t, d)
	return fleettest.Device(t, d, o, o.CustomerA, o.SiteA, sn)
}

func count(t testing.TB, d *db.DB, q string, args ...any) int {
	t.Helper()
	var n int
	if err := d.QueryRow(context.Background(), q, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// A tiny queue and a slow database: producers block (backpressure) instead of dropping rows or
// growing memory; every row lands.
func TestPipelineBackpressure(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		var maxQueued atomic.Int64
		p := ingest.New(d, ingest.Options{QueueSize: 8, BatchRows: 4, BeforeCommit: func(int) {
			time.Sleep(5 * time.Millisecond) // a slow database
		}})
		const producers, each = 20, 50
		var wg sync.WaitGroup
		var before runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		for w := range producers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range each {
					if q := int64(p.Stats().Queue); q > maxQueued.Load() {
						maxQueued.Store(q)
					}
					p.Write(ingest.LogRow{SN: fmt.Sprintf("SN-%d", w), Type: fleet.LogReceived, Data: fmt.Sprintf(`[2,"%d","Heartbeat",{}]`, i)})
				}
			}()
		}
		wg.Wait()
		p.Close()
		if got := testutil.Count(t, d, `SELECT COUNT(*) FROM protocol_log`); got != producers*each {
			t.Fatalf("%d rows written, want %d", got, producers*each)
		}
		st := p.Stats()
		if st.LogRows != producers*each || st.Blocked == 0 || st.MaxBatch > 4 || maxQueued.Load() > 8 {
			t.Fatalf("stats %+v, max queued %d", st, maxQueued.Load())
		}
		// After Close, a late row is written at once, not lost.
		p.Write(ingest.LogRow{SN: "late", Type: fleet.LogClose})
		if got := testutil.Count(t, d, `SELECT COUNT(*) FROM protocol_log`); got != producers*each+1 {
			t.Fatalf("late row lost: %d", got)
		}
		var after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&after)
		if grow := int64(after.HeapAlloc) - int64(before.HeapAlloc); grow > 16<<20 {
			t.Fatalf("heap grew %d bytes", grow)
		}
		t.Logf("%s: %+v, queue never above %d", d.Dialect(), st, maxQueued.Load())
	})
}

// Many units become few transactions; the newest latest value of a key wins within a batch
// and across batches (an older sample arriving later does not move it back).
func TestPipelineGroupsUnitsAndCoalescesLatestValues(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		dev := seedDevice(t, d, "GC-1")
		var commits atomic.Int64
		p := ingest.New(d, ingest.Options{Linger: 20 * time.Millisecond, BeforeCommit: func(int) { commits.Add(1) }})
		defer p.Close()
		var wg sync.WaitGroup
		for i := range 200 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				u := &ingest.Unit{
					Logs:    []ingest.LogRow{{SN: "GC-1", Type: fleet.LogReceived, Data: "frame"}},
					Runtime: []ingest.RuntimeRow{{DeviceID: dev, Name: "Voltage", Connector: 1, Value: fmt.Sprint(i), Unit: "V", At: int64(1000 + i)}},
					Series:  []ingest.SeriesSample{{DeviceID: dev, Name: "Voltage", Connector: 1, At: int64(1000 + i), Value: float64(i)}},
				}
				if err := p.Commit(ctx, u); err != nil {
					t.Error(err)
				}
			}()
		}
		wg.Wait()
		if n := commits.Load(); n > 20 {
			t.Errorf("200 units took %d transactions", n)
		}
		var value string
		if err := d.QueryRow(ctx, `SELECT value FROM device_runtime WHERE device_id = ? AND name = 'Voltage'`, dev).Scan(&value); err != nil || value != "199" {
			t.Fatalf("latest value %q (%v), want the newest sample 199", value, err)
		}
		// an older sample, later
		if err := p.Commit(ctx, &ingest.Unit{Runtime: []ingest.RuntimeRow{{DeviceID: dev, Name: "Voltage", Connector: 1, Value: "old", At: 500}}}); err != nil {
			t.Fatal(err)
		}
		if err := d.QueryRow(ctx, `SELECT value FROM device_runtime WHERE device_id = ? AND name = 'Voltage'`, dev).Scan(&value); err != nil || value != "199" {
			t.Fatalf("latest value %q after an older sample (%v)", value, err)
		}
		if n := count(t, d, `SELECT COUNT(*) FROM device_series WHERE device_id = ?`, dev); n != 200 {
			t.Fatalf("%d series points, want 200", n)
		}
		if n := testutil.Count(t, d, `SELECT COUNT(*) FROM protocol_log`); n != 200 {
			t.Fatalf("%d log rows, want 200", n)
		}
		t.Logf("%s: 200 units in %d transactions", d.Dialect(), commits.Load())
	})
}

// A unit whose step fails changes nothing but its frame's log row; the units around it in the
// same batch commit, and after-commit work runs only for the ones that committed.
func TestPipelineFailedStepIsUndoneAlone(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		dev := seedDevice(t, d, "ST-1")
		p := ingest.New(d, ingest.Options{Linger: 30 * time.Millisecond})
		defer p.Close()
		var announced atomic.Int64
		write := func(key string, fail bool) *ingest.Unit {
			return &ingest.Unit{
				Logs:    []ingest.LogRow{{SN: "ST-1", Type: fleet.LogReceived, Data: key}},
				Runtime: []ingest.RuntimeRow{{DeviceID: dev, Name: key, Value: "unit row", At: 1}},
				Step: func(ctx context.Context, b *ingest.Batch) error {
					if _, err := b.Tx.Exec(ctx, `INSERT INTO device_config (device_id, key, value, readonly, updated_at) VALUES (?, ?, 'v', 0, 0)`, dev, key); err != nil {
						return err
					}
					b.AddSeries(ingest.SeriesSample{DeviceID: dev, Name: key, At: 1, Value: 1})
					b.AfterCommit(func() { announced.Add(1) })
					if fail {
						return errors.New("bad message")
					}
					return nil
				},
			}
		}
		errs := make([]error, 3)
		var wg sync.WaitGroup
		for i, u := range []*ingest.Unit{write("a", false), write("b", true), write("c", false)} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs[i] = p.Commit(ctx, u)
			}()
		}
		wg.Wait()
		if errs[0] != nil || errs[2] != nil || errs[1] == nil || errs[1].Error() != "bad message" {
			t.Fatalf("errors %v", errs)
		}
		if n := count(t, d, `SELECT COUNT(*) FROM device_config WHERE device_id = ?`, dev); n != 2 {
			t.Fatalf("%d config rows, want 2 (a and c)", n)
		}
		if n := count(t, d, `SELECT COUNT(*) FROM device_config WHERE key = 'b'`); n != 0 {
			t.Fatal("the failed step's write stayed")
		}
		if n := count(t, d, `SELECT COUNT(*) FROM device_runtime WHERE name = 'b'`) + count(t, d, `SELECT COUNT(*) FROM device_series WHERE name = 'b'`); n != 0 {
			t.Fatal("the failed unit's rows were written")
		}
		if n := count(t, d, `SELECT COUNT(*) FROM device_series WHERE device_id = ?`, dev); n != 2 {
			t.Fatalf("%d series rows, want 2", n)
		}
		if testutil.Count(t, d, `SELECT COUNT(*) FROM protocol_log`) != 3 || announced.Load() != 2 {
			t.Fatalf("%d log rows (want 3), %d announcements (want 2)", testutil.Count(t, d, `SELECT COUNT(*) FROM protocol_log`), announced.Load())
		}
	})
}

// Close commits everything still queued.
func TestPipelineCloseFlushes(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		p := ingest.New(d, ingest.Options{BeforeCommit: func(int) { time.Sleep(2 * time.Millisecond) }})
		for i := range 3000 {
			p.Write(ingest.LogRow{SN: "CL", Type: fleet.LogReceived, Data: fmt.Sprint(i)})
		}
		p.Close()
		if n := testutil.Count(t, d, `SELECT COUNT(*) FROM protocol_log`); n != 3000 {
			t.Fatalf("%d of 3000 rows after Close", n)
		}
	})
}

// BenchmarkProtocolLogWrite measures protocol-log rows/s through the pipeline on both databases.
func BenchmarkProtocolLogWrite(b *testing.B) {
	frame := `[2,"123456","MeterValues",{"connectorId":1,"meterValue":[{"timestamp":"2026-11-22T03:00:00Z","sampledValue":[{"value":"230.1","measurand":"Voltage"}]}]}]`
	benchEachDB(b, func(b *testing.B, d *db.DB) {
		p := ingest.New(d, ingest.Options{})
		b.ResetTimer()
		start := time.Now()
		var wg sync.WaitGroup
		per := b.N/8 + 1
		for w := range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range per {
					p.Write(ingest.LogRow{SN: fmt.Sprintf("SN-%04d", w), Type: fleet.LogReceived, Data: frame})
				}
			}()
		}
		wg.Wait()
		p.Close()
		b.ReportMetric(float64(per*8)/time.Since(start).Seconds(), "rows/s")
	})
}

// BenchmarkIngestMeterValues measures MeterValues messages/s the way the gateway stores them:
// the received frame and the answer in the protocol log, two latest values and two series
// points, committed before the answer (a transaction's readings), from 2,000 chargers.
func BenchmarkIngestMeterValues(b *testing.B) {
	benchEachDB(b, func(b *testing.B, d *db.DB) {
		const chargers = 2000
		ids := make([]int64, chargers) // latest values and series need no device rows
		for i := range ids {
			ids[i] = int64(i + 1)
		}
		p := ingest.New(d, ingest.Options{})
		ctx := context.Background()
		frame := `[2,"1","MeterValues",{"connectorId":1,"transactionId":7,"meterValue":[{"timestamp":"2026-11-22T03:00:00Z","sampledValue":[{"value":"230.1","measurand":"Voltage"},{"value":"7100","measurand":"Power.Active.Import"}]}]}]`
		var next atomic.Int64
		b.ResetTimer()
		start := time.Now()
		var wg sync.WaitGroup
		for c := range chargers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					n := next.Add(1)
					if n > int64(b.N) {
						return
					}
					at := 1_700_000_000_000 + n
					u := &ingest.Unit{
						Logs: []ingest.LogRow{{SN: "BM", Type: fleet.LogReceived, Data: frame}},
						Runtime: []ingest.RuntimeRow{{DeviceID: ids[c], Name: "Voltage", Connector: 1, Value: "230.1", Unit: "V", At: at},
							{DeviceID: ids[c], Name: "Power.Active.Import", Connector: 1, Value: "7100", Unit: "W", At: at}},
						Series: []ingest.SeriesSample{{DeviceID: ids[c], Name: "Voltage", Connector: 1, At: at, Value: 230.1},
							{DeviceID: ids[c], Name: "Power.Active.Import", Connector: 1, At: at, Value: 7100}},
					}
					if err := p.Commit(ctx, u); err != nil {
						b.Error(err)
						return
					}
					p.Write(ingest.LogRow{SN: "BM", Type: fleet.LogSent, Data: `[3,"1",{}]`})
				}
			}()
		}
		wg.Wait()
		p.Close()
		st := p.Stats()
		b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "msgs/s")
		b.ReportMetric(float64(st.Units)/float64(max(st.Batches, 1)), "units/batch")
	})
}

func benchEachDB(b *testing.B, fn func(b *testing.B, d *db.DB)) {
	for _, name := range []string{"sqlite", "postgres"} {
		b.Run(name, func(b *testing.B) {
			var d *db.DB
			if name == "sqlite" {
				d = testutil.OpenSQLite(b)
			} else {
				d = testutil.OpenPostgres(b)
			}
			fn(b, d)
		})
	}
}

// A charger's bytes that are not UTF-8, or a NUL, are kept (as U+FFFD) instead of making the
// whole batch fail; a unit the database refuses anyway (here a NaN point, which SQLite stores as
// NULL) costs only that unit: the batch is committed in halves until it stands alone.
func TestPipelineOneBadUnitCostsOnlyItself(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		dev := seedDevice(t, d, "BAD-1")
		p := ingest.New(d, ingest.Options{Linger: 50 * time.Millisecond})
		defer p.Close()
		bad := "[2,\"1\",\"DataTransfer\",{\"data\":\"\xff\xfe\x00end\"}]"
		units := []*ingest.Unit{
			{Logs: []ingest.LogRow{{SN: "BAD-1", Type: fleet.LogReceived, Data: bad}},
				Runtime: []ingest.RuntimeRow{{DeviceID: dev, Name: "Vendor\x00", Value: "v\xff", At: 1000}}},
			{Logs: []ingest.LogRow{{SN: "BAD-1", Type: fleet.LogReceived, Data: "good"}},
				Series: []ingest.SeriesSample{{DeviceID: dev, Name: "Voltage", Connector: 1, At: 1000, Value: 230}}},
		}
		if d.Dialect() == db.SQLite {
			units = append(units, &ingest.Unit{Series: []ingest.SeriesSample{{DeviceID: dev, Name: "Voltage", Connector: 1, At: 2000, Value: math.NaN()}}})
		}
		errs := make([]error, len(units))
		var wg sync.WaitGroup
		for i, u := range units {
			wg.Add(1)
			go func() { defer wg.Done(); errs[i] = p.Commit(ctx, u) }()
		}
		wg.Wait()
		if errs[0] != nil || errs[1] != nil {
			t.Fatalf("good units refused: %v", errs)
		}
		if d.Dialect() == db.SQLite && errs[2] == nil {
			t.Fatal("a NaN point was stored")
		}
		var data, name, value string
		if err := d.QueryRow(ctx, `SELECT data FROM protocol_log WHERE sn = 'BAD-1' AND data <> 'good'`).Scan(&data); err != nil || data != "[2,\"1\",\"DataTransfer\",{\"data\":\"\uFFFD\uFFFDend\"}]" {
			t.Fatalf("bad frame kept as %q (%v)", data, err)
		}
		if err := d.QueryRow(ctx, `SELECT name, value FROM device_runtime WHERE device_id = ?`, dev).Scan(&name, &value); err != nil || name != "Vendor\uFFFD" || value != "v\uFFFD" {
			t.Fatalf("runtime value kept as %q = %q (%v)", name, value, err)
		}
		if n := count(t, d, `SELECT COUNT(*) FROM device_series WHERE device_id = ?`, dev); n != 1 {
			t.Fatalf("%d series points, want the good one", n)
		}
	})
}
