package loadmgmt

import (
	"context"
	"sort"
	"strings"
	"time"

	"chargeops/internal/db"
)

// Samples (site_power_sample): every SampleEvery the planning node writes one row per site it
// plans: the effective limit, the planned total (each allocation at Volts on its phases) and
// the measured total (the chargers' latest Power.Active.Import), and the number of sessions.
// Rows older than 31 days are deleted once an hour.

// writeSamples writes one sample per owned, planned site.
func (s *Service) writeSamples(ctx context.Context) error {
	s.mu.Lock()
	memo := make(map[int64]siteMemo, len(s.memo))
	for id, m := range s.memo {
		if s.owned[id] {
			memo[id] = m
			s.sampled[id] = true
		}
	}
	s.mu.Unlock()
	if len(memo) == 0 {
		return nil
	}
	ids := make([]int64, 0, len(memo))
	for id := range memo {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(a, b int) bool { return ids[a] < ids[b] })
	at := time.Now().Truncate(time.Second).UnixMilli()
	for start := 0; start < len(ids); start += chunk {
		part := ids[start:min(start+chunk, len(ids))]
		in, args := db.Placeholders(len(part)), db.Args(part)
		type agg struct {
			w float64
			n int
		}
		alloc := map[int64]agg{}
		rows, err := s.db.Query(ctx, `SELECT site_id, SUM(limit_w), COUNT(*) FROM power_allocation WHERE site_id IN (`+in+`) GROUP BY site_id`, args...)
		if err != nil {
			return err
		}
		for rows.Next() {
			var id int64
			var a agg
			if err := rows.Scan(&id, &a.w, &a.n); err != nil {
				rows.Close()
				return err
			}
			alloc[id] = a
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		actual, err := s.actualBySite(ctx, in, args)
		if err != nil {
			return err
		}
		var b strings.Builder
		b.WriteString(`INSERT INTO site_power_sample (site_id, at, limit_w, allocated_w, actual_w, sessions) VALUES `)
		vals := make([]any, 0, 6*len(part))
		for i, id := range part {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString("(?, ?, ?, ?, ?, ?)")
			vals = append(vals, id, at, memo[id].limitW, alloc[id].w, actual[id], alloc[id].n)
		}
		b.WriteString(` ON CONFLICT (site_id, at) DO NOTHING`)
		if _, err := s.db.Exec(ctx, b.String(), vals...); err != nil {
			return err
		}
	}
	return nil
}

// sqlDrawing keeps the power readings of connectors with an open session (connector 0, the
// charger's total, while any of its sessions is open): the last reading of a session that ended
// stays in device_runtime but is not drawn any more.
const sqlDrawing = `EXISTS (SELECT 1 FROM device_transaction t WHERE t.device_id = r.device_id AND t.stopped_at = 0
	AND (r.connector_id = 0 OR t.connector_id = r.connector_id))`

// actualBySite sums the sites' chargers' latest active power (W).
func (s *Service) actualBySite(ctx context.Context, in string, args []any) (map[int64]float64, error) {
	rows, err := s.db.Query(ctx, `SELECT d.site_id, r.device_id, r.connector_id, r.value, r.unit, r.sampled_at
		FROM device d JOIN device_runtime r ON r.device_id = d.id AND r.name = 'Power.Active.Import'
		WHERE d.site_id IN (`+in+`) AND `+sqlDrawing, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	per := map[int64]map[akey]power{}
	for rows.Next() {
		var site int64
		var k akey
		var v, unit string
		var at int64
		if err := rows.Scan(&site, &k.dev, &k.conn, &v, &unit, &at); err != nil {
			return nil, err
		}
		if w, ok := watts(v, unit); ok {
			if per[site] == nil {
				per[site] = map[akey]power{}
			}
			per[site][k] = power{w: w, at: at}
		}
	}
	out := map[int64]float64{}
	for site, pw := range per {
		out[site] = siteActual(pw)
	}
	return out, rows.Err()
}

// SampleRetention is how long samples are kept.
const SampleRetention = 31 * 24 * time.Hour

// purgeSamples deletes the samples past SampleRetention (any node may: the same statement).
func (s *Service) purgeSamples(ctx context.Context) error {
	_, err := s.db.Exec(ctx, `DELETE FROM site_power_sample WHERE at < ?`, time.Now().Add(-SampleRetention).UnixMilli())
	return err
}
