package read

import (
	"context"

	"chargeops/internal/access"
	"chargeops/internal/fleet"
)

// ChargingProfiles lists the charging profiles chargeops set on a device in the caller's scope
// (operators', the OpenAPI's and the site load manager's; a Tx profile while its session is
// open), with what the charger answered (docs/smart-charging.md).
func (s *Service) ChargingProfiles(ctx context.Context, p *access.Principal, deviceID int64) ([]fleet.StoredProfile, error) {
	if err := s.inScope(ctx, p, deviceID); err != nil {
		return nil, err
	}
	return fleet.QueryStoredProfiles(ctx, s.db, `p.device_id = ?`, deviceID)
}
