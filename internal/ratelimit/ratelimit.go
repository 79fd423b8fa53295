// Package ratelimit counts attempts in fixed windows kept in the database, so a limit holds
// across every node (login attempts per address, reset mails, share access codes).
package ratelimit

import (
	"context"
	"time"

	"chargeops/internal/db"
)

// Limiter checks and counts hits.
type Limiter struct{ db *db.DB }

func New(d *db.DB) *Limiter { return &Limiter{db: d} }

// Allow counts one hit for key and reports whether it is within limit hits per window: one
// atomic increment-and-read (an upsert returning the count) on both databases, so concurrent
// hits on any node each see their own count. Count first, then act on the answer: a separate
// read before the attempt (check-then-act) lets a burst past the limit (issue 29, L3).
func (l *Limiter) Allow(ctx context.Context, key string, limit int, window time.Duration) (bool, error) {
	now := db.NowMS()
	start := now - now%window.Milliseconds()
	var hits int
	err := l.db.QueryRow(ctx, `INSERT INTO rate_counter (key, window_start, hits) VALUES (?, ?, 1)
		ON CONFLICT (key) DO UPDATE SET
		  hits = CASE WHEN rate_counter.window_start = excluded.window_start THEN rate_counter.hits + 1 ELSE 1 END,
		  window_start = excluded.window_start
		RETURNING hits`, key, start).Scan(&hits)
	if err != nil {
		return false, err
	}
	return hits <= limit, nil
}

// Purge deletes counters of windows that ended before the horizon.
func (l *Limiter) Purge(ctx context.Context, horizon time.Duration) error {
	_, err := l.db.Exec(ctx, `DELETE FROM rate_counter WHERE window_start < ?`, db.NowMS()-horizon.Milliseconds())
	return err
}
