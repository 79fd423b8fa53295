package loadmgmt

import (
	"context"
	"encoding/json"
	"fmt"
	"math"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/kit"
)

// SitePower is a site's grid limit and load management setting (site_power). Exactly one of
// LimitKW (three-phase power) and LimitA (current per phase) is set when Enabled.
type SitePower struct {
	SiteID    int64    `json:"siteId"`
	Enabled   bool     `json:"enabled"`
	LimitKW   float64  `json:"limitKw"`
	LimitA    float64  `json:"limitA"`
	MinA      float64  `json:"minA"` // each session's minimum share (with the charger's own, the higher counts)
	Schedule  []Window `json:"schedule"`
	EditLevel int      `json:"editLevel"` // the parameter level that may change the setting
	UpdatedBy string   `json:"updatedBy"`
	UpdatedAt int64    `json:"updatedAt"`
}

// DevicePower is a charger's part in its site's plan (device_power).
type DevicePower struct {
	DeviceID int64   `json:"deviceId"`
	Phases   int     `json:"phases"` // 1 or 3
	Phase    int     `json:"phase"`  // 1-3: the phase a single-phase charger is wired to
	MinA     float64 `json:"minA"`
	MaxA     float64 `json:"maxA"`
	Priority int     `json:"priority"` // -10..10, higher first; a token's higher priority wins
}

// Defaults and bounds of the settings.
const (
	DefaultMinA      = 6.0
	DefaultMaxA      = 32.0
	DefaultEditLevel = 1
	MaxWindows       = 12
	MaxLimitKW       = 100000
	MaxLimitA        = 10000
	MaxSiteMinA      = 80
	MaxDeviceA       = 500
	MaxPriority      = 10
	MaxEditLevel     = 5
)

func defaultSite(siteID int64) SitePower {
	return SitePower{SiteID: siteID, MinA: DefaultMinA, EditLevel: DefaultEditLevel, Schedule: []Window{}}
}

func defaultDevice(deviceID int64) DevicePower {
	return DevicePower{DeviceID: deviceID, Phases: 3, Phase: 1, MinA: DefaultMinA, MaxA: DefaultMaxA}
}

func wrap(action string, err error) error { return kit.Wrap("loadmgmt", action, err) }

const sitePowerCols = `site_id, enabled, limit_kw, limit_a, min_a, schedule, edit_level, updated_by, updated_at`

func scanSitePower(r db.Scanner) (SitePower, error) {
	var sp SitePower
	var en int
	var sched string
	if err := r.Scan(&sp.SiteID, &en, &sp.LimitKW, &sp.LimitA, &sp.MinA, &sched, &sp.EditLevel, &sp.UpdatedBy, &sp.UpdatedAt); err != nil {
		return sp, err
	}
	sp.Enabled = en == 1
	sp.Schedule = []Window{}
	if sched != "" {
		// a schedule that does not parse (written by hand) limits nothing rather than stopping
		// the site's plan
		_ = json.Unmarshal([]byte(sched), &sp.Schedule)
	}
	return sp, nil
}

// loadSitePower reads a site's setting, the defaults when it has none.
func loadSitePower(ctx context.Context, q db.Querier, siteID int64) (SitePower, error) {
	sp, err := scanSitePower(q.QueryRow(ctx, `SELECT `+sitePowerCols+` FROM site_power WHERE site_id = ?`, siteID))
	if db.NotFound(err) {
		return defaultSite(siteID), nil
	}
	return sp, err
}

// siteInScope finds a site p may see (apperr.ErrNotFound otherwise).
func siteInScope(ctx context.Context, q db.Querier, p *access.Principal, siteID int64) error {
	var customerID int64
	err := q.QueryRow(ctx, `SELECT customer_id FROM site WHERE id = ?`, siteID).Scan(&customerID)
	if db.NotFound(err) || (err == nil && !p.Scope.HasSite(customerID, siteID)) {
		return apperr.ErrNotFound
	}
	return err
}

// SitePower returns a site's setting (the defaults when it has none: disabled, minA 6,
// editLevel 1). The site must be in p's scope.
func (s *Service) SitePower(ctx context.Context, p *access.Principal, siteID int64) (SitePower, error) {
	if err := siteInScope(ctx, s.db, p, siteID); err != nil {
		return SitePower{}, wrap("site power", err)
	}
	sp, err := loadSitePower(ctx, s.db, siteID)
	return sp, wrap("site power", err)
}

// validate checks each field, the failure naming it.
func (in *SitePower) validate(p *access.Principal) error {
	bad := func(field string) error { return apperr.InvalidField(field, "err.invalid") }
	switch {
	case math.IsNaN(in.LimitKW) || in.LimitKW < 0 || (in.LimitKW > 0 && (in.LimitKW < 0.1 || in.LimitKW > MaxLimitKW)):
		return bad("limitKw")
	case math.IsNaN(in.LimitA) || in.LimitA < 0 || (in.LimitA > 0 && (in.LimitA < 1 || in.LimitA > MaxLimitA)):
		return bad("limitA")
	case in.LimitKW > 0 && in.LimitA > 0:
		return bad("limitA") // one limit, not two
	case in.Enabled && in.LimitKW == 0 && in.LimitA == 0:
		return apperr.InvalidField("limitKw", "err.required")
	case math.IsNaN(in.MinA) || in.MinA < 0 || in.MinA > MaxSiteMinA:
		return bad("minA")
	case len(in.Schedule) > MaxWindows:
		return bad("schedule")
	}
	for i, w := range in.Schedule {
		field := fmt.Sprintf("schedule[%d].", i)
		_, okFrom := minutes(w.From)
		_, okTo := minutes(w.To)
		switch {
		case !okFrom:
			return bad(field + "from")
		case !okTo:
			return bad(field + "to")
		case len(w.Days) > 7:
			return bad(field + "days")
		case math.IsNaN(w.LimitKW) || w.LimitKW < 0 || w.LimitKW > MaxLimitKW:
			return bad(field + "limitKw")
		}
		for _, d := range w.Days {
			if d < 1 || d > 7 {
				return bad(field + "days")
			}
		}
	}
	if in.EditLevel < 0 || in.EditLevel > MaxEditLevel || !access.CanUseParam(p, in.EditLevel) {
		// a caller cannot lock itself (or the next one) out below its own level
		return bad("editLevel")
	}
	return nil
}

// SetSitePower changes a site's setting. The site must be in p's scope (apperr.ErrNotFound),
// and p's parameter level must reach the setting's current edit level (apperr.ErrNoPermission)
// and the new one. The site is re-planned at the next tick of the node that plans it (the
// changed updated_at tells every node).
func (s *Service) SetSitePower(ctx context.Context, p *access.Principal, in SitePower) error {
	if err := siteInScope(ctx, s.db, p, in.SiteID); err != nil {
		return wrap("set site power", err)
	}
	cur, err := loadSitePower(ctx, s.db, in.SiteID)
	if err != nil {
		return wrap("set site power", err)
	}
	if !access.CanUseParam(p, cur.EditLevel) {
		return apperr.ErrNoPermission
	}
	if err := in.validate(p); err != nil {
		return err
	}
	if in.Schedule == nil {
		in.Schedule = []Window{}
	}
	for i := range in.Schedule {
		if in.Schedule[i].Days == nil {
			in.Schedule[i].Days = []int{}
		}
	}
	sched, _ := json.Marshal(in.Schedule)
	// updated_at only grows, so two changes in one millisecond still read as a change
	now := max(db.NowMS(), cur.UpdatedAt+1)
	_, err = s.db.Exec(ctx, `INSERT INTO site_power (`+sitePowerCols+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (site_id) DO UPDATE SET enabled = excluded.enabled, limit_kw = excluded.limit_kw, limit_a = excluded.limit_a,
		min_a = excluded.min_a, schedule = excluded.schedule, edit_level = excluded.edit_level, updated_by = excluded.updated_by,
		updated_at = excluded.updated_at`,
		in.SiteID, db.BoolInt(in.Enabled), in.LimitKW, in.LimitA, in.MinA, string(sched), in.EditLevel, p.UserName, now)
	if err != nil {
		return wrap("set site power", err)
	}
	s.markDirty(in.SiteID)
	return nil
}

// deviceInScope finds a device p may see and returns its site.
func deviceInScope(ctx context.Context, q db.Querier, p *access.Principal, deviceID int64) (int64, error) {
	cond, args := p.Scope.SiteCond("customer_id", "site_id")
	var siteID int64
	err := q.QueryRow(ctx, `SELECT site_id FROM device WHERE id = ? AND `+cond, append([]any{deviceID}, args...)...).Scan(&siteID)
	if db.NotFound(err) {
		return 0, apperr.ErrNotFound
	}
	return siteID, err
}

// DevicePower returns a charger's part in its site's plan (defaults: three phases, 6-32 A,
// priority 0). The device must be in p's scope.
func (s *Service) DevicePower(ctx context.Context, p *access.Principal, deviceID int64) (DevicePower, error) {
	if _, err := deviceInScope(ctx, s.db, p, deviceID); err != nil {
		return DevicePower{}, wrap("device power", err)
	}
	dp := defaultDevice(deviceID)
	err := s.db.QueryRow(ctx, `SELECT phases, phase, min_a, max_a, priority FROM device_power WHERE device_id = ?`, deviceID).
		Scan(&dp.Phases, &dp.Phase, &dp.MinA, &dp.MaxA, &dp.Priority)
	if db.NotFound(err) {
		err = nil
	}
	return dp, wrap("device power", err)
}

// SetDevicePower changes a charger's part in its site's plan. The device must be in p's scope,
// and p's parameter level must reach its site's edit level (the charger's share is part of the
// site's setting).
func (s *Service) SetDevicePower(ctx context.Context, p *access.Principal, in DevicePower) error {
	siteID, err := deviceInScope(ctx, s.db, p, in.DeviceID)
	if err != nil {
		return wrap("set device power", err)
	}
	sp, err := loadSitePower(ctx, s.db, siteID)
	if err != nil {
		return wrap("set device power", err)
	}
	if !access.CanUseParam(p, sp.EditLevel) {
		return apperr.ErrNoPermission
	}
	bad := func(field string) error { return apperr.InvalidField(field, "err.invalid") }
	switch {
	case in.Phases != 1 && in.Phases != 3:
		return bad("phases")
	case in.Phase < 1 || in.Phase > 3:
		return bad("phase")
	case math.IsNaN(in.MinA) || in.MinA < 0 || in.MinA > MaxDeviceA:
		return bad("minA")
	case math.IsNaN(in.MaxA) || in.MaxA < in.MinA || in.MaxA > MaxDeviceA:
		return bad("maxA")
	case in.Priority < -MaxPriority || in.Priority > MaxPriority:
		return bad("priority")
	}
	now := db.NowMS()
	err = s.db.InTx(ctx, func(tx *db.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO device_power (device_id, phases, phase, min_a, max_a, priority, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (device_id) DO UPDATE SET phases = excluded.phases, phase = excluded.phase, min_a = excluded.min_a,
			max_a = excluded.max_a, priority = excluded.priority, updated_at = excluded.updated_at`,
			in.DeviceID, in.Phases, in.Phase, in.MinA, in.MaxA, in.Priority, now); err != nil {
			return err
		}
		// the site's updated_at is what every node watches: the site is re-planned
		_, err := tx.Exec(ctx, `UPDATE site_power SET updated_at = CASE WHEN updated_at >= ? THEN updated_at + 1 ELSE ? END WHERE site_id = ?`, now, now, siteID)
		return err
	})
	if err != nil {
		return wrap("set device power", err)
	}
	s.markDirty(siteID)
	return nil
}
