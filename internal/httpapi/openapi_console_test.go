package httpapi_test

import (
	"reflect"
	"testing"
	"time"

	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/openapi"
	"chargeops/internal/testutil"
	"chargeops/internal/testutil/apitest"
)

// The console's OpenAPI screens (docs/openapi-console.md): rows written through the request
// log's own writer, then read as the console does.

type consoleRequest struct {
	ID        int64   `json:"id"`
	Time      int64   `json:"time"`
	Endpoint  string  `json:"endpoint"`
	Status    int     `json:"status"`
	Code      int     `json:"code"`
	LatencyMs float64 `json:"latencyMs"`
	IP        string  `json:"ip"`
	Query     string  `json:"query"`
}

type consoleRequestPage struct {
	Total     int64            `json:"total"`
	TotalMore bool             `json:"totalMore"`
	List      []consoleRequest `json:"list"`
	Next      string           `json:"next"`
}

func (p consoleRequestPage) ids() []int64 {
	out := []int64{}
	for _, r := range p.List {
		out = append(out, r.ID)
	}
	return out
}

func TestOpenAPIConsole(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		o := newOrg(t, d)
		grantOrg(t, o, append([]string{"auth_openapi_app"}, appKeys...)...)
		srv := o.env.App.Server
		// now: 2025-03-10 12:00 in the console's time zone, whose days the statistics count.
		loc, err := time.LoadLocation(o.env.App.Cfg.TimeZone)
		if err != nil {
			t.Fatal(err)
		}
		now := time.Date(2025, 3, 10, 12, 0, 0, 0, loc)
		srv.RequestReader.Now = func() time.Time { return now }
		day := func(d int) int64 { return time.Date(2025, 3, d, 0, 0, 0, 0, loc).UnixMilli() }

		appA := id(t, o.a.Call("POST", "/api/auth/sys/application/add", map[string]any{"name": "Alpha billing", "userId": o.userA}))
		appB := id(t, o.b.Call("POST", "/api/auth/sys/application/add", map[string]any{"name": "Beta billing", "userId": o.userB}))

		lg := openapi.NewLog(d, loc)
		defer lg.Close()
		at := now.Add(-time.Hour) // today
		devices, commands, sites := "GET /openapi/v1/devices", "POST /openapi/v1/commands", "GET /openapi/v1/sites"
		add := func(app int64, endpoint string, status, code int, ms int, when time.Time) {
			lg.Add(openapi.Record{AppID: app, CustomerID: o.custA, Endpoint: endpoint, Query: "pageSize=20", Status: status, Code: code,
				Latency: time.Duration(ms) * time.Millisecond, IP: "203.0.113.7", At: when})
		}
		// Today, the devices endpoint: 4 calls at 3 ms, 4 at 20 ms, 2 at 300 ms (one refused).
		for i := range 4 {
			add(appA, devices, 200, 0, 3, at.Add(time.Duration(i)*time.Second))
			add(appA, devices, 200, 0, 20, at.Add(time.Duration(i)*time.Second+time.Millisecond))
		}
		add(appA, devices, 200, 0, 300, at.Add(10*time.Second))
		add(appA, devices, 401, apperr.SignatureMismatch, 300, at.Add(11*time.Second))
		// 8 March: two commands at 60 ms, one refused by the device (offline).
		add(appA, commands, 200, 0, 60, time.UnixMilli(day(8)+3600_000))
		add(appA, commands, 200, 30001, 60, time.UnixMilli(day(8)+7200_000))
		// 1 March, outside the last 7 days.
		add(appA, sites, 200, 0, 7, time.UnixMilli(day(1)+60_000))
		// B's application, today.
		add(appB, devices, 200, 0, 5, at)
		lg.Flush()
		lastA := at.Add(11 * time.Second).UnixMilli()

		t.Run("the application list carries calls today and in 7 days, errors and the last call, in scope", func(t *testing.T) {
			type usage struct {
				ID         int64  `json:"id"`
				Name       string `json:"name"`
				AppID      string `json:"appId"`
				UserName   string `json:"userName"`
				CustomerID int64  `json:"customerId"`
				CallsToday int64  `json:"callsToday"`
				Calls7d    int64  `json:"calls7d"`
				Errors7d   int64  `json:"errors7d"`
				LastCallAt int64  `json:"lastCallAt"`
			}
			var l struct {
				Total int64
				List  []usage
			}
			apitest.Must(t, o.root.Call("POST", "/api/auth/sys/openapi/app/list", map[string]any{"name": "billing", "sort": "name"})).Into(t, &l)
			if l.Total != 2 || len(l.List) != 2 {
				t.Fatalf("root sees %+v, want both applications", l)
			}
			a := l.List[0]
			if a.ID != appA || a.CallsToday != 10 || a.Calls7d != 12 || a.Errors7d != 2 || a.LastCallAt != lastA || a.UserName != "alpha_admin" || a.CustomerID != o.custA || a.AppID == "" {
				t.Errorf("A's figures %+v, want today 10, 7 days 12, errors 2, last %d", a, lastA)
			}
			if b := l.List[1]; b.ID != appB || b.CallsToday != 1 || b.Calls7d != 1 || b.Errors7d != 0 || b.LastCallAt != at.UnixMilli() {
				t.Errorf("B's figures %+v", b)
			}
			if ids := listIDs(t, o.b, "/api/auth/sys/openapi/app/list", map[string]any{}); !sameIDs(ids, appB) {
				t.Errorf("B's user lists %v, want only [%d]", ids, appB)
			}
		})

		list := func(t *testing.T, body map[string]any) consoleRequestPage {
			t.Helper()
			var p consoleRequestPage
			apitest.Must(t, o.a.Call("POST", "/api/auth/sys/openapi/log/list", body)).Into(t, &p)
			return p
		}

		t.Run("the request log is newest first with every column", func(t *testing.T) {
			p := list(t, map[string]any{"id": appA, "pageSize": 20})
			if p.Total != 13 || len(p.List) != 13 || p.Next != "" {
				t.Fatalf("total %d, %d rows, next %q; want 13 rows on one page", p.Total, len(p.List), p.Next)
			}
			for i := 1; i < len(p.List); i++ {
				if a, b := p.List[i-1], p.List[i]; a.Time < b.Time || (a.Time == b.Time && a.ID < b.ID) {
					t.Fatalf("row %d (%d, %d) after (%d, %d): not newest first", i, b.Time, b.ID, a.Time, a.ID)
				}
			}
			want := consoleRequest{ID: p.List[0].ID, Time: lastA, Endpoint: devices, Status: 401, Code: apperr.SignatureMismatch, LatencyMs: 300, IP: "203.0.113.7", Query: "pageSize=20"}
			if p.List[0] != want {
				t.Errorf("newest row %+v, want %+v", p.List[0], want)
			}
			if last := p.List[12]; last.Endpoint != sites || last.LatencyMs != 7 {
				t.Errorf("oldest row %+v, want the sites call of 1 March", last)
			}
		})

		t.Run("filters: endpoint, outcome and time range", func(t *testing.T) {
			for _, c := range []struct {
				name string
				body map[string]any
				want int
			}{
				{"one endpoint", map[string]any{"endpoint": commands}, 2},
				{"errors only", map[string]any{"outcome": "error"}, 2},
				{"successes only", map[string]any{"outcome": "ok"}, 11},
				{"8 March only", map[string]any{"startTime": day(8), "endTime": day(9)}, 2},
				{"from 8 March, errors of the devices endpoint", map[string]any{"startTime": day(8), "endpoint": devices, "outcome": "error"}, 1},
			} {
				c.body["id"] = appA
				if p := list(t, c.body); p.Total != int64(c.want) || len(p.List) != c.want {
					t.Errorf("%s: total %d, rows %d, want %d", c.name, p.Total, len(p.List), c.want)
				}
			}
			for _, c := range []struct {
				name string
				body map[string]any
			}{
				{"an unknown outcome", map[string]any{"id": appA, "outcome": "maybe"}},
				{"a range ending before it starts", map[string]any{"id": appA, "startTime": day(9), "endTime": day(8)}},
				{"a cursor that is not one", map[string]any{"id": appA, "cursor": "not-a-cursor"}},
				{"no application", map[string]any{}},
			} {
				apitest.WantCode(t, o.a.Call("POST", "/api/auth/sys/openapi/log/list", c.body), apperr.Invalid)
			}
		})

		t.Run("pages by cursor and by number agree, also within one millisecond", func(t *testing.T) {
			burst := id(t, o.a.Call("POST", "/api/auth/sys/application/add", map[string]any{"name": "Alpha burst", "userId": o.userA}))
			for range 25 {
				add(burst, devices, 200, 0, 1, at) // the same instant: the id orders them
			}
			lg.Flush()
			seen := map[int64]bool{}
			var byCursor [][]int64
			body := map[string]any{"id": burst, "pageSize": 10}
			for page := 1; ; page++ {
				p := list(t, body)
				if p.Total != 25 {
					t.Fatalf("page %d: total %d, want 25", page, p.Total)
				}
				for _, r := range p.List {
					if seen[r.ID] {
						t.Fatalf("row %d on two pages", r.ID)
					}
					seen[r.ID] = true
				}
				byCursor = append(byCursor, p.ids())
				if p.Next == "" {
					break
				}
				body = map[string]any{"id": burst, "pageSize": 10, "cursor": p.Next}
			}
			if len(seen) != 25 || len(byCursor) != 3 || len(byCursor[2]) != 5 {
				t.Fatalf("cursor pages %v: want 10, 10, 5 distinct rows", byCursor)
			}
			for page := 2; page <= 3; page++ {
				if got := list(t, map[string]any{"id": burst, "pageSize": 10, "page": page}).ids(); !reflect.DeepEqual(got, byCursor[page-1]) {
					t.Errorf("page %d by number %v, by cursor %v", page, got, byCursor[page-1])
				}
			}
		})

		t.Run("statistics per day and endpoint with percentiles from the histogram", func(t *testing.T) {
			var s struct {
				StartTime, EndTime int64
				Days               []struct{ Day, Calls, Errors int64 }
				Endpoints          []struct {
					Endpoint             string
					Calls, Errors        int64
					AvgMs, P50, P90, P99 float64
				}
				Total struct {
					Calls, Errors        int64
					AvgMs, P50, P90, P99 float64
				}
				Bounds []int64
				App    struct {
					ID    int64
					Name  string
					AppID string
				}
			}
			apitest.Must(t, o.a.Call("POST", "/api/auth/sys/openapi/log/stats", map[string]any{"id": appA, "startTime": day(4), "endTime": day(11)})).Into(t, &s)
			if s.StartTime != day(4) || s.EndTime != day(11) || len(s.Days) != 7 {
				t.Fatalf("range [%d, %d) with %d days, want 4-10 March", s.StartTime, s.EndTime, len(s.Days))
			}
			for i, dd := range s.Days {
				want := struct{ Day, Calls, Errors int64 }{Day: day(4 + i)}
				switch 4 + i {
				case 8:
					want.Calls, want.Errors = 2, 1
				case 10:
					want.Calls, want.Errors = 10, 1
				}
				if dd != want {
					t.Errorf("day %d: %+v, want %+v", 4+i, dd, want)
				}
			}
			if len(s.Endpoints) != 2 {
				t.Fatalf("endpoints %+v, want devices and commands", s.Endpoints)
			}
			// devices: ranks 5, 9, 9.9 of 10 fall in (10, 25] and (250, 500]
			dv := s.Endpoints[0]
			if dv.Endpoint != devices || dv.Calls != 10 || dv.Errors != 1 || dv.AvgMs != 69.2 || dv.P50 != 13.75 || dv.P90 != 375 || dv.P99 != 487.5 {
				t.Errorf("devices %+v, want 10 calls, 1 error, avg 69.2, p50 13.75, p90 375, p99 487.5", dv)
			}
			// commands: ranks 1, 1.8, 1.98 of 2 in (50, 100]
			cm := s.Endpoints[1]
			if cm.Endpoint != commands || cm.Calls != 2 || cm.Errors != 1 || cm.AvgMs != 60 || cm.P50 != 75 || cm.P90 != 95 || cm.P99 != 99.5 {
				t.Errorf("commands %+v, want 2 calls, 1 error, avg 60, p50 75, p90 95, p99 99.5", cm)
			}
			tt := s.Total
			if tt.Calls != 12 || tt.Errors != 2 || tt.AvgMs != 67.667 || tt.P50 != 17.5 || tt.P90 != 350 || tt.P99 != 485 {
				t.Errorf("total %+v, want 12 calls, 2 errors, avg 67.667, p50 17.5, p90 350, p99 485", tt)
			}
			if !reflect.DeepEqual(s.Bounds, openapi.LatencyBounds) {
				t.Errorf("bounds %v", s.Bounds)
			}
			if s.App.ID != appA || s.App.Name != "Alpha billing" || s.App.AppID == "" {
				t.Errorf("the answer's application %+v, want A's", s.App)
			}

			// A range not on midnights covers every day it touches.
			apitest.Must(t, o.a.Call("POST", "/api/auth/sys/openapi/log/stats", map[string]any{"id": appA, "startTime": day(1) + 3600_000, "endTime": day(2) - 1})).Into(t, &s)
			if s.StartTime != day(1) || s.EndTime != day(2) || len(s.Days) != 1 || s.Days[0].Calls != 1 || s.Total.P50 != 7.5 {
				t.Errorf("1 March: %+v", s)
			}
		})

		t.Run("the statistics' range is checked", func(t *testing.T) {
			for _, body := range []map[string]any{
				{"id": appA, "endTime": day(10)},
				{"id": appA, "startTime": day(10), "endTime": day(10)},
				{"id": appA, "startTime": day(1) - 93*86_400_000, "endTime": day(1)},
			} {
				apitest.WantCode(t, o.a.Call("POST", "/api/auth/sys/openapi/log/stats", body), apperr.Invalid)
			}
			apitest.Must(t, o.a.Call("POST", "/api/auth/sys/openapi/log/stats", map[string]any{"id": appA, "startTime": day(1) - 92*86_400_000, "endTime": day(1)}))
		})

		t.Run("another customer's user finds neither the log nor the statistics", func(t *testing.T) {
			apitest.WantCode(t, o.b.Call("POST", "/api/auth/sys/openapi/log/list", map[string]any{"id": appA}), apperr.NotFound)
			apitest.WantCode(t, o.b.Call("POST", "/api/auth/sys/openapi/log/stats", map[string]any{"id": appA, "startTime": day(4), "endTime": day(11)}), apperr.NotFound)
			var p consoleRequestPage
			apitest.Must(t, o.b.Call("POST", "/api/auth/sys/openapi/log/list", map[string]any{"id": appB})).Into(t, &p)
			if p.Total != 1 || len(p.List) != 1 || p.List[0].Endpoint != devices {
				t.Errorf("B's own log %+v", p)
			}
		})
	})
}
