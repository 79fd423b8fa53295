package mail_test

import (
	"context"
	"testing"
	"time"

	"chargeops/internal/db"
	"chargeops/internal/mail"
	"chargeops/internal/testutil"
	"chargeops/internal/testutil/smtptest"
)

type outboxRow struct {
	status, attempts int
	lastError        string
	sentAt           int64
}

func row(t *testing.T, d *db.DB, id int64) outboxRow {
	t.Helper()
	var r outboxRow
	if err := d.QueryRow(context.Background(), `SELECT status, attempts, last_error, sent_at FROM mail_outbox WHERE id = ?`, id).
		Scan(&r.status, &r.attempts, &r.lastError, &r.sentAt); err != nil {
		t.Fatal(err)
	}
	return r
}

func lastID(t *testing.T, d *db.DB) int64 {
	t.Helper()
	var id int64
	if err := d.QueryRow(context.Background(), `SELECT MAX(id) FROM mail_outbox`).Scan(&id); err != nil {
		t.Fatal(err)
	}
	return id
}

func fastRetry(maxAttempts int) mail.Retry {
	return mail.Retry{MaxAttempts: maxAttempts, Base: 100 * time.Millisecond, Max: time.Second, Lease: time.Minute, Poll: 20 * time.Millisecond, MaxAge: time.Hour}
}

func TestOutboxWorker(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		// settle ends the mail earlier subtests left waiting, so each server sees its own only
		settle := func(t *testing.T) {
			if _, err := d.Exec(ctx, `UPDATE mail_outbox SET status = ? WHERE status = ?`, mail.StatusFailed, mail.StatusWaiting); err != nil {
				t.Fatal(err)
			}
		}

		t.Run("without SMTP a mail stays in the outbox and the worker does nothing", func(t *testing.T) {
			m := mail.New(d, mail.SMTPConfig{})
			m.Retry = fastRetry(3)
			if err := m.Send(ctx, "kept@example.com", "kept", "body"); err != nil {
				t.Fatal(err)
			}
			done := make(chan struct{})
			go func() { m.Run(ctx); close(done) }()
			select {
			case <-done:
			case <-time.After(2 * time.Second):
				t.Fatal("the worker runs without SMTP")
			}
			if r := row(t, d, lastID(t, d)); r.status != mail.StatusWaiting || r.attempts != 0 {
				t.Fatalf("kept mail: %+v", r)
			}
			list, err := m.Outbox(ctx, db.Page{})
			if err != nil || len(list.List) == 0 || list.List[0].To != "kept@example.com" {
				t.Fatalf("outbox list: %+v %v", list, err)
			}
		})

		t.Run("a failing server is retried with growing waits and the mail delivered once it is back", func(t *testing.T) {
			settle(t)
			sink := smtptest.Start(t)
			port := sink.Port
			sink.SetDown(true)
			m := mail.New(d, mail.SMTPConfig{Host: "127.0.0.1", Port: port, TLS: "none", From: "chargeops@localhost"})
			m.Retry = fastRetry(8)
			wctx, cancel := context.WithCancel(ctx)
			defer cancel()
			go m.Run(wctx)
			if err := m.Send(ctx, "ops@example.com", "retry me", "body"); err != nil {
				t.Fatalf("a failing server makes Send fail: %v", err)
			}
			id := lastID(t, d)
			testutil.EventuallyWithin(t, 5*time.Second, "three failed attempts", func() bool { return len(sink.Attempts()) >= 3 })
			if r := row(t, d, id); r.status != mail.StatusWaiting || r.lastError == "" {
				t.Fatalf("after failures the mail should wait with its error: %+v", r)
			}
			sink.SetDown(false)
			testutil.EventuallyWithin(t, 10*time.Second, "delivery", func() bool { return row(t, d, id).status == mail.StatusSent })
			attempts, mails := sink.Attempts(), sink.Data()
			if len(mails) != 1 {
				t.Fatalf("delivered %d times, want once", len(mails))
			}
			// back-off: the wait after the n-th failure is at least Base doubled n-1 times, up to
			// Max (100 ms, 200 ms, 400 ms, 800 ms, 1 s, ...). Each attempt is scheduled from the
			// end of the one before, so a loaded machine only lengthens a wait: the policy's
			// growing waits are lower bounds, where comparing two measured waits is not (a wait
			// the machine stretched can exceed the next one).
			want := 100 * time.Millisecond
			for i := 1; i < len(attempts); i++ {
				if gap := attempts[i].Sub(attempts[i-1]); gap < want-10*time.Millisecond {
					t.Errorf("wait %d (%v) shorter than the back-off %v", i, gap, want)
				}
				want = min(2*want, time.Second)
			}
			if r := row(t, d, id); r.sentAt == 0 || r.attempts != len(attempts) || r.lastError != "" {
				t.Errorf("sent row: %+v after %d attempts", r, len(attempts))
			}
		})

		t.Run("a server that never recovers is given up after the bounded attempts and the row kept", func(t *testing.T) {
			settle(t)
			sink := smtptest.Start(t)
			port := sink.Port
			sink.SetDown(true)
			m := mail.New(d, mail.SMTPConfig{Host: "127.0.0.1", Port: port, TLS: "none", From: "chargeops@localhost"})
			m.Retry = fastRetry(3)
			wctx, cancel := context.WithCancel(ctx)
			defer cancel()
			go m.Run(wctx)
			if err := m.Send(ctx, "ops@example.com", "give up", "body"); err != nil {
				t.Fatal(err)
			}
			id := lastID(t, d)
			testutil.EventuallyWithin(t, 5*time.Second, "giving up", func() bool { return row(t, d, id).status == mail.StatusFailed })
			testutil.Never(t, 300*time.Millisecond, "the worker tried a given-up mail again", func() bool { return len(sink.Attempts()) > 3 })
			attempts := sink.Attempts()
			if r := row(t, d, id); len(attempts) != 3 || r.attempts != 3 || r.lastError == "" {
				t.Fatalf("given-up mail: %+v, server saw %d attempts", r, len(attempts))
			}
		})

		t.Run("two workers deliver a mail once", func(t *testing.T) {
			settle(t)
			sink := smtptest.Start(t)
			port := sink.Port
			cfg := mail.SMTPConfig{Host: "127.0.0.1", Port: port, TLS: "none", From: "chargeops@localhost"}
			m1, m2 := mail.New(d, cfg), mail.New(d, cfg)
			m1.Retry, m2.Retry = fastRetry(3), fastRetry(3)
			for i := range 10 {
				if _, err := m1.Enqueue(ctx, d, "many@example.com", "n", string(rune('a'+i))); err != nil {
					t.Fatal(err)
				}
			}
			wctx, cancel := context.WithCancel(ctx)
			defer cancel()
			go m1.Run(wctx)
			go m2.Run(wctx)
			testutil.EventuallyWithin(t, 5*time.Second, "ten mails", func() bool { return len(sink.Mails()) >= 10 })
			testutil.Never(t, 200*time.Millisecond, "a mail was sent twice", func() bool { return len(sink.Mails()) > 10 })
			if m := sink.Mails(); len(m) != 10 {
				t.Fatalf("two workers sent %d mails for 10", len(m))
			}
		})
	})
}
