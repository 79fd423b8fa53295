package fleet

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"chargeops/internal/db"
	"chargeops/internal/fleet/ingest"
)

// Node liveness (docs/gateway.md, "Scale-out"): every node beats into cluster_node (migration
// 0039). When a node's beat lapses (Misses beats missed: it crashed, or lost the database),
// the connections device_state records on it are ended by one surviving node, the live node
// first by name (the others leave it to that one; ending is idempotent anyway: Disconnected
// changes a row only while it is online under that conn_id), each with its Offline event and
// status, as a close on the node itself would have. So a crashed node's chargers that do not
// come back go offline after about Beat × Misses, not after the charger heartbeat rule's three
// intervals and a minute (the sweep in service.go, still there for a node without liveness).

// LivenessOptions are the beat and how many missed beats make a node lapsed.
type LivenessOptions struct {
	Beat   time.Duration // default 10 s
	Misses int           // default 3
}

func (o LivenessOptions) withDefaults() LivenessOptions {
	if o.Beat <= 0 {
		o.Beat = 10 * time.Second
	}
	if o.Misses <= 0 {
		o.Misses = 3
	}
	return o
}

// Lapse is how long a node may stay silent before its connections are ended.
func (o LivenessOptions) Lapse() time.Duration {
	o = o.withDefaults()
	return o.Beat * time.Duration(o.Misses)
}

// RunLiveness beats for this node and ends lapsed nodes' connections until ctx ends. A node
// restarted under the same name first ends what its previous run left online and no longer
// holds; a node whose own beat lapsed (it could not write for a while, and a survivor may have
// ended its connections) records the connections it still holds online again.
func (s *Service) RunLiveness(ctx context.Context, o LivenessOptions) {
	o = o.withDefaults()
	if err := s.endLeftovers(ctx); err != nil {
		slog.Warn("node liveness: leftovers of the previous run", "node", s.opt.Node, "err", err)
	}
	t := time.NewTicker(o.Beat)
	defer t.Stop()
	var lastBeat time.Time // zero: reclaim after the first beat
	for {
		if err := s.Beat(ctx); err != nil {
			slog.Warn("node liveness: beat not written", "node", s.opt.Node, "err", err)
		} else {
			if time.Since(lastBeat) > o.Lapse() {
				if n := s.reclaim(ctx); n > 0 {
					slog.Warn("node liveness: this node's beat had lapsed; its connections recorded online again", "node", s.opt.Node, "connections", n)
				}
			}
			lastBeat = time.Now()
			if _, err := s.ExpireLapsedNodes(ctx, o.Lapse()); err != nil {
				slog.Warn("node liveness: lapsed nodes", "node", s.opt.Node, "err", err)
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Beat records that this node is alive now.
func (s *Service) Beat(ctx context.Context) error {
	now := db.NowMS()
	_, err := s.db.Exec(ctx, `INSERT INTO cluster_node (name, started_at, beat_at) VALUES (?, ?, ?)
		ON CONFLICT (name) DO UPDATE SET beat_at = excluded.beat_at`, s.opt.Node, now, now)
	if err != nil {
		return fmt.Errorf("fleet: node beat: %w", err)
	}
	s.beaten.Store(true)
	return nil
}

// firstBeat writes this node's beat before the first connection it records, unless it beat
// already: a node that stopped before its liveness loop beat once would otherwise leave its
// chargers online under a name no survivor finds lapsed. A failure is left to the connection's
// own write, which fails on the same database.
func (s *Service) firstBeat(ctx context.Context) {
	if !s.beaten.Load() {
		_ = s.Beat(ctx)
	}
}

// ExpireLapsedNodes ends the connections recorded on nodes whose beat is older than lapse,
// when this node is the live node first by name; it returns how many it ended.
func (s *Service) ExpireLapsedNodes(ctx context.Context, lapse time.Duration) (int, error) {
	since := db.NowMS() - lapse.Milliseconds()
	var first string
	err := s.db.QueryRow(ctx, `SELECT name FROM cluster_node WHERE beat_at >= ? ORDER BY name LIMIT 1`, since).Scan(&first)
	if db.NotFound(err) || (err == nil && first != s.opt.Node) {
		return 0, nil // another live node does it (or this one has not beaten yet)
	}
	if err != nil {
		return 0, fmt.Errorf("fleet: lapsed nodes: elect: %w", err)
	}
	names, err := s.lapsedNodes(ctx, since)
	if err != nil {
		return 0, err
	}
	total := 0
	for _, name := range names {
		n, err := s.endNodeConnections(ctx, name)
		if err != nil {
			return total, err
		}
		total += n
		if n > 0 {
			slog.Warn("node lapsed: its connections marked offline", "lapsed", name, "connections", n, "by", s.opt.Node)
			continue
		}
		// nothing of it is online any more: forget it (unless it beat again meanwhile)
		if _, err := s.db.Exec(ctx, `DELETE FROM cluster_node WHERE name = ? AND beat_at < ?`, name, since); err != nil {
			return total, fmt.Errorf("fleet: lapsed nodes: forget %s: %w", name, err)
		}
	}
	return total, nil
}

func (s *Service) lapsedNodes(ctx context.Context, since int64) ([]string, error) {
	rows, err := s.db.Query(ctx, `SELECT name FROM cluster_node WHERE beat_at < ? AND name <> ? ORDER BY name`, since, s.opt.Node)
	if err != nil {
		return nil, fmt.Errorf("fleet: lapsed nodes: %w", err)
	}
	defer rows.Close()
	var names []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, fmt.Errorf("fleet: lapsed nodes: %w", err)
		}
		names = append(names, n)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("fleet: lapsed nodes: %w", err)
	}
	return names, nil
}

// endLeftovers ends the connections recorded online on this node's name that this node does
// not hold: what its previous run left when it crashed.
func (s *Service) endLeftovers(ctx context.Context) error {
	_, err := s.endNodeConnections(ctx, s.opt.Node)
	return err
}

// endNodeConnections ends the connections device_state records online on node, except those
// this node holds, a bounded number at a time (sweepBatch, sweepParallel).
func (s *Service) endNodeConnections(ctx context.Context, node string) (int, error) {
	rows, err := s.db.Query(ctx, `SELECT device_id, conn_id FROM device_state WHERE node = ? AND online = 1 LIMIT ?`, node, sweepBatch)
	if err != nil {
		return 0, fmt.Errorf("fleet: connections of node %s: %w", node, err)
	}
	type conn struct {
		device int64
		id     string
	}
	var list []conn
	for rows.Next() {
		var c conn
		if err := rows.Scan(&c.device, &c.id); err != nil {
			rows.Close()
			return 0, fmt.Errorf("fleet: connections of node %s: %w", node, err)
		}
		list = append(list, c)
	}
	rows.Close()
	sem := make(chan struct{}, sweepParallel)
	var wg sync.WaitGroup
	ended := 0
	for _, c := range list {
		dev, err := s.DeviceByID(ctx, c.device)
		if err != nil || dev == nil {
			continue
		}
		if s.hot.holds(c.device, c.id) {
			continue // held here (a connection of this run, not a leftover)
		}
		ended++
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			s.Disconnected(ctx, dev, c.id)
		}()
	}
	wg.Wait()
	return ended, nil
}

// sqlReclaimed records a connection held here online again, if it is still the recorded one.
const sqlReclaimed = `UPDATE device_state SET online = 1, node = ?, updated_at = ? WHERE device_id = ? AND conn_id = ? AND online = 0`

// reclaim records online again the connections this node holds that device_state shows offline
// under the same conn_id (a survivor ended them while this node's beat had lapsed): the Offline
// event ends and the status is recomputed, as a connect would. It returns how many it changed.
func (s *Service) reclaim(ctx context.Context) int {
	s.hot.mu.Lock()
	held := make(map[int64]string, len(s.hot.m))
	for id, d := range s.hot.m {
		held[id] = d.connID
	}
	s.hot.mu.Unlock()
	n := 0
	for id, conn := range held {
		dev, err := s.DeviceByID(ctx, id)
		if err != nil || dev == nil {
			continue
		}
		now := db.NowMS()
		changed := false
		err = s.Ingest.Commit(ctx, &ingest.Unit{Key: ingest.KeyOf(dev.SN), Step: func(ctx context.Context, b *ingest.Batch) error {
			res, err := b.Tx.Exec(ctx, sqlReclaimed, s.opt.Node, now, id, conn)
			if err != nil {
				return err
			}
			if k, err := res.RowsAffected(); err != nil || k == 0 {
				return err
			}
			changed = true
			if err := s.endEvents(ctx, b, eventEnd{DeviceID: id, SN: dev.SN, Kinds: []int{KindOffline}, Connector: anyConnector, At: now}); err != nil {
				return err
			}
			return s.recompute(ctx, b, id)
		}})
		if err != nil {
			slog.Warn("node liveness: connection not recorded again", "sn", dev.SN, "err", err)
		} else if changed {
			n++
		}
	}
	return n
}
