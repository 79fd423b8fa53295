package read

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/fleet"
)

// ConnectorView is a connector's last status. For an OCPP 2.0.1 charger the connector is the
// EVSE (ConnectorID its evseId) and Plugs are its connectors; an OCPP 1.6 one has none.
type ConnectorView struct {
	ConnectorID int        `json:"connectorId"`
	Status      string     `json:"status"`
	ErrorCode   string     `json:"errorCode"`
	VendorCode  string     `json:"vendorCode"`
	Info        string     `json:"info"`
	UpdatedAt   int64      `json:"updatedAt"` // when the server applied the status
	StatusAt    int64      `json:"statusAt"`  // the charger's time of the status (0: not known)
	Plugs       []PlugView `json:"plugs"`
}

// PlugView is the last status of one connector of an EVSE (device_evse_connector; OCPP 2.0.1
// ConnectorStatus: Available, Occupied, Reserved, Unavailable, Faulted).
type PlugView struct {
	ConnectorID int    `json:"connectorId"`
	Status      string `json:"status"`
	UpdatedAt   int64  `json:"updatedAt"`
}

// maxPlugs bounds the plugs read of one device (a charger has a few EVSEs of a few connectors).
const maxPlugs = 256

// RuntimeItem is one latest runtime value.
type RuntimeItem struct {
	Name        string `json:"name"`
	ConnectorID int    `json:"connectorId"`
	Value       string `json:"value"`
	Unit        string `json:"unit"`
	Time        int64  `json:"time"`
}

// RuntimeView is a device's runtime info.
type RuntimeView struct {
	DeviceID          int64           `json:"deviceId"`
	SN                string          `json:"sn"`
	Status            int             `json:"status"`
	AlarmStatus       int             `json:"alarmStatus"`
	Online            bool            `json:"online"`
	LastRefreshAt     int64           `json:"lastRefreshAt"`
	TotalRuntime      int64           `json:"totalRuntime"` // seconds
	SoftwareVersion   string          `json:"softwareVersion"`
	UnmaintainedDays  int64           `json:"unmaintainedDays"`
	MaintenanceDue    bool            `json:"maintenanceDue"`
	Vendor            string          `json:"vendor"`
	Model             string          `json:"model"`
	Protocol          string          `json:"protocol"`
	RemoteAddr        string          `json:"remoteAddr"`
	ConnectedAt       int64           `json:"connectedAt"`
	LastSeenAt        int64           `json:"lastSeenAt"`
	FirmwareStatus    string          `json:"firmwareStatus"`
	DiagnosticsStatus string          `json:"diagnosticsStatus"`
	Connectors        []ConnectorView `json:"connectors"`
	Values            []RuntimeItem   `json:"values"`
}

// Runtime returns a device's runtime info.
func (s *Service) Runtime(ctx context.Context, p *access.Principal, id int64) (RuntimeView, error) {
	v := RuntimeView{Connectors: []ConnectorView{}, Values: []RuntimeItem{}}
	if err := s.inScope(ctx, p, id); err != nil {
		return v, err
	}
	var online int
	var cycle, lastMaint, created int64
	err := s.db.QueryRow(ctx, `SELECT d.id, d.sn, d.status, d.alarm_status, d.last_refresh_at, d.total_runtime, d.software_version,
		d.maintenance_cycle, d.last_maintained_at, d.created_at,
		COALESCE(st.online, 0), COALESCE(st.vendor, ''), COALESCE(st.model, ''), COALESCE(st.protocol, ''), COALESCE(st.remote_addr, ''),
		COALESCE(st.connected_at, 0), COALESCE(st.last_seen_at, 0), COALESCE(st.firmware_status, ''), COALESCE(st.diagnostics_status, '')
		FROM device d LEFT JOIN device_state st ON st.device_id = d.id WHERE d.id = ?`, id).
		Scan(&v.DeviceID, &v.SN, &v.Status, &v.AlarmStatus, &v.LastRefreshAt, &v.TotalRuntime, &v.SoftwareVersion, &cycle, &lastMaint, &created,
			&online, &v.Vendor, &v.Model, &v.Protocol, &v.RemoteAddr, &v.ConnectedAt, &v.LastSeenAt, &v.FirmwareStatus, &v.DiagnosticsStatus)
	if err != nil {
		return v, err
	}
	v.Online = online == 1
	since := lastMaint
	if since == 0 {
		since = created
	}
	v.UnmaintainedDays = (db.NowMS() - since) / (24 * 3600 * 1000)
	v.MaintenanceDue = cycle > 0 && v.UnmaintainedDays >= cycle
	rows, err := s.db.Query(ctx, `SELECT connector_id, status, error_code, vendor_code, info, updated_at, status_at FROM device_connector WHERE device_id = ? ORDER BY connector_id`, id)
	if err != nil {
		return v, err
	}
	for rows.Next() {
		c := ConnectorView{Plugs: []PlugView{}}
		if err := rows.Scan(&c.ConnectorID, &c.Status, &c.ErrorCode, &c.VendorCode, &c.Info, &c.UpdatedAt, &c.StatusAt); err != nil {
			rows.Close()
			return v, err
		}
		v.Connectors = append(v.Connectors, c)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return v, err
	}
	if v.Connectors, err = s.plugs(ctx, id, v.Connectors); err != nil {
		return v, err
	}
	rows, err = s.db.Query(ctx, `SELECT name, connector_id, value, unit, sampled_at FROM device_runtime WHERE device_id = ? ORDER BY connector_id, name`, id)
	if err != nil {
		return v, err
	}
	defer rows.Close()
	for rows.Next() {
		var it RuntimeItem
		if err := rows.Scan(&it.Name, &it.ConnectorID, &it.Value, &it.Unit, &it.Time); err != nil {
			return v, err
		}
		v.Values = append(v.Values, it)
	}
	return v, rows.Err()
}

// plugs adds to a device's connectors (EVSEs) the status of their own connectors, in one
// bounded query; a plug of an EVSE that has no status of its own yet gets a row of its own.
func (s *Service) plugs(ctx context.Context, id int64, cs []ConnectorView) ([]ConnectorView, error) {
	rows, err := s.db.Query(ctx, `SELECT evse_id, connector_id, status, updated_at FROM device_evse_connector WHERE device_id = ?
		ORDER BY evse_id, connector_id LIMIT `+fmt.Sprint(maxPlugs), id)
	if err != nil {
		return cs, err
	}
	defer rows.Close()
	at := make(map[int]int, len(cs))
	for i, c := range cs {
		at[c.ConnectorID] = i
	}
	for rows.Next() {
		var evse int
		var p PlugView
		if err := rows.Scan(&evse, &p.ConnectorID, &p.Status, &p.UpdatedAt); err != nil {
			return cs, err
		}
		i, ok := at[evse]
		if !ok {
			i = len(cs)
			at[evse] = i
			cs = append(cs, ConnectorView{ConnectorID: evse, Plugs: []PlugView{}})
		}
		cs[i].Plugs = append(cs[i].Plugs, p)
	}
	if err := rows.Err(); err != nil {
		return cs, err
	}
	slices.SortStableFunc(cs, func(a, b ConnectorView) int { return cmp.Compare(a.ConnectorID, b.ConnectorID) })
	return cs, nil
}

// EventListInput filters alarms, faults and events (device alarm list, site fault and event
// tabs, the error log of docs/logs.md).
type EventListInput struct {
	db.Page
	DeviceID int64  `json:"deviceId"`
	SN       string `json:"sn"` // a device by its SN (exact)
	SiteID   int64  `json:"siteId"`
	Kinds    []int  `json:"kinds"`  // 0 offline, 1 alarm, 2 fault, 3 unavailable; empty: all
	Status   *int   `json:"status"` // 0 open, 1 ended
	Level    *int   `json:"level"`  // 0 OA, 1 MA, 2 CA
	Start    int64  `json:"startTime"`
	End      int64  `json:"endTime"`
	// Sort: "" (default: occurrence time, newest first), "type", "status", "time" (occurrence),
	// "created" (when the server recorded it), each with an optional leading '-' for descending.
	Sort string `json:"sort"`
}

// EventView is one alarm, fault or event.
type EventView struct {
	ID          int64  `json:"id"`
	DeviceID    int64  `json:"deviceId"`
	SN          string `json:"sn"`
	DeviceName  string `json:"deviceName"`
	SiteID      int64  `json:"siteId"`
	Kind        int    `json:"kind"`
	Level       int    `json:"level"`
	ConnectorID int    `json:"connectorId"`
	Code        string `json:"code"`
	Name        string `json:"name"`
	VendorCode  string `json:"vendorCode"`
	Info        string `json:"info"`
	Status      int    `json:"status"`
	StartedAt   int64  `json:"startedAt"`
	EndedAt     int64  `json:"endedAt"`
	CreatedAt   int64  `json:"createdAt"`
}

// eventSorts are the order fields of the error log (docs/logs.md, "Order"); ties go newest first.
var eventSorts = map[string][]string{
	"type":    {"e.kind", "e.code"},
	"status":  {"e.status"},
	"time":    {"e.started_at"},
	"created": {"e.created_at"},
}

// eventOrder is the ORDER BY of a sort field; an unknown or empty one is the default.
func eventOrder(sort string) string {
	cols, ok := eventSorts[strings.TrimPrefix(sort, "-")]
	if !ok {
		return "e.started_at DESC, e.id DESC"
	}
	dir := " ASC"
	if strings.HasPrefix(sort, "-") {
		dir = " DESC"
	}
	return strings.Join(cols, dir+", ") + dir + ", e.started_at DESC, e.id DESC"
}

// eventFrom is the FROM and WHERE of an event list within p's scope, and its arguments. An
// event is where it happened: its stored customer and site (the device's when it opened) decide
// both the scope and the site filter, as on home and in the site statistics, so a site's Events
// tab lists what home lists for the site, also of a device that has moved away since.
func eventFrom(p *access.Principal, in EventListInput) (string, []any) {
	cond, args := p.Scope.SiteCond("e.customer_id", "e.site_id")
	conds := []string{cond}
	if in.DeviceID > 0 {
		conds, args = append(conds, "e.device_id = ?"), append(args, in.DeviceID)
	}
	if sn := strings.TrimSpace(in.SN); sn != "" {
		conds, args = append(conds, "d.sn = ?"), append(args, sn)
	}
	if in.SiteID > 0 {
		conds, args = append(conds, "e.site_id = ?"), append(args, in.SiteID)
	}
	if len(in.Kinds) > 0 {
		conds = append(conds, "e.kind IN ("+db.Placeholders(len(in.Kinds))+")")
		for _, k := range in.Kinds {
			args = append(args, k)
		}
	}
	if in.Status != nil {
		conds, args = append(conds, "e.status = ?"), append(args, *in.Status)
	}
	if in.Level != nil {
		conds, args = append(conds, "e.level = ?"), append(args, *in.Level)
	}
	if in.Start > 0 {
		conds, args = append(conds, "e.started_at >= ?"), append(args, in.Start)
	}
	if in.End > 0 {
		conds, args = append(conds, "e.started_at < ?"), append(args, in.End)
	}
	return ` FROM device_event e JOIN device d ON d.id = e.device_id` + access.Where(conds...), args
}

const eventCols = `SELECT e.id, e.device_id, d.sn, d.name, e.site_id, e.kind, e.level, e.connector_id, e.code, e.name, e.vendor_code, e.info,
		e.status, e.started_at, e.ended_at, e.created_at`

func scanEvent(r db.Scanner) (EventView, error) {
	var e EventView
	err := r.Scan(&e.ID, &e.DeviceID, &e.SN, &e.DeviceName, &e.SiteID, &e.Kind, &e.Level, &e.ConnectorID, &e.Code, &e.Name, &e.VendorCode, &e.Info,
		&e.Status, &e.StartedAt, &e.EndedAt, &e.CreatedAt)
	return e, err
}

// Events lists alarms, faults and events, by default newest first.
func (s *Service) Events(ctx context.Context, p *access.Principal, in EventListInput) (db.List[EventView], error) {
	out := db.List[EventView]{List: []EventView{}}
	from, args := eventFrom(p, in)
	if err := s.db.QueryRow(ctx, `SELECT COUNT(*)`+from, args...).Scan(&out.Total); err != nil {
		return out, fmt.Errorf("read: count events: %w", err)
	}
	limit, offset := in.Page.LimitOffset()
	err := s.eachEvent(ctx, from+fmt.Sprintf(` ORDER BY %s LIMIT %d OFFSET %d`, eventOrder(in.Sort), limit, offset), args, func(e EventView) error {
		out.List = append(out.List, e)
		return nil
	})
	return out, err
}

// eachEvent runs the event query tail (FROM ... ORDER BY ... LIMIT) and hands each row to fn.
func (s *Service) eachEvent(ctx context.Context, tail string, args []any, fn func(EventView) error) error {
	rows, err := s.db.Query(ctx, eventCols+tail, args...)
	if err != nil {
		return fmt.Errorf("read: events: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		e, err := scanEvent(rows)
		if err != nil {
			return fmt.Errorf("read: events: %w", err)
		}
		if err := fn(e); err != nil {
			return err
		}
	}
	return rows.Err()
}

// SeriesInput asks for data-chart series: names over [start, end) in steps of Step minutes.
// Step 43200 (30 days) means calendar months in loc.
type SeriesInput struct {
	DeviceID    int64    `json:"deviceId"`
	Names       []string `json:"names"`
	ConnectorID int      `json:"connectorId"`
	Start       int64    `json:"startTime"`
	End         int64    `json:"endTime"`
	Step        int64    `json:"step"` // minutes
}

// SeriesPoint is one bucket: its start time and the average, min and max of the samples.
type SeriesPoint struct {
	Time  int64   `json:"time"`
	Avg   float64 `json:"avg"`
	Min   float64 `json:"min"`
	Max   float64 `json:"max"`
	Count int64   `json:"count"`
}

// Series is one measurand's points (one phase at one location: SeriesName) and their unit as
// stored (energy in Wh, power in W; docs/gateway.md, "Meter values").
type Series struct {
	Name   string        `json:"name"`
	Unit   string        `json:"unit"`
	Points []SeriesPoint `json:"points"`
}

// sqlSeriesUnit is the stored unit of a series: its latest value's, on the asked connector first.
const sqlSeriesUnit = `SELECT unit FROM device_runtime WHERE device_id = ? AND name = ? ORDER BY CASE WHEN connector_id = ? THEN 0 ELSE 1 END, connector_id LIMIT 1`

// seriesUnit is the unit of a series: its latest value's, else Wh for an energy.
func (s *Service) seriesUnit(ctx context.Context, deviceID int64, name string, connector int) (string, error) {
	var unit string
	err := s.db.QueryRow(ctx, sqlSeriesUnit, deviceID, name, connector).Scan(&unit)
	if err != nil && !db.NotFound(err) {
		return "", fmt.Errorf("read: series unit: %w", err)
	}
	if unit == "" && fleet.IsEnergy(strings.SplitN(name, "@", 2)[0]) {
		unit = "Wh"
	}
	return unit, nil
}

// MonthStep is the step (minutes) that means monthly buckets (docs/dashboards.md#calls).
const MonthStep = 43200

// Bounds of a series call (docs/decisions.md, "Levels"): every number is checked before any
// arithmetic, so no product overflows and no bucket width is zero.
const (
	seriesMaxTime      = 4102444800000 // 2100-01-01 UTC, unix ms
	seriesMaxRangeDays = 3660          // ten years
	seriesMaxBuckets   = 20000         // points per series
	seriesMaxNames     = 20
	seriesMaxNameLen   = 100
	seriesMaxConnector = 100
)

// validate checks each field of a series call on its own, naming it.
func (in SeriesInput) validate() error {
	outOfRange := func(field string, lo, hi int64) error {
		return apperr.InvalidField(field, "err.series_out_of_range").With(map[string]any{"field": field, "min": lo, "max": hi})
	}
	switch {
	case in.Start < 1 || in.Start > seriesMaxTime:
		return outOfRange("startTime", 1, seriesMaxTime)
	case in.End < 1 || in.End > seriesMaxTime:
		return outOfRange("endTime", 1, seriesMaxTime)
	case in.End <= in.Start:
		return apperr.InvalidField("endTime", "err.series_end_before_start")
	case in.End-in.Start > seriesMaxRangeDays*24*3600*1000:
		return apperr.InvalidField("endTime", "err.series_range_too_long").With(map[string]any{"field": "endTime", "max": seriesMaxRangeDays})
	case in.Step < 1 || in.Step > MonthStep:
		return outOfRange("step", 1, MonthStep)
	case in.ConnectorID < 0 || in.ConnectorID > seriesMaxConnector:
		return outOfRange("connectorId", 0, seriesMaxConnector)
	case len(in.Names) == 0:
		return apperr.InvalidField("names", "err.required")
	case len(in.Names) > seriesMaxNames:
		return outOfRange("names", 1, seriesMaxNames)
	}
	for i, n := range in.Names {
		if n == "" || len(n) > seriesMaxNameLen {
			return apperr.InvalidField(fmt.Sprintf("names[%d]", i), "err.invalid")
		}
	}
	if (in.End-in.Start)/in.stepMS() > seriesMaxBuckets {
		return apperr.InvalidField("step", "err.series_too_many_points").With(map[string]any{"field": "step", "max": seriesMaxBuckets})
	}
	return nil
}

// stepMS is the bucket width in SQL: the step, or a day for monthly steps (days are folded
// into calendar months afterwards). Only after validate: then it is 60,000 ms or more.
func (in SeriesInput) stepMS() int64 {
	if in.Step == MonthStep {
		return 24 * 3600 * 1000
	}
	return in.Step * 60000
}

// SeriesData returns the buckets of each named series.
func (s *Service) SeriesData(ctx context.Context, p *access.Principal, in SeriesInput, loc *time.Location) ([]Series, error) {
	if err := in.validate(); err != nil {
		return nil, err
	}
	if err := s.inScope(ctx, p, in.DeviceID); err != nil {
		return nil, err
	}
	monthly := in.Step == MonthStep
	stepMS := in.stepMS()
	out := make([]Series, 0, len(in.Names))
	for _, name := range in.Names {
		rows, err := s.db.Query(ctx, `SELECT b, SUM(v), MIN(v), MAX(v), COUNT(*) FROM (SELECT (ts - ?) / ? AS b, value AS v FROM device_series
			WHERE device_id = ? AND name = ? AND connector_id = ? AND ts >= ? AND ts < ?) x GROUP BY b ORDER BY b`,
			in.Start, stepMS, in.DeviceID, name, in.ConnectorID, in.Start, in.End)
		if err != nil {
			return nil, err
		}
		type agg struct {
			sum, min, max float64
			n             int64
		}
		var keys []int64
		buckets := map[int64]*agg{}
		for rows.Next() {
			var b int64
			var a agg
			if err := rows.Scan(&b, &a.sum, &a.min, &a.max, &a.n); err != nil {
				rows.Close()
				return nil, err
			}
			t := in.Start + b*stepMS
			if monthly {
				lt := time.UnixMilli(t).In(loc)
				t = time.Date(lt.Year(), lt.Month(), 1, 0, 0, 0, 0, loc).UnixMilli()
			}
			if cur, ok := buckets[t]; ok {
				cur.sum += a.sum
				cur.n += a.n
				cur.min = min(cur.min, a.min)
				cur.max = max(cur.max, a.max)
			} else {
				buckets[t] = &a
				keys = append(keys, t)
			}
		}
		rows.Close()
		unit, err := s.seriesUnit(ctx, in.DeviceID, name, in.ConnectorID)
		if err != nil {
			return nil, err
		}
		se := Series{Name: name, Unit: unit, Points: make([]SeriesPoint, 0, len(keys))}
		for _, k := range keys {
			a := buckets[k]
			se.Points = append(se.Points, SeriesPoint{Time: k, Avg: a.sum / float64(a.n), Min: a.min, Max: a.max, Count: a.n})
		}
		out = append(out, se)
	}
	return out, nil
}
