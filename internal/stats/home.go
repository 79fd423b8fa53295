package stats

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"chargeops/internal/access"
	"chargeops/internal/db"
	"chargeops/internal/devstate"
)

// RestartWindow is how long after an accepted Reset a device that has not connected again
// counts as restarting (docs/decisions.md).
const RestartWindow = 10 * 60 * 1000

// Health partitions devices by their open alarms.
type Health struct {
	NoFault   int64 `json:"noFault"`
	PartFault int64 `json:"partFault"`
	Fault     int64 `json:"fault"`
}

// Activity partitions devices by status, restarting ones taken out of the others.
type Activity struct {
	Idle       int64 `json:"idle"`
	Working    int64 `json:"working"`
	Faulted    int64 `json:"faulted"`
	Maintain   int64 `json:"maintain"`
	Updating   int64 `json:"updating"`
	Restarting int64 `json:"restarting"`
	Offline    int64 `json:"offline"`
	Disabled   int64 `json:"disabled"`
}

func (a *Activity) add(status int, n int64) {
	switch status {
	case devstate.StatusOffline:
		a.Offline += n
	case devstate.StatusIdle:
		a.Idle += n
	case devstate.StatusWorking:
		a.Working += n
	case devstate.StatusFaulted:
		a.Faulted += n
	case devstate.StatusMaintain:
		a.Maintain += n
	case devstate.StatusFirmware:
		a.Updating += n
	case devstate.StatusDisabled:
		a.Disabled += n
	}
}

// ModelCount is a model's share of the devices; ModelID 0 sums the models past the first 10.
type ModelCount struct {
	ModelID int64  `json:"modelId"`
	Name    string `json:"name"`
	Count   int64  `json:"count"`
}

// Levels counts open alarms by level.
type Levels struct {
	OA int64 `json:"oa"`
	MA int64 `json:"ma"`
	CA int64 `json:"ca"`
}

// Kinds counts events by kind.
type Kinds struct {
	Offline     int64 `json:"offline"`
	Alarm       int64 `json:"alarm"`
	Fault       int64 `json:"fault"`
	Unavailable int64 `json:"unavailable"`
}

func (k *Kinds) add(kind int, n int64) {
	switch kind {
	case 0:
		k.Offline += n
	case 1:
		k.Alarm += n
	case 2:
		k.Fault += n
	case 3:
		k.Unavailable += n
	}
}

// HomeOverview is the home dashboard's picture of the fleet now.
type HomeOverview struct {
	Devices        int64        `json:"devices"`
	Health         Health       `json:"health"`
	Activity       Activity     `json:"activity"`
	ByModel        []ModelCount `json:"byModel"`
	AlarmLevels    Levels       `json:"alarmLevels"`
	DevicesInAlarm int64        `json:"devicesInAlarm"`
	FaultTypes     Kinds        `json:"faultTypes"`
	Categories     Categories   `json:"categories"`
}

const topModels = 10

// Overview counts the devices and open events in the caller's scope.
func (s *Service) Overview(ctx context.Context, sc access.Scope) (HomeOverview, error) {
	out := HomeOverview{ByModel: []ModelCount{}}
	cond, args := sc.SiteCond("d.customer_id", "d.site_id")
	rows, err := s.db.Query(ctx, `SELECT d.status, d.alarm_status, COUNT(*) FROM device d WHERE `+cond+` GROUP BY d.status, d.alarm_status`, args...)
	if err != nil {
		return out, fmt.Errorf("stats: devices by status: %w", err)
	}
	err = scanAll(rows, func(r db.Scanner) error {
		var st, alarm int
		var n int64
		if err := r.Scan(&st, &alarm, &n); err != nil {
			return err
		}
		out.Devices += n
		out.Activity.add(st, n)
		switch alarm {
		case 0:
			out.Health.NoFault += n
		case 1:
			out.Health.PartFault += n
		default:
			out.Health.Fault += n
		}
		if alarm > 0 {
			out.DevicesInAlarm += n
		}
		return nil
	})
	if err != nil {
		return out, err
	}
	restarting, err := s.restarting(ctx, sc)
	if err != nil {
		return out, err
	}
	for st, n := range restarting {
		out.Activity.add(st, -n)
		out.Activity.Restarting += n
	}
	if out.ByModel, err = s.byModel(ctx, cond, args); err != nil {
		return out, err
	}
	if out.Categories, err = CountCategories(ctx, s.db, cond, args...); err != nil {
		return out, err
	}
	ecCond, ecArgs := sc.SiteCond("e.customer_id", "e.site_id")
	rows, err = s.db.Query(ctx, `SELECT e.kind, e.level, COUNT(*) FROM device_event e WHERE e.status = ? AND `+ecCond+` GROUP BY e.kind, e.level`, append([]any{devstate.EventOpen}, ecArgs...)...)
	if err != nil {
		return out, fmt.Errorf("stats: open events: %w", err)
	}
	err = scanAll(rows, func(r db.Scanner) error {
		var kind, level int
		var n int64
		if err := r.Scan(&kind, &level, &n); err != nil {
			return err
		}
		out.FaultTypes.add(kind, n)
		if kind == 1 || kind == 2 {
			switch level {
			case 0:
				out.AlarmLevels.OA += n
			case 1:
				out.AlarmLevels.MA += n
			default:
				out.AlarmLevels.CA += n
			}
		}
		return nil
	})
	return out, err
}

// restarting counts, by status, the devices restarting now.
func (s *Service) restarting(ctx context.Context, sc access.Scope) (map[int]int64, error) {
	cond, args := sc.SiteCond("d.customer_id", "d.site_id")
	q := `SELECT d.status, COUNT(DISTINCT d.id) FROM command c JOIN device d ON d.id = c.device_id LEFT JOIN device_state st ON st.device_id = d.id
		WHERE c.control_type IN (?, ?) AND c.result = ? AND c.finished_at > ? AND c.finished_at > COALESCE(st.connected_at, 0) AND d.status <> ? AND ` + cond + `
		GROUP BY d.status`
	out := map[int]int64{}
	rows, err := s.db.Query(ctx, q, append([]any{devstate.CtlSoftReset, devstate.CtlHardReset, devstate.ResultSuccess, s.now() - RestartWindow, devstate.StatusDisabled}, args...)...)
	if err != nil {
		return nil, fmt.Errorf("stats: restarting devices: %w", err)
	}
	return out, scanAll(rows, func(r db.Scanner) error {
		var st int
		var n int64
		err := r.Scan(&st, &n)
		out[st] += n
		return err
	})
}

// RestartingCond is the device-list condition of a restarting device (d is the device).
func RestartingCond(now int64) (string, []any) {
	return `EXISTS (SELECT 1 FROM command c LEFT JOIN device_state st ON st.device_id = c.device_id WHERE c.device_id = d.id AND c.control_type IN (?, ?)
		AND c.result = ? AND c.finished_at > ? AND c.finished_at > COALESCE(st.connected_at, 0)) AND d.status <> ?`,
		[]any{devstate.CtlSoftReset, devstate.CtlHardReset, devstate.ResultSuccess, now - RestartWindow, devstate.StatusDisabled}
}

func (s *Service) byModel(ctx context.Context, cond string, args []any) ([]ModelCount, error) {
	rows, err := s.db.Query(ctx, `SELECT d.model_id, COUNT(*) FROM device d WHERE `+cond+` GROUP BY d.model_id`, args...)
	if err != nil {
		return nil, fmt.Errorf("stats: devices by model: %w", err)
	}
	var all []ModelCount
	if err := scanAll(rows, func(r db.Scanner) error {
		var m ModelCount
		err := r.Scan(&m.ModelID, &m.Count)
		all = append(all, m)
		return err
	}); err != nil {
		return nil, err
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].Count != all[j].Count {
			return all[i].Count > all[j].Count
		}
		return all[i].ModelID < all[j].ModelID
	})
	out := all[:min(len(all), topModels)]
	if len(out) > 0 {
		ids := make([]int64, len(out))
		for i, m := range out {
			ids[i] = m.ModelID
		}
		names := map[int64]string{}
		rows, err := s.db.Query(ctx, `SELECT id, name FROM device_model WHERE id IN (`+db.Placeholders(len(ids))+`)`, db.Args(ids)...)
		if err != nil {
			return nil, err
		}
		if err := scanAll(rows, func(r db.Scanner) error {
			var id int64
			var n string
			err := r.Scan(&id, &n)
			names[id] = n
			return err
		}); err != nil {
			return nil, err
		}
		for i := range out {
			out[i].Name = names[out[i].ModelID]
		}
	}
	if len(all) > topModels {
		rest := ModelCount{}
		for _, m := range all[topModels:] {
			rest.Count += m.Count
		}
		out = append(out, rest)
	}
	return append([]ModelCount{}, out...), nil
}

// Bucket is one bucket of the fault statistics.
type FaultBucket struct {
	Time int64 `json:"time"`
	Kinds
}

// SiteRank and DeviceRank are the places with the most faults.
type SiteRank struct {
	SiteID       int64  `json:"siteId"`
	Name         string `json:"name"`
	CustomerName string `json:"customerName"`
	Count        int64  `json:"count"`
}

type DeviceRank struct {
	DeviceID int64  `json:"deviceId"`
	SN       string `json:"sn"`
	Name     string `json:"name"`
	SiteID   int64  `json:"siteId"`
	SiteName string `json:"siteName"`
	Count    int64  `json:"count"`
}

// FaultStats are the faults that started in a range.
type FaultStats struct {
	Step    string        `json:"step"`
	Start   int64         `json:"start"`
	End     int64         `json:"end"`
	Buckets []FaultBucket `json:"buckets"`
	Total   Kinds         `json:"total"`
	Sites   []SiteRank    `json:"sites"`
	Devices []DeviceRank  `json:"devices"`
}

const topRanked = 10

// Faults counts the faults that started in r, per bucket and kind, and ranks sites and devices.
func (s *Service) Faults(ctx context.Context, sc access.Scope, r Range) (FaultStats, error) {
	sp, err := s.span(r)
	if err != nil {
		return FaultStats{}, err
	}
	out := FaultStats{Step: sp.step, Start: sp.start, End: sp.end, Buckets: []FaultBucket{}, Sites: []SiteRank{}, Devices: []DeviceRank{}}
	cond, args := sc.SiteCond("s.customer_id", "s.site_id")
	rows, err := s.db.Query(ctx, `SELECT s.bucket, SUM(s.offline_n), SUM(s.alarm_n), SUM(s.fault_n), SUM(s.unavailable_n) FROM stat_site s
		WHERE s.grain = ? AND s.bucket >= ? AND s.bucket < ? AND `+cond+` GROUP BY s.bucket`, append([]any{sp.grain, sp.start, sp.end}, args...)...)
	if err != nil {
		return out, fmt.Errorf("stats: fault buckets: %w", err)
	}
	got := map[int64]Kinds{}
	if err := scanAll(rows, func(r db.Scanner) error {
		var b int64
		var k Kinds
		err := r.Scan(&b, &k.Offline, &k.Alarm, &k.Fault, &k.Unavailable)
		got[b] = k
		return err
	}); err != nil {
		return out, err
	}
	for _, b := range s.buckets(sp) {
		k := got[b]
		out.Buckets = append(out.Buckets, FaultBucket{Time: b, Kinds: k})
		out.Total.Offline += k.Offline
		out.Total.Alarm += k.Alarm
		out.Total.Fault += k.Fault
		out.Total.Unavailable += k.Unavailable
	}
	if out.Sites, err = s.rankSites(ctx, sp, cond, args); err != nil {
		return out, err
	}
	out.Devices, err = s.rankDevices(ctx, sc, sp)
	return out, err
}

// rankSites ranks the sites by faults in sp: hours are read as they are, a longer range from
// the fewest whole day and month buckets covering it (CoverUpTo).
func (s *Service) rankSites(ctx context.Context, sp span, cond string, args []any) ([]SiteRank, error) {
	spans := []Span{{Grain: sp.grain, From: sp.start, To: sp.end}}
	if sp.grain != GrainHour {
		spans = CoverUpTo(GrainMonth, sp.start, sp.end, s.now()+devstate.MaxClockAheadMS, s.loc)
	}
	if len(spans) == 0 {
		return []SiteRank{}, nil
	}
	union, qargs := overSpans(`SELECT s.site_id, s.offline_n + s.alarm_n + s.fault_n + s.unavailable_n AS n FROM stat_site s`, "s", spans, cond, args)
	q := `SELECT r.site_id, COALESCE(st.name, ''), COALESCE(c.name, ''), r.n FROM (
		SELECT u.site_id, SUM(u.n) AS n FROM (` + union + `) u GROUP BY u.site_id) r
		LEFT JOIN site st ON st.id = r.site_id LEFT JOIN customer c ON c.id = st.customer_id
		WHERE r.n > 0 ORDER BY r.n DESC, r.site_id LIMIT ?`
	rows, err := s.db.Query(ctx, q, append(qargs, topRanked)...)
	if err != nil {
		return nil, fmt.Errorf("stats: site ranking: %w", err)
	}
	out := []SiteRank{}
	return out, scanAll(rows, func(r db.Scanner) error {
		var x SiteRank
		err := r.Scan(&x.SiteID, &x.Name, &x.CustomerName, &x.Count)
		out = append(out, x)
		return err
	})
}

// rankDevices ranks the devices by faults in sp: one whole day, month or year is read in the
// ranking index's order; a longer range sums the fewest whole buckets covering it (Cover).
func (s *Service) rankDevices(ctx context.Context, sc access.Scope, sp span) ([]DeviceRank, error) {
	cond, args := sc.SiteCond("x.customer_id", "x.site_id")
	spans := Cover(sp.start, sp.end, s.now()+devstate.MaxClockAheadMS, s.loc)
	if len(spans) == 0 {
		return []DeviceRank{}, nil
	}
	if len(spans) == 1 && Next(spans[0].Grain, spans[0].From, s.loc) == spans[0].To {
		return s.deviceRankRows(ctx, `SELECT x.device_id, x.faults AS n FROM stat_device x WHERE x.grain = ? AND x.bucket = ? AND `+cond+`
			ORDER BY x.faults DESC, x.device_id LIMIT ?`, append(append([]any{spans[0].Grain, spans[0].From}, args...), topRanked))
	}
	union, qargs := overSpans(`SELECT x.device_id, x.faults FROM stat_device x`, "x", spans, cond, args)
	return s.deviceRankRows(ctx, `SELECT u.device_id, SUM(u.faults) AS n FROM (`+union+`) u
		GROUP BY u.device_id ORDER BY n DESC, u.device_id LIMIT ?`, append(qargs, topRanked))
}

// overSpans is sel (reading a stat table as alias) limited to the buckets of spans and to cond,
// one branch per span joined with UNION ALL, and its arguments.
func overSpans(sel, alias string, spans []Span, cond string, args []any) (string, []any) {
	parts := make([]string, 0, len(spans))
	var qargs []any
	for _, p := range spans {
		parts = append(parts, sel+` WHERE `+alias+`.grain = ? AND `+alias+`.bucket >= ? AND `+alias+`.bucket < ? AND `+cond)
		qargs = append(append(qargs, p.Grain, p.From, p.To), args...)
	}
	return strings.Join(parts, " UNION ALL "), qargs
}

// deviceRankRows runs a ranking query (device_id, n) and names its devices.
func (s *Service) deviceRankRows(ctx context.Context, inner string, qargs []any) ([]DeviceRank, error) {
	q := `SELECT r.device_id, COALESCE(d.sn, ''), COALESCE(d.name, ''), COALESCE(d.site_id, 0), COALESCE(st.name, ''), r.n FROM (` + inner + `) r
		LEFT JOIN device d ON d.id = r.device_id LEFT JOIN site st ON st.id = d.site_id WHERE r.n > 0 ORDER BY r.n DESC, r.device_id`
	rows, err := s.db.Query(ctx, q, qargs...)
	if err != nil {
		return nil, fmt.Errorf("stats: device ranking: %w", err)
	}
	out := []DeviceRank{}
	return out, scanAll(rows, func(r db.Scanner) error {
		var x DeviceRank
		err := r.Scan(&x.DeviceID, &x.SN, &x.Name, &x.SiteID, &x.SiteName, &x.Count)
		out = append(out, x)
		return err
	})
}

// RecentInput asks for the newest events.
type RecentInput struct {
	Limit int   `json:"limit"`
	Kinds []int `json:"kinds"`
}

// RecentEvent is one event of the recent list.
type RecentEvent struct {
	ID          int64  `json:"id"`
	DeviceID    int64  `json:"deviceId"`
	SN          string `json:"sn"`
	DeviceName  string `json:"deviceName"`
	SiteID      int64  `json:"siteId"`
	SiteName    string `json:"siteName"`
	Kind        int    `json:"kind"`
	Level       int    `json:"level"`
	ConnectorID int    `json:"connectorId"`
	Code        string `json:"code"`
	Name        string `json:"name"`
	VendorCode  string `json:"vendorCode"` // the charger's own error code, shown beside the name
	Status      int    `json:"status"`
	StartedAt   int64  `json:"startedAt"`
	EndedAt     int64  `json:"endedAt"`
}

// MaxRecent bounds the recent events list.
const MaxRecent = 50

// maxSiteBranches is how many sites of a site-limited scope are walked one by one.
const maxSiteBranches = 64

// Recent lists the newest events in scope, newest first, without a total.
func (s *Service) Recent(ctx context.Context, sc access.Scope, in RecentInput) ([]RecentEvent, error) {
	limit := in.Limit
	if limit <= 0 || limit > MaxRecent {
		limit = 10
	}
	cond, args := sc.SiteCond("e.customer_id", "e.site_id")
	if len(in.Kinds) > 0 && len(in.Kinds) <= 4 {
		cond += " AND e.kind IN (" + db.Placeholders(len(in.Kinds)) + ")"
		args = append(args, db.Args(in.Kinds)...)
	}
	const cols = `e.id, e.device_id, e.site_id, e.kind, e.level, e.connector_id, e.code, e.name, e.vendor_code, e.status, e.started_at, e.ended_at`
	from := `SELECT ` + cols + ` FROM device_event e WHERE ` + cond + ` ORDER BY e.started_at DESC, e.id DESC LIMIT ?`
	fargs := append(args, limit)
	if !sc.AllSites && len(sc.SiteIDs) > 1 && len(sc.SiteIDs) <= maxSiteBranches {
		// one walk of the (site, time) index per site, each its newest rows, merged: an IN
		// list would make the database read and sort every event of the sites
		var parts []string
		fargs = nil
		for i, id := range sc.SiteIDs {
			parts = append(parts, fmt.Sprintf(`SELECT * FROM (SELECT `+cols+` FROM device_event e WHERE e.site_id = ? AND `+cond+` ORDER BY e.started_at DESC, e.id DESC LIMIT ?) AS b%d`, i))
			fargs = append(append(append(fargs, id), args...), limit)
		}
		from = `SELECT * FROM (` + strings.Join(parts, " UNION ALL ") + `) AS u ORDER BY u.started_at DESC, u.id DESC LIMIT ?`
		fargs = append(fargs, limit)
	}
	rows, err := s.db.Query(ctx, `SELECT r.id, r.device_id, COALESCE(d.sn, ''), COALESCE(d.name, ''), r.site_id, COALESCE(st.name, ''), r.kind, r.level,
		r.connector_id, r.code, r.name, r.vendor_code, r.status, r.started_at, r.ended_at
		FROM (`+from+`) r LEFT JOIN device d ON d.id = r.device_id LEFT JOIN site st ON st.id = r.site_id
		ORDER BY r.started_at DESC, r.id DESC`, fargs...)
	if err != nil {
		return nil, fmt.Errorf("stats: recent events: %w", err)
	}
	out := []RecentEvent{}
	return out, scanAll(rows, func(r db.Scanner) error {
		var e RecentEvent
		err := r.Scan(&e.ID, &e.DeviceID, &e.SN, &e.DeviceName, &e.SiteID, &e.SiteName, &e.Kind, &e.Level, &e.ConnectorID, &e.Code, &e.Name,
			&e.VendorCode, &e.Status, &e.StartedAt, &e.EndedAt)
		out = append(out, e)
		return err
	})
}

// scanAll scans every row with fn and closes rows.
func scanAll(rows interface {
	Next() bool
	Scan(...any) error
	Close() error
	Err() error
}, fn func(db.Scanner) error) error {
	defer rows.Close()
	for rows.Next() {
		if err := fn(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}
