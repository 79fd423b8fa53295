package fleet

import (
	"context"
	"fmt"
	"log/slog"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/kit"
)

// Reservations (control types 17 ReserveNow and 18 CancelReservation; docs/gateway.md,
// "Reservations"). A reservation is created when ReserveNow is sent (its id is the charger's
// reservationId), becomes active or refused with the answer, cancelled when CancelReservation
// is accepted, used when the charger starts a session with it, and expired by the sweeper.

// Reservation states (the reservation.status column).
const (
	ReservationRequested = "requested"
	ReservationActive    = "active"
	ReservationRefused   = "refused"
	ReservationCancelled = "cancelled"
	ReservationUsed      = "used"
	ReservationExpired   = "expired"
)

// Reservation is a reservation as the API shows it.
type Reservation struct {
	ID            int64  `json:"id"`
	DeviceID      int64  `json:"deviceId"`
	SN            string `json:"sn"`
	ConnectorID   int    `json:"connectorId"`
	IDTag         string `json:"idTag"`
	ParentIDTag   string `json:"parentIdTag"`
	ExpiresAt     int64  `json:"expiresAt"`
	Status        string `json:"status"`
	Answer        string `json:"answer"` // the charger's ReservationStatus
	CommandID     int64  `json:"commandId"`
	TransactionID int64  `json:"transactionId"`
	UserName      string `json:"userName"`
	CreatedAt     int64  `json:"createdAt"`
	UpdatedAt     int64  `json:"updatedAt"`
}

// openReservation records a ReserveNow about to be sent to t and returns its id.
func (s *Service) openReservation(ctx context.Context, p *access.Principal, t target, prm Params) (int64, error) {
	now := db.NowMS()
	id, err := db.InsertID(ctx, s.db, `INSERT INTO reservation (device_id, customer_id, site_id, connector_id, id_tag, parent_id_tag, expires_at, status, user_id, user_name, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, t.id, t.customerID, t.siteID, prm.ConnectorID, prm.IDTag, prm.ParentIDTag, prm.ExpiryDate,
		ReservationRequested, p.UserID, p.UserName, now, now)
	if kit.IsClash(err, "uq_reservation_open") {
		return 0, apperr.InvalidField("params.connectorId", "err.ops_reserved").With(map[string]any{"field": "params.connectorId", "connector": prm.ConnectorID})
	}
	if err != nil {
		return 0, fmt.Errorf("fleet: open reservation: %w", err)
	}
	return id, nil
}

// reservationSent ties reservation id to the command that carries it: a device that got no
// command (disabled, busy) leaves no reservation; an offline one leaves it refused.
func (s *Service) reservationSent(ctx context.Context, id int64, sc SentCommand) error {
	var err error
	switch {
	case sc.ID == 0:
		_, err = s.db.Exec(ctx, `DELETE FROM reservation WHERE id = ?`, id)
	case sc.Result == ResultOffline:
		_, err = s.db.Exec(ctx, `UPDATE reservation SET command_id = ?, status = ?, updated_at = ? WHERE id = ?`, sc.ID, ReservationRefused, db.NowMS(), id)
	default:
		_, err = s.db.Exec(ctx, `UPDATE reservation SET command_id = ?, updated_at = ? WHERE id = ?`, sc.ID, db.NowMS(), id)
	}
	if err != nil {
		return fmt.Errorf("fleet: reservation sent: %w", err)
	}
	return nil
}

// reservationAnswered: Accepted makes the reservation active; any other answer (Faulted,
// Occupied, Rejected, Unavailable), a timeout or a lost connection refuses it.
func (s *Service) reservationAnswered(ctx context.Context, cmd Command, out Outcome) error {
	status := ReservationRefused
	if out.Result == ResultSuccess {
		status = ReservationActive
	}
	return s.setReservation(ctx, cmd.Params.ReservationID, cmd.DeviceID, status, answerStatus(out.Answer), ReservationRequested)
}

// setReservation moves reservation id of deviceID to status when it is in one of from.
func (s *Service) setReservation(ctx context.Context, id, deviceID int64, status, answer string, from ...string) error {
	args := []any{status, db.NowMS()}
	set := `status = ?, updated_at = ?`
	if answer != "" {
		set += `, answer = ?`
		args = append(args, answer)
	}
	args = append(args, id, deviceID)
	args = append(args, db.Args(from)...)
	if _, err := s.db.Exec(ctx, `UPDATE reservation SET `+set+` WHERE id = ? AND device_id = ? AND status IN (`+db.Placeholders(len(from))+`)`, args...); err != nil {
		return fmt.Errorf("fleet: set reservation: %w", err)
	}
	return nil
}

// UseReservation marks the reservation a StartTransaction named (reservationId) as used by
// session txID. The gateway calls it after the start is stored; nil or unknown ids change nothing.
func (s *Service) UseReservation(ctx context.Context, dev *Device, reservationID *int, txID int64) {
	if dev == nil || reservationID == nil || *reservationID <= 0 {
		return
	}
	if _, err := s.db.Exec(ctx, `UPDATE reservation SET status = ?, transaction_id = ?, updated_at = ? WHERE id = ? AND device_id = ? AND status IN (?, ?)`,
		ReservationUsed, txID, db.NowMS(), *reservationID, dev.ID, ReservationRequested, ReservationActive); err != nil {
		slog.Error("reservation not marked used", "sn", dev.SN, "reservation", *reservationID, "err", err)
	}
}

// ExpireReservations ends the requested and active reservations whose expiry passed by now
// (unix ms) and returns how many; the sweeper runs it every 10 s.
func (s *Service) ExpireReservations(ctx context.Context, now int64) (int64, error) {
	res, err := s.db.Exec(ctx, `UPDATE reservation SET status = ?, updated_at = ? WHERE status IN (?, ?) AND expires_at <= ?`,
		ReservationExpired, now, ReservationRequested, ReservationActive, now)
	if err != nil {
		return 0, fmt.Errorf("fleet: expire reservations: %w", err)
	}
	// A ReserveNow whose command the command sweep timed out (its node died before the answer)
	// is refused, so the connector can be reserved again before the reservation's expiry.
	if _, err := s.db.Exec(ctx, `UPDATE reservation SET status = ?, updated_at = ? WHERE status = ?
		AND EXISTS (SELECT 1 FROM command c WHERE c.id = reservation.command_id AND c.result = ?)`,
		ReservationRefused, now, ReservationRequested, ResultTimeout); err != nil {
		return 0, fmt.Errorf("fleet: refuse timed-out reservations: %w", err)
	}
	return res.RowsAffected()
}

// ReservationListInput filters a device's reservations.
type ReservationListInput struct {
	db.Page
	DeviceID int64 `json:"deviceId"`
	// Open lists only requested and active reservations.
	Open bool `json:"open"`
}

func (in ReservationListInput) validate() error {
	if in.DeviceID <= 0 {
		return apperr.InvalidField("deviceId", "err.required")
	}
	return nil
}

// Reservations lists a device's reservations (newest first) within the caller's scope; a
// device outside it has none.
func (s *Service) Reservations(ctx context.Context, p *access.Principal, in ReservationListInput) (db.List[Reservation], error) {
	if err := in.validate(); err != nil {
		return db.List[Reservation]{List: []Reservation{}}, err
	}
	cond, args := p.Scope.SiteCond("d.customer_id", "d.site_id")
	q := &db.Query{From: `reservation r JOIN device d ON d.id = r.device_id`}
	q.And(cond, args...)
	q.And(`r.device_id = ?`, in.DeviceID)
	if in.Open {
		q.And(`r.status IN (?, ?)`, ReservationRequested, ReservationActive)
	}
	out, err := db.Paged(ctx, s.db, q, `r.id, r.device_id, d.sn, r.connector_id, r.id_tag, r.parent_id_tag, r.expires_at, r.status, r.answer,
		r.command_id, r.transaction_id, r.user_name, r.created_at, r.updated_at`, `r.id DESC`, in.Page, func(row db.Scanner) (Reservation, error) {
		var r Reservation
		err := row.Scan(&r.ID, &r.DeviceID, &r.SN, &r.ConnectorID, &r.IDTag, &r.ParentIDTag, &r.ExpiresAt, &r.Status, &r.Answer,
			&r.CommandID, &r.TransactionID, &r.UserName, &r.CreatedAt, &r.UpdatedAt)
		return r, err
	})
	if err != nil {
		return out, fmt.Errorf("fleet: reservations: %w", err)
	}
	return out, nil
}

// ReservationEnded records a charger's word that a reservation ended without a session (OCPP
// 2.0.1 ReservationStatusUpdate): expired, or removed (cancelled at the charger).
func (s *Service) ReservationEnded(ctx context.Context, dev *Device, reservationID int, expired bool) error {
	status := ReservationCancelled
	if expired {
		status = ReservationExpired
	}
	return s.setReservation(ctx, int64(reservationID), dev.ID, status, "", ReservationRequested, ReservationActive)
}
