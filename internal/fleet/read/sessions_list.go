package read

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
)

// Charging sessions read back (docs/sessions.md): the list of the OpenAPI and the console, one
// scoped FROM for the list and the export (sessionFrom), keyset pages on (start time, id).

// SessionListInput filters charging sessions (newest start first).
type SessionListInput struct {
	CustomerID int64 `json:"customerId"`
	SiteID     int64 `json:"siteId"`
	DeviceID   int64 `json:"deviceId"`
	// SN is a device by its SN (exact).
	SN string `json:"sn"`
	// IDTag is the token that started the session (exact).
	IDTag string `json:"idTag"`
	// Reason is the stop reason (a charger's, as its adapter names them, or "Unterminated").
	Reason string `json:"reason"`
	// Start and End bound the session's start time (unix ms; 0: open).
	Start int64 `json:"startTime"`
	End   int64 `json:"endTime"`
	// Open: true lists only sessions still charging, false only ended ones.
	Open *bool `json:"open"`
	// Size is the page size (1-100; default 50).
	Size int `json:"pageSize"`
	// Cursor continues after the last row of an earlier page (that answer's next).
	Cursor string `json:"cursor"`
}

// SessionView is one charging session.
type SessionView struct {
	ID           int64  `json:"id"`
	DeviceID     int64  `json:"deviceId"`
	SN           string `json:"sn"`
	CustomerID   int64  `json:"customerId"`
	CustomerName string `json:"customerName"`
	SiteID       int64  `json:"siteId"`
	SiteName     string `json:"siteName"`
	ConnectorID  int    `json:"connectorId"`
	IDTag        string `json:"idTag"`
	MeterStart   int64  `json:"meterStart"` // Wh
	MeterStop    int64  `json:"meterStop"`  // Wh; 0 while charging
	EnergyWh     int64  `json:"energyWh"`   // counted energy (0 while charging)
	StartedAt    int64  `json:"startedAt"`
	StoppedAt    int64  `json:"stoppedAt"` // 0 while charging
	Reason       string `json:"reason"`
	Flags        int    `json:"flags"` // Flag* bits (energy.go); FlagNames names them
}

// SessionList is a page of sessions; Next continues it ("" at the end).
type SessionList struct {
	List []SessionView `json:"list"`
	Next string        `json:"next"`
}

// Bounds of the session filters.
const (
	sessionMaxPage   = 100
	sessionMaxText   = 64 // an SN or an idTag (OCPP's idTag is 20)
	sessionPageDeflt = 50
)

// validate checks each filter on its own, naming it; reasons are the stop reasons a session
// may hold (Service.stopReasons).
func (in SessionListInput) validate(reasons []string) error {
	switch {
	case in.CustomerID < 0:
		return apperr.InvalidField("customerId", "err.invalid")
	case in.SiteID < 0:
		return apperr.InvalidField("siteId", "err.invalid")
	case in.DeviceID < 0:
		return apperr.InvalidField("deviceId", "err.invalid")
	case len(in.SN) > sessionMaxText:
		return apperr.InvalidField("sn", "err.invalid")
	case len(in.IDTag) > sessionMaxText:
		return apperr.InvalidField("idTag", "err.invalid")
	case in.Reason != "" && !slices.Contains(reasons, in.Reason):
		return apperr.InvalidField("reason", "err.session_reason")
	case in.Start < 0:
		return apperr.InvalidField("startTime", "err.invalid")
	case in.End < 0 || (in.End > 0 && in.End <= in.Start):
		return apperr.InvalidField("endTime", "err.time_range")
	case in.Size < 0 || in.Size > sessionMaxPage:
		return apperr.InvalidField("pageSize", "err.invalid")
	}
	return nil
}

// sessionFrom is the FROM and WHERE of a session list within p's scope (without the cursor),
// and its arguments.
func sessionFrom(p *access.Principal, in SessionListInput) (string, []any) {
	cond, args := p.Scope.SiteCond("t.customer_id", "t.site_id")
	where := []string{cond}
	add := func(c string, a ...any) { where = append(where, c); args = append(args, a...) }
	if in.CustomerID > 0 {
		add("t.customer_id = ?", in.CustomerID)
	}
	if in.SiteID > 0 {
		add("t.site_id = ?", in.SiteID)
	}
	if in.DeviceID > 0 {
		add("t.device_id = ?", in.DeviceID)
	}
	if sn := strings.TrimSpace(in.SN); sn != "" {
		add("d.sn = ?", sn)
	}
	if tag := strings.TrimSpace(in.IDTag); tag != "" {
		add("t.id_tag = ?", tag)
	}
	if in.Reason != "" {
		add("t.reason = ?", in.Reason)
	}
	if in.Start > 0 {
		add("t.started_at >= ?", in.Start)
	}
	if in.End > 0 {
		add("t.started_at < ?", in.End)
	}
	if in.Open != nil {
		if *in.Open {
			add("t.stopped_at = 0")
		} else {
			add("t.stopped_at > 0")
		}
	}
	return ` FROM device_transaction t LEFT JOIN device d ON d.id = t.device_id LEFT JOIN site s ON s.id = t.site_id
		LEFT JOIN customer c ON c.id = t.customer_id` + access.Where(where...), args
}

const sessionCols = `SELECT t.id, t.device_id, COALESCE(d.sn, ''), t.customer_id, COALESCE(c.name, ''), t.site_id, COALESCE(s.name, ''),
		t.connector_id, t.id_tag, t.meter_start, t.meter_stop, t.energy_wh, t.started_at, t.stopped_at, t.reason, t.flags`

// sessionOrder is the order of every session list: newest start first, ties by id.
const sessionOrder = ` ORDER BY t.started_at DESC, t.id DESC`

func scanSession(r db.Scanner) (SessionView, error) {
	var v SessionView
	err := r.Scan(&v.ID, &v.DeviceID, &v.SN, &v.CustomerID, &v.CustomerName, &v.SiteID, &v.SiteName, &v.ConnectorID, &v.IDTag,
		&v.MeterStart, &v.MeterStop, &v.EnergyWh, &v.StartedAt, &v.StoppedAt, &v.Reason, &v.Flags)
	return v, err
}

// eachSession runs a session query (columns sessionCols) and hands each row to fn.
func (s *Service) eachSession(ctx context.Context, q string, args []any, fn func(SessionView) error) error {
	rows, err := s.db.Query(ctx, sessionCols+q, args...)
	if err != nil {
		return fmt.Errorf("read: sessions: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		v, err := scanSession(rows)
		if err != nil {
			return fmt.Errorf("read: sessions: %w", err)
		}
		if err := fn(v); err != nil {
			return err
		}
	}
	return rows.Err()
}

// Sessions lists the charging sessions of the devices in the caller's scope, as a keyset walk
// on (start time, id): the same cost at any depth.
func (s *Service) Sessions(ctx context.Context, p *access.Principal, in SessionListInput) (SessionList, error) {
	out := SessionList{List: []SessionView{}}
	if err := in.validate(s.stopReasons); err != nil {
		return out, err
	}
	size := in.Size
	if size == 0 {
		size = sessionPageDeflt
	}
	from, args := sessionFrom(p, in)
	if in.Cursor != "" {
		k, ok := db.ParseTimeKey(in.Cursor)
		if !ok {
			return out, apperr.InvalidField("cursor", "err.invalid")
		}
		from += " AND (t.started_at < ? OR (t.started_at = ? AND t.id < ?))"
		args = append(args, k.At, k.At, k.ID)
	}
	err := s.eachSession(ctx, from+sessionOrder+" LIMIT ?", append(args, size+1), func(v SessionView) error {
		out.List = append(out.List, v)
		return nil
	})
	if err != nil {
		return out, err
	}
	if len(out.List) > size {
		out.List = out.List[:size]
		last := out.List[size-1]
		out.Next = db.TimeKey{At: last.StartedAt, ID: last.ID}.String()
	}
	return out, nil
}
