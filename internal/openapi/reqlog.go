package openapi

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"chargeops/internal/db"
)

// LatencyBounds are the upper bounds (ms) of the latency histogram of the access statistics:
// bucket i of openapi_stat_day counts calls at or under LatencyBounds[i]; the last bucket
// (len(LatencyBounds)) the slower ones.
var LatencyBounds = []int64{5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000}

// Record is one call of the request log.
type Record struct {
	AppID      int64 // application.id
	CustomerID int64
	Endpoint   string // "GET /openapi/v1/devices"
	Query      string // secrets masked
	Status     int    // HTTP status
	Code       int    // the answer's code
	Latency    time.Duration
	IP         string
	At         time.Time
}

// DayStart is the start (unix ms) of the day in loc that holds t: the day of openapi_stat_day.
func DayStart(t time.Time, loc *time.Location) int64 {
	t = t.In(loc)
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, loc).UnixMilli()
}

// bucket is the histogram bucket of a latency.
func bucket(d time.Duration) int {
	ms := d.Milliseconds()
	for i, b := range LatencyBounds {
		if ms <= b {
			return i
		}
	}
	return len(LatencyBounds)
}

// Log writes the request log and its daily statistics in batches (every 500 ms, or 1,000
// calls), off the request's path. A call is in the log within a second; Close writes what is
// queued. Days are those of the console's time zone.
type Log struct {
	db      *db.DB
	loc     *time.Location
	queue   chan Record
	done    chan struct{}
	flushed chan chan struct{}
	once    sync.Once
	dropped atomic.Int64
}

const (
	logQueue = 10000
	logBatch = 1000
	logEvery = 500 * time.Millisecond
)

// NewLog starts the writer; the statistics' days are those of loc (nil: UTC).
func NewLog(d *db.DB, loc *time.Location) *Log {
	if loc == nil {
		loc = time.UTC
	}
	l := &Log{db: d, loc: loc, queue: make(chan Record, logQueue), done: make(chan struct{}), flushed: make(chan chan struct{})}
	go l.run()
	return l
}

// Add queues a call; a full queue drops it (counted in Dropped) rather than slow the API.
func (l *Log) Add(r Record) {
	select {
	case l.queue <- r:
	default:
		if l.dropped.Add(1)%1000 == 1 {
			slog.Warn("openapi request log queue full: calls not logged", "dropped", l.dropped.Load())
		}
	}
}

// Dropped is how many calls were not logged because the queue was full.
func (l *Log) Dropped() int64 { return l.dropped.Load() }

// Flush writes what is queued now and returns when it is stored (tests, shutdown).
func (l *Log) Flush() {
	ch := make(chan struct{})
	select {
	case l.flushed <- ch:
		<-ch
	case <-l.done:
	}
}

// Close writes what is queued and stops the writer.
func (l *Log) Close() {
	l.once.Do(func() {
		l.Flush()
		close(l.done)
	})
}

func (l *Log) run() {
	t := time.NewTicker(logEvery)
	defer t.Stop()
	var batch []Record
	write := func() {
		if len(batch) == 0 {
			return
		}
		if err := l.write(context.Background(), batch); err != nil {
			slog.Error("openapi request log not written", "err", err, "calls", len(batch))
		}
		batch = batch[:0]
	}
	for {
		select {
		case r := <-l.queue:
			batch = append(batch, r)
			if len(batch) >= logBatch {
				write()
			}
		case <-t.C:
			write()
		case ch := <-l.flushed:
			for drained := false; !drained; {
				select {
				case r := <-l.queue:
					batch = append(batch, r)
				default:
					drained = true
				}
			}
			write()
			close(ch)
		case <-l.done:
			return
		}
	}
}

type statKey struct {
	app      int64
	day      int64
	endpoint string
}

type statRow struct {
	calls, errors, latencyUS int64
	buckets                  []int64 // one per LatencyBounds, and the slower calls
}

// write stores one batch: the rows (multi-row inserts) and the daily figures they add to, in
// one transaction.
func (l *Log) write(ctx context.Context, batch []Record) error {
	stats := map[statKey]*statRow{}
	for _, r := range batch {
		k := statKey{r.AppID, DayStart(r.At, l.loc), r.Endpoint}
		s := stats[k]
		if s == nil {
			s = &statRow{buckets: make([]int64, len(LatencyBounds)+1)}
			stats[k] = s
		}
		s.calls++
		if r.Code != 0 {
			s.errors++
		}
		s.latencyUS += r.Latency.Microseconds()
		s.buckets[bucket(r.Latency)]++
	}
	return l.db.InTx(ctx, func(tx *db.Tx) error {
		const per = 200
		for i := 0; i < len(batch); i += per {
			part := batch[i:min(i+per, len(batch))]
			var sb strings.Builder
			sb.WriteString(`INSERT INTO openapi_request (app_id, customer_id, endpoint, query, status, code, latency_us, ip, created_at) VALUES `)
			args := make([]any, 0, len(part)*9)
			for j, r := range part {
				if j > 0 {
					sb.WriteString(", ")
				}
				sb.WriteString("(?, ?, ?, ?, ?, ?, ?, ?, ?)")
				args = append(args, r.AppID, r.CustomerID, r.Endpoint, r.Query, r.Status, r.Code, r.Latency.Microseconds(), r.IP, r.At.UnixMilli())
			}
			if _, err := tx.Exec(ctx, sb.String(), args...); err != nil {
				return fmt.Errorf("openapi: request log: %w", err)
			}
		}
		for k, s := range stats {
			args := []any{k.app, k.day, k.endpoint, s.calls, s.errors, s.latencyUS}
			for _, b := range s.buckets {
				args = append(args, b)
			}
			if _, err := tx.Exec(ctx, sqlStatAdd, args...); err != nil {
				return fmt.Errorf("openapi: statistics: %w", err)
			}
		}
		return nil
	})
}

var sqlStatAdd = func() string {
	cols := []string{"calls", "errors", "latency_us_sum"}
	for i := range len(LatencyBounds) + 1 {
		cols = append(cols, fmt.Sprintf("lat_b%d", i))
	}
	set := make([]string, len(cols))
	for i, c := range cols {
		set[i] = fmt.Sprintf("%s = openapi_stat_day.%s + excluded.%s", c, c, c)
	}
	return `INSERT INTO openapi_stat_day (app_id, day, endpoint, ` + strings.Join(cols, ", ") + `) VALUES (?, ?, ?` +
		strings.Repeat(", ?", len(cols)) + `) ON CONFLICT (app_id, day, endpoint) DO UPDATE SET ` + strings.Join(set, ", ")
}()

// Purge deletes request-log rows older than before, in bounded batches (the hourly
// retention job); the daily statistics stay.
func (l *Log) Purge(ctx context.Context, before time.Time) (int64, error) {
	return db.Purge(ctx, l.db, "openapi_request", "id", "created_at < ?", 100, before.UnixMilli())
}
