package httpapi

import (
	"context"
	"net/http"
	"time"

	"chargeops/internal/db"
)

// healthPing bounds the database ping of /healthz.
const healthPing = 5 * time.Second

// healthAnswer is the body of /healthz: 200 with status "ok", or 503 with the reason
// (docs/operations.md: what an operator sees during each fault).
type healthAnswer struct {
	Status  string `json:"status"`
	Reason  string `json:"reason,omitempty"`
	Version string `json:"version,omitempty"`
	DB      string `json:"db,omitempty"`
	// HeldSeconds is how long the ingest pipeline has held charger data the database could
	// not take.
	HeldSeconds float64 `json:"heldSeconds,omitempty"`
}

// health answers 503 while the database does not answer or the ingest pipeline holds batches
// it cannot write (database down, disk full: chargers are not being answered), else 200.
func (s *Server) health(w http.ResponseWriter, r *http.Request) {
	if s.Fleet != nil {
		if h := s.Fleet.Ingest.Health(); h.Held {
			writeJSON(w, http.StatusServiceUnavailable, healthAnswer{Status: "ingest held", Reason: h.Reason, HeldSeconds: h.HeldFor.Seconds(), DB: s.DB.Dialect().String()})
			return
		}
	}
	ctx, cancel := context.WithTimeout(r.Context(), healthPing)
	defer cancel()
	if err := s.DB.Pool().PingContext(ctx); err != nil {
		writeJSON(w, http.StatusServiceUnavailable, healthAnswer{Status: "db unavailable", Reason: db.Reason(err), DB: s.DB.Dialect().String()})
		return
	}
	writeJSON(w, http.StatusOK, healthAnswer{Status: "ok", Version: s.opt.Version, DB: s.DB.Dialect().String()})
}
