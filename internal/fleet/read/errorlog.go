package read

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/fleet"
)

// The error log (docs/logs.md): the fleet-wide history of device errors, the alarms and faults
// of device_event, listed and exported through the same scoped query as a device's alarm list
// (Events), with the order fields "default, type, status, occurrence time, created time".

// ErrorKinds are the event kinds the error log holds.
var ErrorKinds = []int{fleet.KindAlarm, fleet.KindFault}

// Error-log export bounds.
const (
	// MaxErrorExportRows is the most rows one export writes; a wider filter is refused.
	MaxErrorExportRows = 50000
)

// ErrorLogInput filters the error log. Kinds may only name alarms and faults (empty: both).
type ErrorLogInput struct {
	EventListInput
}

// ErrorExportInput is the error log's filter and order, and the file format ("" or "xlsx").
type ErrorExportInput struct {
	ErrorLogInput
	Format string `json:"format"`
}

// validate checks each field on its own, naming it.
func (in *ErrorLogInput) validate() error {
	for _, k := range in.Kinds {
		if !slices.Contains(ErrorKinds, k) {
			return apperr.InvalidField("kinds", "err.invalid")
		}
	}
	if len(in.Kinds) == 0 {
		in.Kinds = ErrorKinds
	}
	if in.Status != nil && *in.Status != fleet.EventOpen && *in.Status != fleet.EventEnded {
		return apperr.InvalidField("status", "err.invalid")
	}
	if in.Level != nil && (*in.Level < fleet.LevelOA || *in.Level > fleet.LevelCA) {
		return apperr.InvalidField("level", "err.invalid")
	}
	if in.Start < 0 || in.End < 0 || (in.End > 0 && in.End <= in.Start) {
		return apperr.InvalidField("endTime", "err.time_range")
	}
	if s := strings.TrimPrefix(in.Sort, "-"); s != "" {
		if _, ok := eventSorts[s]; !ok {
			return apperr.InvalidField("sort", "err.invalid")
		}
	}
	return nil
}

// ErrorLog lists a page of the alarms and faults p may see.
func (s *Service) ErrorLog(ctx context.Context, p *access.Principal, in ErrorLogInput) (db.List[EventView], error) {
	if err := in.validate(); err != nil {
		return db.List[EventView]{List: []EventView{}}, err
	}
	return s.Events(ctx, p, in.EventListInput)
}

// EachExportedError calls fn with each alarm and fault p may see that matches in, in the
// list's order: the rows of an error-log export (internal/xlsxout writes the file). A filter
// matching more than MaxErrorExportRows is refused before the first call (narrow the filter),
// so an export is bounded.
func (s *Service) EachExportedError(ctx context.Context, p *access.Principal, in ErrorLogInput, fn func(EventView) error) error {
	if err := in.validate(); err != nil {
		return err
	}
	from, args := eventFrom(p, in.EventListInput)
	var n int64
	if err := s.db.QueryRow(ctx, `SELECT COUNT(*)`+from, args...).Scan(&n); err != nil {
		return fmt.Errorf("read: count error log: %w", err)
	}
	if n > MaxErrorExportRows {
		return apperr.New(apperr.Invalid, "err.log_export_too_many").With(map[string]any{"max": MaxErrorExportRows})
	}
	return s.eachEvent(ctx, from+fmt.Sprintf(` ORDER BY %s LIMIT %d`, eventOrder(in.Sort), MaxErrorExportRows), args, fn)
}
