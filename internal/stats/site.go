package stats

import (
	"context"
	"fmt"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/devstate"
)

// TrafficBucket is one bucket of a site's traffic.
type TrafficBucket struct {
	Time     int64 `json:"time"`
	Sessions int64 `json:"sessions"`
	EnergyWh int64 `json:"energyWh"`
	ChargeMS int64 `json:"chargeMs"`
	Faults   int64 `json:"faults"`
}

// Traffic is a sum of buckets.
type Traffic struct {
	Sessions int64 `json:"sessions"`
	EnergyWh int64 `json:"energyWh"`
	ChargeMS int64 `json:"chargeMs"`
	Faults   int64 `json:"faults"`
}

func (t *Traffic) add(b TrafficBucket) {
	t.Sessions += b.Sessions
	t.EnergyWh += b.EnergyWh
	t.ChargeMS += b.ChargeMS
	t.Faults += b.Faults
}

// Cumulative is a site's traffic since it started.
type Cumulative struct {
	Since int64 `json:"since"`
	Traffic
}

// SiteStats are a site's figures over a range.
type SiteStats struct {
	Step           string          `json:"step"`
	Start          int64           `json:"start"`
	End            int64           `json:"end"`
	Devices        int64           `json:"devices"`
	ByStatus       map[int]int64   `json:"byStatus"`
	DevicesInAlarm int64           `json:"devicesInAlarm"`
	OpenAlarms     int64           `json:"openAlarms"`
	Availability   *float64        `json:"availability"`
	Buckets        []TrafficBucket `json:"buckets"`
	Total          Traffic         `json:"total"`
	Cumulative     Cumulative      `json:"cumulative"`
}

// SiteRange asks for one site's figures over a range.
type SiteRange struct {
	ID int64 `json:"id"`
	Range
}

// siteOf checks that site id is in scope and returns its creation time.
func (s *Service) siteOf(ctx context.Context, sc access.Scope, id int64) (int64, error) {
	cond, args := sc.SiteCond("customer_id", "id")
	var created int64
	err := s.db.QueryRow(ctx, `SELECT created_at FROM site WHERE id = ? AND `+cond, append([]any{id}, args...)...).Scan(&created)
	if db.NotFound(err) {
		return 0, apperr.ErrNotFound
	}
	if err != nil {
		return 0, fmt.Errorf("stats: site %d: %w", id, err)
	}
	return created, nil
}

const sumTraffic = `COALESCE(SUM(sessions), 0), COALESCE(SUM(energy_wh), 0), COALESCE(SUM(charge_ms), 0),
	COALESCE(SUM(offline_n + alarm_n + fault_n + unavailable_n), 0)`

// Site returns a site's status figures now and its traffic and availability over in.
func (s *Service) Site(ctx context.Context, sc access.Scope, in SiteRange) (SiteStats, error) {
	created, err := s.siteOf(ctx, sc, in.ID)
	if err != nil {
		return SiteStats{}, err
	}
	sp, err := s.span(in.Range)
	if err != nil {
		return SiteStats{}, err
	}
	out := SiteStats{Step: sp.step, Start: sp.start, End: sp.end, ByStatus: map[int]int64{}, Buckets: []TrafficBucket{}}
	rows, err := s.db.Query(ctx, `SELECT status, alarm_status, COUNT(*) FROM device WHERE site_id = ? GROUP BY status, alarm_status`, in.ID)
	if err != nil {
		return out, fmt.Errorf("stats: site devices: %w", err)
	}
	if err := scanAll(rows, func(r db.Scanner) error {
		var st, alarm int
		var n int64
		err := r.Scan(&st, &alarm, &n)
		out.ByStatus[st] += n
		out.Devices += n
		if alarm > 0 {
			out.DevicesInAlarm += n
		}
		return err
	}); err != nil {
		return out, err
	}
	if err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM device_event WHERE site_id = ? AND status = ? AND kind IN (?, ?)`, in.ID, devstate.EventOpen, devstate.KindAlarm, devstate.KindFault).Scan(&out.OpenAlarms); err != nil {
		return out, fmt.Errorf("stats: site open alarms: %w", err)
	}
	rows, err = s.db.Query(ctx, `SELECT bucket, sessions, energy_wh, charge_ms, offline_n + alarm_n + fault_n + unavailable_n FROM stat_site
		WHERE grain = ? AND site_id = ? AND bucket >= ? AND bucket < ?`, sp.grain, in.ID, sp.start, sp.end)
	if err != nil {
		return out, fmt.Errorf("stats: site traffic: %w", err)
	}
	got := map[int64]TrafficBucket{}
	if err := scanAll(rows, func(r db.Scanner) error {
		var b TrafficBucket
		err := r.Scan(&b.Time, &b.Sessions, &b.EnergyWh, &b.ChargeMS, &b.Faults)
		got[b.Time] = b
		return err
	}); err != nil {
		return out, err
	}
	for _, t := range s.buckets(sp) {
		b := got[t]
		b.Time = t
		out.Buckets = append(out.Buckets, b)
		out.Total.add(b)
	}
	if out.Availability, err = s.availability(ctx, in.ID, out.Devices, created, sp); err != nil {
		return out, err
	}
	var since *int64
	c := &out.Cumulative
	if err := s.db.QueryRow(ctx, `SELECT `+sumTraffic+` FROM stat_site WHERE grain = ? AND site_id = ?`, GrainMonth, in.ID).
		Scan(&c.Sessions, &c.EnergyWh, &c.ChargeMS, &c.Faults); err != nil {
		return out, fmt.Errorf("stats: site cumulative: %w", err)
	}
	// the first day with a figure (the primary key's order: one index seek)
	if err := s.db.QueryRow(ctx, `SELECT MIN(bucket) FROM stat_site WHERE grain = ? AND site_id = ?`, GrainDay, in.ID).Scan(&since); err != nil {
		return out, fmt.Errorf("stats: site start: %w", err)
	}
	c.Since = created
	if since != nil && *since < created {
		c.Since = *since
	}
	return out, nil
}

// availability is the share of device time in sp (from the site's creation up to now) without
// an outage: the ended outages of its days, and the open ones up to now. Overlapping outages of
// one device count twice, so the figure is floored at 0.
func (s *Service) availability(ctx context.Context, siteID, devices, created int64, sp span) (*float64, error) {
	now := s.now()
	from, to := max(sp.start, created), min(sp.end, now)
	if devices == 0 || to <= from {
		return nil, nil
	}
	var ended int64
	if err := s.db.QueryRow(ctx, `SELECT COALESCE(SUM(outage_ms), 0) FROM stat_site WHERE grain = ? AND site_id = ? AND bucket >= ? AND bucket < ?`,
		GrainDay, siteID, Floor(GrainDay, from, s.loc), to).Scan(&ended); err != nil {
		return nil, fmt.Errorf("stats: site outages: %w", err)
	}
	open, err := db.Column[int64](ctx, s.db, `SELECT started_at FROM device_event WHERE site_id = ? AND status = ? AND kind IN (?, ?, ?)`, siteID,
		devstate.EventOpen, devstate.KindOffline, devstate.KindFault, devstate.KindUnavailable)
	if err != nil {
		return nil, fmt.Errorf("stats: site open outages: %w", err)
	}
	for _, st := range open {
		ended += max(0, to-max(st, from))
	}
	total := float64(devices) * float64(to-from)
	a := max(0, 1-float64(ended)/total)
	return &a, nil
}

// Admin is a user who administers a site.
type Admin struct {
	ID       int64  `json:"id"`
	UserName string `json:"userName"`
	NickName string `json:"nickName"`
	Email    string `json:"email"`
	RoleName string `json:"roleName"`
	Receiver bool   `json:"receiver"`
}

// MaxAdmins bounds a site's admin list.
const MaxAdmins = 200

// Admins lists the users assigned to site id and its alarm-mail receivers, among the users
// the caller may see.
func (s *Service) Admins(ctx context.Context, p *access.Principal, id int64) ([]Admin, error) {
	if _, err := s.siteOf(ctx, p.Scope, id); err != nil {
		return nil, err
	}
	ucond, uargs := p.UserCond("u")
	q := `SELECT u.id, u.user_name, u.nick_name, u.email, COALESCE(r.name, ''),
		CASE WHEN EXISTS (SELECT 1 FROM site_receiver sr WHERE sr.site_id = ? AND sr.user_id = u.id) THEN 1 ELSE 0 END
		FROM app_user u LEFT JOIN role r ON r.id = u.role_id
		WHERE (u.id IN (SELECT user_id FROM user_site WHERE site_id = ?) OR u.id IN (SELECT user_id FROM site_receiver WHERE site_id = ?)) AND ` + ucond + `
		ORDER BY u.user_name LIMIT ?`
	rows, err := s.db.Query(ctx, q, append(append([]any{id, id, id}, uargs...), MaxAdmins)...)
	if err != nil {
		return nil, fmt.Errorf("stats: site admins: %w", err)
	}
	out := []Admin{}
	return out, scanAll(rows, func(r db.Scanner) error {
		var a Admin
		var recv int
		err := r.Scan(&a.ID, &a.UserName, &a.NickName, &a.Email, &a.RoleName, &recv)
		a.Receiver = recv == 1
		out = append(out, a)
		return err
	})
}
