package device

import (
	"context"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/devstate"
	"chargeops/internal/kit"
)

// ProtocolInput sets the OCPP version a device's charger is admitted with.
type ProtocolInput struct {
	ID int64 `json:"id"`
	// Protocol: "" (auto: the newest sub-protocol both sides speak, ocpp2.0.1 when a charger
	// offers both), "ocpp1.6" or "ocpp2.0.1" (only that one is admitted).
	Protocol string `json:"protocol"`
}

func (in ProtocolInput) validate() error {
	if in.ID <= 0 {
		return apperr.InvalidField("id", "err.invalid")
	}
	switch in.Protocol {
	case "", devstate.ProtocolOCPP16, devstate.ProtocolOCPP201:
		return nil
	}
	return apperr.InvalidField("protocol", "err.invalid")
}

// SetProtocol sets the OCPP protocol setting of a device in p's scope (device.ocpp_protocol).
// Like a security profile it takes effect at the charger's next connection: a live one is not
// dropped, and the action log keeps every change.
func (s *Service) SetProtocol(ctx context.Context, p *access.Principal, in ProtocolInput) error {
	if err := in.validate(); err != nil {
		return err
	}
	return s.setAdmission(ctx, p, in.ID, `UPDATE device SET ocpp_protocol = ?, updated_at = ? WHERE id = ?`, in.Protocol, "set protocol")
}

// setAdmission changes one admission setting of a device in p's scope with update (its value,
// the time, the id) and tells the fleet; the charger's next connection applies it.
func (s *Service) setAdmission(ctx context.Context, p *access.Principal, id int64, update string, value any, what string) error {
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		if _, err := s.get(ctx, tx, p, id); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, update, value, db.NowMS(), id)
		return err
	})
	if err == nil {
		s.changed(ctx, id)
	}
	return kit.Wrap("device", what, err)
}
