package notify_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"chargeops/internal/db"
	"chargeops/internal/devstate"
	"chargeops/internal/fleet"
	"chargeops/internal/fleet/fleettest"
	"chargeops/internal/mail"
	"chargeops/internal/notify"
	"chargeops/internal/testutil"
)

// These tests run the notifier on its own (no gateway): device events are written as the
// fleet writes them and announced through the same hook, or not announced at all (a crash).

type floods struct {
	d      *db.DB
	org    fleettest.Org
	user   int64
	email  string
	svc    *notify.Service
	cancel context.CancelFunc
}

func newFloods(t *testing.T, d *db.DB, opt notify.Options) *floods {
	t.Helper()
	ctx := context.Background()
	f := &floods{d: d, org: fleettest.Seed(t, d)}
	now := db.NowMS()
	role, err := db.InsertID(ctx, d, `INSERT INTO role (name, customer_access, site_access, email_alarm, created_at, updated_at) VALUES (?, 1, 0, 1, ?, ?)`,
		fmt.Sprintf("alarm role %d", now), now, now)
	if err != nil {
		t.Fatal(err)
	}
	f.email = fmt.Sprintf("ops%d@example.com", now)
	f.user, err = db.InsertID(ctx, d, `INSERT INTO app_user (user_name, email, password_hash, role_id, customer_id, locale, created_at, updated_at) VALUES (?, ?, 'x', ?, ?, ?, ?, ?)`,
		fmt.Sprintf("ops_%d", now), f.email, role, f.org.CustomerA, "zh-CN", now, now)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Exec(ctx, `INSERT INTO site_receiver (site_id, user_id) VALUES (?, ?)`, f.org.SiteA, f.user); err != nil {
		t.Fatal(err)
	}
	opt.Poll = 50 * time.Millisecond
	f.svc = notify.New(d, mail.New(d, mail.SMTPConfig{}), opt)
	return f
}

func (f *floods) start(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { f.svc.Run(ctx); close(done) }()
	f.cancel = func() { cancel(); <-done }
	t.Cleanup(f.cancel)
}

// fault opens a fault event on a new device of site A, as the fleet does, and returns it.
func (f *floods) fault(t *testing.T, sn string, announce bool) fleet.EventChange {
	t.Helper()
	dev := fleettest.Device(t, f.d, f.org, f.org.CustomerA, f.org.SiteA, sn)
	now := db.NowMS()
	id, err := db.InsertID(context.Background(), f.d, `INSERT INTO device_event (device_id, customer_id, site_id, kind, level, code, name, status, started_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, dev, f.org.CustomerA, f.org.SiteA, devstate.KindFault, devstate.LevelCA, "GroundFailure", "GroundFailure", devstate.EventOpen, now)
	if err != nil {
		t.Fatal(err)
	}
	c := fleet.EventChange{EventID: id, DeviceID: dev, SN: sn, SiteID: f.org.SiteA, CustomerID: f.org.CustomerA, Kind: devstate.KindFault,
		Level: devstate.LevelCA, Code: "GroundFailure", Name: "GroundFailure", Open: true, At: now}
	if announce {
		f.svc.Announce(c)
	}
	return c
}

func (f *floods) outbox(t *testing.T) []string {
	t.Helper()
	subjects, err := db.Column[string](context.Background(), f.d, `SELECT subject || '|' || body FROM mail_outbox WHERE recipient = ? ORDER BY id`, f.email)
	if err != nil {
		t.Fatal(err)
	}
	return subjects
}

func (f *floods) count(t *testing.T, q string, args ...any) int {
	t.Helper()
	var n int
	if err := f.d.QueryRow(context.Background(), q, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestMailFloodRules(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		t.Run("a user gets at most the hourly number of alarm mails; the rest wait for one digest", func(t *testing.T) {
			f := newFloods(t, d, notify.Options{MailsPerHour: 2})
			f.start(t)
			for i := range 5 {
				f.fault(t, fmt.Sprintf("SN-RATE-%d", i), true)
				// each handled before the next: its own mail while under the limit
				testutil.Eventually(t, fmt.Sprintf("alarm row %d", i+1), func() bool {
					return f.count(t, `SELECT COUNT(*) FROM alarm_mail WHERE user_id = ?`, f.user) == i+1
				})
				settled(t, d)
			}
			if got := f.outbox(t); len(got) != 2 {
				t.Fatalf("%d mails within the hour, want 2: %v", len(got), got)
			}
			waiting := f.count(t, `SELECT COUNT(*) FROM alarm_mail WHERE user_id = ? AND sent_at = 0 AND due_at > ?`, f.user, db.NowMS()+50*60*1000)
			if waiting != 3 {
				t.Fatalf("%d rows wait for the next hour, want 3", waiting)
			}
			// the hour passes: the first mail leaves the window
			if _, err := d.Exec(context.Background(), `UPDATE alarm_mail SET sent_at = sent_at - 3600000 WHERE user_id = ? AND sent_at <> 0`, f.user); err != nil {
				t.Fatal(err)
			}
			if _, err := d.Exec(context.Background(), `UPDATE alarm_mail SET due_at = ? WHERE user_id = ? AND sent_at = 0`, db.NowMS(), f.user); err != nil {
				t.Fatal(err)
			}
			testutil.EventuallyWithin(t, 10*time.Second, "the digest", func() bool { return len(f.outbox(t)) == 3 })
			digest := f.outbox(t)[2]
			if !strings.Contains(digest, "3 条设备事件") || strings.Count(digest, "Charger SN-RATE-") != 3 {
				t.Fatalf("the digest (in the user's locale, zh-CN) does not hold the 3 waiting events: %s", digest)
			}
		})

		t.Run("a delayed user gets one digest per delay window", func(t *testing.T) {
			f := newFloods(t, d, notify.Options{})
			if _, err := d.Exec(context.Background(), `INSERT INTO message_setting (user_id, kinds, levels, all_sites, console, mail, frequency, delay_min, updated_at)
				VALUES (?, 15, 7, 1, 1, 1, 1, 5, ?)`, f.user, db.NowMS()); err != nil {
				t.Fatal(err)
			}
			f.start(t)
			for i := range 4 {
				f.fault(t, fmt.Sprintf("SN-DIGEST-%d", i), true)
			}
			testutil.EventuallyWithin(t, 10*time.Second, "four alarm rows", func() bool { return f.count(t, `SELECT COUNT(*) FROM alarm_mail WHERE user_id = ?`, f.user) == 4 })
			if n := f.count(t, `SELECT COUNT(DISTINCT due_at) FROM alarm_mail WHERE user_id = ?`, f.user); n != 1 {
				t.Fatalf("the rows wait for %d digests, want one", n)
			}
			testutil.Never(t, 200*time.Millisecond, "mail was sent before the delay", func() bool { return len(f.outbox(t)) != 0 })
			// the delay passes
			if _, err := d.Exec(context.Background(), `UPDATE alarm_mail SET due_at = ? WHERE user_id = ?`, db.NowMS(), f.user); err != nil {
				t.Fatal(err)
			}
			testutil.EventuallyWithin(t, 10*time.Second, "the digest", func() bool { return len(f.outbox(t)) == 1 })
			if got := f.outbox(t)[0]; strings.Count(got, "Charger SN-DIGEST-") != 4 {
				t.Fatalf("the digest does not list the 4 events: %s", got)
			}
		})

		t.Run("an event committed but never announced (a crash) is still messaged, and its end still recovers it", func(t *testing.T) {
			f := newFloods(t, d, notify.Options{})
			c := f.fault(t, "SN-CRASH-1", false)
			if _, err := d.Exec(context.Background(), `UPDATE device_event SET status = ?, ended_at = ? WHERE id = ?`, devstate.EventEnded, db.NowMS(), c.EventID); err != nil {
				t.Fatal(err)
			}
			f.start(t) // the catch-up scan runs at start
			testutil.EventuallyWithin(t, 10*time.Second, "the message", func() bool {
				return f.count(t, `SELECT COUNT(*) FROM message WHERE user_id = ? AND event_id = ? AND recovered_at <> 0`, f.user, c.EventID) == 1
			})
			testutil.EventuallyWithin(t, 10*time.Second, "the mail", func() bool { return len(f.outbox(t)) == 1 })
		})

		t.Run("two notifiers on one database handle each event once", func(t *testing.T) {
			f := newFloods(t, d, notify.Options{})
			other := notify.New(d, mail.New(d, mail.SMTPConfig{}), notify.Options{Poll: 50 * time.Millisecond})
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan struct{})
			go func() { other.Run(ctx); close(done) }()
			defer func() { cancel(); <-done }()
			f.start(t)
			for i := range 6 {
				c := f.fault(t, fmt.Sprintf("SN-TWO-%d", i), true)
				other.Announce(c) // both nodes hear of it
			}
			testutil.EventuallyWithin(t, 10*time.Second, "six messages", func() bool { return f.count(t, `SELECT COUNT(*) FROM message WHERE user_id = ?`, f.user) == 6 })
			testutil.EventuallyWithin(t, 10*time.Second, "six events mailed", func() bool {
				return f.count(t, `SELECT COUNT(*) FROM alarm_mail WHERE user_id = ? AND outbox_id <> 0`, f.user) == 6
			})
			settled(t, d)
			testutil.Never(t, 300*time.Millisecond, "a second node handled an event again", func() bool {
				return f.count(t, `SELECT COUNT(*) FROM message WHERE user_id = ?`, f.user) != 6 ||
					f.count(t, `SELECT COUNT(*) FROM alarm_mail WHERE user_id = ?`, f.user) != 6
			})
			if n := f.count(t, `SELECT COUNT(*) FROM message WHERE user_id = ?`, f.user); n != 6 {
				t.Errorf("%d messages for 6 events", n)
			}
			if n := f.count(t, `SELECT COUNT(*) FROM alarm_mail WHERE user_id = ?`, f.user); n != 6 {
				t.Errorf("%d alarm mail rows for 6 events", n)
			}
			// due together, the events may share a mail (a digest), but each is in exactly one
			// (an event's line in a body: "<time>  故障  Site A 的 SN-TWO-…"; a single mail's subject names it too)
			if got := strings.Join(f.outbox(t), "\n"); strings.Count(got, "  故障  Site A 的 SN-TWO-") != 6 {
				t.Errorf("the mails name %d events, want each of the 6 once:\n%s", strings.Count(got, "  故障  Site A 的 SN-TWO-"), got)
			}
		})
	})
}
