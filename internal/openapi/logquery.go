package openapi

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/application"
	"chargeops/internal/db"
)

// The read side of the request log and the access statistics, for the console's OpenAPI
// screens (docs/openapi-console.md). Every call names applications through the application
// service, so an application outside the caller's scope is "not found" as everywhere else.
// Statistics are read from openapi_stat_day (per day of the console's time zone, endpoint, with a latency histogram);
// percentiles come from its buckets, never from raw rows.

// ScopedApps lists and finds applications in the caller's scope (application.Service).
type ScopedApps interface {
	List(ctx context.Context, p *access.Principal, f application.ListFilter) (db.List[application.App], error)
	Detail(ctx context.Context, p *access.Principal, id int64) (application.App, error)
}

// Reader reads the request log and its statistics.
type Reader struct {
	db   *db.DB
	apps ScopedApps
	loc  *time.Location // the days of the statistics (the request log's)
	// Now is the clock (tests move it).
	Now func() time.Time
}

// NewReader reads the log in d of the applications apps finds, in the days of loc (nil: UTC;
// the writer's, NewLog).
func NewReader(d *db.DB, apps ScopedApps, loc *time.Location) *Reader {
	if loc == nil {
		loc = time.UTC
	}
	return &Reader{db: d, apps: apps, loc: loc, Now: time.Now}
}

const dayMS = int64(24 * time.Hour / time.Millisecond)

// MaxStatsDays bounds the range of one statistics call (whole days of the console's time zone).
const MaxStatsDays = 92

var errStatsRange = apperr.InvalidField("endTime", "err.stats_range").With(map[string]any{"field": "endTime", "max": MaxStatsDays})

// day is the start (unix ms) of the day holding ms: the key of openapi_stat_day.
func (r *Reader) day(ms int64) int64 { return DayStart(time.UnixMilli(ms), r.loc) }

// nextDay is the start of the day after the one starting at day (23 or 25 hours on a DST change).
func (r *Reader) nextDay(day int64) int64 {
	return DayStart(time.UnixMilli(day).In(r.loc).AddDate(0, 0, 1).Add(time.Hour), r.loc)
}

// AppUsage is an application with its recent figures.
type AppUsage struct {
	application.App
	// CallsToday: calls in the current day (the console's time zone).
	CallsToday int64 `json:"callsToday"`
	// Calls7d and Errors7d: calls and refused or failed calls (code != 0) in the last 7 days,
	// today included.
	Calls7d  int64 `json:"calls7d"`
	Errors7d int64 `json:"errors7d"`
	// LastCallAt: the time (ms) of the newest call in the request log; 0 none.
	LastCallAt int64 `json:"lastCallAt"`
}

// Apps is a page of the applications in scope (the application list's filters) with their
// calls today and in the last 7 days, errors in the last 7 days and last call time.
func (r *Reader) Apps(ctx context.Context, p *access.Principal, f application.ListFilter) (db.List[AppUsage], error) {
	out := db.List[AppUsage]{List: []AppUsage{}}
	l, err := r.apps.List(ctx, p, f)
	if err != nil {
		return out, err
	}
	out.Total, out.TotalMore = l.Total, l.TotalMore
	if len(l.List) == 0 {
		return out, nil
	}
	index := make(map[int64]int, len(l.List))
	ids := make([]int64, len(l.List))
	for i, a := range l.List {
		out.List = append(out.List, AppUsage{App: a})
		index[a.ID] = i
		ids[i] = a.ID
	}
	today := r.day(r.Now().UnixMilli())
	from := r.day(r.Now().In(r.loc).AddDate(0, 0, -6).UnixMilli())
	rows, err := r.db.Query(ctx, `SELECT app_id, day, SUM(calls), SUM(errors) FROM openapi_stat_day
		WHERE app_id IN (`+db.Placeholders(len(ids))+`) AND day >= ? AND day <= ? GROUP BY app_id, day`,
		append(db.Args(ids), from, today)...)
	if err != nil {
		return out, fmt.Errorf("openapi: app figures: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var app, day, calls, errs int64
		if err := rows.Scan(&app, &day, &calls, &errs); err != nil {
			return out, fmt.Errorf("openapi: app figures: %w", err)
		}
		u := &out.List[index[app]]
		u.Calls7d += calls
		u.Errors7d += errs
		if day == today {
			u.CallsToday += calls
		}
	}
	if err := rows.Err(); err != nil {
		return out, fmt.Errorf("openapi: app figures: %w", err)
	}
	// The newest call of each application: one look at the end of its (app_id, created_at)
	// index, at most a page of applications.
	for i := range out.List {
		if err := r.db.QueryRow(ctx, `SELECT COALESCE(MAX(created_at), 0) FROM openapi_request WHERE app_id = ?`, out.List[i].ID).
			Scan(&out.List[i].LastCallAt); err != nil {
			return out, fmt.Errorf("openapi: last call: %w", err)
		}
	}
	return out, nil
}

// Outcomes of the request log's filter: a call succeeded (code 0) or did not (refused by the
// guard, invalid, not found, a device refusal: any other code), as the statistics count errors.
const (
	OutcomeOK    = "ok"
	OutcomeError = "error"
)

// RequestsInput filters the request log of one application (newest first).
type RequestsInput struct {
	db.Page
	// ID is the application (its id, not its appId).
	ID int64 `json:"id"`
	// Start and End bound the call's time (unix ms; 0: open).
	Start int64 `json:"startTime"`
	End   int64 `json:"endTime"`
	// Endpoint is one route ("GET /openapi/v1/devices"); empty: all.
	Endpoint string `json:"endpoint"`
	// Outcome is "ok" (code 0) or "error" (any other code); empty: all.
	Outcome string `json:"outcome"`
	// Cursor continues after the last row of an earlier page (that answer's next): a keyset walk
	// on (time, id) that costs the same at any depth. Page is then ignored; the filters must be
	// that page's.
	Cursor string `json:"cursor"`
}

// RequestView is one call of the request log.
type RequestView struct {
	ID       int64  `json:"id"`
	Time     int64  `json:"time"`
	Endpoint string `json:"endpoint"`
	// Status is the HTTP status, Code the answer's code (0 success).
	Status int `json:"status"`
	Code   int `json:"code"`
	// LatencyMs: from the request's arrival to its answer (milliseconds, 3 decimals).
	LatencyMs float64 `json:"latencyMs"`
	// IP is the caller's address.
	IP string `json:"ip"`
	// Query is the request's query string, secrets masked.
	Query string `json:"query"`
}

// RequestPage is a page of the request log.
type RequestPage struct {
	// Total counts the matches up to db.MaxWindow; TotalMore says there are more.
	Total     int64         `json:"total"`
	TotalMore bool          `json:"totalMore,omitempty"`
	List      []RequestView `json:"list"`
	// Next is the cursor of the page after this one; empty after the last row.
	Next string `json:"next,omitempty"`
}

// MaxEndpoint bounds the endpoint filter (characters).
const MaxEndpoint = 200

// Requests is a page of the request log of one application in scope, newest first. The total
// is counted up to db.MaxWindow; a page number reaches at most that deep (its first row read
// from the (app_id, created_at, id) index), a cursor any depth.
func (r *Reader) Requests(ctx context.Context, p *access.Principal, in RequestsInput) (RequestPage, error) {
	out := RequestPage{List: []RequestView{}}
	in.Endpoint = strings.TrimSpace(in.Endpoint)
	switch {
	case in.ID <= 0:
		return out, apperr.InvalidField("id", "err.required")
	case in.Start < 0:
		return out, apperr.InvalidField("startTime", "err.invalid")
	case in.End < 0 || (in.End > 0 && in.End <= in.Start):
		return out, apperr.InvalidField("endTime", "err.time_range").With(map[string]any{"field": "endTime"})
	case len(in.Endpoint) > MaxEndpoint:
		return out, apperr.InvalidField("endpoint", "err.invalid")
	case in.Outcome != "" && in.Outcome != OutcomeOK && in.Outcome != OutcomeError:
		return out, apperr.InvalidField("outcome", "err.invalid")
	}
	var from *db.TimeKey
	if in.Cursor != "" {
		c, ok := db.ParseTimeKey(in.Cursor)
		if !ok {
			return out, apperr.InvalidField("cursor", "err.invalid")
		}
		from = &c
	}
	if _, err := r.apps.Detail(ctx, p, in.ID); err != nil {
		return out, err
	}

	q := (&db.Query{From: "openapi_request r"}).And("r.app_id = ?", in.ID)
	if in.Start > 0 {
		q.And("r.created_at >= ?", in.Start)
	}
	if in.End > 0 {
		q.And("r.created_at < ?", in.End)
	}
	if in.Endpoint != "" {
		q.And("r.endpoint = ?", in.Endpoint)
	}
	switch in.Outcome {
	case OutcomeOK:
		q.And("r.code = ?", apperr.OK)
	case OutcomeError:
		q.And("r.code <> ?", apperr.OK)
	}
	where, args := q.Where()
	if err := r.db.QueryRow(ctx, `SELECT COUNT(*) FROM (SELECT 1 FROM openapi_request r`+where+` LIMIT ?) AS capped`,
		append(args, db.MaxWindow+1)...).Scan(&out.Total); err != nil {
		return out, fmt.Errorf("openapi: request log count: %w", err)
	}
	if out.Total > db.MaxWindow {
		out.Total, out.TotalMore = db.MaxWindow, true
	}

	const order = " ORDER BY r.created_at DESC, r.id DESC"
	limit, offset := in.Page.LimitOffset()
	inclusive := false
	if from == nil && offset > 0 {
		// The page's first row from the index; the page is then a keyset walk from it.
		offset = min(offset, max(0, db.MaxWindow-limit))
		var c db.TimeKey
		err := r.db.QueryRow(ctx, `SELECT r.created_at, r.id FROM openapi_request r`+where+order+` LIMIT 1 OFFSET ?`,
			append(args, offset)...).Scan(&c.At, &c.ID)
		if db.NotFound(err) {
			return out, nil
		}
		if err != nil {
			return out, fmt.Errorf("openapi: request log page: %w", err)
		}
		from, inclusive = &c, true
	}
	if from != nil {
		cmp := "<"
		if inclusive {
			cmp = "<="
		}
		// the plain bound on created_at keeps the walk on the index's range
		q.And("(r.created_at, r.id) "+cmp+" (?, ?) AND r.created_at <= ?", from.At, from.ID, from.At)
	}
	where, args = q.Where()
	rows, err := r.db.Query(ctx, `SELECT r.id, r.created_at, r.endpoint, r.status, r.code, r.latency_us, r.ip, r.query
		FROM openapi_request r`+where+order+` LIMIT ?`, append(args, limit+1)...)
	if err != nil {
		return out, fmt.Errorf("openapi: request log: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var v RequestView
		var us int64
		if err := rows.Scan(&v.ID, &v.Time, &v.Endpoint, &v.Status, &v.Code, &us, &v.IP, &v.Query); err != nil {
			return out, fmt.Errorf("openapi: request log: %w", err)
		}
		v.LatencyMs = float64(us) / 1000
		out.List = append(out.List, v)
	}
	if err := rows.Err(); err != nil {
		return out, fmt.Errorf("openapi: request log: %w", err)
	}
	if len(out.List) > limit {
		out.List = out.List[:limit]
		last := out.List[limit-1]
		out.Next = db.TimeKey{At: last.Time, ID: last.ID}.String()
	}
	return out, nil
}

// StatsInput asks for the access statistics of one application over whole days (the console's time zone): every day
// that overlaps [startTime, endTime), at most MaxStatsDays.
type StatsInput struct {
	ID    int64 `json:"id"`
	Start int64 `json:"startTime"`
	End   int64 `json:"endTime"`
}

// Figures are the calls, errors and latency of a set of calls. Percentiles (ms) are estimated
// from the latency histogram (Percentile); AvgMs is exact.
type Figures struct {
	Calls  int64   `json:"calls"`
	Errors int64   `json:"errors"`
	AvgMs  float64 `json:"avgMs"`
	P50    float64 `json:"p50"`
	P90    float64 `json:"p90"`
	P99    float64 `json:"p99"`
}

// EndpointStats are one endpoint's figures.
type EndpointStats struct {
	Endpoint string `json:"endpoint"`
	Figures
}

// DayStats are one day's calls and errors.
type DayStats struct {
	// Day is the day's start (unix ms of 00:00 in the console's time zone).
	Day    int64 `json:"day"`
	Calls  int64 `json:"calls"`
	Errors int64 `json:"errors"`
}

// Stats are an application's access statistics over a range of days.
type Stats struct {
	// App is the application, for the screen's header.
	App application.App `json:"app"`
	// Start and End are the days covered: [start of the first day, end of the last) (unix ms).
	Start int64 `json:"startTime"`
	End   int64 `json:"endTime"`
	// Days: every day of the range, oldest first (zeros for days without calls).
	Days []DayStats `json:"days"`
	// Endpoints: every endpoint called in the range, most called first.
	Endpoints []EndpointStats `json:"endpoints"`
	Total     Figures         `json:"total"`
	// Bounds are the histogram's bucket bounds (ms): percentiles beyond the last read as it.
	Bounds []int64 `json:"bounds"`
}

type histogram struct {
	calls, errors, latencyUS int64
	buckets                  []int64
}

func (h *histogram) add(o *histogram) {
	h.calls += o.calls
	h.errors += o.errors
	h.latencyUS += o.latencyUS
	if h.buckets == nil {
		h.buckets = make([]int64, len(o.buckets))
	}
	for i, b := range o.buckets {
		h.buckets[i] += b
	}
}

func (h *histogram) figures() Figures {
	f := Figures{Calls: h.calls, Errors: h.errors}
	if h.calls > 0 {
		f.AvgMs = round3(float64(h.latencyUS) / float64(h.calls) / 1000)
	}
	f.P50, f.P90, f.P99 = Percentile(h.buckets, 0.5), Percentile(h.buckets, 0.9), Percentile(h.buckets, 0.99)
	return f
}

func round3(v float64) float64 { return math.Round(v*1000) / 1000 }

// Percentile estimates the q-quantile (0 < q < 1, ms) of the calls counted in buckets (bucket i
// holds the calls at or under LatencyBounds[i] and above the bound before, the last one the
// slower ones), as Prometheus' histogram_quantile does: the rank q·n falls in one bucket, and
// the value is interpolated linearly between that bucket's bounds (the first from 0). A rank in
// the last, open bucket reads as the last bound. 0 when there are no calls.
func Percentile(buckets []int64, q float64) float64 {
	var n int64
	for _, b := range buckets {
		n += b
	}
	if n == 0 || q <= 0 {
		return 0
	}
	rank := q * float64(n)
	var cum int64
	for i, c := range buckets {
		if c == 0 {
			continue
		}
		if float64(cum+c) >= rank {
			if i >= len(LatencyBounds) {
				return float64(LatencyBounds[len(LatencyBounds)-1])
			}
			lower := 0.0
			if i > 0 {
				lower = float64(LatencyBounds[i-1])
			}
			upper := float64(LatencyBounds[i])
			return round3(lower + (upper-lower)*(rank-float64(cum))/float64(c))
		}
		cum += c
	}
	return float64(LatencyBounds[len(LatencyBounds)-1])
}

var sqlStatRead = func() string {
	cols := make([]string, len(LatencyBounds)+1)
	for i := range cols {
		cols[i] = fmt.Sprintf("lat_b%d", i)
	}
	return `SELECT day, endpoint, calls, errors, latency_us_sum, ` + strings.Join(cols, ", ") +
		` FROM openapi_stat_day WHERE app_id = ? AND day >= ? AND day < ?`
}()

// Stats are the access statistics of one application in scope: calls and errors per day,
// per endpoint (calls, errors, average and p50/p90/p99 latency) and in total, read from the daily
// rows (at most MaxStatsDays × the endpoints).
func (r *Reader) Stats(ctx context.Context, p *access.Principal, in StatsInput) (Stats, error) {
	var out Stats
	switch {
	case in.ID <= 0:
		return out, apperr.InvalidField("id", "err.required")
	case in.Start <= 0:
		return out, apperr.InvalidField("startTime", "err.required")
	case in.End <= in.Start || in.End-in.Start > (MaxStatsDays+1)*dayMS:
		return out, errStatsRange
	}
	app, err := r.apps.Detail(ctx, p, in.ID)
	if err != nil {
		return out, err
	}
	out.App = app
	out.Start, out.End = r.day(in.Start), r.nextDay(r.day(in.End-1))
	out.Bounds = LatencyBounds
	out.Days = []DayStats{}
	index := map[int64]int{}
	for d := out.Start; d < out.End; d = r.nextDay(d) {
		index[d] = len(out.Days)
		out.Days = append(out.Days, DayStats{Day: d})
	}
	if len(out.Days) > MaxStatsDays { // counted in days: a range with a 25-hour day is still 92 days
		return Stats{}, errStatsRange
	}
	rows, err := r.db.Query(ctx, sqlStatRead, in.ID, out.Start, out.End)
	if err != nil {
		return out, fmt.Errorf("openapi: statistics: %w", err)
	}
	defer rows.Close()
	byEndpoint := map[string]*histogram{}
	var total histogram
	for rows.Next() {
		var day int64
		var endpoint string
		h := histogram{buckets: make([]int64, len(LatencyBounds)+1)}
		dest := []any{&day, &endpoint, &h.calls, &h.errors, &h.latencyUS}
		for i := range h.buckets {
			dest = append(dest, &h.buckets[i])
		}
		if err := rows.Scan(dest...); err != nil {
			return out, fmt.Errorf("openapi: statistics: %w", err)
		}
		if i, ok := index[day]; ok {
			out.Days[i].Calls += h.calls
			out.Days[i].Errors += h.errors
		}
		e := byEndpoint[endpoint]
		if e == nil {
			e = &histogram{}
			byEndpoint[endpoint] = e
		}
		e.add(&h)
		total.add(&h)
	}
	if err := rows.Err(); err != nil {
		return out, fmt.Errorf("openapi: statistics: %w", err)
	}
	out.Endpoints = make([]EndpointStats, 0, len(byEndpoint))
	for name, h := range byEndpoint {
		out.Endpoints = append(out.Endpoints, EndpointStats{Endpoint: name, Figures: h.figures()})
	}
	sort.Slice(out.Endpoints, func(i, j int) bool {
		a, b := out.Endpoints[i], out.Endpoints[j]
		if a.Calls != b.Calls {
			return a.Calls > b.Calls
		}
		return a.Endpoint < b.Endpoint
	})
	out.Total = total.figures()
	return out, nil
}
