package httpapi

import (
	"sync"
	"time"

	"chargeops/internal/stats"
)

// Dashboards and statistics (docs/dashboards.md): the home dashboard, a site's figures and the
// system dashboard, each limited to the caller's scope by the stats service.

func (s *Server) homeOverview(c *Ctx, _ Empty) (stats.HomeOverview, error) {
	return s.Stats.Overview(c, c.P.Scope)
}

func (s *Server) homeFaults(c *Ctx, in stats.Range) (stats.FaultStats, error) {
	return s.Stats.Faults(c, c.P.Scope, in)
}

// RecentEvents is the newest events, without a total.
type RecentEvents struct {
	List []stats.RecentEvent `json:"list"`
}

func (s *Server) homeEvents(c *Ctx, in stats.RecentInput) (RecentEvents, error) {
	l, err := s.Stats.Recent(c, c.P.Scope, in)
	return RecentEvents{List: l}, err
}

func (s *Server) siteStats(c *Ctx, in stats.SiteRange) (stats.SiteStats, error) {
	return s.Stats.Site(c, c.P.Scope, in)
}

// SiteAdmins is a site's admin list.
type SiteAdmins struct {
	List []stats.Admin `json:"list"`
}

func (s *Server) siteAdmins(c *Ctx, in IDInput) (SiteAdmins, error) {
	l, err := s.Stats.Admins(c, c.P, in.ID)
	return SiteAdmins{List: l}, err
}

func (s *Server) systemOverview(c *Ctx, _ Empty) (stats.SystemOverview, error) {
	info := stats.SystemInfo{Version: s.opt.Version, StartedAt: s.started.UnixMilli(), UptimeMS: time.Since(s.started).Milliseconds()}
	if s.Fleet != nil {
		st := s.Fleet.Ingest.Stats()
		info.Node = s.Fleet.Options().Node
		info.Connected = int64(s.Fleet.Registry.Count())
		info.QueueDepth, info.QueueCapacity = int64(st.Queue), int64(st.QueueCap)
		info.InboundPerSec = s.inbound.rate(st.Units, time.Now(), s.started)
	}
	return s.Stats.System(c, c.P, info)
}

// rateMeter turns a counter into a rate: over the window between the two last samples at
// least rateWindow apart; before there is one, the average since the start.
type rateMeter struct {
	mu      sync.Mutex
	at      time.Time
	n       int64
	rateNow float64
}

const rateWindow = 5 * time.Second

func (m *rateMeter) rate(n int64, now, start time.Time) float64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	switch {
	case m.at.IsZero():
		m.at, m.n = now, n
		if d := now.Sub(start).Seconds(); d > 0 {
			m.rateNow = float64(n) / d
		}
	case now.Sub(m.at) >= rateWindow:
		m.rateNow = float64(n-m.n) / now.Sub(m.at).Seconds()
		m.at, m.n = now, n
	}
	return m.rateNow
}
