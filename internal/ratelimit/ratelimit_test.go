package ratelimit_test

import (
	"context"
	"testing"
	"time"

	"chargeops/internal/db"
	"chargeops/internal/ratelimit"
	"chargeops/internal/testutil"
)

// century is a window no test run crosses the end of (windows are aligned to the epoch).
const century = 100 * 365 * 24 * time.Hour

func TestFixedWindow(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		l := ratelimit.New(d)
		ctx := context.Background()
		allow := func(t *testing.T, key string, limit int, window time.Duration) bool {
			t.Helper()
			ok, err := l.Allow(ctx, key, limit, window)
			if err != nil {
				t.Fatal(err)
			}
			return ok
		}
		t.Run("hits up to the limit pass, the next is refused", func(t *testing.T) {
			for i := 1; i <= 4; i++ {
				if ok := allow(t, "login:10.0.0.1", 3, century); ok != (i <= 3) {
					t.Fatalf("hit %d allowed=%v", i, ok)
				}
			}
		})
		t.Run("another key has its own budget", func(t *testing.T) {
			if !allow(t, "login:10.0.0.2", 3, century) {
				t.Fatal("keys share a budget")
			}
		})
		t.Run("a new window starts afresh", func(t *testing.T) {
			const window = 50 * time.Millisecond
			if !allow(t, "short", 1, window) {
				t.Fatal("first hit refused")
			}
			start := windowStart(window)
			testutil.Eventually(t, "the next window", func() bool { return windowStart(window) != start })
			if !allow(t, "short", 1, window) {
				t.Fatal("a new window did not reset the count")
			}
		})
	})
}

// windowStart is the start of the window holding now, as Allow aligns it.
func windowStart(w time.Duration) int64 {
	now := db.NowMS()
	return now - now%w.Milliseconds()
}
