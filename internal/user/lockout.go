package user

import (
	"context"
	"fmt"
	"time"

	"chargeops/internal/apperr"
	"chargeops/internal/db"
)

// Lock-out (docs/decisions.md, "Sign-in and accounts"): every login attempt on an account is
// counted before its password is checked, in one atomic UPDATE, so parallel attempts cannot all
// pass a check made before any of them was counted; a right password wins only if, at the moment
// it is accepted, the account is not locked. Each step is a single statement, atomic on
// PostgreSQL (row lock) and on SQLite (one writer).

// LockPolicy is when failed logins lock an account.
type LockPolicy struct {
	After int           // failed logins in a row that lock the account
	For   time.Duration // how long the lock lasts
}

// LoginAttempt is the counted start of one login on an account.
type LoginAttempt struct {
	// N is the attempt's number in the current run of failures, counting attempts still in
	// flight; the slow-down grows with it.
	N int
	// LockedUntil is the lock's end (unix ms) when the attempt is refused; 0 lets it go on.
	LockedUntil int64
}

// BeginLogin counts an attempt on account id. A locked account, or one with p.After attempts
// already counted (failed or in flight), refuses it with LockedUntil set; the latter also locks.
func (s *Service) BeginLogin(ctx context.Context, id int64, p LockPolicy) (LoginAttempt, error) {
	now := db.NowMS()
	var n int
	err := s.db.QueryRow(ctx, `UPDATE app_user SET failed_logins = failed_logins + 1 WHERE id = ? AND locked_until <= ? RETURNING failed_logins`, id, now).Scan(&n)
	if db.NotFound(err) {
		until, err := s.lockedUntil(ctx, id)
		return LoginAttempt{LockedUntil: max(until, now)}, err
	}
	if err != nil {
		return LoginAttempt{}, fmt.Errorf("user: count login attempt: %w", err)
	}
	if n > p.After {
		until, err := s.lock(ctx, id, p)
		return LoginAttempt{N: n, LockedUntil: until}, err
	}
	return LoginAttempt{N: n}, nil
}

// FailLogin records that attempt a had a wrong password (it is counted already); the p.After-th
// failure in a row locks the account. It returns the lock's end, or 0.
func (s *Service) FailLogin(ctx context.Context, id int64, a LoginAttempt, p LockPolicy) (int64, error) {
	if a.N < p.After {
		return 0, nil
	}
	return s.lock(ctx, id, p)
}

// SucceedLogin accepts a right password: in one step it clears the failures unless the account
// got locked meanwhile (by attempts counted while this one was checked). It returns the lock's
// end when the login must be refused, else 0.
func (s *Service) SucceedLogin(ctx context.Context, id int64) (int64, error) {
	now := db.NowMS()
	res, err := s.db.Exec(ctx, `UPDATE app_user SET failed_logins = 0 WHERE id = ? AND locked_until <= ?`, id, now)
	if err != nil {
		return 0, fmt.Errorf("user: clear failed logins: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 1 {
		return 0, nil
	}
	until, err := s.lockedUntil(ctx, id)
	return max(until, now), err
}

// lock locks the account for p.For unless it is locked already, and returns the lock's end.
// The failure count restarts at 0 for the time after the lock.
func (s *Service) lock(ctx context.Context, id int64, p LockPolicy) (int64, error) {
	now := db.NowMS()
	until := now + p.For.Milliseconds()
	res, err := s.db.Exec(ctx, `UPDATE app_user SET locked_until = ?, failed_logins = 0 WHERE id = ? AND locked_until <= ?`, until, id, now)
	if err != nil {
		return 0, fmt.Errorf("user: lock account: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 1 {
		return until, nil
	}
	cur, err := s.lockedUntil(ctx, id)
	return max(cur, now), err
}

func (s *Service) lockedUntil(ctx context.Context, id int64) (int64, error) {
	var until int64
	err := s.db.QueryRow(ctx, `SELECT locked_until FROM app_user WHERE id = ?`, id).Scan(&until)
	if db.NotFound(err) {
		return 0, apperr.ErrNotFound
	}
	if err != nil {
		return 0, fmt.Errorf("user: read lock: %w", err)
	}
	return until, nil
}
