package fleet

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"chargeops/internal/db"
)

// Charger key guesses (docs/gateway.md, "Key guesses"): wrong keys are counted per SN and per
// client address in the database (table charger_key_failure), so every node of a cluster sees
// the same counts. Once an SN or an address has KeyFailuresPerSN or KeyFailuresPerAddr wrong
// keys within KeyFailureWindow, its connection attempts are refused (HTTP 429 with
// Retry-After) without their key being checked, for the first back-off; every further wrong
// key after a back-off doubles it, up to KeyBackoffMaxFactor times the first. The right key
// clears the SN's count; an address's count ends with its window.
const (
	KeyFailuresPerSN    = 10
	KeyFailuresPerAddr  = 20
	KeyFailureWindow    = 15 * time.Minute
	KeyBackoffMaxFactor = 16
	keyPurgeEvery       = time.Minute
)

// RefuseKeyBackoff is the refusal reason of an attempt refused during a key back-off.
const RefuseKeyBackoff = "key_backoff"

// KeyAttempt is one connection attempt that presents (or lacks) a charger key.
type KeyAttempt struct {
	SN      string
	Addr    string
	Backoff time.Duration // the first back-off (--ocpp-key-backoff)
}

func (a KeyAttempt) subjects() [2]string { return [2]string{"sn:" + a.SN, "addr:" + a.Addr} }

// KeyCheck is what the database knows of an attempt's SN and address before its key is checked.
type KeyCheck struct {
	Wait       time.Duration // > 0: refuse the attempt for this long without checking its key
	SNFailures bool          // the SN has wrong keys on record (the right key clears them)
}

// KeyBlocked reads the back-off in force for an attempt's SN and address.
func (s *Service) KeyBlocked(ctx context.Context, a KeyAttempt) (KeyCheck, error) {
	now := db.NowMS()
	subj := a.subjects()
	rows, err := s.db.Query(ctx, `SELECT subject, failures, blocked_until FROM charger_key_failure WHERE subject IN (?, ?)`, subj[0], subj[1])
	if err != nil {
		return KeyCheck{}, fmt.Errorf("fleet: key back-off: %w", err)
	}
	defer rows.Close()
	var out KeyCheck
	for rows.Next() {
		var subject string
		var failures int
		var until int64
		if err := rows.Scan(&subject, &failures, &until); err != nil {
			return KeyCheck{}, fmt.Errorf("fleet: key back-off: %w", err)
		}
		if wait := time.Duration(until-now) * time.Millisecond; wait > out.Wait {
			out.Wait = wait
		}
		if subject == subj[0] && failures > 0 {
			out.SNFailures = true
		}
	}
	if err := rows.Err(); err != nil {
		return KeyCheck{}, fmt.Errorf("fleet: key back-off: %w", err)
	}
	return out, nil
}

// KeyFailed counts a wrong (or missing) key for the attempt's SN and address and returns the
// back-off it starts (0: none yet).
func (s *Service) KeyFailed(ctx context.Context, a KeyAttempt) (time.Duration, error) {
	now := db.NowMS()
	s.purgeKeyFailures(ctx, now)
	limits := [2]int{KeyFailuresPerSN, KeyFailuresPerAddr}
	var wait time.Duration
	for i, subject := range a.subjects() {
		var failures int
		err := s.db.QueryRow(ctx, `INSERT INTO charger_key_failure (subject, failures, window_start, blocked_until) VALUES (?, 1, ?, 0)
			ON CONFLICT (subject) DO UPDATE SET
			  failures = CASE WHEN charger_key_failure.window_start > ? THEN charger_key_failure.failures + 1 ELSE 1 END,
			  window_start = CASE WHEN charger_key_failure.window_start > ? THEN charger_key_failure.window_start ELSE excluded.window_start END
			RETURNING failures`, subject, now, now-KeyFailureWindow.Milliseconds(), now-KeyFailureWindow.Milliseconds()).Scan(&failures)
		if err != nil {
			return 0, fmt.Errorf("fleet: count wrong key: %w", err)
		}
		if failures < limits[i] {
			continue
		}
		backoff := keyBackoff(a.Backoff, failures-limits[i])
		until := now + backoff.Milliseconds()
		if _, err := s.db.Exec(ctx, `UPDATE charger_key_failure SET blocked_until = ? WHERE subject = ? AND blocked_until < ?`, until, subject, until); err != nil {
			return 0, fmt.Errorf("fleet: start key back-off: %w", err)
		}
		wait = max(wait, backoff)
	}
	return wait, nil
}

// keyBackoff is the back-off after `over` wrong keys beyond the limit: first, doubled per key,
// at most KeyBackoffMaxFactor times first.
func keyBackoff(first time.Duration, over int) time.Duration {
	f := 1
	for ; over > 0 && f < KeyBackoffMaxFactor; over-- {
		f *= 2
	}
	return first * time.Duration(f)
}

// KeyAccepted clears the wrong keys counted for an SN once it presented its right key.
func (s *Service) KeyAccepted(ctx context.Context, sn string) error {
	if _, err := s.db.Exec(ctx, `DELETE FROM charger_key_failure WHERE subject = ?`, "sn:"+sn); err != nil {
		return fmt.Errorf("fleet: clear wrong keys: %w", err)
	}
	return nil
}

// purgeKeyFailures deletes, at most once a minute per node, rows whose window and back-off
// both ended (attempts from ever new addresses leave no lasting rows).
func (s *Service) purgeKeyFailures(ctx context.Context, now int64) {
	last := s.keyPurge.Load()
	if now-last < keyPurgeEvery.Milliseconds() || !s.keyPurge.CompareAndSwap(last, now) {
		return
	}
	if _, err := s.db.Exec(ctx, `DELETE FROM charger_key_failure WHERE window_start < ? AND blocked_until < ?`,
		now-KeyFailureWindow.Milliseconds(), now); err != nil {
		slog.Warn("fleet: purge wrong-key counts", "err", err)
	}
}
