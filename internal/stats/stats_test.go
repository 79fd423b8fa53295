package stats_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/lorenzodonini/ocpp-go/ocpp1.6/core"
	"github.com/lorenzodonini/ocpp-go/ocpp1.6/types"

	"chargeops/internal/access"
	"chargeops/internal/db"
	"chargeops/internal/fleet"
	"chargeops/internal/fleet/fleettest"
	"chargeops/internal/gateway/ocpp16"
	"chargeops/internal/setting"
	"chargeops/internal/stats"
	"chargeops/internal/testutil"
)

// knownFleet is two customers: A with 3 devices at its site (one in a fault, one with an alarm,
// one offline after a 30-minute outage that ended), B with 2 devices (one unavailable), and
// sessions on both. Every figure below is derived by hand from it.
type knownFleet struct {
	o          fleettest.Org
	a1, a2, a3 *fleet.Device
	b1, b2     *fleet.Device
	start      int64 // the day the events happened (midnight in loc)
	loc        *time.Location
}

// knownZone is the zone of the known fleet's day: UTC, except in the first two hours of a UTC
// day, whose events up to 70 minutes after midnight would still be in the future (and clamped
// to now: a session of no time and 0 Wh, failed in CI at 00:00 UTC); then a zone three hours
// behind, whose day is already 21 hours old. The figures are those of that zone's day.
func knownZone(now time.Time) *time.Location {
	if now.UTC().Hour() < 2 {
		return time.FixedZone("UTC-3", -3*3600)
	}
	return time.UTC
}

func seedKnownFleet(t *testing.T, d *db.DB) knownFleet {
	ctx := context.Background()
	loc := knownZone(time.Now())
	s, err := fleet.New(ctx, d, setting.NewStore(d), fleet.Options{DataDir: t.TempDir(), Location: loc})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	k := knownFleet{o: fleettest.Seed(t, d), loc: loc}
	dev := func(customer, site int64, sn string) *fleet.Device {
		fleettest.Device(t, d, k.o, customer, site, sn)
		dv, err := s.DeviceBySN(ctx, sn)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Connected(ctx, dv, "c-"+sn, "127.0.0.1", "ocpp1.6"); err != nil {
			t.Fatal(err)
		}
		return dv
	}
	k.a1, k.a2, k.a3 = dev(k.o.CustomerA, k.o.SiteA, "KA1"), dev(k.o.CustomerA, k.o.SiteA, "KA2"), dev(k.o.CustomerA, k.o.SiteA, "KA3")
	k.b1, k.b2 = dev(k.o.CustomerB, k.o.SiteB, "KB1"), dev(k.o.CustomerB, k.o.SiteB, "KB2")
	now := time.Now().In(k.loc)
	k.start = time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, k.loc).UnixMilli()
	if _, err := d.Exec(ctx, `UPDATE site SET created_at = ?`, k.start-7*86_400_000); err != nil {
		t.Fatal(err)
	}
	at := func(min int) int64 { return min64(k.start+int64(min)*60_000, db.NowMS()-1000) }
	report := func(dv *fleet.Device, conn int, status, code string, min int) {
		req := core.StatusNotificationRequest{ConnectorId: conn, Status: core.ChargePointStatus(status), ErrorCode: core.ChargePointErrorCode(code),
			Timestamp: types.NewDateTime(time.UnixMilli(at(min)))}
		if err := s.ConnectorStatus(ctx, ocpp16.StatusReport(dv, &req)); err != nil {
			t.Fatal(err)
		}
	}
	report(k.a1, 1, "Faulted", "GroundFailure", 1)        // A: fault (CA), open
	report(k.a2, 1, "Available", "HighTemperature", 2)    // A: alarm, open
	report(k.a2, 2, "Available", "OverCurrentFailure", 3) // A: a second alarm on the same device, open
	report(k.b1, 1, "Unavailable", "NoError", 4)          // B: unavailable, open
	report(k.a3, 1, "Unavailable", "NoError", 5)          // A: unavailable 5..35, ended
	report(k.a3, 1, "Available", "NoError", 35)
	s.Disconnected(ctx, k.a3, "c-KA3") // A: offline, open
	session := func(dv *fleet.Device, from, to int64) {
		id, err := s.StartTransaction(ctx, fleet.TransactionStart{Device: dv, Connector: 1, IDTag: "T", MeterStart: from, At: at(10)})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.StopTransaction(ctx, fleet.TransactionStop{Device: dv, ID: id, MeterStop: to, At: at(70)}); err != nil {
			t.Fatal(err)
		}
	}
	session(k.a2, 1000, 21_000) // A: 20 kWh
	session(k.b2, 0, 5_000)     // B: 5 kWh
	return k
}

func min64(a, b int64) int64 {
	if a < b {
		return a
	}
	return b
}

func TestDashboardFiguresOfAKnownFleet(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		k := seedKnownFleet(t, d)
		svc := stats.New(d, k.loc)
		scopeA := access.Scope{CustomerIDs: []int64{k.o.CustomerA}, AllSites: true}
		scopeB := access.Scope{CustomerIDs: []int64{k.o.CustomerB}, AllSites: true}
		day := stats.Range{Start: k.start, End: k.start + 86_400_000}

		t.Run("customer A's home overview counts only A", func(t *testing.T) {
			ov, err := svc.Overview(ctx, scopeA)
			if err != nil {
				t.Fatal(err)
			}
			if ov.Devices != 3 || ov.Health != (stats.Health{NoFault: 1, PartFault: 1, Fault: 1}) {
				t.Fatalf("devices %d health %+v", ov.Devices, ov.Health)
			}
			if ov.Activity.Faulted != 1 || ov.Activity.Idle != 1 || ov.Activity.Offline != 1 {
				t.Fatalf("activity %+v", ov.Activity)
			}
			if ov.FaultTypes != (stats.Kinds{Offline: 1, Alarm: 2, Fault: 1}) {
				t.Fatalf("fault types %+v", ov.FaultTypes)
			}
			if ov.AlarmLevels.CA != 1 || ov.AlarmLevels.OA+ov.AlarmLevels.MA != 2 || ov.DevicesInAlarm != 2 {
				t.Fatalf("levels %+v in alarm %d", ov.AlarmLevels, ov.DevicesInAlarm)
			}
			if len(ov.ByModel) != 1 || ov.ByModel[0].Count != 3 || ov.ByModel[0].Name == "" {
				t.Fatalf("by model %+v", ov.ByModel)
			}
		})
		t.Run("customer B's home overview counts only B", func(t *testing.T) {
			ov, err := svc.Overview(ctx, scopeB)
			if err != nil {
				t.Fatal(err)
			}
			if ov.Devices != 2 || ov.FaultTypes != (stats.Kinds{Unavailable: 1}) || ov.DevicesInAlarm != 0 {
				t.Fatalf("%+v", ov)
			}
		})
		t.Run("a site-limited user sees only that site", func(t *testing.T) {
			sc := access.Scope{CustomerIDs: []int64{k.o.CustomerA, k.o.CustomerB}, SiteIDs: []int64{k.o.SiteB}}
			ov, err := svc.Overview(ctx, sc)
			if err != nil {
				t.Fatal(err)
			}
			if ov.Devices != 2 {
				t.Fatalf("devices %d", ov.Devices)
			}
		})
		t.Run("faults of the day, per kind, with the ranking", func(t *testing.T) {
			f, err := svc.Faults(ctx, scopeA, day)
			if err != nil {
				t.Fatal(err)
			}
			if f.Step != stats.StepHour || len(f.Buckets) != 24 {
				t.Fatalf("step %s buckets %d", f.Step, len(f.Buckets))
			}
			if f.Total != (stats.Kinds{Offline: 1, Alarm: 2, Fault: 1, Unavailable: 1}) {
				t.Fatalf("total %+v", f.Total)
			}
			if len(f.Sites) != 1 || f.Sites[0].SiteID != k.o.SiteA || f.Sites[0].Count != 5 {
				t.Fatalf("sites %+v", f.Sites)
			}
			if len(f.Devices) != 3 || f.Devices[0].Count != 2 {
				t.Fatalf("devices %+v", f.Devices)
			}
			for _, dv := range f.Devices {
				if dv.DeviceID == k.b1.ID || dv.DeviceID == k.b2.ID {
					t.Fatalf("B's device ranked for A: %+v", dv)
				}
			}
		})
		t.Run("a month's ranking sums the same faults", func(t *testing.T) {
			st := time.UnixMilli(k.start).In(k.loc)
			m := time.Date(st.Year(), st.Month(), 1, 0, 0, 0, 0, k.loc)
			f, err := svc.Faults(ctx, scopeA, stats.Range{Start: m.UnixMilli(), End: m.AddDate(0, 1, 0).UnixMilli()})
			if err != nil {
				t.Fatal(err)
			}
			if f.Step != stats.StepDay || f.Total.Alarm != 2 || len(f.Devices) != 3 {
				t.Fatalf("%+v", f)
			}
		})
		t.Run("a range that is not one bucket still ranks", func(t *testing.T) {
			f, err := svc.Faults(ctx, scopeA, stats.Range{Start: k.start - 3*86_400_000, End: k.start + 2*86_400_000})
			if err != nil {
				t.Fatal(err)
			}
			if len(f.Devices) != 3 || f.Total.Fault != 1 {
				t.Fatalf("%+v", f)
			}
		})
		t.Run("a long range up to today ranks over whole months", func(t *testing.T) {
			f, err := svc.Faults(ctx, scopeA, stats.Range{Start: k.start - 59*86_400_000, End: k.start + 86_400_000})
			if err != nil {
				t.Fatal(err)
			}
			if len(f.Devices) != 3 || f.Devices[0].Count != 2 || f.Devices[0].DeviceID != k.a2.ID || f.Devices[0].SN != "KA2" {
				t.Fatalf("%+v", f.Devices)
			}
			// the sites' counts, summed over whole months and days, are the range's faults
			var sites int64
			for _, x := range f.Sites {
				sites += x.Count
			}
			if all := f.Total.Offline + f.Total.Alarm + f.Total.Fault + f.Total.Unavailable; len(f.Sites) == 0 || sites != all {
				t.Fatalf("sites %+v count %d, the range's faults %d", f.Sites, sites, all)
			}
		})
		t.Run("bad ranges are refused", func(t *testing.T) {
			for _, r := range []stats.Range{{}, {Start: k.start, End: k.start}, {Start: k.start, End: k.start + 400*86_400_000}} {
				if _, err := svc.Faults(ctx, scopeA, r); err == nil {
					t.Fatalf("range %+v accepted", r)
				}
			}
		})
		t.Run("site A's traffic, alarms and availability", func(t *testing.T) {
			st, err := svc.Site(ctx, scopeA, stats.SiteRange{ID: k.o.SiteA, Range: day})
			if err != nil {
				t.Fatal(err)
			}
			if st.Total.Sessions != 1 || st.Total.EnergyWh != 20_000 || st.Total.ChargeMS <= 0 || st.Total.Faults != 5 {
				t.Fatalf("total %+v", st.Total)
			}
			if st.Cumulative.Sessions != 1 || st.Cumulative.EnergyWh != 20_000 {
				t.Fatalf("cumulative %+v", st.Cumulative)
			}
			if st.DevicesInAlarm != 2 || st.OpenAlarms != 3 {
				t.Fatalf("devices in alarm %d, open alarms %d (want 2 and 3: a device has two)", st.DevicesInAlarm, st.OpenAlarms)
			}
			if st.Availability == nil || *st.Availability <= 0 || *st.Availability >= 1 {
				t.Fatalf("availability %v", st.Availability)
			}
			// the ended outage: 30 minutes of KA3 unavailable, in the day's figures
			var out int64
			if err := d.QueryRow(ctx, `SELECT outage_ms FROM stat_site WHERE grain = 1 AND site_id = ? AND bucket = ?`, k.o.SiteA, k.start).Scan(&out); err != nil {
				t.Fatal(err)
			}
			if want := int64(30 * 60_000); out != want && db.NowMS()-k.start > 36*60_000 {
				t.Fatalf("outage %d ms, want %d", out, want)
			}
		})
		t.Run("another customer's site is not found", func(t *testing.T) {
			if _, err := svc.Site(ctx, scopeB, stats.SiteRange{ID: k.o.SiteA, Range: day}); err == nil {
				t.Fatal("B read A's site statistics")
			}
		})
		t.Run("recent events are the scope's, newest first", func(t *testing.T) {
			l, err := svc.Recent(ctx, scopeB, stats.RecentInput{Limit: 50})
			if err != nil {
				t.Fatal(err)
			}
			if len(l) != 1 || l[0].DeviceID != k.b1.ID || l[0].Kind != 3 {
				t.Fatalf("%+v", l)
			}
			// a site-limited user: one walk per site, merged newest first
			sites := access.Scope{CustomerIDs: []int64{k.o.CustomerA, k.o.CustomerB}, SiteIDs: []int64{k.o.SiteA, k.o.SiteB}}
			l, err = svc.Recent(ctx, sites, stats.RecentInput{Limit: 50})
			if err != nil {
				t.Fatal(err)
			}
			if len(l) != 6 {
				t.Fatalf("%d events of two sites, want 6", len(l))
			}
			for i := 1; i < len(l); i++ {
				if l[i-1].StartedAt < l[i].StartedAt {
					t.Fatalf("not newest first: %+v", l)
				}
			}
			if l, err = svc.Recent(ctx, access.Scope{CustomerIDs: []int64{k.o.CustomerA}, SiteIDs: []int64{k.o.SiteA, k.o.SiteB}}, stats.RecentInput{Limit: 50}); err != nil || len(l) != 5 {
				t.Fatalf("site B outside the customer scope leaked: %d events, %v", len(l), err)
			}
			l, err = svc.Recent(ctx, scopeA, stats.RecentInput{Limit: 2})
			if err != nil {
				t.Fatal(err)
			}
			if len(l) != 2 || l[0].StartedAt < l[1].StartedAt {
				t.Fatalf("%+v", l)
			}
		})
		t.Run("the system overview counts the scope; the node only for the platform", func(t *testing.T) {
			pa := &access.Principal{Scope: scopeA}
			ov, err := svc.System(ctx, pa, stats.SystemInfo{Version: "x"})
			if err != nil {
				t.Fatal(err)
			}
			if ov.Devices.Total != 3 || ov.Customers.Total != 1 || ov.System != nil {
				t.Fatalf("%+v", ov)
			}
			root := &access.Principal{Root: true, Scope: access.FullScope()}
			ov, err = svc.System(ctx, root, stats.SystemInfo{Version: "x"})
			if err != nil {
				t.Fatal(err)
			}
			if ov.System == nil || ov.System.DatabaseBytes <= 0 || ov.Devices.Total < 5 {
				t.Fatalf("%+v", ov)
			}
		})
	})
}

// TestCoverReadsWholeBucketsUpToTheHorizon: a range is covered by the fewest whole buckets; a
// range reaching past the horizon (nothing is recorded later) ends with its last bucket whole.
func TestCoverReadsWholeBucketsUpToTheHorizon(t *testing.T) {
	loc, err := time.LoadLocation("Asia/Hong_Kong")
	if err != nil {
		t.Fatal(err)
	}
	at := func(y int, m time.Month, d int) int64 { return time.Date(y, m, d, 0, 0, 0, 0, loc).UnixMilli() }
	day, month := stats.GrainDay, stats.GrainMonth
	for _, c := range []struct {
		name                string
		start, end, horizon int64
		want                []stats.Span
	}{
		{"90 days up to today: days, months, then this month whole", at(2026, 8, 27), at(2026, 11, 25), at(2026, 11, 24) + 11*3_600_000,
			[]stats.Span{{Grain: day, From: at(2026, 8, 27), To: at(2026, 9, 1)}, {Grain: month, From: at(2026, 9, 1), To: at(2026, 11, 25)}}},
		{"a range ending in the past reads days of its last month", at(2026, 8, 27), at(2026, 10, 3), at(2026, 11, 24),
			[]stats.Span{{Grain: day, From: at(2026, 8, 27), To: at(2026, 9, 1)}, {Grain: month, From: at(2026, 9, 1), To: at(2026, 10, 1)},
				{Grain: day, From: at(2026, 10, 1), To: at(2026, 10, 3)}}},
		{"days after the horizon are not read", at(2026, 11, 23), at(2026, 11, 30), at(2026, 11, 24) + 3_600_000,
			[]stats.Span{{Grain: day, From: at(2026, 11, 23), To: at(2026, 11, 25)}}},
		{"a range wholly in the future reads nothing", at(2026, 12, 1), at(2026, 12, 5), at(2026, 11, 24), nil},
		{"a whole year", at(2025, 1, 1), at(2026, 1, 1), at(2026, 11, 24), []stats.Span{{Grain: stats.GrainYear, From: at(2025, 1, 1), To: at(2026, 1, 1)}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := stats.Cover(c.start, c.end, c.horizon, loc); !slices.Equal(got, c.want) {
				t.Fatalf("got %+v, want %+v", got, c.want)
			}
		})
	}
}
