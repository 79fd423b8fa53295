package loadmgmt

import (
	"context"
	"errors"
	"log/slog"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/fleet"
	"chargeops/internal/smartcharging"
)

// chunk is how many ids one IN list holds, and how many sites one planning round reads at once.
const chunk = 400

// rowsPerInsert: allocation rows per multi-row upsert (12 values each, well below both
// databases' limit of parameters).
const rowsPerInsert = 200

// Profile ids and stack levels of the plan's profiles (fleet.ReservedProfileIDs and up).
const (
	TxProfileID       = 900000 // + connector
	FallbackProfileID = 900100 // TxDefault on connector 0
	// byLoadManager names the load manager's commands on their records
	byLoadManager = "load-manager"
	txStackLevel  = 1
	fallbackStack = 0
)

// Idle by measurement: a session whose profile is applied, started over idleAfter ago, with a
// fresh power reading under idleW, draws nothing and releases its share (kept simple: the
// latest reading, no history).
const (
	idleW     = 100.0
	idleAfter = 5 * time.Minute
)

type devInfo struct {
	id, site      int64
	phases, phase int
	minA, maxA    float64
	priority      int
	online        bool
}

type session struct {
	id, device int64
	connector  int
	started    int64
	status     string
	priority   int
}

type akey struct {
	dev  int64
	conn int
}

// allocRow is a power_allocation row.
type allocRow struct {
	device    int64
	connector int
	site, tx  int64
	limitA    float64
	phases    int
	state     int
	message   string
	cmd       int64
	sentAt    int64
	updatedAt int64
}

func (r *allocRow) w() float64 { return r.limitA * float64(r.phases) * Volts }

// same: nothing stored differs.
func (r *allocRow) same(o *allocRow) bool {
	return r.site == o.site && r.tx == o.tx && r.limitA == o.limitA && r.phases == o.phases && r.state == o.state &&
		r.message == o.message && r.cmd == o.cmd && r.sentAt == o.sentAt
}

type power struct {
	w  float64
	at int64
}

// siteInput is what one site's plan reads.
type siteInput struct {
	power    SitePower
	devices  []*devInfo
	sessions []session
}

// send is a profile to send after the plan is committed.
type send struct {
	row      *allocRow
	fallback bool
	limit    float64
	phases   int
	site     int64
	delta    float64 // the change of the limit (decreases go first)
}

// planSites plans the given sites (owned by this node) and stores, announces and sends the
// result, a chunk of sites at a time: a burst of sessions over hundreds of sites costs a few
// queries per chunk, not per site.
func (s *Service) planSites(ctx context.Context, ids []int64) error {
	s.planMu.Lock()
	defer s.planMu.Unlock()
	ids = append([]int64(nil), ids...)
	sort.Slice(ids, func(a, b int) bool { return ids[a] < ids[b] })
	var errs []error
	for start := 0; start < len(ids); start += chunk {
		if err := s.planChunk(ctx, ids[start:min(start+chunk, len(ids))]); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

func (s *Service) planChunk(ctx context.Context, ids []int64) error {
	in, args := db.Placeholders(len(ids)), db.Args(ids)
	sites, err := s.readInputs(ctx, in, args)
	if err != nil {
		return wrap("plan: read", err)
	}
	pw, err := s.readPower(ctx, in, args)
	if err != nil {
		return wrap("plan: power", err)
	}
	old := map[akey]*allocRow{}
	if err := scanRows(ctx, s.db, `WHERE site_id IN (`+in+`)`, args, func(r *allocRow) { old[akey{r.device, r.connector}] = r }); err != nil {
		return wrap("plan: allocations", err)
	}

	now := time.Now()
	nowMS := now.UnixMilli()
	ttl := s.opt.ProfileTTL.Milliseconds()
	var writes []*allocRow
	var sends []send
	var changes []AllocationChange
	keep := map[akey]bool{}
	memo := map[int64]siteMemo{}
	planned := map[int64]bool{}
	for _, siteID := range ids {
		in := sites[siteID]
		if in == nil || !in.power.Enabled {
			continue // turned off: the lease loop removes its plan
		}
		extra := 0.0
		if s.opt.Extra != nil {
			extra = s.opt.Extra.ExtraW(ctx, siteID)
		}
		limit := SiteLimit(in.power, now, s.opt.Location, extra)
		devs := map[int64]*devInfo{}
		for _, d := range in.devices {
			devs[d.id] = d
		}
		var ds []Demand
		var olds []*allocRow
		var held []bool // offline, holding its last profile of ours
		// what a charger of the site draws on its own: the fallback it holds
		share := SafeShare(in.power, len(in.devices), in.power.MinA)
		for _, ss := range in.sessions {
			dev := devs[ss.device]
			o := old[akey{ss.device, ss.connector}]
			if o != nil && o.tx != ss.id {
				o = nil // a new session on the connector
			}
			d := Demand{DeviceID: ss.device, ConnectorID: ss.connector, TransactionID: ss.id, Phases: dev.phases, Phase: dev.phase,
				MinA: math.Max(in.power.MinA, dev.minA), MaxA: dev.maxA, Priority: max(dev.priority, ss.priority), Started: ss.started}
			d.Idle = ss.status == "SuspendedEV" || ss.status == "Finishing"
			if p, ok := pw[akey{ss.device, ss.connector}]; ok && o != nil && o.state == StateApplied && o.limitA > 0 &&
				nowMS-ss.started > idleAfter.Milliseconds() && nowMS-p.at < idleAfter.Milliseconds() && p.w < idleW {
				d.Idle = true
			}
			heldNow := false
			switch {
			case o != nil && o.state == StateRefused:
				d.Uncontrolled = true // refused: counted at its maximum for the rest of the session
			case o != nil && !dev.online && o.sentAt > 0 && nowMS < o.sentAt+ttl && (o.state == StateSending || o.state == StateApplied):
				// offline, but it may still hold our last profile: counted at that until it ends
				d.Uncontrolled, d.MaxA, heldNow = true, o.limitA, true
			case !dev.online:
				// offline with no profile of ours in force: it charges on its fallback, the safe share
				d.Uncontrolled, d.MaxA = true, math.Min(share, dev.maxA)
			}
			ds = append(ds, d)
			olds = append(olds, o)
			held = append(held, heldNow)
		}
		as := Plan(limit, ds)
		if err := Check(limit, ds, as); err != nil {
			// never expected (the tests prove Plan keeps it); nothing of this site is stored or sent
			slog.Error("loadmgmt: plan breaks the site limit, not applied", "site", siteID, "err", err)
			continue
		}
		planned[siteID] = true
		memo[siteID] = siteMemo{power: in.power, limit: SiteLimit(in.power, now, s.opt.Location, 0), at: nowMS, limitW: limit.W()}
		for i, a := range as {
			d, o := &ds[i], olds[i]
			dev := devs[d.DeviceID]
			nr := &allocRow{device: d.DeviceID, connector: d.ConnectorID, site: siteID, tx: d.TransactionID, limitA: a.LimitA, phases: a.Phases, updatedAt: nowMS}
			toSend := false
			switch {
			case d.Uncontrolled && o != nil && o.state == StateRefused:
				nr.state, nr.message, nr.cmd, nr.sentAt = StateRefused, o.message, o.cmd, o.sentAt
			case held[i]: // offline holding its last profile
				*nr = *o
				nr.site = siteID
			case !dev.online: // offline, counted at its fallback (a.LimitA: its uncontrolled draw)
				nr.state = StateOffline
				if o != nil {
					nr.cmd = o.cmd
				}
			case o == nil || o.sentAt == 0 || o.state == StateOffline || a.LimitA < o.limitA || a.LimitA >= o.limitA+0.5 || nowMS-o.sentAt >= ttl/2:
				// a decrease is always sent (the charger must not keep more than its share); an
				// increase from 0.5 A; and a profile nearing its end is renewed
				nr.state = StateSending
				if o != nil {
					nr.cmd = o.cmd
				}
				toSend = true
			default:
				*nr = *o // the charger keeps the profile it holds (at most the planned share)
				nr.site = siteID
			}
			keep[akey{nr.device, nr.connector}] = true
			if o == nil || !nr.same(o) {
				nr.updatedAt = nowMS
				writes = append(writes, nr)
				if o == nil || o.limitA != nr.limitA || o.state != nr.state || o.tx != nr.tx {
					changes = append(changes, AllocationChange{DeviceID: nr.device, SiteID: siteID, ConnectorID: nr.connector, TransactionID: nr.tx,
						LimitA: nr.limitA, LimitW: nr.w(), State: nr.state, At: nowMS})
				}
			}
			if toSend {
				x := send{row: nr, limit: nr.limitA, phases: nr.phases, site: siteID, delta: nr.limitA}
				if o != nil {
					x.delta -= o.limitA
				}
				sends = append(sends, x)
			}
		}
		// the fallback every online charger of the site holds
		s.mu.Lock()
		for _, d := range in.devices {
			if !d.online {
				delete(s.fallback, d.id) // sent again when it is back
				continue
			}
			if v, ok := s.fallback[d.id]; !ok || v != share {
				sends = append(sends, send{row: &allocRow{device: d.id}, fallback: true, limit: share, phases: d.phases, site: siteID})
			}
		}
		s.mu.Unlock()
	}
	var gone []akey
	for k, o := range old {
		if planned[o.site] && !keep[k] {
			gone = append(gone, k)
			changes = append(changes, AllocationChange{DeviceID: o.device, SiteID: o.site, ConnectorID: o.connector, TransactionID: o.tx,
				State: o.state, Ended: true, At: nowMS})
		}
	}

	var lost map[int64]bool
	err = s.db.InTx(ctx, func(tx *db.Tx) error {
		held, err := s.holding(ctx, tx, ids)
		if err != nil {
			return err
		}
		lost = map[int64]bool{}
		for _, id := range ids {
			if !held[id] {
				lost[id] = true
			}
		}
		if len(lost) > 0 {
			writes = dropLost(writes, lost, func(r *allocRow) int64 { return r.site })
			gone = dropLostKeys(gone, old, lost)
		}
		if err := deleteRows(ctx, tx, gone); err != nil {
			return err
		}
		return upsertRows(ctx, tx, writes)
	})
	if err != nil {
		return wrap("plan: store", err)
	}
	if len(lost) > 0 {
		changes = dropLost(changes, lost, func(c AllocationChange) int64 { return c.SiteID })
		sends = dropLost(sends, lost, func(x send) int64 { return x.site })
		s.mu.Lock()
		for id := range lost {
			delete(s.owned, id)
			delete(memo, id)
		}
		s.mu.Unlock()
	}
	s.mu.Lock()
	for id, m := range memo {
		s.memo[id] = m
	}
	s.mu.Unlock()
	s.announce(changes)
	s.sendAll(ctx, sends, nowMS)
	return nil
}

func dropLost[T any](list []T, lost map[int64]bool, site func(T) int64) []T {
	out := list[:0]
	for _, x := range list {
		if !lost[site(x)] {
			out = append(out, x)
		}
	}
	return out
}

func dropLostKeys(keys []akey, old map[akey]*allocRow, lost map[int64]bool) []akey {
	out := keys[:0]
	for _, k := range keys {
		if !lost[old[k].site] {
			out = append(out, k)
		}
	}
	return out
}

// sendAll sends the Tx profiles and fallbacks of a committed plan and records what became of
// them. A charger that is busy with another command is left for the next tick.
func (s *Service) sendAll(ctx context.Context, sends []send, now int64) {
	if s.fleet == nil || len(sends) == 0 {
		return
	}
	// the chargers that must take less first, then those that may take more, then fallbacks:
	// the current the chargers hold stays within the limit while the commands go out
	sort.SliceStable(sends, func(a, b int) bool {
		if sends[a].fallback != sends[b].fallback {
			return !sends[a].fallback
		}
		return sends[a].delta < sends[b].delta
	})
	type outcome struct {
		row     *allocRow
		cmd     int64
		state   int
		message string
		sentAt  int64
	}
	var done []outcome
	busy := map[int64]bool{}
	for _, x := range sends {
		if ctx.Err() != nil {
			return
		}
		o := fleet.ProfileOrder{DeviceID: x.row.device, By: byLoadManager}
		if x.fallback {
			o.Profile = smartcharging.Profile{ID: FallbackProfileID, StackLevel: fallbackStack, Purpose: smartcharging.PurposeTxDefault,
				Kind: smartcharging.KindRelative, Schedule: schedule(x.limit, x.phases)}
		} else {
			o.ConnectorID = x.row.connector
			o.Profile = smartcharging.Profile{ID: TxProfileID + x.row.connector, StackLevel: txStackLevel, Purpose: smartcharging.PurposeTx,
				Kind: smartcharging.KindRelative, TransactionID: x.row.tx, ValidTo: now + s.opt.ProfileTTL.Milliseconds(),
				Schedule: schedule(x.limit, x.phases)}
		}
		cmd, result, err := s.fleet.SetProfile(ctx, o)
		var be *apperr.Error
		switch {
		case errors.Is(err, fleet.ErrBusy):
			busy[x.site] = true
			continue
		case err != nil && !errors.As(err, &be):
			slog.Warn("loadmgmt: profile not sent", "device", o.DeviceID, "err", err)
			busy[x.site] = true
			continue
		}
		if x.fallback {
			if err == nil && result == fleet.ResultWaiting {
				s.mu.Lock()
				s.fallback[o.DeviceID] = x.limit
				s.fallbackBy[o.DeviceID] = cmd
				if len(s.fallbackIDs) > 100000 {
					clear(s.fallbackIDs) // answers that never came (a node lost)
				}
				s.fallbackIDs[cmd] = true
				s.mu.Unlock()
			}
			continue
		}
		out := outcome{row: x.row, cmd: cmd, state: StateSending, sentAt: now}
		switch {
		case err != nil: // the fleet refused it outright (device disabled, a profile it does not take)
			out.state, out.message = StateRefused, be.Key
		case result == fleet.ResultOffline:
			out.state, out.sentAt = StateOffline, 0
		case result == fleet.ResultFailed:
			out.state, out.message = StateRefused, "err.invalid"
		}
		done = append(done, out)
	}
	if len(done) > 0 {
		err := s.db.InTx(ctx, func(tx *db.Tx) error {
			for _, o := range done {
				if _, err := tx.Exec(ctx, `UPDATE power_allocation SET command_id = ?, sent_at = ?, state = ?, message = ?, updated_at = ?
					WHERE device_id = ? AND connector_id = ? AND transaction_id = ?`,
					o.cmd, o.sentAt, o.state, o.message, db.NowMS(), o.row.device, o.row.connector, o.row.tx); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			slog.Error("loadmgmt: sent profiles not recorded", "err", err)
		}
		s.retryPending(ctx) // answers that came before their command id was recorded
	}
	if len(busy) > 0 {
		s.mu.Lock()
		for id := range busy {
			s.dirty[id] = true
		}
		s.mu.Unlock()
	}
}

// schedule is a one-period schedule in A per phase.
func schedule(limit float64, phases int) smartcharging.Schedule {
	return smartcharging.Schedule{Unit: smartcharging.UnitA, Periods: []smartcharging.Period{{Start: 0, Limit: limit, Phases: phases}}}
}

// readInputs reads the sites' settings, chargers and open sessions.
func (s *Service) readInputs(ctx context.Context, in string, args []any) (map[int64]*siteInput, error) {
	sites := map[int64]*siteInput{}
	rows, err := s.db.Query(ctx, `SELECT `+sitePowerCols+` FROM site_power WHERE site_id IN (`+in+`)`, args...)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		sp, err := scanSitePower(rows)
		if err != nil {
			rows.Close()
			return nil, err
		}
		sites[sp.SiteID] = &siteInput{power: sp}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	devs := map[int64]*devInfo{}
	rows, err = s.db.Query(ctx, `SELECT d.id, d.site_id, COALESCE(dp.phases, 3), COALESCE(dp.phase, 1), COALESCE(dp.min_a, ?), COALESCE(dp.max_a, ?),
		COALESCE(dp.priority, 0), COALESCE(ds.online, 0)
		FROM device d LEFT JOIN device_power dp ON dp.device_id = d.id LEFT JOIN device_state ds ON ds.device_id = d.id
		WHERE d.site_id IN (`+in+`) ORDER BY d.id`, append([]any{DefaultMinA, DefaultMaxA}, args...)...)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		d := &devInfo{}
		var online int
		if err := rows.Scan(&d.id, &d.site, &d.phases, &d.phase, &d.minA, &d.maxA, &d.priority, &online); err != nil {
			rows.Close()
			return nil, err
		}
		d.online = online == 1
		devs[d.id] = d
		if si := sites[d.site]; si != nil {
			si.devices = append(si.devices, d)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	// open sessions of the sites' chargers (the partial index of open sessions, per charger),
	// with the connector's status and the token's priority
	rows, err = s.db.Query(ctx, `SELECT t.id, t.device_id, t.connector_id, t.started_at, COALESCE(c.status, ''), COALESCE(k.priority, 0), d.site_id
		FROM device d JOIN device_transaction t ON t.device_id = d.id AND t.stopped_at = 0
		LEFT JOIN device_connector c ON c.device_id = t.device_id AND c.connector_id = t.connector_id
		LEFT JOIN token k ON k.customer_id = t.customer_id AND k.tag_key = UPPER(t.id_tag) AND t.id_tag <> ''
		WHERE d.site_id IN (`+in+`) ORDER BY t.device_id, t.connector_id, t.started_at DESC, t.id DESC`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var last akey
	for rows.Next() {
		var ss session
		var site int64
		if err := rows.Scan(&ss.id, &ss.device, &ss.connector, &ss.started, &ss.status, &ss.priority, &site); err != nil {
			return nil, err
		}
		k := akey{ss.device, ss.connector}
		if k == last || ss.connector < 1 {
			continue // an older session left open on the same connector: the newest counts
		}
		last = k
		if si := sites[site]; si != nil && devs[ss.device] != nil {
			si.sessions = append(si.sessions, ss)
		}
	}
	return sites, rows.Err()
}

// readPower reads the latest active power of the sites' chargers per connector (W).
func (s *Service) readPower(ctx context.Context, in string, args []any) (map[akey]power, error) {
	rows, err := s.db.Query(ctx, `SELECT r.device_id, r.connector_id, r.value, r.unit, r.sampled_at
		FROM device d JOIN device_runtime r ON r.device_id = d.id AND r.name = 'Power.Active.Import'
		WHERE d.site_id IN (`+in+`) AND `+sqlDrawing, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	m := map[akey]power{}
	for rows.Next() {
		var k akey
		var v, unit string
		var at int64
		if err := rows.Scan(&k.dev, &k.conn, &v, &unit, &at); err != nil {
			return nil, err
		}
		if w, ok := watts(v, unit); ok {
			m[k] = power{w: w, at: at}
		}
	}
	return m, rows.Err()
}

// watts reads a runtime power value (W or kW).
func watts(v, unit string) (float64, bool) {
	f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, false
	}
	if strings.EqualFold(unit, "kW") {
		f *= 1000
	}
	return f, true
}

const allocCols = `device_id, connector_id, site_id, transaction_id, limit_a, phases, state, message, command_id, sent_at, updated_at`

// scanRows reads power_allocation rows matching where.
func scanRows(ctx context.Context, q db.Querier, where string, args []any, f func(*allocRow)) error {
	rows, err := q.Query(ctx, `SELECT `+allocCols+` FROM power_allocation `+where, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		r := &allocRow{}
		if err := rows.Scan(&r.device, &r.connector, &r.site, &r.tx, &r.limitA, &r.phases, &r.state, &r.message, &r.cmd, &r.sentAt, &r.updatedAt); err != nil {
			return err
		}
		f(r)
	}
	return rows.Err()
}

// upsertRows writes allocation rows, many per statement.
func upsertRows(ctx context.Context, tx *db.Tx, rows []*allocRow) error {
	for start := 0; start < len(rows); start += rowsPerInsert {
		part := rows[start:min(start+rowsPerInsert, len(rows))]
		var b strings.Builder
		b.WriteString(`INSERT INTO power_allocation (device_id, connector_id, site_id, transaction_id, limit_a, limit_w, phases, state, message, command_id, sent_at, updated_at) VALUES `)
		args := make([]any, 0, len(part)*12)
		for i, r := range part {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString("(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
			args = append(args, r.device, r.connector, r.site, r.tx, r.limitA, r.w(), r.phases, r.state, r.message, r.cmd, r.sentAt, r.updatedAt)
		}
		b.WriteString(` ON CONFLICT (device_id, connector_id) DO UPDATE SET site_id = excluded.site_id, transaction_id = excluded.transaction_id,
			limit_a = excluded.limit_a, limit_w = excluded.limit_w, phases = excluded.phases, state = excluded.state, message = excluded.message,
			command_id = excluded.command_id, sent_at = excluded.sent_at, updated_at = excluded.updated_at`)
		if _, err := tx.Exec(ctx, b.String(), args...); err != nil {
			return err
		}
	}
	return nil
}

// deleteRows removes the allocations of ended sessions.
func deleteRows(ctx context.Context, tx *db.Tx, keys []akey) error {
	const per = 200
	for start := 0; start < len(keys); start += per {
		part := keys[start:min(start+per, len(keys))]
		conds := make([]string, len(part))
		args := make([]any, 0, 2*len(part))
		for i, k := range part {
			conds[i] = "(device_id = ? AND connector_id = ?)"
			args = append(args, k.dev, k.conn)
		}
		if _, err := tx.Exec(ctx, `DELETE FROM power_allocation WHERE `+strings.Join(conds, " OR "), args...); err != nil {
			return err
		}
	}
	return nil
}
