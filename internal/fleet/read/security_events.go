package read

import (
	"context"
	"fmt"
	"strings"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/fleet"
)

// Security events (docs/security-profiles.md, "Security events"): the SecurityEventNotifications
// of the devices in the caller's scope, a device's or all of them, newest (charger time) first,
// listed and exported through one scoped query. An event is scoped by where its device was when
// the charger sent it (its stored customer and site), as device events are.

// Security-event bounds.
const (
	// MaxSecurityExportRows is the most rows one export writes; a wider filter is refused.
	MaxSecurityExportRows = 50000
	// maxSecurityTypeLen is the longest type a charger may send (the schema's 50).
	maxSecurityTypeLen = 50
)

// SecurityEventListInput filters security events.
type SecurityEventListInput struct {
	db.Page
	DeviceID int64  `json:"deviceId"`  // 0: every device in scope
	Type     string `json:"type"`      // exact, as the charger sent it
	Critical *bool  `json:"critical"`  // true: critical ones only; false: the others
	Start    int64  `json:"startTime"` // charger time, unix ms (inclusive)
	End      int64  `json:"endTime"`   // exclusive
}

// SecurityExportInput is the list's filter and the file format ("" or "xlsx").
type SecurityExportInput struct {
	SecurityEventListInput
	Format string `json:"format"`
}

// SecurityEventView is one security event.
type SecurityEventView struct {
	ID         int64  `json:"id"`
	DeviceID   int64  `json:"deviceId"`
	SN         string `json:"sn"`
	Type       string `json:"type"`
	TechInfo   string `json:"techInfo"`
	Critical   bool   `json:"critical"`
	OccurredAt int64  `json:"occurredAt"` // the charger's time
	CreatedAt  int64  `json:"createdAt"`  // when the server recorded it
	AlarmID    int64  `json:"alarmId"`    // the alarm it opened or joined (0: none)
	AlarmOpen  bool   `json:"alarmOpen"`  // that alarm is still open (an acknowledgement ends it)
	// CommandID: the operator's command that explains a critical event (a Reset, a firmware
	// update), which therefore opened no alarm; 0: none
	CommandID int64 `json:"commandId"`
}

// validate checks each field on its own, naming it.
func (in *SecurityEventListInput) validate() error {
	in.Type = strings.TrimSpace(in.Type)
	switch {
	case in.DeviceID < 0:
		return apperr.InvalidField("deviceId", "err.invalid")
	case len(in.Type) > maxSecurityTypeLen:
		return apperr.InvalidField("type", "err.invalid")
	case in.Start < 0:
		return apperr.InvalidField("startTime", "err.invalid")
	case in.End < 0 || (in.End > 0 && in.End <= in.Start):
		return apperr.InvalidField("endTime", "err.time_range")
	}
	return nil
}

// securityFrom is the FROM and WHERE of a security-event list within p's scope, and its arguments.
func securityFrom(p *access.Principal, in SecurityEventListInput) (string, []any) {
	cond, args := p.Scope.SiteCond("s.customer_id", "s.site_id")
	conds := []string{cond}
	if in.DeviceID > 0 {
		conds, args = append(conds, "s.device_id = ?"), append(args, in.DeviceID)
	}
	if in.Type != "" {
		conds, args = append(conds, "s.type = ?"), append(args, in.Type)
	}
	if in.Critical != nil {
		conds, args = append(conds, "s.critical = ?"), append(args, db.BoolInt(*in.Critical))
	}
	if in.Start > 0 {
		conds, args = append(conds, "s.occurred_at >= ?"), append(args, in.Start)
	}
	if in.End > 0 {
		conds, args = append(conds, "s.occurred_at < ?"), append(args, in.End)
	}
	return ` FROM device_security_event s LEFT JOIN device d ON d.id = s.device_id` + access.Where(conds...), args
}

// securityCols: the alarm is open when the event it opened or joined still is.
var securityCols = fmt.Sprintf(`SELECT s.id, s.device_id, COALESCE(d.sn, ''), s.type, s.tech_info, s.critical, s.occurred_at, s.created_at, s.event_id,
	CASE WHEN s.event_id > 0 AND EXISTS (SELECT 1 FROM device_event e WHERE e.id = s.event_id AND e.status = %d) THEN 1 ELSE 0 END, s.command_id`, fleet.EventOpen)

const securityOrder = ` ORDER BY s.occurred_at DESC, s.id DESC`

func scanSecurityEvent(r db.Scanner) (SecurityEventView, error) {
	var v SecurityEventView
	var crit, open int
	err := r.Scan(&v.ID, &v.DeviceID, &v.SN, &v.Type, &v.TechInfo, &crit, &v.OccurredAt, &v.CreatedAt, &v.AlarmID, &open, &v.CommandID)
	v.Critical, v.AlarmOpen = crit == 1, open == 1
	return v, err
}

// SecurityEvents lists a page of the security events p may see, newest first. A device outside
// p's scope is not found.
func (s *Service) SecurityEvents(ctx context.Context, p *access.Principal, in SecurityEventListInput) (db.List[SecurityEventView], error) {
	out := db.List[SecurityEventView]{List: []SecurityEventView{}}
	if err := in.validate(); err != nil {
		return out, err
	}
	if in.DeviceID > 0 {
		if err := s.inScope(ctx, p, in.DeviceID); err != nil {
			return out, err
		}
	}
	from, args := securityFrom(p, in)
	if err := s.db.QueryRow(ctx, `SELECT COUNT(*)`+from, args...).Scan(&out.Total); err != nil {
		return out, fmt.Errorf("read: count security events: %w", err)
	}
	limit, offset := in.Page.LimitOffset()
	err := s.eachSecurityEvent(ctx, from+securityOrder+fmt.Sprintf(` LIMIT %d OFFSET %d`, limit, offset), args, func(v SecurityEventView) error {
		out.List = append(out.List, v)
		return nil
	})
	return out, err
}

// EachExportedSecurityEvent calls fn with each security event p may see that matches in, in the
// list's order: the rows of an export (internal/xlsxout writes the file). A filter matching
// more than MaxSecurityExportRows is refused before the first call (narrow the filter).
func (s *Service) EachExportedSecurityEvent(ctx context.Context, p *access.Principal, in SecurityEventListInput, fn func(SecurityEventView) error) error {
	if err := in.validate(); err != nil {
		return err
	}
	if in.DeviceID > 0 {
		if err := s.inScope(ctx, p, in.DeviceID); err != nil {
			return err
		}
	}
	from, args := securityFrom(p, in)
	var n int64
	if err := s.db.QueryRow(ctx, `SELECT COUNT(*)`+from, args...).Scan(&n); err != nil {
		return fmt.Errorf("read: count security events: %w", err)
	}
	if n > MaxSecurityExportRows {
		return apperr.New(apperr.Invalid, "err.log_export_too_many").With(map[string]any{"max": MaxSecurityExportRows})
	}
	return s.eachSecurityEvent(ctx, from+securityOrder+fmt.Sprintf(` LIMIT %d`, MaxSecurityExportRows), args, fn)
}

func (s *Service) eachSecurityEvent(ctx context.Context, tail string, args []any, fn func(SecurityEventView) error) error {
	rows, err := s.db.Query(ctx, securityCols+tail, args...)
	if err != nil {
		return fmt.Errorf("read: security events: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		v, err := scanSecurityEvent(rows)
		if err != nil {
			return fmt.Errorf("read: security events: %w", err)
		}
		if err := fn(v); err != nil {
			return err
		}
	}
	return rows.Err()
}
