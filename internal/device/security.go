package device

import (
	"context"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/devstate"
)

// SecurityInput sets a device's security profile.
type SecurityInput struct {
	ID              int64 `json:"id"`
	SecurityProfile int   `json:"securityProfile"`
}

func (in SecurityInput) validate() error {
	if in.ID <= 0 {
		return apperr.InvalidField("id", "err.invalid")
	}
	if in.SecurityProfile < devstate.ProfileNone || in.SecurityProfile > devstate.ProfileCertificate {
		return apperr.InvalidField("securityProfile", "err.invalid")
	}
	return nil
}

// SetSecurityProfile sets the security profile of a device in p's scope. A charger only ever
// raises its own (the gateway records a profile it proves above the device's); an operator
// may also lower one, which the action log keeps like every change. It takes effect at the
// charger's next connection: a live one is not dropped.
func (s *Service) SetSecurityProfile(ctx context.Context, p *access.Principal, in SecurityInput) error {
	if err := in.validate(); err != nil {
		return err
	}
	return s.setAdmission(ctx, p, in.ID, `UPDATE device SET security_profile = ?, updated_at = ? WHERE id = ?`, in.SecurityProfile, "set security profile")
}
