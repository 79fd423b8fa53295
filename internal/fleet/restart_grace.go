package fleet

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"chargeops/internal/db"
	"chargeops/internal/fleet/ingest"
	"chargeops/internal/stats"
)

// A reboot from the console is not an outage (issue 30 item 17; docs/gateway.md, "Restarts
// from the console"). A charger that accepted a Reset (control type 1 or 2) and drops its
// connection is expected back: its disconnect opens no Offline event, so no notification,
// offline count, fault count or availability loss comes of it, while its status reads Offline
// (it is) and home counts it as restarting. When it connects again within the restart grace
// nothing was ever opened. When it stays away longer, the sweep opens the Offline event as a
// plain disconnect would have, starting at the disconnect time, and the statistics count the
// whole outage.
//
// What is expected is kept in device_state (migration 0044), not in memory: restart_until
// (the accepted Reset's time + grace; at the disconnect, the disconnect time + grace) and
// restart_left_at (the disconnect time). Any node's sweep finishes the wait, so a node restart
// or a crashed node's connections ended by a survivor lose nothing, and two sweeping nodes
// open the event once (the claim is a conditional update).

// DefaultRestartGrace is how long a charger that left for a console Reset may stay away before
// it counts as offline: the window home counts it as restarting (stats.RestartWindow).
const DefaultRestartGrace = time.Duration(stats.RestartWindow) * time.Millisecond

// Restart-grace SQL.
const (
	// the Reset was accepted: a disconnect until then is expected (not once it has left)
	sqlRestartExpected = `UPDATE device_state SET restart_until = ? WHERE device_id = ? AND restart_left_at = 0`
	// is a restart expected now: the accepted Reset's window, or a Reset still waiting for the
	// charger's answer (a charger may close its socket right after answering)
	sqlRestartPending = `SELECT COALESCE((SELECT restart_until FROM device_state WHERE device_id = ?), 0),
		(SELECT COUNT(*) FROM command WHERE device_id = ? AND control_type IN (?, ?) AND result = ?)`
	sqlRestartLeft  = `UPDATE device_state SET restart_left_at = ?, restart_until = ? WHERE device_id = ?`
	sqlRestartClear = `UPDATE device_state SET restart_until = 0, restart_left_at = 0 WHERE device_id = ? AND (restart_until <> 0 OR restart_left_at <> 0)`
	// the overdue chargers with their device rows, in one query
	sqlRestartOverdue = `SELECT ` + deviceCols + `, s.restart_left_at FROM device_state s JOIN device d ON d.id = s.device_id
		WHERE s.restart_left_at > 0 AND s.restart_until < ? ORDER BY s.restart_until LIMIT ?`
	sqlRestartState = `SELECT online FROM device_state WHERE device_id = ? AND restart_left_at = ?`
	sqlRestartClaim = `UPDATE device_state SET restart_until = 0, restart_left_at = 0 WHERE device_id = ? AND restart_left_at = ?`
)

// restartGrace is the grace in force.
func (s *Service) restartGrace() time.Duration {
	if s.opt.RestartGrace > 0 {
		return s.opt.RestartGrace
	}
	return DefaultRestartGrace
}

// expectRestart records that the device accepted a Reset at now.
func (s *Service) expectRestart(ctx context.Context, tx *db.Tx, deviceID, now int64) error {
	if _, err := tx.Exec(ctx, sqlRestartExpected, now+s.restartGrace().Milliseconds(), deviceID); err != nil {
		return fmt.Errorf("fleet: restart expected: %w", err)
	}
	return nil
}

// leftForRestart tells whether the device's disconnect at now is the restart of a console
// Reset, and if so records it: the charger has the grace from now to come back.
func (s *Service) leftForRestart(ctx context.Context, tx *db.Tx, deviceID, now int64) (bool, error) {
	var until, waiting int64
	if err := tx.QueryRow(ctx, sqlRestartPending, deviceID, deviceID, CtlSoftReset, CtlHardReset, ResultWaiting).Scan(&until, &waiting); err != nil {
		return false, fmt.Errorf("fleet: restart expected: %w", err)
	}
	if until <= now && waiting == 0 {
		return false, nil
	}
	if _, err := tx.Exec(ctx, sqlRestartLeft, now, now+s.restartGrace().Milliseconds(), deviceID); err != nil {
		return false, fmt.Errorf("fleet: restart left: %w", err)
	}
	return true, nil
}

// restartOver forgets an expected restart: the charger is connected again.
func restartOver(ctx context.Context, tx *db.Tx, deviceID int64) error {
	if _, err := tx.Exec(ctx, sqlRestartClear, deviceID); err != nil {
		return fmt.Errorf("fleet: restart over: %w", err)
	}
	return nil
}

// ExpireRestarts opens the Offline event of every charger that left for a console Reset and
// has not come back within the grace, starting at its disconnect; it returns how many it
// opened. The sweep runs it; it is safe on several nodes at once.
func (s *Service) ExpireRestarts(ctx context.Context, now int64) (int, error) {
	rows, err := s.db.Query(ctx, sqlRestartOverdue, now, sweepBatch)
	if err != nil {
		return 0, fmt.Errorf("fleet: overdue restarts: %w", err)
	}
	type overdue struct {
		dev  *Device
		left int64
	}
	var list []overdue
	for rows.Next() {
		var o overdue
		if o.dev, err = scanDevice(withTail{rows, []any{&o.left}}); err != nil {
			rows.Close()
			return 0, fmt.Errorf("fleet: overdue restarts: %w", err)
		}
		list = append(list, o)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, fmt.Errorf("fleet: overdue restarts: %w", err)
	}
	opened := 0
	for _, o := range list {
		dev := o.dev
		var open bool
		err = s.Ingest.Commit(ctx, &ingest.Unit{Key: ingest.KeyOf(dev.SN), Step: func(ctx context.Context, b *ingest.Batch) error {
			open = false
			var online int
			if err := b.Tx.QueryRow(ctx, sqlRestartState, dev.ID, o.left).Scan(&online); db.NotFound(err) {
				return nil // back meanwhile, or claimed by another node
			} else if err != nil {
				return err
			}
			res, err := b.Tx.Exec(ctx, sqlRestartClaim, dev.ID, o.left)
			if err != nil {
				return err
			}
			if n, err := res.RowsAffected(); err != nil || n == 0 || online == 1 {
				return err
			}
			if err := s.openEvent(ctx, b, eventOpen{Device: dev, Kind: KindOffline, Level: LevelOA, Code: EventOffline, Name: EventOffline, At: o.left}); err != nil {
				return err
			}
			open = true
			return s.recompute(ctx, b, dev.ID)
		}})
		if err != nil {
			return opened, fmt.Errorf("fleet: overdue restart of %s: %w", dev.SN, err)
		}
		if open {
			opened++
			slog.Info("charger not back from its restart: offline", "sn", dev.SN, "since", o.left)
		}
	}
	return opened, nil
}
