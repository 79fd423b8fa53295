package ingest

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"chargeops/internal/db"
)

// holdState is what the pipeline tells of a database it cannot write to: how many writers hold
// a batch the database could not take, since when, why, and when a batch was last committed.
type holdState struct {
	mu        sync.Mutex
	writers   int       // batches held now
	since     time.Time // when the first of them failed
	reason    string    // the last error
	lastWrite atomic.Int64
}

// Health is the pipeline's state for /healthz and /metrics.
type Health struct {
	// Held: batches are waiting for the database (down, disk full); their chargers are not
	// answered until they are stored.
	Held bool `json:"held"`
	// Reason names the database's last error while held (db.Reason: "disk full", "database
	// unreachable", ...); the error itself is logged.
	Reason string `json:"reason,omitempty"`
	// HeldFor is how long the oldest held batch has waited.
	HeldFor time.Duration `json:"-"`
	// SinceWrite is the time since a batch was last committed.
	SinceWrite time.Duration `json:"-"`
}

// Health tells whether the pipeline holds batches the database could not take.
func (p *Pipeline) Health() Health {
	p.hold.mu.Lock()
	defer p.hold.mu.Unlock()
	h := Health{Held: p.hold.writers > 0, SinceWrite: time.Since(time.UnixMilli(p.hold.lastWrite.Load()))}
	if h.Held {
		h.Reason, h.HeldFor = p.hold.reason, time.Since(p.hold.since)
	}
	return h
}

// enterHold marks a writer's batch as held (once per batch) and keeps the latest reason.
func (p *Pipeline) enterHold(held *bool, err error, units int) {
	p.hold.mu.Lock()
	defer p.hold.mu.Unlock()
	p.hold.reason = db.Reason(err)
	if *held {
		return
	}
	*held = true
	if p.hold.writers == 0 {
		p.hold.since = time.Now()
	}
	p.hold.writers++
	slog.Error("ingest held: the database cannot take a batch, retrying until it can", "units", units, "err", err)
}

// release ends a writer's hold; when the last one ends, the node has recovered: on SQLite the
// write-ahead log, which grew while the disk was full, is truncated.
func (p *Pipeline) release(held *bool) {
	if !*held {
		return
	}
	*held = false
	p.hold.mu.Lock()
	p.hold.writers--
	recovered := p.hold.writers == 0
	took := time.Since(p.hold.since)
	if recovered {
		p.hold.reason = ""
	}
	p.hold.mu.Unlock()
	if !recovered {
		return
	}
	slog.Warn("ingest recovered: the held batches are stored", "held", took.Round(time.Millisecond))
	if p.db.Dialect() == db.SQLite {
		go func() {
			if err := p.db.TruncateWAL(context.Background()); err != nil {
				slog.Warn("after the ingest recovered", "err", err)
			}
		}()
	}
}

// fail answers a batch's waiting submitters with err.
func (p *Pipeline) fail(units []*Unit, err error) {
	for _, u := range units {
		if u.done != nil {
			u.done <- err
		}
	}
}
