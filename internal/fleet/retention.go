package fleet

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"regexp"
	"strconv"
	"time"

	"chargeops/internal/db"
)

// Retention and time partitions of the two tables that grow with every frame and meter value
// (issue 9).
//
// PostgreSQL: protocol_log is range-partitioned on created_at by UTC day and device_series on
// ts by UTC month (migration 0012), each with a DEFAULT partition that takes any row no other
// partition covers, so an insert never fails. MaintainPartitions creates the current range and
// the next few before rows arrive for them; PurgeLogs drops whole expired days (one cheap DDL
// each, no dead rows for VACUUM) and deletes in chunks only what is left below the cut in the
// day that straddles it and in the default partition.
//
// SQLite: one table each. PurgeLogs deletes in chunks of purgeChunkSQLite rows and pauses
// between chunks at least as long as the last one took, so the single writer lock is free at
// least half the time and ingest never waits long.
//
// Series have no retention setting (spec and configuration name only the protocol-log
// retention): their partitions are created ahead and never dropped.

const (
	// purgeChunkSQLite rows per DELETE on SQLite: a few milliseconds of the writer lock.
	purgeChunkSQLite = 2000
	// purgeChunkPostgres rows per DELETE on PostgreSQL (MVCC: inserts never wait on it).
	purgeChunkPostgres = 5000
	// purgePause is the least pause between two chunks.
	purgePause = 20 * time.Millisecond
	// ddlLockTimeout bounds how long a partition DDL waits for its lock, and so how long
	// inserts and reads queued behind it can wait; a DDL that times out is tried again.
	ddlLockTimeout = "200ms"
	ddlAttempts    = 5
	ddlRetryPause  = time.Second
	// partitionLockKey is the advisory lock under which one node at a time maintains and
	// purges partitions.
	partitionLockKey = 7262012
)

// partitioning is one time-partitioned table on PostgreSQL.
type partitioning struct {
	table  string                               // the partitioned table
	column string                               // its partition key, unix ms
	span   func(t time.Time) (lo, hi time.Time) // the partition range holding t
	layout string                               // time layout of a partition's name: table_p<layout>
	ahead  int                                  // ranges created after the current one
	next   func(lo time.Time, n int) time.Time  // the start of the n-th range after the one starting at lo
}

var (
	logPartitions = partitioning{table: "protocol_log", column: "created_at", span: utcDay, layout: "20060102", ahead: 3,
		next: func(lo time.Time, n int) time.Time { return lo.AddDate(0, 0, n) }}
	seriesPartitions = partitioning{table: "device_series", column: "ts", span: utcMonth, layout: "200601", ahead: 1,
		next: func(lo time.Time, n int) time.Time { return lo.AddDate(0, n, 0) }}
	partitionedTables = []partitioning{logPartitions, seriesPartitions}
)

func utcDay(t time.Time) (time.Time, time.Time) {
	t = t.UTC()
	lo := time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
	return lo, lo.AddDate(0, 0, 1)
}

func utcMonth(t time.Time) (time.Time, time.Time) {
	t = t.UTC()
	lo := time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, time.UTC)
	return lo, lo.AddDate(0, 1, 0)
}

func (p partitioning) defaultName() string { return p.table + "_default" }

func (p partitioning) name(lo time.Time) string { return p.table + "_p" + lo.UTC().Format(p.layout) }

// SQL of the partition manager and the purge. Identifiers in the DDL come from the
// partitioning table above and formatted times, never from input.
const (
	sqlListPartitions = `SELECT c.relname, pg_get_expr(c.relpartbound, c.oid) FROM pg_inherits i
		JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = to_regclass(?)`
	sqlTryPartitionLock = `SELECT pg_try_advisory_lock(?)`
	sqlPartitionUnlock  = `SELECT pg_advisory_unlock(?)`
	sqlDDLLockTimeout   = `SET LOCAL lock_timeout = '` + ddlLockTimeout + `'`
	// %[1]s partition, %[2]s parent, %[3]s default partition, %[4]s column
	sqlNewPartition     = `CREATE TABLE %[1]s (LIKE %[2]s INCLUDING DEFAULTS)`
	sqlDefaultHasRange  = `SELECT EXISTS (SELECT 1 FROM %[3]s WHERE %[4]s >= ? AND %[4]s < ?)`
	sqlLockDefault      = `LOCK TABLE %[3]s IN ACCESS EXCLUSIVE MODE`
	sqlMoveFromDefault  = `WITH moved AS (DELETE FROM %[3]s WHERE %[4]s >= ? AND %[4]s < ? RETURNING *) INSERT INTO %[1]s SELECT * FROM moved`
	sqlAttachPartition  = `ALTER TABLE %[2]s ATTACH PARTITION %[1]s FOR VALUES FROM (%[5]d) TO (%[6]d)`
	sqlCountPartition   = `SELECT COUNT(*) FROM %s`
	sqlDropPartition    = `DROP TABLE %s`
	sqlPurgeChunkPG     = `DELETE FROM %[1]s WHERE ctid = ANY (ARRAY(SELECT ctid FROM %[1]s WHERE %[2]s < ? LIMIT %[3]d))`
	sqlPurgeChunkSQLite = `DELETE FROM protocol_log WHERE id IN (SELECT id FROM protocol_log WHERE created_at < ? ORDER BY created_at, id LIMIT ?)`
)

// partition is one partition of a table: a default one, or the range [lo, hi) in unix ms.
type partition struct {
	name   string
	def    bool
	lo, hi int64
}

var rangeBound = regexp.MustCompile(`^FOR VALUES FROM \('?(-?\d+)'?\) TO \('?(-?\d+)'?\)$`)

// listPartitions returns the partitions of a table. A partition whose bounds are not plain
// numbers (MINVALUE, MAXVALUE: never made here) is left out, so it is never dropped.
func listPartitions(ctx context.Context, q db.Querier, table string) ([]partition, error) {
	rows, err := q.Query(ctx, sqlListPartitions, table)
	if err != nil {
		return nil, fmt.Errorf("fleet: partitions of %s: %w", table, err)
	}
	defer rows.Close()
	var out []partition
	for rows.Next() {
		var name, bound string
		if err := rows.Scan(&name, &bound); err != nil {
			return nil, fmt.Errorf("fleet: partitions of %s: %w", table, err)
		}
		if bound == "DEFAULT" {
			out = append(out, partition{name: name, def: true})
			continue
		}
		m := rangeBound.FindStringSubmatch(bound)
		if m == nil {
			continue
		}
		lo, err1 := strconv.ParseInt(m[1], 10, 64)
		hi, err2 := strconv.ParseInt(m[2], 10, 64)
		if err1 == nil && err2 == nil {
			out = append(out, partition{name: name, lo: lo, hi: hi})
		}
	}
	return out, rows.Err()
}

// MaintainPartitions creates, on PostgreSQL, the partitions of the current range and the next
// few (protocol_log: today and 3 days ahead; device_series: this month and the next), moving
// rows the default partition holds for a new range into it. PurgeLogs runs it first; it should
// also run at start. Another node doing the same makes it a no-op; SQLite needs nothing.
func MaintainPartitions(ctx context.Context, d *db.DB) error {
	if d.Dialect() != db.Postgres {
		return nil
	}
	unlock, ok, err := partitionLock(ctx, d)
	if err != nil || !ok {
		return err
	}
	defer unlock()
	return maintainPartitions(ctx, d, time.Now())
}

func maintainPartitions(ctx context.Context, d *db.DB, now time.Time) error {
	var errs []error
	for _, p := range partitionedTables {
		if err := p.ensureAhead(ctx, d, now); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// ensureAhead creates the missing partitions from the range holding now to p.ahead ranges after it.
func (p partitioning) ensureAhead(ctx context.Context, d *db.DB, now time.Time) error {
	parts, err := listPartitions(ctx, d, p.table)
	if err != nil {
		return err
	}
	cur, _ := p.span(now)
	for i := 0; i <= p.ahead; i++ {
		lo := p.next(cur, i)
		hi := p.next(cur, i+1)
		if overlaps(parts, lo.UnixMilli(), hi.UnixMilli()) {
			continue
		}
		if err := p.create(ctx, d, lo, hi); err != nil {
			return err
		}
	}
	return nil
}

// overlaps tells whether a range partition already covers part of [lo, hi).
func overlaps(parts []partition, lo, hi int64) bool {
	for _, x := range parts {
		if !x.def && x.lo < hi && lo < x.hi {
			return true
		}
	}
	return false
}

// create adds the partition [lo, hi): a new table, filled with the rows the default partition
// holds for that range, then attached. ATTACH takes only a SHARE UPDATE EXCLUSIVE lock on the
// parent (CREATE TABLE ... PARTITION OF would take ACCESS EXCLUSIVE), so inserts into other
// partitions go on; the default partition is locked while it is checked.
func (p partitioning) create(ctx context.Context, d *db.DB, lo, hi time.Time) error {
	name := p.name(lo)
	f := func(q string) string {
		return fmt.Sprintf(q, name, p.table, p.defaultName(), p.column, lo.UnixMilli(), hi.UnixMilli())
	}
	return retryDDL(ctx, "create partition "+name, func() error {
		return d.InTx(ctx, func(tx *db.Tx) error {
			if _, err := tx.Exec(ctx, sqlDDLLockTimeout); err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, f(sqlNewPartition)); err != nil {
				return err
			}
			var inDefault bool
			if err := tx.QueryRow(ctx, f(sqlDefaultHasRange), lo.UnixMilli(), hi.UnixMilli()).Scan(&inDefault); err != nil {
				return err
			}
			if inDefault {
				// The lock keeps new rows of the range out of the default until the attach.
				if _, err := tx.Exec(ctx, f(sqlLockDefault)); err != nil {
					return err
				}
				if _, err := tx.Exec(ctx, f(sqlMoveFromDefault), lo.UnixMilli(), hi.UnixMilli()); err != nil {
					return err
				}
			}
			_, err := tx.Exec(ctx, f(sqlAttachPartition))
			return err
		})
	})
}

// retryDDL runs a partition DDL, trying again a few times when it gave up waiting for its lock
// (a long read or write transaction on the table).
func retryDDL(ctx context.Context, what string, fn func() error) error {
	var err error
	for attempt := 1; attempt <= ddlAttempts; attempt++ {
		if err = fn(); err == nil || !isLockTimeout(err) {
			break
		}
		if attempt < ddlAttempts && sleepCtx(ctx, ddlRetryPause) != nil {
			break
		}
	}
	if err != nil {
		return fmt.Errorf("fleet: %s: %w", what, err)
	}
	return nil
}

// isLockTimeout: PostgreSQL's lock_not_available (55P03), what lock_timeout raises.
func isLockTimeout(err error) bool {
	var coded interface{ SQLState() string }
	return errors.As(err, &coded) && coded.SQLState() == "55P03"
}

// partitionLock takes the advisory lock of partition work on a connection of its own; ok is
// false when another node holds it.
func partitionLock(ctx context.Context, d *db.DB) (unlock func(), ok bool, err error) {
	conn, err := d.Pool().Conn(ctx)
	if err != nil {
		return nil, false, fmt.Errorf("fleet: partition lock: %w", err)
	}
	if err := conn.QueryRowContext(ctx, db.Rebind(db.Postgres, sqlTryPartitionLock), partitionLockKey).Scan(&ok); err != nil || !ok {
		conn.Close()
		if err != nil {
			err = fmt.Errorf("fleet: partition lock: %w", err)
		}
		return nil, false, err
	}
	return func() {
		_, _ = conn.ExecContext(context.WithoutCancel(ctx), db.Rebind(db.Postgres, sqlPartitionUnlock), partitionLockKey)
		conn.Close()
	}, true, nil
}

// PurgeLogs deletes protocol-log rows older than days and returns how many went. On
// PostgreSQL it first maintains the partitions (MaintainPartitions), then drops every daily
// partition wholly older than the cut and deletes in chunks what is older in the day that
// straddles it and in the default partition. On SQLite it deletes in small chunks with pauses
// (see the top of this file). days <= 0 keeps every row.
func PurgeLogs(ctx context.Context, d *db.DB, days int) (int64, error) {
	if d.Dialect() != db.Postgres {
		if days <= 0 {
			return 0, nil
		}
		return purgeSQLite(ctx, d, cutOf(time.Now(), days))
	}
	unlock, ok, err := partitionLock(ctx, d)
	if err != nil || !ok {
		return 0, err
	}
	defer unlock()
	now := time.Now()
	maintainErr := maintainPartitions(ctx, d, now)
	if days <= 0 {
		return 0, maintainErr
	}
	n, err := purgePostgres(ctx, d, logPartitions, cutOf(now, days))
	return n, errors.Join(maintainErr, err)
}

// PurgeLogsBefore deletes the protocol-log rows created before cut (unix ms) the way PurgeLogs
// does, without maintaining the partitions first: the benchmarks measure it on data they loaded
// themselves.
func PurgeLogsBefore(ctx context.Context, d *db.DB, cut int64) (int64, error) {
	if d.Dialect() != db.Postgres {
		return purgeSQLite(ctx, d, cut)
	}
	return purgePostgres(ctx, d, logPartitions, cut)
}

// CreatePartition makes the partition of table ("protocol_log": a UTC day; "device_series": a
// UTC month) that holds t, on PostgreSQL, for rows loaded outside the ingest path (benchmarks,
// which fill days long past). The partition manager makes the ones ahead of now itself.
func CreatePartition(ctx context.Context, d *db.DB, table string, t time.Time) error {
	for _, p := range []partitioning{logPartitions, seriesPartitions} {
		if p.table == table {
			lo, hi := p.span(t)
			return p.create(ctx, d, lo, hi)
		}
	}
	return fmt.Errorf("fleet: %s is not partitioned", table)
}

// cutOf is the retention cut: rows created before it are purged.
func cutOf(now time.Time, days int) int64 {
	return now.Add(-time.Duration(days) * 24 * time.Hour).UnixMilli()
}

func purgeSQLite(ctx context.Context, d *db.DB, cut int64) (int64, error) {
	return chunked(ctx, purgeChunkSQLite, func() (sql.Result, error) {
		return d.Exec(ctx, sqlPurgeChunkSQLite, cut, purgeChunkSQLite)
	})
}

// purgePostgres drops the partitions of p wholly below cut and deletes in chunks the rows
// below cut in the partition that straddles it and in the default partition.
func purgePostgres(ctx context.Context, d *db.DB, p partitioning, cut int64) (int64, error) {
	parts, err := listPartitions(ctx, d, p.table)
	if err != nil {
		return 0, err
	}
	var total int64
	var errs []error
	for _, x := range parts {
		switch {
		case !x.def && x.hi <= cut:
			n, err := dropPartition(ctx, d, x.name)
			total += n
			if err != nil {
				errs = append(errs, err)
			}
		case x.def || x.lo < cut:
			q := fmt.Sprintf(sqlPurgeChunkPG, x.name, p.column, purgeChunkPostgres)
			n, err := chunked(ctx, purgeChunkPostgres, func() (sql.Result, error) { return d.Exec(ctx, q, cut) })
			total += n
			if err != nil {
				errs = append(errs, fmt.Errorf("fleet: purge %s: %w", x.name, err))
			}
		}
	}
	return total, errors.Join(errs...)
}

// dropPartition drops an expired partition and returns how many rows it held.
func dropPartition(ctx context.Context, d *db.DB, name string) (int64, error) {
	var n int64
	if err := d.QueryRow(ctx, fmt.Sprintf(sqlCountPartition, name)).Scan(&n); err != nil {
		return 0, fmt.Errorf("fleet: count %s: %w", name, err)
	}
	err := retryDDL(ctx, "drop partition "+name, func() error {
		return d.InTx(ctx, func(tx *db.Tx) error {
			if _, err := tx.Exec(ctx, sqlDDLLockTimeout); err != nil {
				return err
			}
			_, err := tx.Exec(ctx, fmt.Sprintf(sqlDropPartition, name))
			return err
		})
	})
	if err != nil {
		return 0, err
	}
	slog.Info("protocol-log partition dropped", "partition", name, "rows", n)
	return n, nil
}

// chunked runs del until it deletes fewer than chunk rows, pausing between runs at least
// purgePause and at least as long as the last run took.
func chunked(ctx context.Context, chunk int, del func() (sql.Result, error)) (int64, error) {
	var total int64
	for {
		start := time.Now()
		res, err := del()
		if err != nil {
			return total, err
		}
		n, _ := res.RowsAffected()
		total += n
		if n < int64(chunk) {
			return total, nil
		}
		if err := sleepCtx(ctx, max(purgePause, time.Since(start))); err != nil {
			return total, err
		}
	}
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// sqlEndedBefore finds events ended before a time. The state is written into the text (not an
// argument) so PostgreSQL's planner can use the partial index idx_device_event_ended.
var sqlEndedBefore = fmt.Sprintf("status = %d AND ended_at > 0 AND ended_at < ?", EventEnded)

// PurgeEndedEvents deletes the alarms, faults and events of every kind that ended more than
// days ago, in bounded batches (db.Purge); days <= 0 keeps them. An open event is never purged,
// however old (docs/logs.md, "Retention").
func PurgeEndedEvents(ctx context.Context, d *db.DB, days int) (int64, error) {
	if days <= 0 {
		return 0, nil
	}
	return db.Purge(ctx, d, "device_event", "id", sqlEndedBefore, 20, cutOf(time.Now(), days))
}
