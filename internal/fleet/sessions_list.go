package fleet

import (
	"context"
	"fmt"
	"strings"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
)

// SessionListInput filters charging sessions (newest start first).
type SessionListInput struct {
	DeviceID int64 `json:"deviceId"`
	SiteID   int64 `json:"siteId"`
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
	ID          int64  `json:"id"`
	DeviceID    int64  `json:"deviceId"`
	SN          string `json:"sn"`
	SiteID      int64  `json:"siteId"`
	ConnectorID int    `json:"connectorId"`
	IDTag       string `json:"idTag"`
	MeterStart  int64  `json:"meterStart"` // Wh
	MeterStop   int64  `json:"meterStop"`  // Wh; 0 while charging
	EnergyWh    int64  `json:"energyWh"`   // counted energy (0 while charging)
	StartedAt   int64  `json:"startedAt"`
	StoppedAt   int64  `json:"stoppedAt"` // 0 while charging
	Reason      string `json:"reason"`
}

// SessionList is a page of sessions; Next continues it ("" at the end).
type SessionList struct {
	List []SessionView `json:"list"`
	Next string        `json:"next"`
}

// Sessions lists the charging sessions of the devices in the caller's scope, as a keyset walk
// on (start time, id): the same cost at any depth.
func (s *Service) Sessions(ctx context.Context, p *access.Principal, in SessionListInput) (SessionList, error) {
	out := SessionList{List: []SessionView{}}
	size := in.Size
	if size <= 0 {
		size = 50
	}
	if size > 100 {
		return out, apperr.InvalidField("pageSize", "err.invalid")
	}
	cond, args := p.Scope.SiteCond("t.customer_id", "t.site_id")
	where := []string{cond}
	add := func(c string, a ...any) { where = append(where, c); args = append(args, a...) }
	if in.DeviceID > 0 {
		add("t.device_id = ?", in.DeviceID)
	}
	if in.SiteID > 0 {
		add("t.site_id = ?", in.SiteID)
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
	if in.Cursor != "" {
		k, ok := db.ParseTimeKey(in.Cursor)
		if !ok {
			return out, apperr.InvalidField("cursor", "err.invalid")
		}
		add("(t.started_at < ? OR (t.started_at = ? AND t.id < ?))", k.At, k.At, k.ID)
	}
	q := `SELECT t.id, t.device_id, COALESCE(d.sn, ''), t.site_id, t.connector_id, t.id_tag, t.meter_start, t.meter_stop, t.energy_wh,
		t.started_at, t.stopped_at, t.reason FROM device_transaction t LEFT JOIN device d ON d.id = t.device_id
		WHERE ` + strings.Join(where, " AND ") + ` ORDER BY t.started_at DESC, t.id DESC LIMIT ?`
	rows, err := s.db.Query(ctx, q, append(args, size+1)...)
	if err != nil {
		return out, fmt.Errorf("fleet: sessions: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var v SessionView
		if err := rows.Scan(&v.ID, &v.DeviceID, &v.SN, &v.SiteID, &v.ConnectorID, &v.IDTag, &v.MeterStart, &v.MeterStop, &v.EnergyWh,
			&v.StartedAt, &v.StoppedAt, &v.Reason); err != nil {
			return out, err
		}
		out.List = append(out.List, v)
	}
	if err := rows.Err(); err != nil {
		return out, err
	}
	if len(out.List) > size {
		out.List = out.List[:size]
		last := out.List[size-1]
		out.Next = db.TimeKey{At: last.StartedAt, ID: last.ID}.String()
	}
	return out, nil
}
