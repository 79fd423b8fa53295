package read

import (
	"context"
	"fmt"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/fleet"
)

// maxSignedValues bounds what one session returns.
const maxSignedValues = 5000

// SignedValues returns the signed meter values of session id (oldest first) when its device is
// in the caller's scope; else not found.
func (s *Service) SignedValues(ctx context.Context, p *access.Principal, id int64) ([]fleet.SignedValue, error) {
	cond, args := p.Scope.SiteCond("t.customer_id", "t.site_id")
	var n int
	if err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM device_transaction t WHERE t.id = ? AND `+cond, append([]any{id}, args...)...).Scan(&n); err != nil {
		return nil, fmt.Errorf("read: signed values: %w", err)
	}
	if n == 0 {
		return nil, apperr.ErrNotFound
	}
	q := (&db.Query{From: "session_signed_value"}).And("transaction_id = ?", id)
	out, err := db.All(ctx, s.db, q, "connector_id, measurand, context, format, value, ts", "ts, id", maxSignedValues, 0,
		func(r db.Scanner) (fleet.SignedValue, error) {
			var v fleet.SignedValue
			err := r.Scan(&v.ConnectorID, &v.Measurand, &v.Context, &v.Format, &v.Value, &v.At)
			return v, err
		})
	if err != nil {
		return nil, fmt.Errorf("read: signed values: %w", err)
	}
	return out, nil
}
