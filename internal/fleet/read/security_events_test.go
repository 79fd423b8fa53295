package read_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/fleet"
	"chargeops/internal/fleet/fleettest"
	"chargeops/internal/fleet/read"
	"chargeops/internal/testutil"
)

// Security events (docs/security-profiles.md, "Security events"): the list filters by device,
// type, criticality and charger time, newest first, within the caller's scope (another
// customer's device is not listed, and not found by id); the alarm's state shows; an export
// wider than its bound is refused.
func TestSecurityEventList(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		o := fleettest.Seed(t, d)
		sfx := fmt.Sprint(time.Now().UnixNano() % 1e9)
		devA := fleettest.Device(t, d, o, o.CustomerA, o.SiteA, "SECL-A-"+sfx)
		devA2 := fleettest.Device(t, d, o, o.CustomerA, o.SiteA, "SECL-A2-"+sfx)
		devB := fleettest.Device(t, d, o, o.CustomerB, o.SiteB, "SECL-B-"+sfx)
		base := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC).UnixMilli()
		alarm := func(t *testing.T, dev, customer, site int64, status int) int64 {
			t.Helper()
			id, err := db.InsertID(ctx, d, `INSERT INTO device_event (device_id, customer_id, site_id, kind, level, code, name, source, status, started_at, created_at)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, dev, customer, site, fleet.KindAlarm, fleet.LevelCA, "security.X", "X", fleet.SourceSecurity, status, base, base)
			if err != nil {
				t.Fatal(err)
			}
			return id
		}
		openAlarm, endedAlarm := alarm(t, devA, o.CustomerA, o.SiteA, fleet.EventOpen), alarm(t, devA, o.CustomerA, o.SiteA, fleet.EventEnded)
		add := func(t *testing.T, dev, customer, site int64, typ string, critical bool, minute int, event int64) int64 {
			t.Helper()
			crit := 0
			if critical {
				crit = 1
			}
			id, err := db.InsertID(ctx, d, `INSERT INTO device_security_event (device_id, customer_id, site_id, type, tech_info, critical, occurred_at, created_at, event_id)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, dev, customer, site, typ, "info "+typ, crit, base+int64(minute)*60000, base, event)
			if err != nil {
				t.Fatal(err)
			}
			return id
		}
		tamper := add(t, devA, o.CustomerA, o.SiteA, "TamperDetectionActivated", true, 1, openAlarm)
		reboot := add(t, devA, o.CustomerA, o.SiteA, "ResetOrReboot", true, 2, endedAlarm)
		invalid := add(t, devA, o.CustomerA, o.SiteA, "InvalidMessages", false, 3, 0)
		other := add(t, devA2, o.CustomerA, o.SiteA, "InvalidMessages", false, 4, 0)
		ofB := add(t, devB, o.CustomerB, o.SiteB, "TamperDetectionActivated", true, 5, 0)

		s := read.New(d, read.Options{})
		root := &access.Principal{Root: true, Scope: access.FullScope()}
		custA := &access.Principal{UserID: 1, Scope: access.Scope{CustomerIDs: []int64{o.CustomerA}, AllSites: true}}
		ids := func(l db.List[read.SecurityEventView]) []int64 {
			out := []int64{}
			for _, v := range l.List {
				out = append(out, v.ID)
			}
			return out
		}
		yes, no := true, false
		for _, c := range []struct {
			name string
			p    *access.Principal
			in   read.SecurityEventListInput
			want []int64
		}{
			{"a device's events, newest first", custA, read.SecurityEventListInput{DeviceID: devA}, []int64{invalid, reboot, tamper}},
			{"the caller's scope: another customer's device is not listed", custA, read.SecurityEventListInput{}, []int64{other, invalid, reboot, tamper}},
			{"root sees every customer", root, read.SecurityEventListInput{}, []int64{ofB, other, invalid, reboot, tamper}},
			{"by type", custA, read.SecurityEventListInput{Type: "InvalidMessages"}, []int64{other, invalid}},
			{"critical only", custA, read.SecurityEventListInput{Critical: &yes}, []int64{reboot, tamper}},
			{"not critical", custA, read.SecurityEventListInput{Critical: &no}, []int64{other, invalid}},
			{"a charger-time range, end excluded", custA, read.SecurityEventListInput{Start: base + 2*60000, End: base + 4*60000}, []int64{invalid, reboot}},
			{"a page", custA, read.SecurityEventListInput{Page: db.Page{Page: 2, PageSize: 10}}, []int64{}},
		} {
			t.Run(c.name, func(t *testing.T) {
				l, err := s.SecurityEvents(ctx, c.p, c.in)
				if err != nil {
					t.Fatal(err)
				}
				if got := ids(l); !slices.Equal(got, c.want) {
					t.Errorf("ids %v, want %v", got, c.want)
				}
				if c.in.Page.Page == 0 && l.Total != int64(len(c.want)) {
					t.Errorf("total %d, want %d", l.Total, len(c.want))
				}
			})
		}

		t.Run("each row carries its device, type, criticality, times and the alarm's state", func(t *testing.T) {
			l, err := s.SecurityEvents(ctx, custA, read.SecurityEventListInput{DeviceID: devA})
			if err != nil {
				t.Fatal(err)
			}
			byID := map[int64]read.SecurityEventView{}
			for _, v := range l.List {
				byID[v.ID] = v
			}
			if v := byID[tamper]; !v.Critical || !v.AlarmOpen || v.AlarmID != openAlarm || v.SN != "SECL-A-"+sfx || v.TechInfo != "info TamperDetectionActivated" ||
				v.OccurredAt != base+60000 || v.CreatedAt != base {
				t.Errorf("tamper row %+v", v)
			}
			if v := byID[reboot]; v.AlarmOpen || v.AlarmID != endedAlarm {
				t.Errorf("reboot row (its alarm ended) %+v", v)
			}
			if v := byID[invalid]; v.Critical || v.AlarmOpen || v.AlarmID != 0 {
				t.Errorf("non-critical row %+v", v)
			}
		})

		t.Run("another customer's device by id is not found", func(t *testing.T) {
			if _, err := s.SecurityEvents(ctx, custA, read.SecurityEventListInput{DeviceID: devB}); !errors.Is(err, apperr.ErrNotFound) {
				t.Errorf("list: %v, want not found", err)
			}
			err := s.EachExportedSecurityEvent(ctx, custA, read.SecurityEventListInput{DeviceID: devB}, func(read.SecurityEventView) error { return nil })
			if !errors.Is(err, apperr.ErrNotFound) {
				t.Errorf("export: %v, want not found", err)
			}
		})

		t.Run("each invalid field is named", func(t *testing.T) {
			for field, in := range map[string]read.SecurityEventListInput{
				"type":      {Type: string(make([]byte, 51))},
				"endTime":   {Start: 10, End: 5},
				"startTime": {Start: -1},
				"deviceId":  {DeviceID: -1},
			} {
				_, err := s.SecurityEvents(ctx, root, in)
				e, ok := apperr.As(err)
				if !ok || e.Args["field"] != field {
					t.Errorf("%s: %v", field, err)
				}
			}
		})

		t.Run("an export wider than its bound is refused before a row is written", func(t *testing.T) {
			var n int
			err := s.EachExportedSecurityEvent(ctx, custA, read.SecurityEventListInput{}, func(read.SecurityEventView) error { n++; return nil })
			if err != nil || n != 4 {
				t.Fatalf("a narrow export: %d rows, %v", n, err)
			}
			// MaxSecurityExportRows+1 events of a device of A, made in one statement
			if _, err := d.Exec(ctx, `WITH RECURSIVE seq(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM seq WHERE i < ?)
				INSERT INTO device_security_event (device_id, customer_id, site_id, type, tech_info, critical, occurred_at, created_at, event_id)
				SELECT ?, ?, ?, 'InvalidMessages', '', 0, ?, ?, 0 FROM seq`, read.MaxSecurityExportRows+1, devA2, o.CustomerA, o.SiteA, base, base); err != nil {
				t.Fatal(err)
			}
			n = 0
			err = s.EachExportedSecurityEvent(ctx, custA, read.SecurityEventListInput{DeviceID: devA2}, func(read.SecurityEventView) error { n++; return nil })
			if e, ok := apperr.As(err); !ok || e.Key != "err.log_export_too_many" || n != 0 {
				t.Errorf("a too-wide export: %v after %d rows", err, n)
			}
		})
	})
}
