package read_test

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"chargeops/internal/access"
	"chargeops/internal/db"
	"chargeops/internal/fleet"
	"chargeops/internal/fleet/read"
	"chargeops/internal/testutil"
)

// The protocol-log benchmark at 100 million rows (issue 9, docs/benchmarks.md). It needs
// PostgreSQL and tens of GB of disk, so it runs only when CHARGEOPS_BENCH_LOG_ROWS is set:
//
//	CHARGEOPS_BENCH_LOG_ROWS=100000000 CHARGEOPS_TEST_PG=postgres://... \
//	  go test -tags noui -run '^$' -bench ProtocolLogsAtScale -benchtime 200x -timeout 6h ./internal/fleet/read
//
// The rows (spread over the 30 days before the generation, 20,000 SNs) are generated in the
// schema bench_logs by INSERT ... SELECT generate_series, one day partition at a time, then
// VACUUM ANALYZE as autovacuum would do. CHARGEOPS_BENCH_LOG_KEEP=1 keeps the schema for the
// next run (which reuses it when the row count matches); otherwise it is dropped at the end.

const (
	benchSchema  = "bench_logs"
	benchDays    = 30
	benchSNs     = 20000
	benchWorkers = 2 // one INSERT ... SELECT per core
	// generated frames are ~150 bytes: a MeterValues call with one sampled value
	sqlBenchGenerate = `INSERT INTO protocol_log (sn, type, data, created_at)
		SELECT 'CP' || lpad(((g * 7919) %% %[1]d)::text, 8, '0'),
		  CASE WHEN g %% 100 = 0 THEN 0 WHEN g %% 100 = 1 THEN 1 WHEN g %% 2 = 0 THEN 2 ELSE 3 END,
		  '[2,"' || g || '","MeterValues",{"connectorId":1,"meterValue":[{"timestamp":"2026-11-01T00:00:00Z","sampledValue":[{"value":"' || (g %% 997) || '.5","measurand":"Voltage"}]}]}]',
		  %[2]d + ((g - %[3]d) * %[4]d) / %[5]d
		FROM generate_series(%[3]d::BIGINT, %[6]d::BIGINT) AS g`
	sqlBenchMeta = `CREATE TABLE bench_meta (rows BIGINT NOT NULL, generated_at BIGINT NOT NULL)`
)

func benchRows(b *testing.B) int64 {
	n, err := strconv.ParseInt(os.Getenv("CHARGEOPS_BENCH_LOG_ROWS"), 10, 64)
	if err != nil || n <= 0 {
		b.Skip("set CHARGEOPS_BENCH_LOG_ROWS (e.g. 100000000) and CHARGEOPS_TEST_PG to run the protocol-log benchmark")
	}
	return n
}

// openBenchSchema opens PostgreSQL with search_path bench_logs; fresh drops and recreates it.
func openBenchSchema(b *testing.B, fresh bool) *db.DB {
	ctx := context.Background()
	admin, err := db.Open(ctx, testutil.PostgresURL(), "")
	if err != nil {
		b.Fatal(err)
	}
	defer admin.Close()
	if fresh {
		for _, q := range []string{`DROP SCHEMA IF EXISTS ` + benchSchema + ` CASCADE`, `CREATE SCHEMA ` + benchSchema} {
			if _, err := admin.Exec(ctx, q); err != nil {
				b.Fatal(err)
			}
		}
	} else if _, err := admin.Exec(ctx, `CREATE SCHEMA IF NOT EXISTS `+benchSchema); err != nil {
		b.Fatal(err)
	}
	u, err := url.Parse(testutil.PostgresURL())
	if err != nil {
		b.Fatal(err)
	}
	q := u.Query()
	q.Set("search_path", benchSchema)
	u.RawQuery = q.Encode()
	d, err := db.Open(ctx, u.String(), "")
	if err != nil {
		b.Fatal(err)
	}
	if _, err := d.Migrate(ctx); err != nil {
		b.Fatal(err)
	}
	if err := access.SyncCatalogue(ctx, d); err != nil {
		b.Fatal(err)
	}
	return d
}

// benchData returns the bench database with n rows and the time they were generated up to,
// generating them unless a kept schema already holds them.
func benchData(b *testing.B, n int64) (*db.DB, int64) {
	ctx := context.Background()
	d := openBenchSchema(b, false)
	var rows, at int64
	if err := d.QueryRow(ctx, `SELECT rows, generated_at FROM bench_meta`).Scan(&rows, &at); err == nil && rows == n {
		b.Logf("reusing %d rows generated at %s", rows, time.UnixMilli(at).UTC().Format(time.DateTime))
		return d, at
	}
	d.Close()
	d = openBenchSchema(b, true)
	start := time.Now()
	now := db.NowMS()
	today := time.UnixMilli(now).UTC().Truncate(24 * time.Hour)
	// days today-30 .. today-1 in partitions of their own, as a database that has run a month
	for i := benchDays; i >= 1; i-- {
		if err := fleet.CreatePartition(ctx, d, "protocol_log", today.AddDate(0, 0, -i)); err != nil {
			b.Fatal(err)
		}
	}
	perDay := n / benchDays
	days := make(chan int, benchDays)
	for i := range benchDays {
		days <- i
	}
	close(days)
	var wg sync.WaitGroup
	errs := make(chan error, benchWorkers)
	for range benchWorkers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range days {
				lo := today.AddDate(0, 0, i-benchDays).UnixMilli()
				first := int64(i) * perDay
				last := first + perDay - 1
				if i == benchDays-1 {
					last = n - 1
				}
				t0 := time.Now()
				q := fmt.Sprintf(sqlBenchGenerate, benchSNs, lo, first, int64(24*time.Hour/time.Millisecond), last-first+1, last)
				if _, err := d.Exec(ctx, q); err != nil {
					errs <- fmt.Errorf("day %d: %w", i, err)
					return
				}
				b.Logf("day %d: %d rows in %s", i, last-first+1, time.Since(t0).Round(time.Second))
			}
		}()
	}
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		b.Fatal(err)
	}
	gen := time.Since(start)
	t0 := time.Now()
	if _, err := d.Exec(ctx, `VACUUM ANALYZE protocol_log`); err != nil {
		b.Fatal(err)
	}
	devices(b, d)
	for _, q := range []string{sqlBenchMeta, fmt.Sprintf(`INSERT INTO bench_meta VALUES (%d, %d)`, n, today.UnixMilli())} {
		if _, err := d.Exec(ctx, q); err != nil {
			b.Fatal(err)
		}
	}
	var size string
	_ = d.QueryRow(ctx, `SELECT pg_size_pretty(SUM(pg_total_relation_size(c.oid))) FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = to_regclass('protocol_log')`).Scan(&size)
	b.Logf("generated %d rows in %s (%.0f rows/s), VACUUM ANALYZE %s, table with indexes %s", n, gen.Round(time.Second),
		float64(n)/gen.Seconds(), time.Since(t0).Round(time.Second), size)
	return d, today.UnixMilli()
}

// devices registers the generated SNs: customer 1 holds 20 of them, customer 2 200, customer 3
// 1,000, customer 4 the rest, so scoped callers see 0.1 %, 1 % and 5 % of the rows.
func devices(b *testing.B, d *db.DB) {
	ctx := context.Background()
	for _, q := range []string{
		`INSERT INTO customer (id, name, code, created_at, updated_at) SELECT c, 'Customer ' || c, 'C' || c, 0, 0 FROM generate_series(1, 4) AS c`,
		`INSERT INTO site (id, customer_id, name, code, created_at, updated_at) SELECT c, c, 'Site ' || c, 'S' || c, 0, 0 FROM generate_series(1, 4) AS c`,
		`INSERT INTO device_model (id, name, device_type, created_at, updated_at) VALUES (1, 'Model', 1, 0, 0)`,
		fmt.Sprintf(`INSERT INTO device (sn, name, model_id, site_id, customer_id, created_at, updated_at)
			SELECT 'CP' || lpad(i::text, 8, '0'), 'Charger ' || i, 1, c, c, 0, 0
			FROM (SELECT i, CASE WHEN i < 20 THEN 1 WHEN i < 220 THEN 2 WHEN i < 1220 THEN 3 ELSE 4 END AS c FROM generate_series(0, %d) AS i) x`, benchSNs-1),
		`ANALYZE device`,
	} {
		if _, err := d.Exec(ctx, q); err != nil {
			b.Fatal(err)
		}
	}
}

// latency runs fn b.N times and reports p50 and p99 in ms.
func latency(b *testing.B, fn func() error) {
	lat := make([]time.Duration, 0, b.N)
	for b.Loop() {
		t0 := time.Now()
		if err := fn(); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(t0))
	}
	reportPercentiles(b, lat, "")
}

func reportPercentiles(b *testing.B, lat []time.Duration, prefix string) {
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	pct := func(p float64) float64 { return float64(lat[int(float64(len(lat)-1)*p)].Microseconds()) / 1000 }
	b.ReportMetric(pct(0.50), prefix+"p50-ms")
	b.ReportMetric(pct(0.99), prefix+"p99-ms")
}

// BenchmarkProtocolLogsAtScale measures the protocol-log list, its bounded count, a retention
// drop of one day and 500-row inserts on a PostgreSQL table of CHARGEOPS_BENCH_LOG_ROWS rows.
func BenchmarkProtocolLogsAtScale(b *testing.B) {
	n := benchRows(b)
	d, genDay := benchData(b, n)
	defer d.Close()
	if os.Getenv("CHARGEOPS_BENCH_LOG_KEEP") == "" {
		defer func() {
			if _, err := d.Exec(context.Background(), `DROP SCHEMA `+benchSchema+` CASCADE`); err != nil {
				b.Error(err)
			}
		}()
	}
	ctx := context.Background()
	s := read.New(d, read.Options{})
	root := &access.Principal{Root: true, Scope: access.FullScope()}
	few := &access.Principal{Scope: access.Scope{CustomerIDs: []int64{1}, AllSites: true}}
	some := &access.Principal{Scope: access.Scope{CustomerIDs: []int64{2}, AllSites: true}}
	many := &access.Principal{Scope: access.Scope{CustomerIDs: []int64{3}, AllSites: true}}
	day := int64(24 * time.Hour / time.Millisecond)
	mid := genDay - 15*day // a cursor half-way down the table
	deep := func(p *access.Principal, in read.LogListInput) read.LogListInput {
		in.End = mid
		first, err := s.ProtocolLogs(ctx, p, in)
		if err != nil || first.Next == "" {
			b.Fatalf("deep cursor: %v", err)
		}
		in.End, in.Cursor = 0, first.Next
		return in
	}
	zero, two := 0, 2
	cases := []struct {
		name string
		p    *access.Principal
		in   read.LogListInput
	}{
		{"newest-page", root, read.LogListInput{}},
		{"page-500x20", root, read.LogListInput{Page: db.Page{Page: 500, PageSize: 20}}},
		{"cursor-15-days-deep", root, deep(root, read.LogListInput{})},
		{"sn", root, read.LogListInput{SN: "CP00004242"}},
		{"sn/cursor-15-days-deep", root, deep(root, read.LogListInput{SN: "CP00004242"})},
		{"sn/sort-type", root, read.LogListInput{SN: "CP00004242", Sort: "type"}},
		{"type-open/one-day", root, read.LogListInput{Type: &zero, Start: mid - day, End: mid}},
		{"type-received/one-hour", root, read.LogListInput{Type: &two, Start: mid - 3600_000, End: mid}},
		{"sort-sn", root, read.LogListInput{Sort: "sn"}},
		{"sort-sn/page-500x20", root, read.LogListInput{Sort: "sn", Page: db.Page{Page: 500, PageSize: 20}}},
		{"scope-20-devices", few, read.LogListInput{}},
		{"scope-20-devices/cursor-deep", few, deep(few, read.LogListInput{})},
		{"scope-200-devices", some, read.LogListInput{}},
		{"scope-200-devices/page-500x20", some, read.LogListInput{Page: db.Page{Page: 500, PageSize: 20}}},
		{"scope-1000-devices", many, read.LogListInput{}},
		{"scope-1000-devices/page-500x20", many, read.LogListInput{Page: db.Page{Page: 500, PageSize: 20}}},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			latency(b, func() error { _, err := s.ProtocolLogs(ctx, c.p, c.in); return err })
		})
	}
	counts := []struct {
		name  string
		where string
		args  []any
	}{
		{"all", "", nil},
		{"sn", " WHERE l.sn = ?", []any{"CP00004242"}},
		{"type-open", " WHERE l.type = ?", []any{0}},
	}
	for _, c := range counts {
		b.Run("count-bound/"+c.name, func(b *testing.B) {
			latency(b, func() error {
				var total int64
				return d.QueryRow(ctx, `SELECT COUNT(*) FROM (SELECT 1 FROM protocol_log l`+c.where+` LIMIT ?) AS capped`, append(c.args, db.MaxWindow+1)...).Scan(&total)
			})
		})
	}

	b.Run("insert-500-rows", func(b *testing.B) {
		latency(b, func() error {
			q, args := benchBatch(500)
			_, err := d.Exec(ctx, q, args...)
			return err
		})
		b.ReportMetric(float64(b.N*500)/b.Elapsed().Seconds(), "rows/s")
	})

	if os.Getenv("CHARGEOPS_BENCH_LOG_RETENTION") != "0" {
		benchRetention(b, d)
	}
}

// benchRetention drops the oldest day whole (the cut at the next day's start), then deletes one
// hour of the next day in chunks (what each hourly run does), while a writer inserts 500-row
// batches; it runs once (it changes the data: CHARGEOPS_BENCH_LOG_RETENTION=0 skips it when a
// kept schema is reused) and logs its figures.
func benchRetention(b *testing.B, d *db.DB) {
	ctx := context.Background()
	day := int64(24 * time.Hour / time.Millisecond)
	// the oldest day's partition starts at the oldest row's UTC midnight (benchData fills whole days)
	var first int64
	if err := d.QueryRow(ctx, `SELECT MIN(created_at) FROM protocol_log`).Scan(&first); err != nil {
		b.Fatal(err)
	}
	oldest := first - first%day
	var lat []time.Duration
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			q, args := benchBatch(500)
			t0 := time.Now()
			if _, err := d.Exec(ctx, q, args...); err != nil {
				b.Error(err)
				return
			}
			lat = append(lat, time.Since(t0))
		}
	}()
	time.Sleep(500 * time.Millisecond)
	t0 := time.Now()
	dropped, err := fleet.PurgeLogsBefore(ctx, d, oldest+day)
	dropTook := time.Since(t0)
	t0 = time.Now()
	trimmed, err2 := fleet.PurgeLogsBefore(ctx, d, oldest+day+3600_000)
	trimTook := time.Since(t0)
	time.Sleep(500 * time.Millisecond)
	close(stop)
	wg.Wait()
	if err != nil || err2 != nil {
		b.Fatal(err, err2)
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	pct := func(p float64) time.Duration { return lat[int(float64(len(lat)-1)*p)] }
	b.Logf("retention: dropped the oldest day (%d rows) in %s; deleted the next hour (%d rows) in chunks in %s; "+
		"meanwhile %d insert batches of 500: p50 %s, p99 %s, max %s", dropped, dropTook.Round(time.Millisecond), trimmed,
		trimTook.Round(time.Millisecond), len(lat), pct(0.5).Round(100*time.Microsecond), pct(0.99).Round(100*time.Microsecond),
		lat[len(lat)-1].Round(100*time.Microsecond))
}

var benchSeq int64

// benchBatch is the ingest statement for 500 rows of now, over 500 SNs.
func benchBatch(n int) (string, []any) {
	var sb strings.Builder
	sb.WriteString(`INSERT INTO protocol_log (sn, type, data, created_at) VALUES `)
	args := make([]any, 0, 4*n)
	now := db.NowMS()
	for i := range n {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString("(?,?,?,?)")
		benchSeq++
		args = append(args, fmt.Sprintf("CP%08d", benchSeq%benchSNs), fleet.LogReceived,
			`[2,"`+strconv.FormatInt(benchSeq, 10)+`","MeterValues",{"connectorId":1,"meterValue":[{"timestamp":"2026-11-01T00:00:00Z","sampledValue":[{"value":"230.5","measurand":"Voltage"}]}]}]`, now)
	}
	return sb.String(), args
}

// The series benchmark (issue 9): CHARGEOPS_BENCH_SERIES_ROWS points of 2,000 devices, two
// measurands each, one every 10 minutes back from now (100,000,000 points: 174 days, seven
// monthly partitions), in the schema bench_series, dropped at the end:
//
//	CHARGEOPS_BENCH_SERIES_ROWS=100000000 CHARGEOPS_TEST_PG=postgres://... \
//	  go test -tags noui -run '^$' -bench SeriesAtScale -benchtime 200x -timeout 6h ./internal/fleet/read
const (
	seriesBenchSchema  = "bench_series"
	seriesBenchDevices = 2000
	seriesBenchStepMS  = 600_000
	// one month partition of points, device by device, measurand by measurand, in key order
	sqlSeriesBenchGenerate = `INSERT INTO device_series (device_id, name, connector_id, ts, value)
		SELECT dev, n.name, 1, ts, 200 + (ts / %[3]d + dev) %% 50
		FROM generate_series(1, %[4]d) AS dev
		CROSS JOIN (VALUES ('Power.Active.Import'), ('Voltage')) AS n(name)
		CROSS JOIN generate_series(%[1]d::BIGINT, %[2]d::BIGINT, %[3]d) AS ts`
)

// BenchmarkSeriesAtScale measures the data-chart reads (SeriesData) and 500-point inserts of
// the ingest statement on a PostgreSQL device_series of CHARGEOPS_BENCH_SERIES_ROWS points.
func BenchmarkSeriesAtScale(b *testing.B) {
	n, err := strconv.ParseInt(os.Getenv("CHARGEOPS_BENCH_SERIES_ROWS"), 10, 64)
	if err != nil || n <= 0 {
		b.Skip("set CHARGEOPS_BENCH_SERIES_ROWS (e.g. 100000000) and CHARGEOPS_TEST_PG to run the series benchmark")
	}
	ctx := context.Background()
	admin, err := db.Open(ctx, testutil.PostgresURL(), "")
	if err != nil {
		b.Fatal(err)
	}
	defer admin.Close()
	for _, q := range []string{`DROP SCHEMA IF EXISTS ` + seriesBenchSchema + ` CASCADE`, `CREATE SCHEMA ` + seriesBenchSchema} {
		if _, err := admin.Exec(ctx, q); err != nil {
			b.Fatal(err)
		}
	}
	defer func() {
		if _, err := admin.Exec(context.Background(), `DROP SCHEMA `+seriesBenchSchema+` CASCADE`); err != nil {
			b.Error(err)
		}
	}()
	u, _ := url.Parse(testutil.PostgresURL())
	q := u.Query()
	q.Set("search_path", seriesBenchSchema)
	u.RawQuery = q.Encode()
	d, err := db.Open(ctx, u.String(), "")
	if err != nil {
		b.Fatal(err)
	}
	defer d.Close()
	if _, err := d.Migrate(ctx); err != nil {
		b.Fatal(err)
	}
	if err := access.SyncCatalogue(ctx, d); err != nil {
		b.Fatal(err)
	}

	perSeries := n / (seriesBenchDevices * 2)
	now := time.Now()
	end := now.UnixMilli() / seriesBenchStepMS * seriesBenchStepMS
	first := end - (perSeries-1)*seriesBenchStepMS
	start := time.Now()
	type span struct{ lo, hi int64 }
	var spans []span
	f := time.UnixMilli(first).UTC()
	for m := time.Date(f.Year(), f.Month(), 1, 0, 0, 0, 0, time.UTC); m.UnixMilli() <= end; m = m.AddDate(0, 1, 0) {
		if err := fleet.CreatePartition(ctx, d, "device_series", m); err != nil && !strings.Contains(err.Error(), "already exists") {
			b.Fatal(err)
		}
		lo := max(first, (m.UnixMilli()+seriesBenchStepMS-1)/seriesBenchStepMS*seriesBenchStepMS)
		hi := min(end, m.AddDate(0, 1, 0).UnixMilli()-1)
		spans = append(spans, span{lo, hi})
	}
	work := make(chan span, len(spans))
	for _, s := range spans {
		work <- s
	}
	close(work)
	var wg sync.WaitGroup
	for range benchWorkers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for s := range work {
				if _, err := d.Exec(ctx, fmt.Sprintf(sqlSeriesBenchGenerate, s.lo, s.hi, seriesBenchStepMS, seriesBenchDevices)); err != nil {
					b.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	if b.Failed() {
		b.FailNow()
	}
	gen := time.Since(start)
	if _, err := d.Exec(ctx, `VACUUM ANALYZE device_series`); err != nil {
		b.Fatal(err)
	}
	var rows int64
	var size string
	_ = d.QueryRow(ctx, `SELECT SUM(c.reltuples)::BIGINT, pg_size_pretty(SUM(pg_total_relation_size(c.oid))) FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = to_regclass('device_series')`).Scan(&rows, &size)
	b.Logf("generated ~%d points (%d per series, %s to %s) in %s, table with indexes %s", rows, perSeries,
		time.UnixMilli(first).UTC().Format(time.DateOnly), time.UnixMilli(end).UTC().Format(time.DateOnly), gen.Round(time.Second), size)
	for _, q := range []string{
		`INSERT INTO customer (id, name, code, created_at, updated_at) VALUES (1, 'Customer', 'C1', 0, 0)`,
		`INSERT INTO site (id, customer_id, name, code, created_at, updated_at) VALUES (1, 1, 'Site', 'S1', 0, 0)`,
		`INSERT INTO device_model (id, name, device_type, created_at, updated_at) VALUES (1, 'Model', 1, 0, 0)`,
		fmt.Sprintf(`INSERT INTO device (id, sn, name, model_id, site_id, customer_id, created_at, updated_at)
			SELECT i, 'CP' || lpad(i::text, 8, '0'), 'Charger ' || i, 1, 1, 1, 0, 0 FROM generate_series(1, %d) AS i`, seriesBenchDevices),
	} {
		if _, err := d.Exec(ctx, q); err != nil {
			b.Fatal(err)
		}
	}

	s := read.New(d, read.Options{})
	root := &access.Principal{Root: true, Scope: access.FullScope()}
	day := int64(24 * time.Hour / time.Millisecond)
	at := end + seriesBenchStepMS // a bucket start after the last point, so every bucket is whole
	cases := []struct {
		name  string
		in    read.SeriesInput
		names int
	}{
		{"one-day/1-min-step", read.SeriesInput{Start: at - day, End: at, Step: 1}, 1},
		{"7-days/1-hour-step", read.SeriesInput{Start: at - 7*day, End: at, Step: 60}, 1},
		{"30-days/1-hour-step/2-names", read.SeriesInput{Start: at - 30*day, End: at, Step: 60}, 2},
		{"all/1-day-step", read.SeriesInput{Start: first, End: at, Step: 1440}, 1},
		{"all/monthly", read.SeriesInput{Start: first, End: at, Step: read.MonthStep}, 1},
	}
	for _, c := range cases {
		c.in.ConnectorID, c.in.Names = 1, []string{"Voltage", "Power.Active.Import"}[:c.names]
		b.Run(c.name, func(b *testing.B) {
			dev := int64(0)
			latency(b, func() error {
				dev++
				in := c.in
				in.DeviceID = dev%seriesBenchDevices + 1
				_, err := s.SeriesData(ctx, root, in, time.UTC)
				return err
			})
		})
	}
	b.Run("insert-500-points", func(b *testing.B) {
		ts := at
		latency(b, func() error {
			ts += seriesBenchStepMS
			var sb strings.Builder
			sb.WriteString(`INSERT INTO device_series (device_id, name, connector_id, ts, value) VALUES `)
			args := make([]any, 0, 2500)
			for i := range 500 {
				if i > 0 {
					sb.WriteByte(',')
				}
				sb.WriteString("(?,?,?,?,?)")
				args = append(args, i%seriesBenchDevices+1, "Voltage", 1, ts, 230.5)
			}
			sb.WriteString(` ON CONFLICT (device_id, name, connector_id, ts) DO NOTHING`)
			_, err := d.Exec(ctx, sb.String(), args...)
			return err
		})
	})
}
