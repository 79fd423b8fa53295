package httpapi_test

import (
	"bytes"
	"context"
	"slices"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"chargeops/internal/actionlog"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/fleet"
	"chargeops/internal/testutil"
	"chargeops/internal/testutil/apitest"
)

// logEvent is a device_event row a test writes directly (the error log reads them).
type logEvent struct {
	device, customer, site   int64
	kind, level, status      int
	code, name               string
	started, ended, recorded int64
}

func insertEvent(t *testing.T, d *db.DB, e logEvent) int64 {
	t.Helper()
	id, err := db.InsertID(context.Background(), d, `INSERT INTO device_event (device_id, customer_id, site_id, kind, level, code, name, status, started_at, ended_at, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, e.device, e.customer, e.site, e.kind, e.level, e.code, e.name, e.status, e.started, e.ended, e.recorded)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// sheetRows opens a downloaded xlsx and answers its first sheet's rows.
func sheetRows(t *testing.T, raw apitest.Raw) [][]string {
	t.Helper()
	if raw.ContentType != "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" {
		t.Fatalf("not an xlsx answer: %s %.200s", raw.ContentType, raw.Body)
	}
	f, err := excelize.OpenReader(bytes.NewReader(raw.Body))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := f.GetRows(f.GetSheetList()[0])
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// logsUser adds a user of customer A holding the log keys, limited to sites when any are given.
func logsUser(t *testing.T, o *org, name string, sites ...int64) *apitest.Client {
	t.Helper()
	r := o.root
	rid := id(t, r.Call("POST", "/api/auth/sys/role/add", map[string]any{"name": name + " role", "customerId": o.custA}))
	apitest.Must(t, r.Call("POST", "/api/auth/sys/role/auth/menu", map[string]any{"id": rid,
		"keys": []string{"auth_system", "auth_logs", "auth_logs_error", "auth_logs_action", "auth_user", "auth_user_list"}}))
	siteAccess := 0
	if len(sites) > 0 {
		siteAccess = 1
	}
	apitest.Must(t, r.Call("POST", "/api/auth/sys/role/auth/data", map[string]any{"id": rid, "customerAccess": 1, "siteAccess": siteAccess,
		"webSshLevel": 5, "cfgReadLevel": 5, "cfgWriteLevel": 5, "cfgDownloadLevel": 5, "paramLevel": 5, "docLevel": 5, "attachLevel": 5}))
	k := r.Key()
	uid := id(t, r.Call("POST", "/api/auth/sys/user/add", map[string]any{"userName": name, "keyId": k.KeyID,
		"password": k.NewPassword(t, "Logs#Pass1234"), "roleId": rid, "customerId": o.custA}))
	if len(sites) > 0 {
		apitest.Must(t, r.Call("POST", "/api/auth/sys/user/assign", map[string]any{"id": uid, "customerIds": []int64{o.custA}, "siteIds": sites}))
	}
	return o.env.Client().MustLogin(name, "Logs#Pass1234")
}

func TestErrorLog(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		o := newOrg(t, d)
		r := o.root
		site2 := id(t, r.Call("POST", "/api/auth/sys/site/add", map[string]any{"customerId": o.custA, "name": "Alpha Nanshan", "code": "A-NS"}))
		dev2 := id(t, r.Call("POST", "/api/auth/sys/dev/basic/add", map[string]any{"sn": "ALPHA-0009", "name": "Alpha 9", "modelId": o.model, "siteId": site2}))
		base := time.Date(2026, 3, 1, 8, 0, 0, 0, time.UTC).UnixMilli()
		hour := int64(3600_000)
		// A: an open CA fault, an ended OA alarm and an offline event (not an error) on devA;
		// an open MA alarm on dev2 (another site of A); B: an open fault on devB.
		faultA := insertEvent(t, d, logEvent{device: o.devA, customer: o.custA, site: o.siteA, kind: fleet.KindFault, level: fleet.LevelCA,
			code: "GroundFailure", name: "Ground failure", status: fleet.EventOpen, started: base + 2*hour, recorded: base + 5*hour})
		alarmA := insertEvent(t, d, logEvent{device: o.devA, customer: o.custA, site: o.siteA, kind: fleet.KindAlarm, level: fleet.LevelOA,
			code: "HighTemperature", name: "High temperature", status: fleet.EventEnded, started: base, ended: base + hour, recorded: base + 6*hour})
		insertEvent(t, d, logEvent{device: o.devA, customer: o.custA, site: o.siteA, kind: fleet.KindOffline, status: fleet.EventEnded,
			code: "Offline", name: "Offline", started: base + 3*hour, ended: base + 4*hour, recorded: base + 3*hour})
		alarm2 := insertEvent(t, d, logEvent{device: dev2, customer: o.custA, site: site2, kind: fleet.KindAlarm, level: fleet.LevelMA,
			code: "OverVoltage", name: "Over voltage", status: fleet.EventOpen, started: base + hour, recorded: base + hour})
		faultB := insertEvent(t, d, logEvent{device: o.devB, customer: o.custB, site: o.siteB, kind: fleet.KindFault, level: fleet.LevelCA,
			code: "GroundFailure", name: "Beta ground failure", status: fleet.EventOpen, started: base + 4*hour, recorded: base + 4*hour})
		list := "/api/auth/sys/logs/error/list"

		t.Run("root sees every alarm and fault, never other events, newest occurrence first", func(t *testing.T) {
			if got := listIDs(t, r, list, map[string]any{}); !slices.Equal(got, []int64{faultB, faultA, alarm2, alarmA}) {
				t.Errorf("default order %v", got)
			}
		})
		t.Run("a customer-A user never sees B's events; a site-limited user only their sites'", func(t *testing.T) {
			all := logsUser(t, o, "alpha_logs")
			if got := listIDs(t, all, list, map[string]any{}); !slices.Equal(got, []int64{faultA, alarm2, alarmA}) {
				t.Errorf("customer A lists %v", got)
			}
			if got := listIDs(t, all, list, map[string]any{"deviceId": o.devB}); len(got) != 0 {
				t.Errorf("customer A asking for B's device gets %v", got)
			}
			limited := logsUser(t, o, "alpha_logs_site", site2)
			if got := listIDs(t, limited, list, map[string]any{}); !slices.Equal(got, []int64{alarm2}) {
				t.Errorf("site-limited user lists %v, want [%d]", got, alarm2)
			}
			rows := sheetRows(t, limited.CallRaw("POST", "/api/auth/sys/logs/error/export", map[string]any{}))
			if len(rows) != 2 || rows[1][0] != "ALPHA-0009" {
				t.Errorf("site-limited export rows %v", rows)
			}
			rows = sheetRows(t, all.CallRaw("POST", "/api/auth/sys/logs/error/export", map[string]any{}))
			for _, row := range rows[1:] {
				if row[0] == "BETA-0001" {
					t.Errorf("customer A's export holds B's device: %v", row)
				}
			}
		})
		t.Run("order fields", func(t *testing.T) {
			cases := []struct {
				name, sort string
				want       []int64
			}{
				{"type (alarm before fault)", "type", nil}, // checked below
				{"status open first", "status", nil},
				{"occurrence time oldest first", "time", []int64{alarmA, alarm2, faultA, faultB}},
				{"occurrence time newest first", "-time", []int64{faultB, faultA, alarm2, alarmA}},
				{"created time oldest first", "created", []int64{alarm2, faultB, faultA, alarmA}},
				{"created time newest first", "-created", []int64{alarmA, faultA, faultB, alarm2}},
			}
			for _, c := range cases {
				got := listIDs(t, r, list, map[string]any{"sort": c.sort})
				switch c.sort {
				case "type":
					// alarms (kind 1) first, by code: HighTemperature, OverVoltage; then the faults.
					if len(got) != 4 || got[0] != alarmA || got[1] != alarm2 {
						t.Errorf("%s: %v", c.name, got)
					}
				case "status":
					if len(got) != 4 || got[3] != alarmA {
						t.Errorf("%s: %v (the ended alarm last)", c.name, got)
					}
				default:
					if !slices.Equal(got, c.want) {
						t.Errorf("%s: %v, want %v", c.name, got, c.want)
					}
				}
			}
			apitest.WantCode(t, r.Call("POST", list, map[string]any{"sort": "password"}), apperr.Invalid)
		})
		t.Run("filters", func(t *testing.T) {
			cases := []struct {
				name   string
				filter map[string]any
				want   []int64
			}{
				{"site", map[string]any{"siteId": site2}, []int64{alarm2}},
				{"device id", map[string]any{"deviceId": o.devA}, []int64{faultA, alarmA}},
				{"device SN", map[string]any{"sn": "ALPHA-0009"}, []int64{alarm2}},
				{"level", map[string]any{"level": fleet.LevelCA}, []int64{faultB, faultA}},
				{"status ended", map[string]any{"status": fleet.EventEnded}, []int64{alarmA}},
				{"status open", map[string]any{"status": fleet.EventOpen}, []int64{faultB, faultA, alarm2}},
				{"type fault", map[string]any{"kinds": []int{fleet.KindFault}}, []int64{faultB, faultA}},
				{"time range", map[string]any{"startTime": base + hour, "endTime": base + 3*hour}, []int64{faultA, alarm2}},
			}
			for _, c := range cases {
				if got := listIDs(t, r, list, c.filter); !slices.Equal(got, c.want) {
					t.Errorf("%s: %v, want %v", c.name, got, c.want)
				}
			}
			for name, bad := range map[string]map[string]any{
				"offline is no error type": {"kinds": []int{fleet.KindOffline}},
				"unknown level":            {"level": 7},
				"end before start":         {"startTime": base, "endTime": base - 1},
			} {
				if a := r.Call("POST", list, bad); a.Code != apperr.Invalid {
					t.Errorf("%s: code %d, want %d", name, a.Code, apperr.Invalid)
				}
			}
		})
		t.Run("export: headers, rows in the list's order, filtered, xlsx only", func(t *testing.T) {
			rows := sheetRows(t, r.CallRaw("POST", "/api/auth/sys/logs/error/export", map[string]any{"deviceId": o.devA}))
			if len(rows) != 3 {
				t.Fatalf("rows %v", rows)
			}
			if rows[0][0] != "SN" || rows[0][2] != "Error type" || rows[0][8] != "Occurrence time" || rows[0][10] != "Created time" {
				t.Errorf("header %v", rows[0])
			}
			if rows[1][3] != "GroundFailure" || rows[1][2] != "Fault" || rows[1][7] != "Open" || rows[2][3] != "HighTemperature" || rows[2][7] != "Ended" {
				t.Errorf("rows %v", rows[1:])
			}
			r.Locale = "zh-CN"
			zh := sheetRows(t, r.CallRaw("POST", "/api/auth/sys/logs/error/export", map[string]any{"deviceId": o.devA}))
			r.Locale = "en-US"
			if zh[0][2] != "错误类型" || zh[1][2] != "故障" {
				t.Errorf("zh-CN export %v", zh[:2])
			}
			a := r.Call("POST", "/api/auth/sys/logs/error/export", map[string]any{"format": "csv"})
			if a.Code != apperr.Invalid || a.Message != "Unsupported file type" {
				t.Errorf("csv export: %d %q", a.Code, a.Message)
			}
		})
	})
}

func TestActionLogExportAndUserFilter(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		o := newOrg(t, d)
		r := o.root
		// Each admin changes something of their own customer: one operation row each.
		apitest.Must(t, o.a.Call("POST", "/api/auth/sys/site/add", map[string]any{"customerId": o.custA, "name": "Alpha Luohu", "code": "A-LH"}))
		apitest.Must(t, o.b.Call("POST", "/api/auth/sys/site/add", map[string]any{"customerId": o.custB, "name": "Beta Sha Tin", "code": "B-ST"}))
		userIDs := func(c *apitest.Client, body map[string]any) []int64 {
			var out struct{ List []struct{ UserID int64 } }
			apitest.Must(t, c.Call("POST", "/api/auth/sys/logs/action/list", body)).Into(t, &out)
			ids := []int64{}
			for _, x := range out.List {
				ids = append(ids, x.UserID)
			}
			return ids
		}
		t.Run("the :id route parameter filters by user", func(t *testing.T) {
			got := userIDs(r, map[string]any{"userId": o.userA, "pageSize": 100})
			if len(got) == 0 {
				t.Fatal("no rows of alpha_admin")
			}
			for _, u := range got {
				if u != o.userA {
					t.Errorf("userId filter answers rows of user %d", u)
				}
			}
			if got := userIDs(r, map[string]any{"userId": o.userA, "type": actionlog.TypeLogin}); len(got) != 1 {
				t.Errorf("alpha_admin's logins %v, want one", got)
			}
		})
		t.Run("export holds the filtered rows the caller may read", func(t *testing.T) {
			rows := sheetRows(t, r.CallRaw("POST", "/api/auth/sys/logs/action/export", map[string]any{"userId": o.userA, "type": actionlog.TypeOperation}))
			if len(rows) < 2 || rows[0][0] != "User" || rows[0][8] != "Time" {
				t.Fatalf("rows %v", rows)
			}
			for _, row := range rows[1:] {
				if row[0] != "alpha_admin" || row[1] != "Operation" {
					t.Errorf("row %v", row)
				}
			}
			// A customer-A user with the log keys sees A's rows only, whatever it asks for.
			alpha := logsUser(t, o, "alpha_logs")
			rows = sheetRows(t, alpha.CallRaw("POST", "/api/auth/sys/logs/action/export", map[string]any{}))
			for _, row := range rows[1:] {
				if row[0] == "beta_admin" || row[0] == "admin_root" || row[0] == "root" {
					t.Errorf("customer A's export holds %v", row)
				}
			}
			rows = sheetRows(t, alpha.CallRaw("POST", "/api/auth/sys/logs/action/export", map[string]any{"userId": o.userB}))
			if len(rows) != 1 {
				t.Errorf("customer A asking for B's user gets %v", rows[1:])
			}
			a := r.Call("POST", "/api/auth/sys/logs/action/export", map[string]any{"format": ".pdf"})
			if a.Code != apperr.Invalid || a.Message != "Unsupported file type" {
				t.Errorf("pdf export: %d %q", a.Code, a.Message)
			}
		})
	})
}

func TestLogRetention(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		o := newOrg(t, d)
		ctx := context.Background()
		old := time.Now().Add(-400 * 24 * time.Hour).UnixMilli()
		recent := time.Now().Add(-10 * 24 * time.Hour).UnixMilli()
		ev := func(status int, started, ended int64) int64 {
			return insertEvent(t, d, logEvent{device: o.devA, customer: o.custA, site: o.siteA, kind: fleet.KindFault, level: fleet.LevelCA,
				code: "GroundFailure", status: status, started: started, ended: ended, recorded: started})
		}
		oldEnded := ev(fleet.EventEnded, old, old+1000)
		oldOpen := ev(fleet.EventOpen, old, 0)
		recentEnded := ev(fleet.EventEnded, old, recent) // began long ago, ended recently: kept
		if _, err := d.Exec(ctx, `INSERT INTO action_log (user_id, user_name, type, action, created_at) VALUES (?, 'alpha_admin', 2, 'old', ?), (?, 'alpha_admin', 2, 'new', ?)`,
			o.userA, old, o.userA, recent); err != nil {
			t.Fatal(err)
		}

		if n, err := fleet.PurgeEndedEvents(ctx, d, 365); err != nil || n != 1 {
			t.Fatalf("purged %d events, %v; want 1", n, err)
		}
		var left []int64
		rows, err := d.Query(ctx, `SELECT id FROM device_event ORDER BY id`)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var id int64
			_ = rows.Scan(&id)
			left = append(left, id)
		}
		rows.Close()
		if slices.Contains(left, oldEnded) || !slices.Contains(left, oldOpen) || !slices.Contains(left, recentEnded) {
			t.Errorf("events left %v: want %d gone, %d (open) and %d (ended recently) kept", left, oldEnded, oldOpen, recentEnded)
		}
		if n, _ := fleet.PurgeEndedEvents(ctx, d, 0); n != 0 {
			t.Errorf("0 days purged %d", n)
		}

		store := actionlog.NewStore(d)
		if n, err := store.Purge(ctx, 365); err != nil || n != 1 {
			t.Fatalf("purged %d action-log rows, %v; want 1", n, err)
		}
		var actions []string
		rows, err = d.Query(ctx, `SELECT action FROM action_log WHERE action IN ('old', 'new')`)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var a string
			_ = rows.Scan(&a)
			actions = append(actions, a)
		}
		rows.Close()
		if !slices.Equal(actions, []string{"new"}) {
			t.Errorf("action-log rows left %v, want [new]", actions)
		}
	})
}
