package user_test

import (
	"context"
	"testing"
	"time"

	"chargeops/internal/db"
	"chargeops/internal/testutil"
	"chargeops/internal/user"
)

func newAccount(t *testing.T, d *db.DB) (*user.Service, int64) {
	t.Helper()
	now := db.NowMS()
	var id int64
	if err := d.QueryRow(context.Background(), `INSERT INTO app_user (user_name, password_hash, created_at, updated_at) VALUES (?, ?, ?, ?) RETURNING id`, "lock_user", "x", now, now).Scan(&id); err != nil {
		t.Fatal(err)
	}
	return user.NewService(d, nil, nil), id
}

// The lock-out's steps in the orders parallel logins can interleave them, each in one order
// made deterministic by calling the steps directly.
func TestARightPasswordCheckedAfterTheLockIsRefused(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		p := user.LockPolicy{After: 5, For: time.Hour}
		s, id := newAccount(t, d)

		t.Run("the first attempt is counted and not locked", func(t *testing.T) {
			right, err := s.BeginLogin(ctx, id, p) // counted first, its password still being checked
			if err != nil || right.LockedUntil != 0 || right.N != 1 {
				t.Fatalf("first attempt: %+v, %v", right, err)
			}
		})
		t.Run("the sixth attempt in flight is refused", func(t *testing.T) {
			var last user.LoginAttempt
			var err error
			for range 5 { // five wrong guesses start meanwhile; the sixth attempt in flight locks
				if last, err = s.BeginLogin(ctx, id, p); err != nil {
					t.Fatal(err)
				}
			}
			if last.LockedUntil == 0 {
				t.Fatalf("the sixth attempt in flight was not refused: %+v", last)
			}
		})
		t.Run("the first attempt's right password, checked after the lock, is refused", func(t *testing.T) {
			until, err := s.SucceedLogin(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if until <= db.NowMS() {
				t.Fatalf("a right password checked after the lock was accepted (until %d)", until)
			}
		})
	})
}

func TestARightPasswordBeforeTheLimitClearsTheFailures(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		p := user.LockPolicy{After: 5, For: time.Hour}
		s, id := newAccount(t, d)
		t.Run("four failures do not lock", func(t *testing.T) {
			for range 4 {
				a, err := s.BeginLogin(ctx, id, p)
				if err != nil {
					t.Fatal(err)
				}
				if until, err := s.FailLogin(ctx, id, a, p); err != nil || until != 0 {
					t.Fatalf("failure %d locked (%d, %v)", a.N, until, err)
				}
			}
		})
		t.Run("a right fifth attempt is accepted", func(t *testing.T) {
			if _, err := s.BeginLogin(ctx, id, p); err != nil {
				t.Fatal(err)
			}
			if until, err := s.SucceedLogin(ctx, id); err != nil || until != 0 {
				t.Fatalf("the right fifth attempt was refused (%d, %v)", until, err)
			}
		})
		t.Run("after a success the count restarts at 1", func(t *testing.T) {
			a, err := s.BeginLogin(ctx, id, p)
			if err != nil || a.N != 1 {
				t.Fatalf("after a success the count restarts at 1, got %+v, %v", a, err)
			}
		})
	})
}
