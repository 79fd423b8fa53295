package mail

import (
	"context"
	"log/slog"
	"time"

	"chargeops/internal/db"
)

// Retry is the delivery policy of the worker.
type Retry struct {
	MaxAttempts int           // attempts before a mail is given up (its row is kept, status 2)
	Base        time.Duration // wait after the first failure; doubles with every further one
	Max         time.Duration // longest wait between attempts
	Lease       time.Duration // how long a claimed mail is left to its node before another may try
	Poll        time.Duration // how often the worker looks for due mail without being woken
	MaxAge      time.Duration // mail older than this when SMTP comes up is not sent (stale reset links)
}

// DefaultRetry: 8 attempts, 30 s doubling up to 1 h (about 2 h in all).
func DefaultRetry() Retry {
	return Retry{MaxAttempts: 8, Base: 30 * time.Second, Max: time.Hour, Lease: 5 * time.Minute, Poll: 5 * time.Second, MaxAge: 24 * time.Hour}
}

// backoff is the wait after the n-th failed attempt (n >= 1).
func (r Retry) backoff(n int) time.Duration {
	d := r.Base
	for i := 1; i < n && d < r.Max; i++ {
		d *= 2
	}
	return min(d, r.Max)
}

// Run delivers the outbox through SMTP until ctx ends. Without SMTP it returns at once: the
// mail stays in the outbox. Any number of nodes may run it: a mail is claimed by a conditional
// UPDATE that pushes its next attempt past the lease, so one node tries it at a time.
func (m *Mailer) Run(ctx context.Context) {
	if !m.SMTP() {
		return
	}
	t := time.NewTicker(m.Retry.Poll)
	defer t.Stop()
	for {
		for m.deliverDue(ctx) > 0 && ctx.Err() == nil {
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-m.wake:
		}
	}
}

const (
	sqlOutboxDue   = `SELECT id FROM mail_outbox WHERE status = ? AND next_attempt_at <= ? AND created_at >= ? ORDER BY next_attempt_at, id LIMIT 20`
	sqlOutboxClaim = `UPDATE mail_outbox SET attempts = attempts + 1, next_attempt_at = ? WHERE id = ? AND status = ? AND next_attempt_at <= ?`
	sqlOutboxRow   = `SELECT recipient, subject, body, attempts FROM mail_outbox WHERE id = ?`
	sqlOutboxSent  = `UPDATE mail_outbox SET status = ?, sent_at = ?, last_error = '' WHERE id = ?`
	sqlOutboxRetry = `UPDATE mail_outbox SET status = ?, next_attempt_at = ?, last_error = ? WHERE id = ?`
)

// deliverDue tries the due mails once each and returns how many it tried.
func (m *Mailer) deliverDue(ctx context.Context) int {
	now := db.NowMS()
	ids, err := db.Column[int64](ctx, m.db, sqlOutboxDue, StatusWaiting, now, now-m.Retry.MaxAge.Milliseconds())
	if err != nil {
		if ctx.Err() == nil {
			slog.Warn("mail: due outbox", "err", err)
		}
		return 0
	}
	tried := 0
	for _, id := range ids {
		if ctx.Err() != nil {
			break
		}
		if m.attempt(ctx, id) {
			tried++
		}
	}
	return tried
}

// attempt claims one mail and sends it; it reports whether this node tried it.
func (m *Mailer) attempt(ctx context.Context, id int64) bool {
	now := db.NowMS()
	res, err := m.db.Exec(ctx, sqlOutboxClaim, now+m.Retry.Lease.Milliseconds(), id, StatusWaiting, now)
	if err != nil {
		slog.Warn("mail: claim", "id", id, "err", err)
		return false
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return false // another node has it
	}
	var to, subject, body string
	var attempts int
	if err := m.db.QueryRow(ctx, sqlOutboxRow, id).Scan(&to, &subject, &body, &attempts); err != nil {
		slog.Warn("mail: read", "id", id, "err", err)
		return false
	}
	sendCtx, cancel := context.WithTimeout(ctx, time.Minute)
	err = m.deliver(sendCtx, to, subject, body)
	cancel()
	// the outcome is stored even when ctx ended meanwhile
	store := context.WithoutCancel(ctx)
	if err == nil {
		if _, err := m.db.Exec(store, sqlOutboxSent, StatusSent, db.NowMS(), id); err != nil {
			slog.Warn("mail: mark sent", "id", id, "err", err)
		}
		return true
	}
	status, next := StatusWaiting, db.NowMS()+m.Retry.backoff(attempts).Milliseconds()
	if attempts >= m.Retry.MaxAttempts {
		status = StatusFailed
	}
	slog.Warn("mail not sent", "id", id, "to", to, "attempt", attempts, "gave_up", status == StatusFailed, "err", err)
	msg := err.Error()
	if len(msg) > 500 {
		msg = msg[:500]
	}
	if _, err := m.db.Exec(store, sqlOutboxRetry, status, next, msg, id); err != nil {
		slog.Warn("mail: mark retry", "id", id, "err", err)
	}
	return true
}

// Purge deletes outbox mail older than keep: sent and given-up mail, and without SMTP also the
// kept mail (the console's outbox shows the recent ones). Mail still queued for SMTP stays.
func (m *Mailer) Purge(ctx context.Context, keep time.Duration) (int64, error) {
	cut := time.Now().Add(-keep).UnixMilli()
	if m.SMTP() {
		return db.Purge(ctx, m.db, "mail_outbox", "id", "created_at < ? AND status <> ?", 20, cut, StatusWaiting)
	}
	return db.Purge(ctx, m.db, "mail_outbox", "id", "created_at < ?", 20, cut)
}
