package ingest

import (
	"context"
	"errors"
	"hash/fnv"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"chargeops/internal/db"
	"chargeops/internal/stats"
)

// Options shape the ingest pipeline.
type Options struct {
	// QueueSize is how many units (messages' worth of writes) wait before Submit blocks
	// (backpressure); default 20000.
	QueueSize int
	// BatchRows closes a batch once it holds this many rows and steps; default 16000.
	BatchRows int
	// Linger closes a batch this long after its first unit even when it is not full; default 2 ms.
	Linger time.Duration
	// Writers is how many batches commit at once, each on its own connection; default 1 on
	// SQLite (one writer at a time anyway) and 2 on PostgreSQL, where one batch runs while
	// another waits for its WAL flush. Units with the same Key always go to the same writer.
	Writers int
	// BeforeCommit, when set, runs before each batch's transaction (tests use it to slow the
	// database down).
	BeforeCommit func(units int)
	// RetryMin and RetryMax bound the back-off between attempts at a batch the database could
	// not take (it grows by RetryMin per attempt up to RetryMax); defaults 100 ms and 2 s. There
	// is no last attempt: while the database is unavailable the batch is held, and with it its
	// chargers, who are not answered (docs/operations.md, "Database outage").
	RetryMin, RetryMax time.Duration
}

// Step is the part of a unit that needs the database: reads, conditional writes, ids. It runs
// inside the batch's transaction, in arrival order, under a savepoint: its error undoes only
// its own writes (and the rows it added to the batch) and is handed back to its submitter.
type Step func(ctx context.Context, b *Batch) error

// Unit is everything one charger message (or one gateway event) writes. Its rows and step are
// committed together, in one batch with many other units; when its step fails, its protocol-log
// rows are still kept (the frame was received) and the rest is dropped.
type Unit struct {
	Logs    []LogRow
	Runtime []RuntimeRow
	Series  []SeriesSample
	// Meters are energy registers sampled during charging sessions (their first one is kept).
	Meters []SessionMeter
	// Seen is a connection's last-seen time and runtime count, written with the rows.
	Seen *Seen
	Step Step
	// Key orders units: those with the same key are committed in the order they were submitted
	// (one writer takes them all); KeyOf(sn) for a charger's units. Units without a key take
	// their first protocol-log row's SN, else the first writer.
	Key  uint64
	done chan error
}

// KeyOf is the ordering key of a charger's units.
func KeyOf(sn string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(sn))
	return h.Sum64()
}

func (u *Unit) key() uint64 {
	if u.Key == 0 && len(u.Logs) > 0 {
		u.Key = KeyOf(u.Logs[0].SN)
	}
	return u.Key
}

// SessionMeter is an energy register (Wh) a charger sampled during session TransactionID.
type SessionMeter struct {
	DeviceID, TransactionID int64
	Wh, At                  int64
}

// RuntimeRow is a latest value (device_runtime): within a batch only the newest per device,
// name and connector is written.
type RuntimeRow struct {
	DeviceID  int64
	Name      string
	Connector int
	Value     string
	Unit      string
	At        int64
}

// SeriesSample is one numeric sample of the time series (device_series).
type SeriesSample struct {
	DeviceID  int64
	Name      string
	Connector int
	At        int64
	Value     float64
}

// Batch is the transaction a batch of units runs in. A step adds rows through it; they join the
// batch only if the step succeeds.
type Batch struct {
	Tx      *db.Tx
	runtime map[runtimeKey]RuntimeRow
	series  []SeriesSample
	logs    []LogRow
	after   []func()
	meters  map[int64]SessionMeter // per session, the earliest sample
	seen    map[int64]Seen         // per device, its runtime counts merged
	changed map[int64]bool         // devices whose open events changed (pushed to consoles)
	stats   stats.Adds             // the dashboards' figures, written last in key order
	// what the running step added, merged on its success
	stagedRuntime []RuntimeRow
	stagedSeries  []SeriesSample
	stagedAfter   []func()
	stagedStats   stats.Adds
}

// Stats is where the running step adds to the dashboards' figures (kept if the step succeeds).
func (b *Batch) Stats() *stats.Adds { return &b.stagedStats }

type runtimeKey struct {
	device    int64
	name      string
	connector int
}

// AddRuntime adds latest values to the batch.
func (b *Batch) AddRuntime(rows ...RuntimeRow) { b.stagedRuntime = append(b.stagedRuntime, rows...) }

// AddSeries adds time-series points to the batch.
func (b *Batch) AddSeries(pts ...SeriesSample) { b.stagedSeries = append(b.stagedSeries, pts...) }

// AfterCommit runs fn once the batch is committed (events for consoles, notifications): a
// change is announced only when it is durable, and once.
func (b *Batch) AfterCommit(fn func()) { b.stagedAfter = append(b.stagedAfter, fn) }

// merge keeps what a unit or a successful step added: latest values coalesced per key (the
// newest sample wins), series points and after-commit work appended.
func (b *Batch) merge(runtime []RuntimeRow, series []SeriesSample, after []func()) {
	for _, r := range runtime {
		k := runtimeKey{r.DeviceID, r.Name, r.Connector}
		if old, ok := b.runtime[k]; ok && old.At > r.At {
			continue
		}
		b.runtime[k] = r
	}
	b.series = append(b.series, series...)
	b.after = append(b.after, after...)
}

// addSeen merges a runtime count into the device's: the seconds add up, the newest connection
// and times win.
func (b *Batch) addSeen(c *Seen) {
	if c == nil {
		return
	}
	old, ok := b.seen[c.DeviceID]
	if ok && old.At > c.At {
		old.Secs += c.Secs
		b.seen[c.DeviceID] = old
		return
	}
	if ok {
		c2 := *c
		c2.Secs += old.Secs
		c2.CountedAt = max(c2.CountedAt, old.CountedAt)
		c = &c2
	}
	b.seen[c.DeviceID] = *c
}

// MarkChanged notes that a device's open events (or what the consoles show of it) changed in
// this batch: its status event is pushed even when its status stays the same.
func (b *Batch) MarkChanged(deviceID int64) { b.changed[deviceID] = true }

// Changed tells whether MarkChanged was called for the device in this batch.
func (b *Batch) Changed(deviceID int64) bool { return b.changed[deviceID] }

// addMeters keeps each session's earliest sample.
func (b *Batch) addMeters(ms []SessionMeter) {
	for _, m := range ms {
		if old, ok := b.meters[m.TransactionID]; !ok || m.At < old.At {
			b.meters[m.TransactionID] = m
		}
	}
}

func (b *Batch) unstage() {
	b.stagedRuntime, b.stagedSeries, b.stagedAfter = b.stagedRuntime[:0], b.stagedSeries[:0], nil
	b.stagedStats.Reset()
}

// rows is how much a unit adds to a batch, for closing batches by size.
func (u *Unit) rows() int {
	n := len(u.Logs) + len(u.Runtime) + len(u.Series)
	if u.Seen != nil {
		n++
	}
	if u.Step != nil {
		n += 4
	}
	return max(n, 1)
}

// Pipeline is the one write path of device data: every protocol-log row, latest value, series
// point and state change the gateway stores goes through it. Each writer takes units from its
// bounded queue and commits many of them in one transaction (group commit): a batch closes
// after Linger or BatchRows, whichever comes first, and while one batch commits the next one
// fills. A unit goes to the writer its Key picks, so one charger's units stay in order. Submit
// blocks while the queue is full, so a charger whose message cannot be queued is not read
// from: chargers are slowed, memory stays bounded and nothing is dropped. A batch the database
// cannot take now (down, disk full) is held and retried with back-off without a deadline, and
// Health says so; only a batch the database refuses is split to find the unit it refuses.
type Pipeline struct {
	db   *db.DB
	opt  Options
	chs  []chan *Unit
	mu   sync.RWMutex
	shut bool
	done chan struct{}

	stats pipelineCounters
	hold  holdState
}

type pipelineCounters struct {
	units, rows, batches, blocked, maxBatch, commitMicros, failures atomic.Int64
	// writing counts the units a writer took from its queue and has not committed yet (filling
	// or writing a batch): with the queues' lengths, what the node still holds unwritten
	writing atomic.Int64
}

// PipelineStats are the pipeline's counters since start.
type PipelineStats struct {
	Units        int64 `json:"units"`
	LogRows      int64 `json:"logRows"`
	Batches      int64 `json:"batches"`
	Blocked      int64 `json:"blocked"` // Submit calls that found the queue full
	MaxBatch     int64 `json:"maxBatch"`
	CommitMicros int64 `json:"commitMicros"` // time spent in batch transactions
	Failures     int64 `json:"failures"`     // batch transactions retried
	Queue        int   `json:"queue"`
	Writing      int   `json:"writing"` // units taken from the queue into a batch not yet committed
	QueueCap     int   `json:"queueCap"`
}

// New starts the writer.
func New(d *db.DB, opt Options) *Pipeline {
	if opt.QueueSize <= 0 {
		opt.QueueSize = 20000
	}
	if opt.BatchRows <= 0 {
		opt.BatchRows = 16000
	}
	if opt.Linger <= 0 {
		opt.Linger = 2 * time.Millisecond
	}
	if opt.RetryMin <= 0 {
		opt.RetryMin = 100 * time.Millisecond
	}
	if opt.RetryMax <= 0 {
		opt.RetryMax = 2 * time.Second
	}
	opt.RetryMin = min(opt.RetryMin, opt.RetryMax)
	if opt.Writers <= 0 {
		opt.Writers = 1
		if d.Dialect() == db.Postgres {
			opt.Writers = 2
		}
	}
	p := &Pipeline{db: d, opt: opt, done: make(chan struct{})}
	p.hold.lastWrite.Store(time.Now().UnixMilli())
	var wg sync.WaitGroup
	for range opt.Writers {
		ch := make(chan *Unit, max(opt.QueueSize/opt.Writers, 1))
		p.chs = append(p.chs, ch)
		wg.Add(1)
		go func() { defer wg.Done(); p.loop(ch) }()
	}
	go func() { wg.Wait(); close(p.done) }()
	return p
}

// ErrClosed is the answer to a unit submitted after Close whose database is gone.
var ErrClosed = errors.New("ingest: the pipeline is closed")

// Submit queues a unit without waiting for its commit (blocking while the queue is full).
func (p *Pipeline) Submit(u *Unit) { p.submit(u) }

// Commit queues a unit and waits until its batch is committed; the error is its step's, or the
// database's when the batch could not be committed at all. A message whose loss would lose a
// charging session is answered only after Commit returns nil.
func (p *Pipeline) Commit(ctx context.Context, u *Unit) error {
	u.done = make(chan error, 1)
	p.submit(u)
	select {
	case err := <-u.done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Exec commits one statement through the pipeline, in a batch with the rest of the device data,
// and waits for it: the writes that are neither rows of a message nor a step of their own.
func (p *Pipeline) Exec(ctx context.Context, q string, args ...any) error {
	return p.Commit(ctx, &Unit{Step: func(ctx context.Context, b *Batch) error {
		_, err := b.Tx.Exec(ctx, q, args...)
		return err
	}})
}

// Write queues one protocol-log row (kept with its credentials masked, at most MaxLogData bytes).
func (p *Pipeline) Write(r LogRow) { p.submit(&Unit{Logs: []LogRow{r}}) }

func (p *Pipeline) submit(u *Unit) {
	for i := range u.Logs {
		if u.Logs[i].At == 0 {
			u.Logs[i].At = db.NowMS()
		}
		u.Logs[i].Data = logData(u.Logs[i].Data)
	}
	p.mu.RLock()
	if p.shut {
		p.mu.RUnlock()
		// after Close: written on its own, at once
		p.commit(context.Background(), []*Unit{u})
		return
	}
	ch := p.chs[u.key()%uint64(len(p.chs))]
	select {
	case ch <- u:
	default:
		p.stats.blocked.Add(1)
		ch <- u
	}
	p.mu.RUnlock()
}

// Close commits what is queued and stops the writer; later units are written one by one.
func (p *Pipeline) Close() {
	p.mu.Lock()
	if p.shut {
		p.mu.Unlock()
		return
	}
	p.shut = true
	for _, ch := range p.chs {
		close(ch)
	}
	p.mu.Unlock()
	<-p.done
}

// Stats returns the counters.
func (p *Pipeline) Stats() PipelineStats {
	st := PipelineStats{Units: p.stats.units.Load(), LogRows: p.stats.rows.Load(), Batches: p.stats.batches.Load(),
		Blocked: p.stats.blocked.Load(), MaxBatch: p.stats.maxBatch.Load(), CommitMicros: p.stats.commitMicros.Load(),
		Failures: p.stats.failures.Load()}
	for _, ch := range p.chs {
		st.Queue += len(ch)
		st.QueueCap += cap(ch)
	}
	st.Writing = int(p.stats.writing.Load())
	return st
}

// loop is one writer: it fills a batch from its queue and commits it.
func (p *Pipeline) loop(ch chan *Unit) {
	var batch []*Unit
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	for {
		u, ok := <-ch
		if !ok {
			return
		}
		p.stats.writing.Add(1)
		batch = append(batch[:0], u)
		rows := u.rows()
		timer.Reset(p.opt.Linger)
	fill:
		for rows < p.opt.BatchRows {
			select {
			case u, ok := <-ch:
				if !ok {
					break fill
				}
				p.stats.writing.Add(1)
				batch = append(batch, u)
				rows += u.rows()
			case <-timer.C:
				break fill
			}
		}
		if !timer.Stop() {
			select {
			case <-timer.C:
			default:
			}
		}
		p.commit(context.Background(), batch)
		p.stats.writing.Add(-int64(len(batch)))
		clear(batch)
	}
}

// commit writes a batch in one transaction, retrying the whole batch while the database fails,
// then runs the after-commit work and answers the waiting submitters. While the database is
// unavailable (db.Unavailable, or it does not answer a ping) the batch is held and retried
// without a deadline: its submitters are not answered, so chargers re-send rather than lose
// what they sent. A batch the database answers but refuses three times is committed in halves
// until the unit it refuses is alone, and that unit's submitter gets the error.
func (p *Pipeline) commit(ctx context.Context, units []*Unit) {
	if p.opt.BeforeCommit != nil {
		p.opt.BeforeCommit(len(units))
	}
	var b *Batch
	var unitErrs []error
	var err error
	held := false
	refusals := 0
	for attempt := 0; ; attempt++ {
		start := time.Now()
		b, unitErrs, err = p.run(ctx, units)
		p.stats.commitMicros.Add(time.Since(start).Microseconds())
		if err == nil {
			break
		}
		p.stats.failures.Add(1)
		if db.Closed(err) { // shutting down after the pool was closed: nothing will succeed
			slog.Error("ingest batch not written: the database is closed", "units", len(units), "err", err)
			p.fail(units, err)
			p.release(&held)
			return
		}
		if !db.Unavailable(err) && p.db.Pool().PingContext(ctx) == nil {
			refusals++
		}
		if refusals >= 3 {
			p.release(&held)
			if len(units) > 1 {
				// the database answers but refuses this batch: commit its halves apart, so that
				// one unit it cannot take costs only that unit
				slog.Warn("ingest batch refused, committing its halves apart", "units", len(units), "err", err)
				p.commit(ctx, units[:len(units)/2])
				p.commit(ctx, units[len(units)/2:])
				return
			}
			slog.Error("ingest unit refused by the database", "err", err)
			p.fail(units, err)
			return
		}
		if refusals == 0 {
			p.enterHold(&held, err, len(units))
		}
		time.Sleep(min(time.Duration(attempt+1)*p.opt.RetryMin, p.opt.RetryMax))
	}
	p.release(&held)
	p.hold.lastWrite.Store(time.Now().UnixMilli())
	p.stats.batches.Add(1)
	p.stats.units.Add(int64(len(units)))
	p.stats.rows.Add(int64(len(b.logs)))
	for n := int64(len(units)); ; {
		old := p.stats.maxBatch.Load()
		if n <= old || p.stats.maxBatch.CompareAndSwap(old, n) {
			break
		}
	}
	for _, fn := range b.after {
		fn()
	}
	for i, u := range units {
		switch {
		case u.done != nil:
			u.done <- unitErrs[i]
		case unitErrs[i] != nil: // nobody waits for this unit: say what was undone
			slog.Warn("ingest step undone", "err", unitErrs[i])
		}
	}
}

// run is one attempt at a batch: the steps in order (each under a savepoint), then the rows in
// multi-row statements, then the commit.
func (p *Pipeline) run(ctx context.Context, units []*Unit) (*Batch, []error, error) {
	b := &Batch{runtime: map[runtimeKey]RuntimeRow{}, meters: map[int64]SessionMeter{}, seen: map[int64]Seen{}, changed: map[int64]bool{}}
	errs := make([]error, len(units))
	err := p.db.InTx(ctx, func(tx *db.Tx) error {
		b.Tx = tx
		for i, u := range units {
			b.logs = append(b.logs, u.Logs...)
			b.addMeters(u.Meters)
			b.addSeen(u.Seen)
			if u.Step == nil {
				b.merge(u.Runtime, u.Series, nil)
				continue
			}
			// a step (a StopTransaction) sees the session samples that arrived before it
			if err := firstMeters(ctx, tx, b.meters); err != nil {
				return err
			}
			clear(b.meters)
			if err := p.step(ctx, b, u); err != nil {
				if isStepError(err) {
					errs[i] = err
					continue
				}
				return err
			}
		}
		if err := insertLogs(ctx, tx, b.logs); err != nil {
			return err
		}
		if err := upsertRuntime(ctx, tx, b.runtime); err != nil {
			return err
		}
		if err := firstMeters(ctx, tx, b.meters); err != nil {
			return err
		}
		if err := insertSeries(ctx, tx, b.series); err != nil {
			return err
		}
		if err := updateSeen(ctx, tx, b.seen); err != nil {
			return err
		}
		return b.stats.Write(ctx, tx)
	})
	return b, errs, err
}

// stepError marks the failure of one unit's step (undone by its savepoint), as opposed to a
// failure of the batch's transaction.
type stepError struct{ err error }

func (e *stepError) Error() string { return e.err.Error() }
func (e *stepError) Unwrap() error { return e.err }

func isStepError(err error) bool {
	var se *stepError
	return errors.As(err, &se)
}

// step runs a unit's step under a savepoint; on its error the savepoint is rolled back, what
// the step added to the batch is dropped, and the error comes back as a stepError.
func (p *Pipeline) step(ctx context.Context, b *Batch, u *Unit) error {
	if _, err := b.Tx.Exec(ctx, `SAVEPOINT unit`); err != nil {
		return err
	}
	b.unstage()
	b.AddRuntime(u.Runtime...)
	b.AddSeries(u.Series...)
	if err := u.Step(ctx, b); err != nil {
		b.unstage()
		if _, rbErr := b.Tx.Exec(ctx, `ROLLBACK TO SAVEPOINT unit`); rbErr != nil {
			return rbErr
		}
		if _, relErr := b.Tx.Exec(ctx, `RELEASE SAVEPOINT unit`); relErr != nil {
			return relErr
		}
		return &stepError{err}
	}
	b.merge(b.stagedRuntime, b.stagedSeries, b.stagedAfter)
	b.stats.Merge(&b.stagedStats)
	b.unstage()
	_, err := b.Tx.Exec(ctx, `RELEASE SAVEPOINT unit`)
	return err
}
