package read

import (
	"context"
	"fmt"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/fleet"
)

// ConnectorOps is a connector as the device page's operator actions see it: its status, the
// session charging on it (to stop) and its open reservation (to cancel).
type ConnectorOps struct {
	ConnectorID int    `json:"connectorId"`
	Status      string `json:"status"`
	// The open session on the connector (0: none).
	TransactionID int64  `json:"transactionId"`
	SessionIDTag  string `json:"sessionIdTag"`
	StartedAt     int64  `json:"startedAt"`
	// The requested or active reservation of the connector (0: none).
	ReservationID        int64  `json:"reservationId"`
	ReservationIDTag     string `json:"reservationIdTag"`
	ReservationExpiresAt int64  `json:"reservationExpiresAt"`
	ReservationStatus    string `json:"reservationStatus"`
}

// DeviceIDInput names one device.
type DeviceIDInput struct {
	DeviceID int64 `json:"deviceId"`
}

// ConnectorOperations lists a device's connectors (1 and up) with their open session and open
// reservation; a device outside the caller's scope is not found.
func (s *Service) ConnectorOperations(ctx context.Context, p *access.Principal, in DeviceIDInput) ([]ConnectorOps, error) {
	out := []ConnectorOps{}
	if in.DeviceID <= 0 {
		return out, apperr.InvalidField("deviceId", "err.required")
	}
	cond, args := p.Scope.SiteCond("d.customer_id", "d.site_id")
	var n int
	if err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM device d WHERE d.id = ? AND `+cond, append([]any{in.DeviceID}, args...)...).Scan(&n); err != nil {
		return out, fmt.Errorf("read: connector operations: %w", err)
	}
	if n == 0 {
		return out, apperr.ErrNotFound
	}
	rows, err := s.db.Query(ctx, `SELECT c.connector_id, c.status,
			COALESCE(t.id, 0), COALESCE(t.id_tag, ''), COALESCE(t.started_at, 0),
			COALESCE(r.id, 0), COALESCE(r.id_tag, ''), COALESCE(r.expires_at, 0), COALESCE(r.status, '')
		FROM device_connector c
		LEFT JOIN device_transaction t ON t.id = (SELECT MAX(x.id) FROM device_transaction x WHERE x.device_id = c.device_id AND x.connector_id = c.connector_id AND x.stopped_at = ?)
		LEFT JOIN reservation r ON r.device_id = c.device_id AND r.connector_id = c.connector_id AND r.status IN (?, ?)
		WHERE c.device_id = ? AND c.connector_id > ? ORDER BY c.connector_id`, 0, fleet.ReservationRequested, fleet.ReservationActive, in.DeviceID, 0)
	if err != nil {
		return out, fmt.Errorf("read: connector operations: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var c ConnectorOps
		if err := rows.Scan(&c.ConnectorID, &c.Status, &c.TransactionID, &c.SessionIDTag, &c.StartedAt,
			&c.ReservationID, &c.ReservationIDTag, &c.ReservationExpiresAt, &c.ReservationStatus); err != nil {
			return out, fmt.Errorf("read: connector operations: %w", err)
		}
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return out, fmt.Errorf("read: connector operations: %w", err)
	}
	return out, nil
}
