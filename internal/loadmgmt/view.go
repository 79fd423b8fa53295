package loadmgmt

import (
	"context"
	"time"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
)

// SiteView is what the console's power tab of a site shows.
type SiteView struct {
	Power      SitePower    `json:"power"`
	LimitW     float64      `json:"limitW"` // effective now: windows and storage applied
	LimitA     [3]float64   `json:"limitA"`
	AllocatedW float64      `json:"allocatedW"`
	ActualW    float64      `json:"actualW"`
	Planner    string       `json:"planner"` // the node holding the site's lease ("" none)
	PlannedAt  int64        `json:"plannedAt"`
	Chargers   []ChargerRow `json:"chargers"`
}

// ChargerRow is one of the site's chargers, per planned connector (a charger without a session
// has one row, connector 0 and no allocation: TransactionID 0).
type ChargerRow struct {
	DeviceID      int64   `json:"deviceId"`
	SN            string  `json:"sn"`
	Name          string  `json:"name"`
	ConnectorID   int     `json:"connectorId"`
	TransactionID int64   `json:"transactionId"`
	Status        string  `json:"status"`
	Phases        int     `json:"phases"`
	Phase         int     `json:"phase"`
	Priority      int     `json:"priority"`
	LimitA        float64 `json:"limitA"`
	LimitW        float64 `json:"limitW"`
	State         int     `json:"state"` // 0 sending, 1 applied, 2 refused, 3 offline
	Message       string  `json:"message"`
	ActualW       float64 `json:"actualW"`
	UpdatedAt     int64   `json:"updatedAt"`
}

// Bounds of the views.
const (
	MaxChargerRows = 2000
	MaxSamples     = 10000
	MaxHistory     = 31 * 24 * time.Hour
)

// Site returns a site's power view; the site must be in p's scope.
func (s *Service) Site(ctx context.Context, p *access.Principal, siteID int64) (SiteView, error) {
	var v SiteView
	if err := siteInScope(ctx, s.db, p, siteID); err != nil {
		return v, wrap("site view", err)
	}
	var err error
	if v.Power, err = loadSitePower(ctx, s.db, siteID); err != nil {
		return v, wrap("site view", err)
	}
	extra := 0.0
	if s.opt.Extra != nil && v.Power.Enabled {
		extra = s.opt.Extra.ExtraW(ctx, siteID)
	}
	if v.Power.Enabled {
		l := SiteLimit(v.Power, time.Now(), s.opt.Location, extra)
		v.LimitA, v.LimitW = l.PhaseA, l.W()
	}
	now := db.NowMS()
	err = s.db.QueryRow(ctx, `SELECT COALESCE((SELECT node FROM site_power_lease WHERE site_id = ? AND expires_at > ?), ''),
		COALESCE((SELECT MAX(updated_at) FROM power_allocation WHERE site_id = ?), 0)`, siteID, now, siteID).Scan(&v.Planner, &v.PlannedAt)
	if err != nil {
		return v, wrap("site view", err)
	}
	// the latest active power per charger and connector: a charger's connector 0 reading is its
	// total when it has one, else its connectors' sum
	byConn := map[akey]float64{}
	pw, err := s.readPower(ctx, "?", []any{siteID})
	if err != nil {
		return v, wrap("site view", err)
	}
	for k, x := range pw {
		byConn[k] = x.w
	}
	v.ActualW = siteActual(pw)

	rows, err := s.db.Query(ctx, `SELECT d.id, d.sn, d.name, COALESCE(a.connector_id, 0), COALESCE(a.transaction_id, 0), COALESCE(c.status, ''),
		COALESCE(a.phases, dp.phases, 3), COALESCE(dp.phase, 1), COALESCE(dp.priority, 0), COALESCE(a.limit_a, 0), COALESCE(a.limit_w, 0),
		COALESCE(a.state, 0), COALESCE(a.message, ''), COALESCE(a.updated_at, 0), COALESCE(ds.online, 0)
		FROM device d
		LEFT JOIN power_allocation a ON a.device_id = d.id AND a.site_id = d.site_id
		LEFT JOIN device_power dp ON dp.device_id = d.id
		LEFT JOIN device_state ds ON ds.device_id = d.id
		LEFT JOIN device_connector c ON c.device_id = d.id AND c.connector_id = COALESCE(a.connector_id, 1)
		WHERE d.site_id = ? ORDER BY d.sn, a.connector_id LIMIT ?`, siteID, MaxChargerRows)
	if err != nil {
		return v, wrap("site view", err)
	}
	defer rows.Close()
	v.Chargers = []ChargerRow{}
	for rows.Next() {
		var r ChargerRow
		var online int
		if err := rows.Scan(&r.DeviceID, &r.SN, &r.Name, &r.ConnectorID, &r.TransactionID, &r.Status, &r.Phases, &r.Phase, &r.Priority,
			&r.LimitA, &r.LimitW, &r.State, &r.Message, &r.UpdatedAt, &online); err != nil {
			return v, wrap("site view", err)
		}
		if online != 1 && r.TransactionID != 0 {
			r.State = StateOffline // whatever it holds, chargeops cannot reach it now
		}
		if r.ConnectorID > 0 {
			r.ActualW = byConn[akey{r.DeviceID, r.ConnectorID}]
		} else {
			r.ActualW = deviceActual(pw, r.DeviceID)
		}
		v.AllocatedW += r.LimitW
		v.Chargers = append(v.Chargers, r)
	}
	return v, wrap("site view", rows.Err())
}

// deviceActual is one charger's active power: its connector 0 reading, else its connectors' sum.
func deviceActual(pw map[akey]power, dev int64) float64 {
	if x, ok := pw[akey{dev, 0}]; ok {
		return x.w
	}
	sum := 0.0
	for k, x := range pw {
		if k.dev == dev {
			sum += x.w
		}
	}
	return sum
}

// siteActual is the sum of deviceActual over the chargers in pw.
func siteActual(pw map[akey]power) float64 {
	total := map[int64]bool{}
	for k := range pw {
		if k.conn == 0 {
			total[k.dev] = true
		}
	}
	sum := 0.0
	for k, x := range pw {
		if total[k.dev] == (k.conn == 0) {
			sum += x.w
		}
	}
	return sum
}

// Sample is a site's power at one moment (site_power_sample).
type Sample struct {
	At         int64   `json:"at"`
	LimitW     float64 `json:"limitW"`
	AllocatedW float64 `json:"allocatedW"`
	ActualW    float64 `json:"actualW"`
	Sessions   int     `json:"sessions"`
}

// History returns a site's samples from from to to (unix ms, at most 31 days), at most
// MaxSamples points: a longer series is cut into equal buckets, each shown by its highest
// values (a peak is what a limit is about) at the bucket's first time.
func (s *Service) History(ctx context.Context, p *access.Principal, siteID, from, to int64) ([]Sample, error) {
	if to < from || to-from > MaxHistory.Milliseconds() {
		return nil, apperr.InvalidField("end", "err.invalid")
	}
	if err := siteInScope(ctx, s.db, p, siteID); err != nil {
		return nil, wrap("history", err)
	}
	rows, err := s.db.Query(ctx, `SELECT at, limit_w, allocated_w, actual_w, sessions FROM site_power_sample
		WHERE site_id = ? AND at >= ? AND at <= ? ORDER BY at`, siteID, from, to)
	if err != nil {
		return nil, wrap("history", err)
	}
	defer rows.Close()
	list := []Sample{}
	for rows.Next() {
		var x Sample
		if err := rows.Scan(&x.At, &x.LimitW, &x.AllocatedW, &x.ActualW, &x.Sessions); err != nil {
			return nil, wrap("history", err)
		}
		list = append(list, x)
	}
	if err := rows.Err(); err != nil {
		return nil, wrap("history", err)
	}
	return downsample(list, MaxSamples), nil
}

// downsample cuts list into at most n buckets of k consecutive samples, each the maximum of
// its values at its first sample's time.
func downsample(list []Sample, n int) []Sample {
	if len(list) <= n {
		return list
	}
	k := (len(list) + n - 1) / n
	out := make([]Sample, 0, n)
	for start := 0; start < len(list); start += k {
		b := list[start]
		for _, x := range list[start+1 : min(start+k, len(list))] {
			b.LimitW, b.AllocatedW, b.ActualW = max(b.LimitW, x.LimitW), max(b.AllocatedW, x.AllocatedW), max(b.ActualW, x.ActualW)
			b.Sessions = max(b.Sessions, x.Sessions)
		}
		out = append(out, b)
	}
	return out
}
