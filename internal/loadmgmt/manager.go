package loadmgmt

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"chargeops/internal/db"
	"chargeops/internal/fleet"
	"chargeops/internal/smartcharging"
)

// Fleet is what the load manager needs of the fleet core (fleet.Service); tests use a fake.
type Fleet interface {
	SetProfile(ctx context.Context, o fleet.ProfileOrder) (int64, int, error)
	ClearProfiles(ctx context.Context, deviceID int64, f smartcharging.ClearFilter, by string) (int64, int, error)
	OnCommandResults(f func(fleet.CommandResult))
}

// Options tune the running part. Zero values take the defaults.
type Options struct {
	Node        string        // this node's name (the lease holder)
	Tick        time.Duration // dirty detection (1 s)
	Replan      time.Duration // every owned site is planned again (30 s; at most ProfileTTL / 4)
	LeaseTTL    time.Duration // a lease's life; renewed every third of it (6 s)
	ProfileTTL  time.Duration // a Tx profile's validity, refreshed at half of it (60 min)
	SampleEvery time.Duration // one site_power_sample row per owned site (60 s)
	Location    *time.Location
	Extra       Extra // storage hook (nil: none)
}

func (o *Options) defaults() {
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&o.Tick, time.Second)
	def(&o.Replan, 30*time.Second)
	def(&o.LeaseTTL, 6*time.Second)
	def(&o.ProfileTTL, 60*time.Minute)
	def(&o.SampleEvery, 60*time.Second)
	// a Tx profile is renewed at half its validity, and only when its site is planned: a site
	// whose sessions do not change must be planned well within that, or its chargers' profiles
	// end and they drop to their fallback while online (a short --load-profile-ttl)
	o.Replan = min(o.Replan, o.ProfileTTL/4)
	if o.Location == nil {
		if loc, err := time.LoadLocation("Asia/Hong_Kong"); err == nil {
			o.Location = loc
		} else {
			o.Location = time.FixedZone("HKT", 8*3600) // no tzdata: Hong Kong has no DST
		}
	}
	if o.Node == "" {
		o.Node = "local"
	}
}

// Allocation states (power_allocation.state).
const (
	StateSending = 0 // planned; the profile is on its way (or waits to be sent)
	StateApplied = 1 // the charger accepted the profile
	StateRefused = 2 // the charger refused it (or did not answer): counted at its MaxA
	StateOffline = 3 // the charger is offline: planned, nothing sent
)

// AllocationChange is a committed change of a session's allocation, for the webhooks. Ended:
// the session ended (or the site's load management was turned off) and the allocation is gone.
type AllocationChange struct {
	DeviceID      int64   `json:"deviceId"`
	SiteID        int64   `json:"siteId"`
	ConnectorID   int     `json:"connectorId"`
	TransactionID int64   `json:"transactionId"`
	LimitA        float64 `json:"limitA"`
	LimitW        float64 `json:"limitW"`
	State         int     `json:"state"`
	Ended         bool    `json:"ended"`
	At            int64   `json:"at"`
}

// ErrNotPlanner: this node does not hold the site's lease (PlanNow).
var ErrNotPlanner = errors.New("loadmgmt: this node does not plan the site")

// Service is the load manager: its settings and views (scoped, any node) and the planner of
// the sites whose lease this node holds.
type Service struct {
	db    *db.DB
	fleet Fleet
	opt   Options

	mu          sync.Mutex
	owned       map[int64]bool
	dirty       map[int64]bool
	memo        map[int64]siteMemo         // per owned site: what its last plan used
	fallback    map[int64]float64          // device -> the fallback limit it holds
	fallbackBy  map[int64]int64            // device -> the command that sent it
	fallbackIDs map[int64]bool             // commands of fallbacks sent from here, until answered
	prints      map[int64]txPrint          // per site: its open sessions at the last look
	settings    map[int64]int64            // per site: site_power.updated_at at the last look
	refused     map[int64]int64            // per site: the latest refusal seen
	pending     map[int64]pendingResult    // command results that found no allocation yet
	sampled     map[int64]bool             // owned sites with a sample written by this node
	listeners   []func([]AllocationChange) // OnAllocations
	hooked      bool
	cancel      context.CancelFunc
	done        sync.WaitGroup

	planMu sync.Mutex // one planning round at a time
}

// siteMemo is what a site's last plan used: its setting and the limit without storage (a
// window starting or ending changes it).
type siteMemo struct {
	power  SitePower
	limit  Limit
	at     int64
	limitW float64 // with storage
}

// txPrint is a cheap fingerprint of a site's open sessions.
type txPrint struct{ n, sum, online, idle int64 }

type pendingResult struct {
	r     fleet.CommandResult
	until int64
}

// New returns the load manager over d, sending profiles through f (nil: plans are stored, no
// profile is sent).
func New(d *db.DB, f Fleet, opt Options) *Service {
	opt.defaults()
	return &Service{
		db: d, fleet: f, opt: opt,
		owned: map[int64]bool{}, dirty: map[int64]bool{}, memo: map[int64]siteMemo{}, fallback: map[int64]float64{}, fallbackBy: map[int64]int64{}, fallbackIDs: map[int64]bool{},
		prints: map[int64]txPrint{}, settings: map[int64]int64{}, sampled: map[int64]bool{}, refused: map[int64]int64{}, pending: map[int64]pendingResult{},
	}
}

// OnAllocations adds a listener of committed allocation changes (the webhooks). Only the node
// planning a site announces its changes; a listener runs on the planning goroutine and must
// not block.
func (s *Service) OnAllocations(f func([]AllocationChange)) {
	s.mu.Lock()
	s.listeners = append(s.listeners, f)
	s.mu.Unlock()
}

// Start runs the lease and planning loops until Stop or ctx ends. A second call does nothing.
func (s *Service) Start(ctx context.Context) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cancel != nil {
		return
	}
	if !s.hooked && s.fleet != nil {
		// every node hears the results of the commands its chargers answer
		s.fleet.OnCommandResults(s.commandResult)
		s.hooked = true
	}
	ctx, s.cancel = context.WithCancel(ctx)
	s.done.Add(2)
	go func() {
		defer s.done.Done()
		s.leaseLoop(ctx)
	}()
	go func() {
		defer s.done.Done()
		s.planLoop(ctx)
	}()
}

// Stop ends the loops and gives this node's leases up, so another node takes its sites at
// once instead of after LeaseTTL.
func (s *Service) Stop() {
	s.mu.Lock()
	cancel := s.cancel
	s.cancel = nil
	s.mu.Unlock()
	if cancel == nil {
		return
	}
	cancel()
	s.done.Wait()
	ctx, stop := context.WithTimeout(context.Background(), 5*time.Second)
	defer stop()
	if err := s.releaseLeases(ctx); err != nil {
		slog.Warn("loadmgmt: leases not released", "err", err)
	}
}

// PlanNow plans one site now; ErrNotPlanner unless this node holds its lease.
func (s *Service) PlanNow(ctx context.Context, siteID int64) error {
	if !s.owns(siteID) {
		return ErrNotPlanner
	}
	return s.planSites(ctx, []int64{siteID})
}

func (s *Service) owns(siteID int64) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.owned[siteID]
}

// markDirty asks for the site's plan at the next tick (a no-op unless this node plans it;
// other nodes notice the change by its updated_at).
func (s *Service) markDirty(siteID int64) {
	s.mu.Lock()
	if s.owned[siteID] {
		s.dirty[siteID] = true
	}
	s.mu.Unlock()
}

// planLoop: every Tick the dirty sites, every Replan all owned sites, every SampleEvery the
// samples, hourly the purge of old samples.
func (s *Service) planLoop(ctx context.Context) {
	t := time.NewTicker(s.opt.Tick)
	defer t.Stop()
	now := time.Now()
	nextReplan, nextSample, nextPurge := now.Add(s.opt.Replan), now.Add(s.opt.SampleEvery), now
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		s.retryPending(ctx)
		if err := s.detect(ctx); err != nil && ctx.Err() == nil {
			slog.Warn("loadmgmt: change detection", "err", err)
		}
		now = time.Now()
		s.mu.Lock()
		if !now.Before(nextReplan) {
			nextReplan = now.Add(s.opt.Replan)
			for id := range s.owned {
				s.dirty[id] = true
			}
		}
		ids := make([]int64, 0, len(s.dirty))
		for id := range s.dirty {
			if s.owned[id] {
				ids = append(ids, id)
			}
		}
		clear(s.dirty)
		s.mu.Unlock()
		if len(ids) > 0 {
			if err := s.planSites(ctx, ids); err != nil && ctx.Err() == nil {
				slog.Error("loadmgmt: plan", "sites", len(ids), "err", err)
				s.mu.Lock()
				for _, id := range ids {
					s.dirty[id] = true // again at the next tick
				}
				s.mu.Unlock()
			}
		}
		// a site newly planned here gets its first sample at once: its chart starts with its plan
		if !now.Before(nextSample) || s.unsampled() {
			nextSample = now.Add(s.opt.SampleEvery)
			if err := s.writeSamples(ctx); err != nil && ctx.Err() == nil {
				slog.Warn("loadmgmt: samples", "err", err)
			}
		}
		if !now.Before(nextPurge) {
			nextPurge = now.Add(time.Hour)
			if err := s.purgeSamples(ctx); err != nil && ctx.Err() == nil {
				slog.Warn("loadmgmt: purge samples", "err", err)
			}
		}
	}
}

// unsampled: an owned, planned site has no sample from this node yet.
func (s *Service) unsampled() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for id := range s.memo {
		if s.owned[id] && !s.sampled[id] {
			return true
		}
	}
	return false
}

// idleStatus: OCPP statuses of a session whose car takes nothing (full, or it paused itself).
const idleStatusList = `'SuspendedEV', 'Finishing'`

// detect marks the owned sites whose inputs changed since the last look, with a few cheap
// queries that read what any node stored: the open sessions (their number, ids, online
// chargers and idle ones), the settings' updated_at, the refusals, and the time windows.
func (s *Service) detect(ctx context.Context) error {
	s.mu.Lock()
	n := len(s.owned)
	s.mu.Unlock()
	if n == 0 {
		return nil
	}
	prints := map[int64]txPrint{}
	rows, err := s.db.Query(ctx, `SELECT t.site_id, COUNT(*), SUM(t.id), SUM(COALESCE(ds.online, 0)),
		SUM(CASE WHEN c.status IN (`+idleStatusList+`) THEN 1 ELSE 0 END)
		FROM device_transaction t
		LEFT JOIN device_state ds ON ds.device_id = t.device_id
		LEFT JOIN device_connector c ON c.device_id = t.device_id AND c.connector_id = t.connector_id
		WHERE t.stopped_at = 0 GROUP BY t.site_id`)
	if err != nil {
		return err
	}
	for rows.Next() {
		var id int64
		var p txPrint
		if err := rows.Scan(&id, &p.n, &p.sum, &p.online, &p.idle); err != nil {
			rows.Close()
			return err
		}
		prints[id] = p
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	settings, err := pairs(ctx, s.db, `SELECT site_id, updated_at FROM site_power`)
	if err != nil {
		return err
	}
	refused, err := pairs(ctx, s.db, `SELECT site_id, MAX(updated_at) FROM power_allocation WHERE state = ? GROUP BY site_id`, StateRefused)
	if err != nil {
		return err
	}
	now := time.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	for id := range s.owned {
		if prints[id] != s.prints[id] || settings[id] != s.settings[id] || refused[id] > s.refused[id] {
			s.dirty[id] = true
		}
		if m, ok := s.memo[id]; ok && SiteLimit(m.power, now, s.opt.Location, 0) != m.limit {
			s.dirty[id] = true // a window began or ended
		}
	}
	s.prints, s.settings = prints, settings
	for id, at := range refused {
		s.refused[id] = max(s.refused[id], at)
	}
	return nil
}

// pairs reads (id, value) rows into a map.
func pairs(ctx context.Context, q db.Querier, query string, args ...any) (map[int64]int64, error) {
	rows, err := q.Query(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	m := map[int64]int64{}
	for rows.Next() {
		var k, v int64
		if err := rows.Scan(&k, &v); err != nil {
			return nil, err
		}
		m[k] = v
	}
	return m, rows.Err()
}

// commandResult keeps what a charger answered to a profile of the plan (every node runs it: the
// answer reaches the node the charger is connected to). A refusal is seen by the planning
// node's detect and re-planned there.
func (s *Service) commandResult(r fleet.CommandResult) {
	if r.ControlType != fleet.CtlSetChargingProfile || r.CommandID == 0 {
		return
	}
	s.mu.Lock()
	if s.cancel == nil {
		s.mu.Unlock()
		return // stopped: the node is going down
	}
	isFallback := s.fallbackIDs[r.CommandID]
	delete(s.fallbackIDs, r.CommandID)
	if isFallback && r.Result != fleet.ResultSuccess && r.Result != fleet.ResultFailed {
		// a fallback that did not reach the charger (timeout, offline) is sent again at the next
		// plan; one the charger refused is not, until the share changes or it reconnects (a
		// charger that refuses every profile would be asked at every plan)
		for dev, sent := range s.fallbackBy {
			if sent == r.CommandID {
				delete(s.fallback, dev)
				delete(s.fallbackBy, dev)
			}
		}
	}
	s.mu.Unlock()
	if isFallback {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ok, err := s.applyResult(ctx, r)
	if err != nil {
		slog.Warn("loadmgmt: command result not kept", "command", r.CommandID, "err", err)
	}
	if !ok {
		// the planning node has not recorded the command's id yet (it answered that fast), or
		// it is not a plan's profile: tried again for a few seconds
		s.mu.Lock()
		if len(s.pending) < 10000 {
			s.pending[r.CommandID] = pendingResult{r: r, until: db.NowMS() + 10000}
		}
		s.mu.Unlock()
	}
}

// applyResult stores r on the allocation whose command it answers; false when none matches.
func (s *Service) applyResult(ctx context.Context, r fleet.CommandResult) (bool, error) {
	var state int
	msg := r.Message
	switch r.Result {
	case fleet.ResultSuccess:
		state, msg = StateApplied, ""
	case fleet.ResultFailed, fleet.ResultTimeout:
		state = StateRefused
		if msg == "" {
			msg = "err.invalid"
		}
	case fleet.ResultOffline:
		state = StateOffline
	default:
		return true, nil
	}
	res, err := s.db.Exec(ctx, `UPDATE power_allocation SET state = ?, message = ?, updated_at = ? WHERE command_id = ?`,
		state, msg, db.NowMS(), r.CommandID)
	if err != nil {
		return false, err
	}
	n, _ := res.RowsAffected()
	return n > 0, nil
}

// retryPending tries the results that found no allocation again, until they lapse.
func (s *Service) retryPending(ctx context.Context) {
	s.mu.Lock()
	if len(s.pending) == 0 {
		s.mu.Unlock()
		return
	}
	list := make([]pendingResult, 0, len(s.pending))
	now := db.NowMS()
	for id, p := range s.pending {
		if p.until < now {
			delete(s.pending, id)
			continue
		}
		list = append(list, p)
	}
	s.mu.Unlock()
	for _, p := range list {
		ok, err := s.applyResult(ctx, p.r)
		if ok && err == nil {
			s.mu.Lock()
			delete(s.pending, p.r.CommandID)
			s.mu.Unlock()
		}
	}
}

// announce tells the listeners of committed changes.
func (s *Service) announce(changes []AllocationChange) {
	if len(changes) == 0 {
		return
	}
	s.mu.Lock()
	ls := append([]func([]AllocationChange){}, s.listeners...)
	s.mu.Unlock()
	for _, f := range ls {
		f(changes)
	}
}
