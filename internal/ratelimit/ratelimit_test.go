package ratelimit_test

import (
	"context"
	"testing"
	"time"

	"chargeops/internal/db"
	"chargeops/internal/ratelimit"
	"chargeops/internal/testutil"
)

func TestFixedWindow(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		l := ratelimit.New(d)
		ctx := context.Background()
		for i := 1; i <= 4; i++ {
			ok, err := l.Allow(ctx, "login:10.0.0.1", 3, time.Hour)
			if err != nil {
				t.Fatal(err)
			}
			if ok != (i <= 3) {
				t.Fatalf("hit %d allowed=%v", i, ok)
			}
		}
		// Another key has its own budget; a new window starts afresh.
		if ok, _ := l.Allow(ctx, "login:10.0.0.2", 3, time.Hour); !ok {
			t.Fatal("keys share a budget")
		}
		time.Sleep(60 * time.Millisecond)
		if ok, _ := l.Allow(ctx, "short", 1, 50*time.Millisecond); !ok {
			t.Fatal("first hit refused")
		}
		time.Sleep(60 * time.Millisecond)
		if ok, _ := l.Allow(ctx, "short", 1, 50*time.Millisecond); !ok {
			t.Fatal("a new window did not reset the count")
		}
	})
}
