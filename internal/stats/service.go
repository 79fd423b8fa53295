package stats

import (
	"time"

	"chargeops/internal/apperr"
	"chargeops/internal/db"
)

// Service reads the dashboards' figures within a caller's scope (docs/dashboards.md).
type Service struct {
	db  *db.DB
	loc *time.Location
	now func() int64
}

// New returns the service; days and months are those of loc.
func New(d *db.DB, loc *time.Location) *Service {
	if loc == nil {
		loc = time.UTC
	}
	return &Service{db: d, loc: loc, now: db.NowMS}
}

// Range is a period asked for: [Start, End) in unix ms.
type Range struct {
	Start int64 `json:"start"`
	End   int64 `json:"end"`
}

// validate checks one field at a time: start, then end.
func (r Range) validate() error {
	if r.Start <= 0 {
		return apperr.InvalidField("start", "err.required")
	}
	if r.End <= r.Start {
		return apperr.InvalidField("end", "err.stats_range").With(map[string]any{"field": "end", "max": MaxRangeDays})
	}
	if r.End-r.Start > MaxRangeDays*int64(24*time.Hour/time.Millisecond) {
		return apperr.InvalidField("end", "err.stats_range").With(map[string]any{"field": "end", "max": MaxRangeDays})
	}
	return nil
}

// span is a validated range moved out to whole buckets of its step.
type span struct {
	step       string
	grain      int
	start, end int64
}

func (s *Service) span(r Range) (span, error) {
	if err := r.validate(); err != nil {
		return span{}, err
	}
	step, g := StepOf(r.Start, r.End)
	sp := span{step: step, grain: g, start: Floor(g, r.Start, s.loc), end: Floor(g, r.End, s.loc)}
	if sp.end < r.End {
		sp.end = Next(g, sp.end, s.loc)
	}
	return sp, nil
}

// buckets lists the bucket starts of sp.
func (s *Service) buckets(sp span) []int64 {
	var out []int64
	for b := sp.start; b < sp.end; b = Next(sp.grain, b, s.loc) {
		out = append(out, b)
	}
	return out
}
