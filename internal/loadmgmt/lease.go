package loadmgmt

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"chargeops/internal/db"
	"chargeops/internal/fleet"
	"chargeops/internal/smartcharging"
)

// The lease (site_power_lease): each enabled site is planned by exactly one node at a time.
// Every LeaseTTL/3 a node renews its leases and takes the sites whose lease lapsed or that
// have none; a node that dies stops renewing, so its sites move within LeaseTTL and a tick. A
// row changes holder only by an UPDATE whose condition (held by me, or expired) the database
// checks row by row under its write lock, or by an INSERT that does nothing on a conflict: two
// nodes never both win. On SQLite there is one node and it holds every site.

func (s *Service) leaseLoop(ctx context.Context) {
	every := s.opt.LeaseTTL / 3
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		if err := s.renewLeases(ctx); err != nil && ctx.Err() == nil {
			slog.Warn("loadmgmt: lease", "node", s.opt.Node, "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// renewLeases renews and takes leases, lets go of sites no longer enabled (their plan is
// removed) and updates what this node plans; a site just taken is planned at the next tick.
func (s *Service) renewLeases(ctx context.Context) error {
	now := db.NowMS()
	exp := now + s.opt.LeaseTTL.Milliseconds()
	off, err := db.Column[int64](ctx, s.db, `SELECT l.site_id FROM site_power_lease l LEFT JOIN site_power p ON p.site_id = l.site_id
		WHERE l.node = ? AND COALESCE(p.enabled, 0) = 0`, s.opt.Node)
	if err != nil {
		return err
	}
	if len(off) > 0 {
		if err := s.dropSites(ctx, off); err != nil {
			return err
		}
	}
	if _, err := s.db.Exec(ctx, `UPDATE site_power_lease SET node = ?, expires_at = ?
		WHERE (node = ? OR expires_at < ?) AND site_id IN (SELECT site_id FROM site_power WHERE enabled = 1)`,
		s.opt.Node, exp, s.opt.Node, now); err != nil {
		return err
	}
	if _, err := s.db.Exec(ctx, `INSERT INTO site_power_lease (site_id, node, expires_at)
		SELECT site_id, ?, ? FROM site_power WHERE enabled = 1 ON CONFLICT (site_id) DO NOTHING`, s.opt.Node, exp); err != nil {
		return err
	}
	held, err := db.Column[int64](ctx, s.db, `SELECT site_id FROM site_power_lease WHERE node = ? AND expires_at > ?`, s.opt.Node, now)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	next := make(map[int64]bool, len(held))
	for _, id := range held {
		next[id] = true
		if !s.owned[id] {
			s.dirty[id] = true
		}
	}
	for id := range s.owned {
		if !next[id] {
			delete(s.memo, id)
			delete(s.dirty, id)
		}
	}
	s.owned = next
	return nil
}

// dropSites removes the plan of sites whose load management was turned off, announces it, gives
// their leases up and clears the fallback of their online chargers (in the background: the lease
// loop does not wait for chargers). A charger keeps its last Tx profile until it ends
// (ProfileTTL) or its session does.
func (s *Service) dropSites(ctx context.Context, ids []int64) error {
	in := db.Placeholders(len(ids))
	args := db.Args(ids)
	var gone []AllocationChange
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		rows, err := tx.Query(ctx, `SELECT device_id, site_id, connector_id, transaction_id, state FROM power_allocation WHERE site_id IN (`+in+`)`, args...)
		if err != nil {
			return err
		}
		now := db.NowMS()
		for rows.Next() {
			c := AllocationChange{Ended: true, At: now}
			if err := rows.Scan(&c.DeviceID, &c.SiteID, &c.ConnectorID, &c.TransactionID, &c.State); err != nil {
				rows.Close()
				return err
			}
			gone = append(gone, c)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `DELETE FROM power_allocation WHERE site_id IN (`+in+`)`, args...); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `DELETE FROM site_power_lease WHERE node = ? AND site_id IN (`+in+`)`, append([]any{s.opt.Node}, args...)...)
		return err
	})
	if err != nil {
		return err
	}
	s.mu.Lock()
	for _, id := range ids {
		delete(s.owned, id)
		delete(s.memo, id)
	}
	s.mu.Unlock()
	s.announce(gone)
	devices, err := db.Column[int64](ctx, s.db, `SELECT d.id FROM device d JOIN device_state st ON st.device_id = d.id
		WHERE d.site_id IN (`+in+`) AND st.online = 1 AND d.enabled = 1`, args...)
	if err != nil {
		return err
	}
	s.clearFallbacks(ctx, devices)
	return nil
}

// clearFallbacks clears the fallback profile of devices, each asked again while it is busy with
// another command (a few seconds at most).
func (s *Service) clearFallbacks(ctx context.Context, devices []int64) {
	if s.fleet == nil || len(devices) == 0 {
		return
	}
	s.mu.Lock()
	for _, d := range devices {
		delete(s.fallback, d)
	}
	s.mu.Unlock()
	s.done.Add(1)
	go func() {
		defer s.done.Done()
		for _, d := range devices {
			for try := 0; try < 20; try++ {
				_, _, err := s.fleet.ClearProfiles(ctx, d, smartcharging.ClearFilter{ID: FallbackProfileID}, byLoadManager)
				if !errors.Is(err, fleet.ErrBusy) {
					if err != nil {
						slog.Warn("loadmgmt: fallback not cleared", "device", d, "err", err)
					}
					break
				}
				if sleep(ctx, 500*time.Millisecond) != nil {
					return
				}
			}
		}
	}()
}

// sleep waits d or until ctx ends (its error).
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// releaseLeases gives every lease of this node up (Stop).
func (s *Service) releaseLeases(ctx context.Context) error {
	s.mu.Lock()
	s.owned = map[int64]bool{}
	clear(s.memo)
	s.mu.Unlock()
	_, err := s.db.Exec(ctx, `DELETE FROM site_power_lease WHERE node = ?`, s.opt.Node)
	return err
}

// holding lists which of ids this node still holds a live lease on, read inside the plan's
// transaction: a node that stalled past its lease does not write over its successor's plan.
func (s *Service) holding(ctx context.Context, q db.Querier, ids []int64) (map[int64]bool, error) {
	held := map[int64]bool{}
	for start := 0; start < len(ids); start += chunk {
		part := ids[start:min(start+chunk, len(ids))]
		got, err := db.Column[int64](ctx, q, `SELECT site_id FROM site_power_lease WHERE node = ? AND expires_at > ? AND site_id IN (`+db.Placeholders(len(part))+`)`,
			append([]any{s.opt.Node, db.NowMS()}, db.Args(part)...)...)
		if err != nil {
			return nil, err
		}
		for _, id := range got {
			held[id] = true
		}
	}
	return held, nil
}
