// Package read holds the fleet's read models: what the console and the OpenAPI read back of the
// devices the fleet core keeps (latest values, events and the error log, data-chart series,
// protocol logs, charging sessions and their signed values, connector operations). They read
// with their own queries, each limited to the caller's scope, and call no step of the device
// domain: they never write (docs/architecture.md, "The fleet core and its adapters").
package read

import (
	"context"
	"fmt"
	"slices"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/fleet"
)

// Service answers the read models' queries.
type Service struct {
	db          *db.DB
	stopReasons []string
}

// Options are the adapters' words the read models accept in filters.
type Options struct {
	// StopReasons are the stop reasons a charger may give a session (ocpp16.StopReasons); the
	// session filter also accepts the core's own, fleet.ReasonUnterminated.
	StopReasons []string
}

// New returns the read models over d.
func New(d *db.DB, opt Options) *Service {
	reasons := append(slices.Clone(opt.StopReasons), fleet.ReasonUnterminated)
	return &Service{db: d, stopReasons: reasons}
}

const sqlDeviceInScope = `SELECT COUNT(*) FROM device d WHERE d.id = ? AND `

// inScope answers not found unless device id is in the caller's scope.
func (s *Service) inScope(ctx context.Context, p *access.Principal, id int64) error {
	cond, args := p.Scope.SiteCond("d.customer_id", "d.site_id")
	var n int
	if err := s.db.QueryRow(ctx, sqlDeviceInScope+cond, append([]any{id}, args...)...).Scan(&n); err != nil {
		return fmt.Errorf("read: device in scope: %w", err)
	}
	if n == 0 {
		return apperr.ErrNotFound
	}
	return nil
}
