package notify_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/devstate"
	"chargeops/internal/fleet"
	"chargeops/internal/fleet/fleettest"
	"chargeops/internal/notify"
	"chargeops/internal/testutil"
)

// The message centre as a triage list (issue 30 item 3): a flapping charger folds into one
// unread row, and the list is newest (latest repeat) first and sortable.

// flap opens an over-temperature alarm on dev started at, as the fleet does, and announces it.
func (f *floods) flap(t *testing.T, dev int64, at int64) {
	t.Helper()
	id, err := db.InsertID(context.Background(), f.d, `INSERT INTO device_event (device_id, customer_id, site_id, kind, level, code, name, status, started_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, dev, f.org.CustomerA, f.org.SiteA, devstate.KindAlarm, devstate.LevelCA, "OverTemperature", "OverTemperature", devstate.EventOpen, at)
	if err != nil {
		t.Fatal(err)
	}
	f.svc.Announce(fleet.EventChange{EventID: id, DeviceID: dev, SiteID: f.org.SiteA, CustomerID: f.org.CustomerA, Kind: devstate.KindAlarm,
		Level: devstate.LevelCA, Code: "OverTemperature", Name: "OverTemperature", Open: true, At: at})
}

func TestFlappingChargerFoldsIntoOneUnreadRow(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		// a one-second repeat window: the flaps below are a minute apart, far outside it
		f := newFloods(t, d, notify.Options{RepeatWindow: time.Second})
		f.start(t)
		dev := fleettest.Device(t, d, f.org, f.org.CustomerA, f.org.SiteA, "SN-FLAP-1")
		me := &access.Principal{UserID: f.user}
		start := db.NowMS() - 40*60_000
		const flaps = 40
		for i := range flaps {
			f.flap(t, dev, start+int64(i)*60_000)
		}
		testutil.EventuallyWithin(t, 20*time.Second, "all flaps handled", func() bool {
			return f.count(t, `SELECT COUNT(*) FROM notify_event n JOIN device_event e ON e.id = n.event_id WHERE e.device_id = ? AND n.done = 1`, dev) == flaps
		})
		t.Run("the flaps of one charger fold into one unread row", func(t *testing.T) {
			rows := f.count(t, `SELECT COUNT(*) FROM message WHERE user_id = ? AND device_id = ?`, f.user, dev)
			unread, err := f.svc.Unread(ctx, me)
			if err != nil {
				t.Fatal(err)
			}
			if rows != 1 || unread != 1 {
				t.Fatalf("%d flaps of one charger left %d rows and %d unread, want 1 and 1", flaps, rows, unread)
			}
		})
		t.Run("the folded row counts the repeats, spans the first to the last flap and names charger and site", func(t *testing.T) {
			list, err := f.svc.List(ctx, me, notify.ListInput{})
			if err != nil {
				t.Fatal(err)
			}
			if len(list.List) == 0 {
				t.Fatal("no row in the list")
			}
			m := list.List[0]
			if m.Repeats != flaps-1 || m.StartedAt != start || m.LastAt != start+(flaps-1)*60_000 || m.SN != "SN-FLAP-1" || m.SiteName == "" {
				t.Fatalf("the folded row: repeats %d (want %d), first %d last %d, sn %q site %q", m.Repeats, flaps-1, m.StartedAt, m.LastAt, m.SN, m.SiteName)
			}
		})
		t.Run("once read, a later flap outside the window is one new unread row", func(t *testing.T) {
			if err := f.svc.MarkRead(ctx, me, nil); err != nil {
				t.Fatal(err)
			}
			f.flap(t, dev, db.NowMS())
			testutil.EventuallyWithin(t, 10*time.Second, "the flap after reading", func() bool {
				return f.count(t, `SELECT COUNT(*) FROM message WHERE user_id = ? AND device_id = ?`, f.user, dev) == 2
			})
			unread, err := f.svc.Unread(ctx, me)
			if err != nil {
				t.Fatal(err)
			}
			if unread != 1 {
				t.Fatalf("unread %d after a new flap, want 1", unread)
			}
		})
	})
}

func TestMessageListNewestFirstAndSortable(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		f := newFloods(t, d, notify.Options{RepeatWindow: time.Hour})
		f.start(t)
		me := &access.Principal{UserID: f.user}
		a := fleettest.Device(t, d, f.org, f.org.CustomerA, f.org.SiteA, "SN-ORDER-A")
		b := fleettest.Device(t, d, f.org, f.org.CustomerA, f.org.SiteA, "SN-ORDER-B")
		now := db.NowMS()
		f.flap(t, a, now-30*60_000) // A first
		testutil.EventuallyWithin(t, 10*time.Second, "A's row", func() bool { return f.count(t, `SELECT COUNT(*) FROM message WHERE user_id = ?`, f.user) == 1 })
		f.flap(t, b, now-20*60_000) // then B
		testutil.EventuallyWithin(t, 10*time.Second, "B's row", func() bool { return f.count(t, `SELECT COUNT(*) FROM message WHERE user_id = ?`, f.user) == 2 })
		f.flap(t, a, now-10*60_000) // A again: A is the newest news
		testutil.EventuallyWithin(t, 10*time.Second, "A's repeat", func() bool {
			return f.count(t, `SELECT COUNT(*) FROM message WHERE user_id = ? AND repeats = 1`, f.user) == 1
		})
		sns := func(t *testing.T, in notify.ListInput) []string {
			t.Helper()
			l, err := f.svc.List(ctx, me, in)
			if err != nil {
				t.Fatal(err)
			}
			var out []string
			for _, m := range l.List {
				out = append(out, m.SN)
			}
			return out
		}
		for _, c := range []struct {
			name string
			in   notify.ListInput
			want string
		}{
			{"by default the latest repeat comes first", notify.ListInput{}, "SN-ORDER-A,SN-ORDER-B"},
			{"by latest repeat ascending", notify.ListInput{Sort: "lastAt", Order: "asc"}, "SN-ORDER-B,SN-ORDER-A"},
			{"by first occurrence descending", notify.ListInput{Sort: "startedAt", Order: "desc"}, "SN-ORDER-B,SN-ORDER-A"},
			{"by first occurrence ascending", notify.ListInput{Sort: "startedAt", Order: "asc"}, "SN-ORDER-A,SN-ORDER-B"},
		} {
			t.Run(c.name, func(t *testing.T) {
				got := sns(t, c.in)
				if len(got) != 2 || got[0]+","+got[1] != c.want {
					t.Errorf("sort %q order %q: %v, want %s", c.in.Sort, c.in.Order, got, c.want)
				}
			})
		}
		for _, c := range []struct {
			name string
			bad  notify.ListInput
		}{
			{"an unknown sort column is refused", notify.ListInput{Sort: "id; DROP TABLE message"}},
			{"an unknown order is refused", notify.ListInput{Order: "sideways"}},
		} {
			t.Run(c.name, func(t *testing.T) {
				_, err := f.svc.List(ctx, me, c.bad)
				var fe *apperr.Error
				if err == nil || !errors.As(err, &fe) {
					t.Errorf("sort %q order %q: %v, want an invalid-field error", c.bad.Sort, c.bad.Order, err)
				}
			})
		}
	})
}

// TestAlarmMailNamesTheEventLikeTheConsole: the mail names an event and its level as the
// console does, in the receiver's language (zh-CN here), with the vendor's code beside.
func TestAlarmMailNamesTheEventLikeTheConsole(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		f := newFloods(t, d, notify.Options{})
		f.start(t)
		f.fault(t, "SN-NAME-1", true)
		testutil.EventuallyWithin(t, 10*time.Second, "the mail", func() bool { return len(f.outbox(t)) == 1 })
		got := f.outbox(t)[0]
		for _, c := range []struct{ name, want string }{
			{"the mail names the event and its level on the site's charger, the vendor's code beside", "Site A 的 SN-NAME-1 (Charger SN-NAME-1)：接地故障（级别 CA） · GroundFailure"},
			{"the mail names the event kind and the site", "故障  Site A"},
		} {
			t.Run(c.name, func(t *testing.T) {
				if !strings.Contains(got, c.want) {
					t.Errorf("the zh-CN mail lacks %q:\n%s", c.want, got)
				}
			})
		}
	})
}
