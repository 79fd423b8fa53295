package httpapi

import (
	"chargeops/internal/fleet"
	"chargeops/internal/fleet/ingest"
	"reflect"
)

// Gateway counters and the server-push stream of device status.

// GatewayStats are this node's gateway counters.
type GatewayStats struct {
	Connections int `json:"connections"`
	// Ingest is the write path's counters: queue, batches, protocol-log rows written.
	Ingest       ingest.PipelineStats `json:"ingest"`
	CommandLimit int64                `json:"commandTimeoutMs"`
}

// gatewayStats are node-wide figures: platform callers only (fleet.Service.RequirePlatform).
func (s *Server) gatewayStats(c *Ctx, _ Empty) (GatewayStats, error) {
	if err := s.Fleet.RequirePlatform(c.P); err != nil {
		return GatewayStats{}, err
	}
	return GatewayStats{Connections: s.Fleet.Registry.Count(), Ingest: s.Fleet.Ingest.Stats(),
		CommandLimit: s.Fleet.Options().CommandTimeout.Milliseconds()}, nil
}

// StatusStreamEvent documents one server-sent event ("event: status", data is this JSON).
type StatusStreamEvent = fleet.StatusEvent

// statusStream streams device status changes (text/event-stream) to a console, filtered by
// the caller's data scope. A comment line every 25 s keeps proxies from closing it. The stream
// ends with its session: at once on logout, forced re-login or disable on this node, else at
// the session store's next check (session.Store.Watch).
func (s *Server) statusStream() Handler {
	return Handler{in: reflect.TypeFor[Empty](), out: reflect.TypeFor[StatusStreamEvent](), raw: true, serve: func(c *Ctx) (any, error) {
		events, stop := s.Fleet.Hub.Subscribe()
		defer stop()
		return streamSSE(s, c, events, 0, nil, func(e fleet.StatusEvent, send sseSend) {
			if c.P.Scope.HasSite(e.CustomerID, e.SiteID) {
				send("status", e)
			}
		})
	}}
}
