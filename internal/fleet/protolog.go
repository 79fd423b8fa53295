package fleet

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"chargeops/internal/db"
	"chargeops/internal/secret"
)

// LogRow is one protocol-log row.
type LogRow struct {
	SN   string
	Type int
	Data string
	At   int64 // unix ms; 0 means now
}

// MaxLogData bounds what a protocol-log row keeps of one frame (a charger may send up to the
// read limit, 1 MiB); a longer frame is cut and a marker gives its full length.
const MaxLogData = 64 << 10

// logData is what a row keeps of a frame: credentials masked in both directions (a
// ChangeConfiguration or a GetConfiguration answer carries the AuthorizationKey), then cut
// to MaxLogData. Masking comes first so that a cut never leaves a key readable.
func logData(data string) string {
	size := len(data)
	data = secret.MaskString(data)
	if len(data) <= MaxLogData {
		return data
	}
	cut := MaxLogData
	for cut > 0 && !utf8.RuneStart(data[cut]) {
		cut--
	}
	return data[:cut] + fmt.Sprintf(" …[cut: %d bytes in all]", size)
}

// LogOptions shape the protocol-log writer.
type LogOptions struct {
	QueueSize int // rows the queue holds before Write blocks (backpressure); default 10000
	BatchSize int // rows per multi-row INSERT; default 500
	// BeforeFlush, when set, runs before each batch insert (tests use it to slow the writer).
	BeforeFlush func(n int)
}

// LogWriter writes protocol-log rows in batches from a bounded queue. Write blocks while the
// queue is full, so a gateway that logs a frame before handling it stops reading from that
// socket: chargers are slowed down, rows are never dropped and memory never grows past the
// queue. A failed insert is retried (with back-off) until it succeeds or the writer is closed
// and the rows cannot be written at all.
type LogWriter struct {
	db   *db.DB
	opt  LogOptions
	ch   chan LogRow
	mu   sync.RWMutex
	shut bool
	done chan struct{}

	written  atomic.Int64
	blocked  atomic.Int64 // Write calls that found the queue full
	maxBatch atomic.Int64
}

// NewLogWriter starts the writer.
func NewLogWriter(d *db.DB, opt LogOptions) *LogWriter {
	if opt.QueueSize <= 0 {
		opt.QueueSize = 10000
	}
	if opt.BatchSize <= 0 {
		opt.BatchSize = 500
	}
	w := &LogWriter{db: d, opt: opt, ch: make(chan LogRow, opt.QueueSize), done: make(chan struct{})}
	go w.loop()
	return w
}

// Write queues a row, blocking while the queue is full. After Close it writes synchronously.
// The row keeps the frame with its credentials masked, at most MaxLogData bytes of it.
func (w *LogWriter) Write(r LogRow) {
	if r.At == 0 {
		r.At = db.NowMS()
	}
	r.Data = logData(r.Data)
	w.mu.RLock()
	if w.shut {
		w.mu.RUnlock()
		w.insert(context.Background(), []LogRow{r})
		return
	}
	select {
	case w.ch <- r:
	default:
		w.blocked.Add(1)
		w.ch <- r
	}
	w.mu.RUnlock()
}

// Close drains the queue and stops the writer.
func (w *LogWriter) Close() {
	w.mu.Lock()
	if w.shut {
		w.mu.Unlock()
		return
	}
	w.shut = true
	close(w.ch)
	w.mu.Unlock()
	<-w.done
}

// Stats returns rows written, Write calls that blocked and the largest batch.
func (w *LogWriter) Stats() (written, blocked, maxBatch int64) {
	return w.written.Load(), w.blocked.Load(), w.maxBatch.Load()
}

// QueueLen is the number of rows waiting.
func (w *LogWriter) QueueLen() int { return len(w.ch) }

// QueueCap is the queue's capacity.
func (w *LogWriter) QueueCap() int { return cap(w.ch) }

func (w *LogWriter) loop() {
	defer close(w.done)
	batch := make([]LogRow, 0, w.opt.BatchSize)
	for {
		r, ok := <-w.ch
		if !ok {
			return
		}
		batch = append(batch[:0], r)
	fill:
		for len(batch) < w.opt.BatchSize {
			select {
			case r, ok := <-w.ch:
				if !ok {
					break fill
				}
				batch = append(batch, r)
			default:
				break fill
			}
		}
		w.insert(context.Background(), batch)
	}
}

func (w *LogWriter) insert(ctx context.Context, rows []LogRow) {
	if w.opt.BeforeFlush != nil {
		w.opt.BeforeFlush(len(rows))
	}
	if int64(len(rows)) > w.maxBatch.Load() {
		w.maxBatch.Store(int64(len(rows)))
	}
	var b strings.Builder
	b.WriteString(`INSERT INTO protocol_log (sn, type, data, created_at) VALUES `)
	args := make([]any, 0, len(rows)*4)
	for i, r := range rows {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("(?,?,?,?)")
		args = append(args, r.SN, r.Type, r.Data, r.At)
	}
	q := b.String()
	for attempt := 0; ; attempt++ {
		_, err := w.db.Exec(ctx, q, args...)
		if err == nil {
			w.written.Add(int64(len(rows)))
			return
		}
		if attempt >= 50 || strings.Contains(err.Error(), "database is closed") {
			slog.Error("protocol log rows lost after retries", "rows", len(rows), "err", err)
			return
		}
		slog.Warn("protocol log insert failed, retrying", "rows", len(rows), "err", err)
		time.Sleep(time.Duration(min(attempt+1, 20)) * 100 * time.Millisecond)
	}
}

// PurgeLogs deletes protocol-log rows older than days (in chunks, so no long lock).
func PurgeLogs(ctx context.Context, d *db.DB, days int) (int64, error) {
	if days <= 0 {
		return 0, nil
	}
	cut := time.Now().Add(-time.Duration(days) * 24 * time.Hour).UnixMilli()
	var total int64
	for {
		res, err := d.Exec(ctx, `DELETE FROM protocol_log WHERE id IN (SELECT id FROM protocol_log WHERE created_at < ? ORDER BY created_at LIMIT 5000)`, cut)
		if err != nil {
			return total, err
		}
		n, _ := res.RowsAffected()
		total += n
		if n < 5000 {
			return total, nil
		}
	}
}
