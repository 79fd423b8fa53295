package fleet

import (
	"context"
	"fmt"

	"chargeops/internal/db"
	"chargeops/internal/devstate"
	"chargeops/internal/fleet/ingest"
)

// InfoRestarting is the info of a connector a charger restarts: a Reset it accepted makes
// every connector it reported unavailable with this info, so the device page does not show
// them Available while the charger reboots. The charger's own StatusNotifications after its
// BootNotification (later status times) replace it (docs/gateway.md, "Commands").
const InfoRestarting = "Restarting"

// sqlRestarting marks the device's connectors out of service, keeping what the charger
// reported after the Reset was accepted (a status time later than now). The status and error
// code shown meanwhile are the core's own words (devstate.ConnectorUnavailableName,
// devstate.ConnectorNoErrorName).
const sqlRestarting = `UPDATE device_connector SET state = ?, status = ?, error_code = ?, vendor_code = ?, info = ?, updated_at = ?, status_at = ?
	WHERE device_id = ? AND status_at <= ?`

// restarting records an accepted Reset: the device's connectors unavailable until the charger
// reports them again, then the device status.
func (s *Service) restarting(ctx context.Context, cmd Command) error {
	now := db.NowMS()
	return s.Ingest.Commit(ctx, &ingest.Unit{Key: ingest.KeyOf(cmd.SN), Step: func(ctx context.Context, b *ingest.Batch) error {
		if _, err := b.Tx.Exec(ctx, sqlRestarting, ConnectorUnavailable, devstate.ConnectorUnavailableName, devstate.ConnectorNoErrorName, "",
			InfoRestarting, now, now, cmd.DeviceID, now); err != nil {
			return fmt.Errorf("fleet: restarting connectors of %s: %w", cmd.SN, err)
		}
		if err := s.expectRestart(ctx, b.Tx, cmd.DeviceID, now); err != nil {
			return err
		}
		b.MarkChanged(cmd.DeviceID) // the consoles re-read the connectors even when the status stays
		return s.recompute(ctx, b, cmd.DeviceID)
	}})
}
