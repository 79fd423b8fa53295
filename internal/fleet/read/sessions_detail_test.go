package read_test

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/fleet"
	"chargeops/internal/fleet/fleettest"
	"chargeops/internal/fleet/read"
	"chargeops/internal/testutil"
	"chargeops/internal/xlsxout"
)

// sessionWorld is customer A's device with three sessions (two ended, one charging), customer
// B's device with one, and a service.
type sessionWorld struct {
	d                     *db.DB
	s                     *read.Service
	o                     fleettest.Org
	devA, devB            int64
	endedA, remoteA, open int64 // A's sessions
	sessB                 int64
	customerA, customerB  *access.Principal
	root                  *access.Principal
}

type sessionRow struct {
	dev, customer, site       int64
	connector                 int
	tag                       string
	meterStart, meterStop, wh int64
	started, stopped          int64
	reason                    string
	flags                     int
}

func insertSession(t *testing.T, d *db.DB, r sessionRow) int64 {
	t.Helper()
	id, err := db.InsertID(context.Background(), d, `INSERT INTO device_transaction (device_id, customer_id, site_id, connector_id, id_tag,
		meter_start, meter_stop, energy_wh, started_at, stopped_at, reason, flags) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		r.dev, r.customer, r.site, r.connector, r.tag, r.meterStart, r.meterStop, r.wh, r.started, r.stopped, r.reason, r.flags)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func newSessionWorld(t *testing.T, d *db.DB) *sessionWorld {
	w := &sessionWorld{d: d, o: fleettest.Seed(t, d)}
	o := w.o
	w.devA = fleettest.Device(t, d, o, o.CustomerA, o.SiteA, "SESSD-A")
	w.devB = fleettest.Device(t, d, o, o.CustomerB, o.SiteB, "SESSD-B")
	h := int64(3600_000)
	base := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC).UnixMilli()
	w.endedA = insertSession(t, d, sessionRow{dev: w.devA, customer: o.CustomerA, site: o.SiteA, connector: 1, tag: "TAG-ONE",
		meterStart: 1000, meterStop: 13500, wh: 12500, started: base, stopped: base + 2*h, reason: "EVDisconnected", flags: fleet.FlagClock | fleet.FlagMatchedStop})
	w.remoteA = insertSession(t, d, sessionRow{dev: w.devA, customer: o.CustomerA, site: o.SiteA, connector: 2, tag: "TAG-TWO",
		meterStart: 500, meterStop: 2500, wh: 2000, started: base + 3*h, stopped: base + 4*h, reason: "Remote"})
	w.open = insertSession(t, d, sessionRow{dev: w.devA, customer: o.CustomerA, site: o.SiteA, connector: 1, tag: "TAG-ONE",
		meterStart: 13500, started: base + 5*h})
	w.sessB = insertSession(t, d, sessionRow{dev: w.devB, customer: o.CustomerB, site: o.SiteB, connector: 1, tag: "TAG-ONE",
		meterStart: 0, meterStop: 700, wh: 700, started: base + h, stopped: base + 2*h, reason: "Local"})
	// the stop reasons an adapter gives the read models: here the three the sessions hold
	w.s = read.New(d, read.Options{StopReasons: []string{"EVDisconnected", "Local", "Remote"}})
	w.customerA = &access.Principal{Scope: access.Scope{CustomerIDs: []int64{o.CustomerA}, AllSites: true}}
	w.customerB = &access.Principal{Scope: access.Scope{CustomerIDs: []int64{o.CustomerB}, AllSites: true}}
	w.root = &access.Principal{Scope: access.Scope{AllCustomers: true, AllSites: true}}
	return w
}

func ids(l read.SessionList) []int64 {
	out := []int64{}
	for _, v := range l.List {
		out = append(out, v.ID)
	}
	return out
}

// TestChargingSessionFilters: each console filter narrows the list, newest first, with names.
func TestChargingSessionFilters(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		w := newSessionWorld(t, d)
		ctx := context.Background()
		yes, no := true, false
		base := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC).UnixMilli()
		for _, c := range []struct {
			name string
			in   read.SessionListInput
			want []int64
		}{
			{"all of root, newest first", read.SessionListInput{}, []int64{w.open, w.remoteA, w.sessB, w.endedA}},
			{"customer", read.SessionListInput{CustomerID: w.o.CustomerB}, []int64{w.sessB}},
			{"site", read.SessionListInput{SiteID: w.o.SiteA}, []int64{w.open, w.remoteA, w.endedA}},
			{"device", read.SessionListInput{DeviceID: w.devB}, []int64{w.sessB}},
			{"device SN", read.SessionListInput{SN: "SESSD-A"}, []int64{w.open, w.remoteA, w.endedA}},
			{"idTag", read.SessionListInput{IDTag: "TAG-TWO"}, []int64{w.remoteA}},
			{"stop reason", read.SessionListInput{Reason: "Remote"}, []int64{w.remoteA}},
			{"the core's own stop reason", read.SessionListInput{Reason: fleet.ReasonUnterminated}, nil},
			{"charging", read.SessionListInput{Open: &yes}, []int64{w.open}},
			{"ended", read.SessionListInput{Open: &no, SiteID: w.o.SiteA}, []int64{w.remoteA, w.endedA}},
			{"start-time range", read.SessionListInput{Start: base + 3600_000, End: base + 5*3600_000}, []int64{w.remoteA, w.sessB}},
		} {
			t.Run(c.name, func(t *testing.T) {
				l, err := w.s.Sessions(ctx, w.root, c.in)
				if err != nil {
					t.Fatal(err)
				}
				if got := ids(l); !slices.Equal(got, c.want) {
					t.Errorf("got %v, want %v", got, c.want)
				}
			})
		}
		t.Run("rows carry the device, customer and site names and the flags", func(t *testing.T) {
			l, err := w.s.Sessions(ctx, w.root, read.SessionListInput{IDTag: "TAG-ONE", Open: &no, SiteID: w.o.SiteA})
			if err != nil || len(l.List) != 1 {
				t.Fatalf("%v %+v", err, l)
			}
			v := l.List[0]
			if v.SN != "SESSD-A" || v.SiteName != "Site A" || v.CustomerName == "" || v.EnergyWh != 12500 || v.Flags != fleet.FlagClock|fleet.FlagMatchedStop {
				t.Errorf("%+v", v)
			}
		})
		for _, c := range []struct {
			name, field string
			in          read.SessionListInput
		}{
			{"unknown stop reason", "reason", read.SessionListInput{Reason: "Whatever"}},
			{"a stop reason the adapter did not give", "reason", read.SessionListInput{Reason: "PowerLoss"}},
			{"end before start", "endTime", read.SessionListInput{Start: 2000, End: 1000}},
			{"negative start", "startTime", read.SessionListInput{Start: -1}},
			{"too long an idTag", "idTag", read.SessionListInput{IDTag: string(make([]byte, 65))}},
			{"page size", "pageSize", read.SessionListInput{Size: 101}},
			{"cursor", "cursor", read.SessionListInput{Cursor: "x"}},
		} {
			t.Run("refused: "+c.name, func(t *testing.T) {
				_, err := w.s.Sessions(ctx, w.root, c.in)
				e, ok := apperr.As(err)
				if !ok || e.Code != apperr.Invalid || e.Args["field"] != c.field {
					t.Errorf("%v, want invalid %s", err, c.field)
				}
			})
		}
	})
}

// TestChargingSessionScope: another customer's session is not found in the list, the detail,
// the signed values or the export.
func TestChargingSessionScope(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		w := newSessionWorld(t, d)
		ctx := context.Background()
		if _, err := d.Exec(ctx, `INSERT INTO session_signed_value (transaction_id, device_id, connector_id, measurand, context, format, value, ts, created_at)
			VALUES (?, ?, 1, 'Energy.Active.Import.Register', 'Transaction.End', 'SignedData', 'OCMF|{"B":"secret"}', 1, 1)`, w.sessB, w.devB); err != nil {
			t.Fatal(err)
		}
		t.Run("list", func(t *testing.T) {
			l, err := w.s.Sessions(ctx, w.customerA, read.SessionListInput{CustomerID: w.o.CustomerB})
			if err != nil || len(l.List) != 0 {
				t.Errorf("A lists B's sessions: %v %v", err, ids(l))
			}
			l, err = w.s.Sessions(ctx, w.customerA, read.SessionListInput{})
			if err != nil || !slices.Equal(ids(l), []int64{w.open, w.remoteA, w.endedA}) {
				t.Errorf("A lists %v (%v), want only its own", ids(l), err)
			}
		})
		t.Run("detail", func(t *testing.T) {
			if _, err := w.s.Session(ctx, w.customerA, w.sessB); !errors.Is(err, apperr.ErrNotFound) {
				t.Errorf("A reads B's session: %v", err)
			}
			if v, err := w.s.Session(ctx, w.customerB, w.sessB); err != nil || len(v.Signed) != 1 {
				t.Errorf("B reads its own: %v %+v", err, v)
			}
		})
		t.Run("signed values", func(t *testing.T) {
			if _, err := w.s.SessionSigned(ctx, w.customerA, w.sessB); !errors.Is(err, apperr.ErrNotFound) {
				t.Errorf("A downloads B's signed values: %v", err)
			}
		})
		t.Run("export", func(t *testing.T) {
			b, err := xlsxout.Sessions(ctx, w.s, xlsxout.Export{P: w.customerA, Locale: "en-US", Loc: time.UTC}, read.SessionExportInput{SessionListInput: read.SessionListInput{DeviceID: w.devB}})
			if err != nil {
				t.Fatal(err)
			}
			if rows := sheetRows(t, b, "Charging sessions"); len(rows) != 1 {
				t.Errorf("A's export of B's device has %d rows: %v", len(rows), rows)
			}
		})
	})
}

func sheetRows(t *testing.T, b []byte, sheet string) [][]string {
	t.Helper()
	f, err := excelize.OpenReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := f.GetRows(sheet)
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// TestChargingSessionExport: the export holds the list's rows with names, times in the zone,
// energy in kWh, flags explained, headers in the caller's language; only xlsx.
func TestChargingSessionExport(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		w := newSessionWorld(t, d)
		ctx := context.Background()
		hk, err := time.LoadLocation("Asia/Hong_Kong")
		if err != nil {
			t.Fatal(err)
		}
		b, err := xlsxout.Sessions(ctx, w.s, xlsxout.Export{P: w.customerA, Locale: "en-US", Loc: hk}, read.SessionExportInput{})
		if err != nil {
			t.Fatal(err)
		}
		rows := sheetRows(t, b, "Charging sessions")
		if len(rows) != 4 {
			t.Fatalf("%d rows, want header and A's three sessions: %v", len(rows), rows)
		}
		if rows[0][0] != "Session ID" || rows[0][12] != "Energy (kWh)" {
			t.Errorf("header %v", rows[0])
		}
		cell := func(r []string, i int) string {
			if i < len(r) {
				return r[i]
			}
			return "" // GetRows drops trailing empty cells
		}
		if r := rows[1]; cell(r, 6) != "Charging" || cell(r, 8) != "" || cell(r, 12) != "" {
			t.Errorf("charging row %v", r)
		}
		ended := rows[3]
		want := []string{"SESSD-A", "Site A", "1", "TAG-ONE", "Ended", "2026-03-01 08:00:00", "2026-03-01 10:00:00", "2:00:00", "1000", "13500", "12.5", "EVDisconnected"}
		got := append([]string{ended[1]}, ended[3:14]...)
		if !slices.Equal(got, want) {
			t.Errorf("ended row %v, want %v", got, want)
		}
		if ended[14] != "Charger clock wrong: server time used; Stop without a valid id, matched to the open session" {
			t.Errorf("flags %q", ended[14])
		}
		zh, err := xlsxout.Sessions(ctx, w.s, xlsxout.Export{P: w.customerA, Locale: "zh-CN", Loc: hk}, read.SessionExportInput{SessionListInput: read.SessionListInput{Reason: "Remote"}})
		if err != nil {
			t.Fatal(err)
		}
		if rows := sheetRows(t, zh, "充电会话"); len(rows) != 2 || rows[0][0] != "会话 ID" {
			t.Errorf("zh-CN %v", rows)
		}
		_, err = xlsxout.Sessions(ctx, w.s, xlsxout.Export{P: w.customerA, Locale: "en-US", Loc: hk}, read.SessionExportInput{Format: "csv"})
		if e, ok := apperr.As(err); !ok || e.Args["field"] != "format" {
			t.Errorf("csv: %v, want the format refused", err)
		}
	})
}

// TestChargingSessionTimeline: the detail's timeline is the register and power of the session's
// connector between start and stop only, bucketed to at most TimelineMaxPoints, ending at the
// stop's reading; the flags are named.
func TestChargingSessionTimeline(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		w := newSessionWorld(t, d)
		ctx := context.Background()
		base := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC).UnixMilli()
		// a sample every 10 s for the two hours of the ended session on connector 1 (720 each),
		// one on connector 2 and one after the stop: neither belongs to the session
		err := d.InTx(ctx, func(tx *db.Tx) error {
			for i := int64(0); i < 720; i++ {
				at := base + i*10_000
				for _, row := range []struct {
					name string
					v    float64
				}{{"Energy.Active.Import.Register", float64(1000 + i*17)}, {"Power.Active.Import", 7000}} {
					if _, err := tx.Exec(ctx, `INSERT INTO device_series (device_id, name, connector_id, ts, value) VALUES (?, ?, 1, ?, ?)`, w.devA, row.name, at, row.v); err != nil {
						return err
					}
				}
			}
			if _, err := tx.Exec(ctx, `INSERT INTO device_series (device_id, name, connector_id, ts, value) VALUES (?, 'Power.Active.Import', 2, ?, 99)`, w.devA, base+60_000); err != nil {
				return err
			}
			_, err := tx.Exec(ctx, `INSERT INTO device_series (device_id, name, connector_id, ts, value) VALUES (?, 'Power.Active.Import', 1, ?, 99)`, w.devA, base+3*3600_000)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		v, err := w.s.Session(ctx, w.customerA, w.endedA)
		if err != nil {
			t.Fatal(err)
		}
		tl := v.Timeline
		if len(tl.Power) == 0 || len(tl.Power) > read.TimelineMaxPoints || len(tl.Energy) > read.TimelineMaxPoints+1 {
			t.Fatalf("%d power and %d energy points", len(tl.Power), len(tl.Energy))
		}
		if len(tl.Power) >= 720 {
			t.Errorf("720 samples were not bucketed: %d points", len(tl.Power))
		}
		for _, p := range tl.Power {
			if p.Value != 7000 || p.Time < v.StartedAt || p.Time > v.StoppedAt {
				t.Errorf("power point %+v is not the session's", p)
			}
		}
		last := tl.Energy[len(tl.Energy)-1]
		if last.Time != v.StoppedAt || last.Value != 13500 {
			t.Errorf("register ends at %+v, want the stop's 13500 Wh", last)
		}
		if v.DurationMS != 2*3600_000 || !slices.Equal(v.FlagNames, []string{"clock", "matchedStop"}) {
			t.Errorf("duration %d flags %v", v.DurationMS, v.FlagNames)
		}
		if _, err := w.s.Session(ctx, w.customerA, 0); err == nil {
			t.Error("id 0 accepted")
		}
	})
}
