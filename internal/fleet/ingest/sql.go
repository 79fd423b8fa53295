package ingest

import (
	"context"
	"strings"

	"chargeops/internal/db"
)

// Multi-row statements of the ingest pipeline. On SQLite each statement takes at most
// maxRowsPerStatement rows, well under its 32,766 parameters. On PostgreSQL the rows travel as
// one array per column through unnest(): one statement text whatever the number of rows, so it
// is prepared once per connection instead of once per batch size.
const (
	maxRowsPerStatement = 500

	sqlInsertLogs    = `INSERT INTO protocol_log (sn, type, data, created_at) VALUES `
	sqlLogValues     = `(?,?,?,?)`
	sqlUpsertRuntime = `INSERT INTO device_runtime (device_id, name, connector_id, value, unit, sampled_at) VALUES `
	sqlRuntimeValues = `(?,?,?,?,?,?)`
	// an older sample never overwrites a newer one (a replayed message, a late batch)
	sqlRuntimeConflict = ` ON CONFLICT (device_id, name, connector_id) DO UPDATE SET value = excluded.value, unit = excluded.unit,
		sampled_at = excluded.sampled_at WHERE device_runtime.sampled_at <= excluded.sampled_at`
	sqlInsertSeries   = `INSERT INTO device_series (device_id, name, connector_id, ts, value) VALUES `
	sqlSeriesValues   = `(?,?,?,?,?)`
	sqlSeriesConflict = ` ON CONFLICT (device_id, name, connector_id, ts) DO NOTHING`

	pgInsertLogs     = `INSERT INTO protocol_log (sn, type, data, created_at) SELECT * FROM unnest(?::text[], ?::int[], ?::text[], ?::bigint[])`
	pgUpsertRuntime  = `INSERT INTO device_runtime (device_id, name, connector_id, value, unit, sampled_at) SELECT * FROM unnest(?::bigint[], ?::text[], ?::int[], ?::text[], ?::text[], ?::bigint[])` + sqlRuntimeConflict
	pgInsertSeries   = `INSERT INTO device_series (device_id, name, connector_id, ts, value) SELECT * FROM unnest(?::bigint[], ?::text[], ?::int[], ?::bigint[], ?::float8[])` + sqlSeriesConflict
	maxRowsPerArrays = 10000
)

// columns runs a PostgreSQL unnest statement over n rows in chunks of maxRowsPerArrays; cols(lo,
// hi) returns the column arrays of rows lo..hi-1.
func columns(ctx context.Context, tx *db.Tx, n int, q string, cols func(lo, hi int) []any) error {
	for lo := 0; lo < n; lo += maxRowsPerArrays {
		if _, err := tx.Exec(ctx, q, cols(lo, min(lo+maxRowsPerArrays, n))...); err != nil {
			return err
		}
	}
	return nil
}

// multiRow runs head + n value groups + tail in chunks of maxRowsPerStatement rows; args(i)
// appends row i's values.
func multiRow(ctx context.Context, tx *db.Tx, n int, head, values, tail string, args func(i int, dst []any) []any) error {
	for start := 0; start < n; start += maxRowsPerStatement {
		end := min(start+maxRowsPerStatement, n)
		var q strings.Builder
		q.Grow(len(head) + (end-start)*(len(values)+1) + len(tail))
		q.WriteString(head)
		var a []any
		for i := start; i < end; i++ {
			if i > start {
				q.WriteByte(',')
			}
			q.WriteString(values)
			a = args(i, a)
		}
		q.WriteString(tail)
		if _, err := tx.Exec(ctx, q.String(), a...); err != nil {
			return err
		}
	}
	return nil
}

func insertLogs(ctx context.Context, tx *db.Tx, rows []LogRow) error {
	if tx.Dialect() == db.Postgres {
		return columns(ctx, tx, len(rows), pgInsertLogs, func(lo, hi int) []any {
			sn, typ, data, at := make([]string, 0, hi-lo), make([]int32, 0, hi-lo), make([]string, 0, hi-lo), make([]int64, 0, hi-lo)
			for _, r := range rows[lo:hi] {
				sn, typ, data, at = append(sn, db.Text(r.SN)), append(typ, int32(r.Type)), append(data, db.Text(r.Data)), append(at, r.At)
			}
			return []any{sn, typ, data, at}
		})
	}
	return multiRow(ctx, tx, len(rows), sqlInsertLogs, sqlLogValues, "", func(i int, a []any) []any {
		r := rows[i]
		return append(a, db.Text(r.SN), r.Type, db.Text(r.Data), r.At)
	})
}

func upsertRuntime(ctx context.Context, tx *db.Tx, latest map[runtimeKey]RuntimeRow) error {
	rows := make([]RuntimeRow, 0, len(latest))
	for _, r := range latest {
		rows = append(rows, r)
	}
	if tx.Dialect() == db.Postgres {
		return columns(ctx, tx, len(rows), pgUpsertRuntime, func(lo, hi int) []any {
			n := hi - lo
			dev, name, conn, val, unit, at := make([]int64, 0, n), make([]string, 0, n), make([]int32, 0, n), make([]string, 0, n), make([]string, 0, n), make([]int64, 0, n)
			for _, r := range rows[lo:hi] {
				dev, name, conn = append(dev, r.DeviceID), append(name, db.Text(r.Name)), append(conn, int32(r.Connector))
				val, unit, at = append(val, db.Text(r.Value)), append(unit, db.Text(r.Unit)), append(at, r.At)
			}
			return []any{dev, name, conn, val, unit, at}
		})
	}
	return multiRow(ctx, tx, len(rows), sqlUpsertRuntime, sqlRuntimeValues, sqlRuntimeConflict, func(i int, a []any) []any {
		r := rows[i]
		return append(a, r.DeviceID, db.Text(r.Name), r.Connector, db.Text(r.Value), db.Text(r.Unit), r.At)
	})
}

func insertSeries(ctx context.Context, tx *db.Tx, pts []SeriesSample) error {
	if tx.Dialect() == db.Postgres {
		return columns(ctx, tx, len(pts), pgInsertSeries, func(lo, hi int) []any {
			n := hi - lo
			dev, name, conn, at, val := make([]int64, 0, n), make([]string, 0, n), make([]int32, 0, n), make([]int64, 0, n), make([]float64, 0, n)
			for _, p := range pts[lo:hi] {
				dev, name, conn, at, val = append(dev, p.DeviceID), append(name, db.Text(p.Name)), append(conn, int32(p.Connector)), append(at, p.At), append(val, p.Value)
			}
			return []any{dev, name, conn, at, val}
		})
	}
	return multiRow(ctx, tx, len(pts), sqlInsertSeries, sqlSeriesValues, sqlSeriesConflict, func(i int, a []any) []any {
		p := pts[i]
		return append(a, p.DeviceID, db.Text(p.Name), p.Connector, p.At, p.Value)
	})
}

// sqlFirstMeter records a session's first sampled register, once, while it is open.
const sqlFirstMeter = `UPDATE device_transaction SET meter_first = ? WHERE id = ? AND device_id = ? AND meter_first < 0 AND stopped_at = 0`

// firstMeters records the first sampled register of the sessions in ms (one statement per
// session; the service sends each session's samples only until its first is stored).
func firstMeters(ctx context.Context, tx *db.Tx, ms map[int64]SessionMeter) error {
	for _, m := range ms {
		if _, err := tx.Exec(ctx, sqlFirstMeter, m.Wh, m.TransactionID, m.DeviceID); err != nil {
			return err
		}
	}
	return nil
}

// Runtime counts (Seen), one statement per table for the whole batch: the device's last-seen
// time and, when seconds were counted, the connection's counted mark (the connection must still
// be the device's); otherwise the last-seen time of whichever connection is online. The same
// rules as writeSeen, which does one count inside a step.
const (
	sqlSeenFromValues = `(SELECT column1 AS device_id, column2 AS conn_id, column3 AS at, column4 AS secs, column5 AS counted FROM (VALUES `
	sqlSeenValues     = `(?,?,?,?,?)`
	pgSeenFrom        = `unnest(?::bigint[], ?::text[], ?::bigint[], ?::bigint[], ?::bigint[]) AS v(device_id, conn_id, at, secs, counted)`
	sqlSeenStateSet   = `UPDATE device_state SET last_seen_at = v.at,
		runtime_counted_at = CASE WHEN v.secs > 0 THEN v.counted ELSE device_state.runtime_counted_at END FROM `
	sqlSeenStateWhere = ` WHERE device_state.device_id = v.device_id
		AND CASE WHEN v.secs > 0 THEN device_state.conn_id = v.conn_id ELSE device_state.online = 1 END`
	sqlSeenDeviceSet   = `UPDATE device SET total_runtime = device.total_runtime + CASE WHEN v.secs > 0 THEN v.secs ELSE 0 END, last_refresh_at = v.at FROM `
	sqlSeenDeviceWhere = ` WHERE device.id = v.device_id`
)

func updateSeen(ctx context.Context, tx *db.Tx, seen map[int64]Seen) error {
	if len(seen) == 0 {
		return nil
	}
	rows := make([]Seen, 0, len(seen))
	for _, c := range seen {
		rows = append(rows, c)
	}
	for _, q := range [][2]string{{sqlSeenStateSet, sqlSeenStateWhere}, {sqlSeenDeviceSet, sqlSeenDeviceWhere}} {
		var err error
		if tx.Dialect() == db.Postgres {
			err = columns(ctx, tx, len(rows), q[0]+pgSeenFrom+q[1], func(lo, hi int) []any {
				n := hi - lo
				dev, conn, at, secs, counted := make([]int64, 0, n), make([]string, 0, n), make([]int64, 0, n), make([]int64, 0, n), make([]int64, 0, n)
				for _, c := range rows[lo:hi] {
					dev, conn, at, secs, counted = append(dev, c.DeviceID), append(conn, c.ConnID), append(at, c.At), append(secs, c.Secs), append(counted, c.CountedAt)
				}
				return []any{dev, conn, at, secs, counted}
			})
		} else {
			err = multiRow(ctx, tx, len(rows), q[0]+sqlSeenFromValues, sqlSeenValues, ")) AS v"+q[1], func(i int, a []any) []any {
				c := rows[i]
				return append(a, c.DeviceID, c.ConnID, c.At, c.Secs, c.CountedAt)
			})
		}
		if err != nil {
			return err
		}
	}
	return nil
}
