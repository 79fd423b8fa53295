package webhook

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/application"
	"chargeops/internal/db"
	"chargeops/internal/testutil"
)

// fakeApps answers one application's secret.
type fakeApps struct{ secret []byte }

func (f fakeApps) Detail(context.Context, *access.Principal, int64) (application.App, error) {
	return application.App{}, apperr.ErrNotFound
}
func (f fakeApps) Secrets(context.Context, string) (application.App, []byte, []byte, error) {
	return application.App{}, f.secret, nil, nil
}

type noPrincipals struct{}

func (noPrincipals) PrincipalOf(context.Context, int64) (*access.Principal, error) {
	return nil, apperr.ErrNotFound
}

func TestBackoffSchedule(t *testing.T) {
	o := Options{}.withDefaults()
	t.Run("retries back off from 10 s to 6 h", func(t *testing.T) {
		want := []time.Duration{10 * time.Second, 30 * time.Second, 2 * time.Minute, 10 * time.Minute, time.Hour, 6 * time.Hour, 6 * time.Hour}
		for i, w := range want {
			if got := o.backoff(i + 1); got != w {
				t.Errorf("after attempt %d: %s, want %s", i+1, got, w)
			}
		}
	})
	t.Run("eight attempts of 10 s each, leased for at least two", func(t *testing.T) {
		if o.MaxAttempts != 8 || o.Timeout != 10*time.Second || o.Lease < 2*o.Timeout {
			t.Errorf("defaults: %+v", o)
		}
	})
}

// Two nodes working through the same due deliveries send each one once: the claim is a
// conditional UPDATE.
func TestDeliveryClaimedOnce(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		var mu sync.Mutex
		hits := map[string]int{}
		var total atomic.Int32
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			time.Sleep(20 * time.Millisecond) // both nodes are at work at once
			mu.Lock()
			hits[r.Header.Get(HeaderDelivery)]++
			mu.Unlock()
			total.Add(1)
			w.WriteHeader(http.StatusOK)
		}))
		defer srv.Close()
		now := time.Now().UnixMilli()
		app, err := db.InsertID(ctx, d, `INSERT INTO application (name, status, user_id, app_id, secret_enc, installed_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
			"claims", application.Enabled, 1, "app-claims", "v1:x", now, now)
		if err != nil {
			t.Fatal(err)
		}
		hook, err := db.InsertID(ctx, d, `INSERT INTO webhook (app_id, url, events, enabled, created_at, updated_at) VALUES (?, ?, ?, 1, ?, ?)`,
			app, srv.URL, EventAlarm, now, now)
		if err != nil {
			t.Fatal(err)
		}
		const n = 30
		for i := range n {
			if _, err := d.Exec(ctx, `INSERT INTO webhook_delivery (webhook_id, app_id, event, payload, attempts, next_at, status, created_at)
				VALUES (?, ?, ?, ?, 0, ?, ?, ?)`, hook, app, EventAlarm, `{"i":1}`, now, StatusPending, now+int64(i)); err != nil {
				t.Fatal(err)
			}
		}
		opt := Options{Destinations: Destinations{AllowPrivate: true}, Parallel: 4}
		nodes := []*Service{New(d, fakeApps{[]byte("s")}, noPrincipals{}, opt), New(d, fakeApps{[]byte("s")}, noPrincipals{}, opt)}
		var wg sync.WaitGroup
		for _, s := range nodes {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for s.deliverDue(ctx) > 0 {
				}
			}()
		}
		wg.Wait()
		if total.Load() != n || len(hits) != n {
			t.Fatalf("%d requests for %d deliveries, want %d each once", total.Load(), len(hits), n)
		}
		var delivered, attempts int
		if err := d.QueryRow(ctx, `SELECT COUNT(*), SUM(attempts) FROM webhook_delivery WHERE status = ?`, StatusDelivered).Scan(&delivered, &attempts); err != nil {
			t.Fatal(err)
		}
		if delivered != n || attempts != n {
			t.Fatalf("%d delivered with %d attempts, want %d and %d", delivered, attempts, n, n)
		}
	})
}
