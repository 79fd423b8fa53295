package fleet_test

import (
	"context"
	"testing"
	"time"

	"chargeops/internal/db"
	"chargeops/internal/fleet"
	"chargeops/internal/fleet/fleettest"
	"chargeops/internal/setting"
	"chargeops/internal/testutil"
)

// session is a stored charging session as the statistics see it.
type session struct {
	id, meterStart, meterStop, energy, startedAt, stoppedAt int64
	flags                                                   int
}

func sessionsOf(t *testing.T, d *db.DB, deviceID int64) []session {
	t.Helper()
	rows, err := d.Query(context.Background(), `SELECT id, meter_start, meter_stop, energy_wh, started_at, stopped_at, flags FROM device_transaction WHERE device_id = ? ORDER BY id`, deviceID)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []session
	for rows.Next() {
		var s session
		if err := rows.Scan(&s.id, &s.meterStart, &s.meterStop, &s.energy, &s.startedAt, &s.stoppedAt, &s.flags); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	return out
}

// siteTraffic sums the site's monthly traffic figures.
func siteTraffic(t *testing.T, d *db.DB, siteID int64) (sessions, energy int64) {
	t.Helper()
	if err := d.QueryRow(context.Background(), `SELECT COALESCE(SUM(sessions), 0), COALESCE(SUM(energy_wh), 0) FROM stat_site WHERE grain = 2 AND site_id = ?`, siteID).
		Scan(&sessions, &energy); err != nil {
		t.Fatal(err)
	}
	return sessions, energy
}

// TestChargingSessionTraps: the traps of real chargers (docs/decisions.md, "Charging sessions
// and energy"), each on its own device, on both databases.
func TestChargingSessionTraps(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		o := fleettest.Seed(t, d)
		s, err := fleet.New(ctx, d, setting.NewStore(d), fleet.Options{DataDir: t.TempDir(), Location: time.UTC})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		now := time.Now().Add(-2 * time.Hour).UnixMilli()
		hour := int64(time.Hour / time.Millisecond)
		n := 0
		device := func(t *testing.T) *fleet.Device {
			n++
			sn := "TRAP-" + string(rune('A'+n))
			fleettest.Device(t, d, o, o.CustomerA, o.SiteA, sn)
			dev, err := s.DeviceBySN(ctx, sn)
			if err != nil {
				t.Fatal(err)
			}
			return dev
		}
		start := func(t *testing.T, dev *fleet.Device, conn int, meter, at int64) int64 {
			t.Helper()
			id, err := s.StartTransaction(ctx, fleet.TransactionStart{Device: dev, Connector: conn, IDTag: "TAG1", MeterStart: meter, At: at})
			if err != nil {
				t.Fatal(err)
			}
			return id
		}
		stop := func(t *testing.T, dev *fleet.Device, id, meter, at int64) {
			t.Helper()
			if err := s.StopTransaction(ctx, fleet.TransactionStop{Device: dev, ID: id, IDTag: "TAG1", MeterStop: meter, At: at, Reason: "Local"}); err != nil {
				t.Fatal(err)
			}
		}
		want := func(t *testing.T, dev *fleet.Device, i int, energy int64, flags int) session {
			t.Helper()
			all := sessionsOf(t, d, dev.ID)
			if len(all) <= i {
				t.Fatalf("want session %d, have %d", i, len(all))
			}
			got := all[i]
			if got.energy != energy || got.flags != flags || got.stoppedAt == 0 {
				t.Fatalf("session %d: energy %d flags %b stopped %d, want energy %d flags %b", i, got.energy, got.flags, got.stoppedAt, energy, flags)
			}
			return got
		}
		sessions0, energy0 := siteTraffic(t, d, o.SiteA)
		var sessions, energy int64 // what the traps below add to site A
		counted := func(n, wh int64) { sessions += n; energy += wh }

		t.Run("a plain session counts its energy and time", func(t *testing.T) {
			dev := device(t)
			id := start(t, dev, 1, 1_000_000, now)
			stop(t, dev, id, 1_030_000, now+hour)
			want(t, dev, 0, 30_000, 0)
			counted(1, 30_000)
		})
		t.Run("a StopTransaction sent again after a reboot counts once", func(t *testing.T) {
			dev := device(t)
			id := start(t, dev, 1, 2_000_000, now)
			stop(t, dev, id, 2_010_000, now+hour)
			stop(t, dev, id, 2_010_000, now+hour)   // unanswered, sent again
			stop(t, dev, id, 2_010_500, now+2*hour) // after the reboot, with a new time
			got := want(t, dev, 0, 10_000, 0)
			if got.meterStop != 2_010_000 {
				t.Fatalf("the replay changed the stored stop: %d", got.meterStop)
			}
			counted(1, 10_000)
		})
		t.Run("transactionId -1 ends the device's only open session", func(t *testing.T) {
			dev := device(t)
			start(t, dev, 1, 500, now)
			stop(t, dev, -1, 7_500, now+hour)
			want(t, dev, 0, 7_000, fleet.FlagMatchedStop)
			if n := len(sessionsOf(t, d, dev.ID)); n != 1 {
				t.Fatalf("%d sessions, want 1", n)
			}
			counted(1, 7_000)
		})
		t.Run("transactionId 0 with no open session is kept alone, without energy, once", func(t *testing.T) {
			dev := device(t)
			stop(t, dev, 0, 9_000_000, now+hour)
			stop(t, dev, 0, 9_000_000, now+hour) // sent again
			all := sessionsOf(t, d, dev.ID)
			if len(all) != 1 || all[0].energy != 0 || all[0].flags != fleet.FlagUnknownStop {
				t.Fatalf("sessions %+v", all)
			}
			counted(1, 0)
		})
		t.Run("meterStop lower than meterStart counts no energy", func(t *testing.T) {
			dev := device(t)
			id := start(t, dev, 1, 50_000, now)
			stop(t, dev, id, 20, now+hour)
			want(t, dev, 0, 0, fleet.FlagMeterBack)
			counted(1, 0)
		})
		t.Run("meterStart 0 from a charger that lost its counter starts at the session's first sample", func(t *testing.T) {
			dev := device(t)
			id := start(t, dev, 1, 0, now)
			for i, wh := range []string{"8000000", "8011000", "8020000"} {
				if err := s.Meter(ctx, fleet.MeterReport{Device: dev, Connector: 1, TransactionID: id,
					Samples: []fleet.Sample{{Measurand: "Energy.Active.Import.Register", Unit: "Wh", Value: wh, At: now + int64(i+1)*600_000}}}); err != nil {
					t.Fatal(err)
				}
			}
			stop(t, dev, id, 8_022_000, now+hour)
			want(t, dev, 0, 22_000, fleet.FlagMeterReset)
			counted(1, 22_000)
		})
		t.Run("a lifetime register is never one session's energy", func(t *testing.T) {
			dev := device(t)
			id := start(t, dev, 1, 0, now)
			stop(t, dev, id, 48_000_000, now+hour)
			want(t, dev, 0, 0, fleet.FlagImplausible)
			counted(1, 0)
		})
		t.Run("meter values without a transaction touch no session", func(t *testing.T) {
			dev := device(t)
			id := start(t, dev, 1, 1_000, now)
			if err := s.Meter(ctx, fleet.MeterReport{Device: dev, Connector: 1,
				Samples: []fleet.Sample{{Unit: "Wh", Value: "900000", At: now + 60_000}}}); err != nil {
				t.Fatal(err)
			}
			var first int64
			if err := d.QueryRow(ctx, `SELECT meter_first FROM device_transaction WHERE id = ?`, id).Scan(&first); err != nil {
				t.Fatal(err)
			}
			if first != -1 {
				t.Fatalf("a sample without transactionId became the session's first: %d", first)
			}
			stop(t, dev, id, 4_000, now+hour)
			want(t, dev, 0, 3_000, 0)
			counted(1, 3_000)
		})
		t.Run("timestamps from 1970 and the far future are clamped and flagged", func(t *testing.T) {
			dev := device(t)
			before := db.NowMS()
			id := start(t, dev, 1, 100, 5_000) // 1970
			stop(t, dev, id, 600, time.Now().AddDate(5, 0, 0).UnixMilli())
			got := want(t, dev, 0, 500, fleet.FlagClock)
			if got.startedAt < before || got.stoppedAt > db.NowMS()+1000 {
				t.Fatalf("times not clamped to the server's: %d..%d", got.startedAt, got.stoppedAt)
			}
			counted(1, 500)
		})
		t.Run("a session never stopped is closed by the next start on its connector", func(t *testing.T) {
			dev := device(t)
			start(t, dev, 2, 10_000, now)
			if err := s.Meter(ctx, fleet.MeterReport{Device: dev, Connector: 2,
				Samples: []fleet.Sample{{Measurand: "Energy.Active.Import.Register", Unit: "kWh", Value: "14.5", At: now + 600_000}}}); err != nil {
				t.Fatal(err)
			}
			second := start(t, dev, 2, 15_000, now+hour)
			want(t, dev, 0, 4_500, fleet.FlagUnterminated)
			if again := start(t, dev, 2, 15_000, now+hour+5); again != second {
				t.Fatalf("a replayed start (another time, same tag and meter) opened session %d, want %d", again, second)
			}
			counted(1, 4_500)
		})
		t.Run("the site's traffic is the sum of the sessions", func(t *testing.T) {
			gotS, gotE := siteTraffic(t, d, o.SiteA)
			if gotS-sessions0 != sessions || gotE-energy0 != energy {
				t.Fatalf("site traffic %d sessions %d Wh, want %d and %d", gotS-sessions0, gotE-energy0, sessions, energy)
			}
			if s, e := siteTraffic(t, d, o.SiteB); s != 0 || e != 0 {
				t.Fatalf("site B counted %d sessions %d Wh", s, e)
			}
		})
	})
}
