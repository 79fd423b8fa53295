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
// first month, months up to the first year, years, then months and days again. A ranking sums
// the rows of these spans.
func Cover(start, end int64, loc *time.Location) []Span {
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
	for at := Floor(GrainDay, start, loc); at < end; {
		switch {
		case Floor(GrainYear, at, loc) == at && Next(GrainYear, at, loc) <= end:
			n := Next(GrainYear, at, loc)
			add(GrainYear, at, n)
			at = n
		case Floor(GrainMonth, at, loc) == at && Next(GrainMonth, at, loc) <= end:
			n := Next(GrainMonth, at, loc)
			add(GrainMonth, at, n)
			at = n
		default:
			n := Next(GrainDay, at, loc)
			add(GrainDay, at, n)
			at = n
		}
	}
	return out
}
