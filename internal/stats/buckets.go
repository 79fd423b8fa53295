// Package stats keeps and reads the dashboards' figures (docs/dashboards.md): the ingest
// pipeline's steps add to the pre-aggregated tables (write.go) as events and charging sessions
// arrive, and the dashboards read them within the caller's scope (home.go, site.go, system.go).
package stats

import "time"

// Grains of the pre-aggregated tables.
const (
	GrainHour  = 0
	GrainDay   = 1
	GrainMonth = 2
	GrainYear  = 3 // stat_device only
)

// Step names of a range's buckets in the API.
const (
	StepHour  = "hour"
	StepDay   = "day"
	StepMonth = "month"
)

// Range limits (docs/dashboards.md).
const (
	MaxRangeDays = 366
	hourStepMax  = 2 * 24 * time.Hour
	dayStepMax   = 92 * 24 * time.Hour
)

// Floor returns the start of the bucket of grain g holding at (unix ms). Hours are UTC hours
// (equal to local hours in every whole-hour zone); days, months and years start at midnight in loc.
func Floor(g int, at int64, loc *time.Location) int64 {
	if g == GrainHour {
		return at - mod(at, int64(time.Hour/time.Millisecond))
	}
	t := time.UnixMilli(at).In(loc)
	switch g {
	case GrainDay:
		t = time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, loc)
	case GrainMonth:
		t = time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, loc)
	default:
		t = time.Date(t.Year(), 1, 1, 0, 0, 0, 0, loc)
	}
	return t.UnixMilli()
}

// Next returns the start of the bucket after the one starting at b.
func Next(g int, b int64, loc *time.Location) int64 {
	if g == GrainHour {
		return b + int64(time.Hour/time.Millisecond)
	}
	t := time.UnixMilli(b).In(loc)
	switch g {
	case GrainDay:
		t = time.Date(t.Year(), t.Month(), t.Day()+1, 0, 0, 0, 0, loc)
	case GrainMonth:
		t = time.Date(t.Year(), t.Month()+1, 1, 0, 0, 0, 0, loc)
	default:
		t = time.Date(t.Year()+1, 1, 1, 0, 0, 0, 0, loc)
	}
	return t.UnixMilli()
}

func mod(a, b int64) int64 {
	m := a % b
	if m < 0 {
		m += b
	}
	return m
}

// StepOf is the bucket of a range [start, end): hours up to 2 days, days up to 92, else months.
func StepOf(start, end int64) (string, int) {
	d := time.Duration(end-start) * time.Millisecond
	switch {
	case d <= hourStepMax:
		return StepHour, GrainHour
	case d <= dayStepMax:
		return StepDay, GrainDay
	default:
		return StepMonth, GrainMonth
	}
}

// Span is part of a range covered by whole buckets of one grain: [From, To).
type Span struct {
	Grain    int
	From, To int64
}

// Cover splits [start, end) (whole days in loc) into the fewest whole buckets: days up to the
// first month, months up to the first year, years, then months and days again. Nothing is
// recorded at or after horizon (the clock's future), so a range reaching past it covers the
// buckets up to horizon only, and the last of them whole when the rest of it lies beyond: the
// 90 days up to today end with this month's bucket, not with a day bucket per day of it. A
// ranking sums the rows of these spans.
func Cover(start, end, horizon int64, loc *time.Location) []Span {
	return CoverUpTo(GrainYear, start, end, horizon, loc)
}

// CoverUpTo is Cover with buckets no larger than grain top (stat_site has no years).
func CoverUpTo(top int, start, end, horizon int64, loc *time.Location) []Span {
	var out []Span
	add := func(g int, from, to int64) {
		if from >= to {
			return
		}
		if n := len(out); n > 0 && out[n-1].Grain == g && out[n-1].To == from {
			out[n-1].To = to
			return
		}
		out = append(out, Span{g, from, to})
	}
	// whole reports whether the bucket of grain g starting at at may be read for [at, end)
	whole := func(g int, at int64) bool {
		n := Next(g, at, loc)
		return Floor(g, at, loc) == at && (n <= end || end >= horizon && n > horizon)
	}
	for at := Floor(GrainDay, start, loc); at < end && at < horizon; {
		g := GrainDay
		switch {
		case top >= GrainYear && whole(GrainYear, at):
			g = GrainYear
		case top >= GrainMonth && whole(GrainMonth, at):
			g = GrainMonth
		}
		n := Next(g, at, loc)
		add(g, at, min(n, end))
		at = n
	}
	return out
}
