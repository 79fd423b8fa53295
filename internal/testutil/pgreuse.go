package testutil

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

// Reusing PostgreSQL test databases (docs/benchmarks.md, "Reused PostgreSQL test databases").
//
// A database created from the template and dropped costs PostgreSQL about 0.25 CPU-s (0.05 to
// create, 0.2 to drop: the drop forces a checkpoint that writes the copy's pages out); emptying
// one costs about 6 ms. So a
// test's database is not dropped when the test ends: its rows are deleted, the template's rows
// (permission catalogue, settings, migration list) are copied back, every sequence is set
// back to the template's value, and the next test of the same process gets it. A database is
// reused only when its schema is still the template's (a test that adds a partition or an
// index gets a drop); anything that goes wrong on the way is a drop too.
//
// The databases a process still holds when it exits are dropped by a later test process
// (dropLeftovers: their name holds the ended process's id).

// pgBase is what a database copied from the template holds before any test touched it: read
// once per process from its first copy.
type pgBase struct {
	schema string   // fingerprint of the catalogue (pgSchemaFingerprint)
	tables []string // every table with rows of its own (partitions, not their parents)
	seeds  []pgSeed
	seqs   string // one statement setting every sequence back
}

type pgSeed struct {
	table string
	rows  []byte // COPY text format
}

var pgReuse struct {
	sync.Mutex
	base *pgBase
	free []string // emptied databases ready for the next test
}

// pgSchemaFingerprint digests the objects of the database outside PostgreSQL's own schemas:
// relations (tables, partitions, indexes, sequences, views) with their column count, functions,
// triggers and schemas.
const pgSchemaFingerprint = `SELECT md5(
  coalesce((SELECT string_agg(n.nspname || '.' || c.relname || ':' || c.relkind::text || ':' || c.relnatts, ',' ORDER BY n.nspname, c.relname)
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\_to%' AND n.nspname NOT LIKE 'pg\_temp%'), '')
  || '|' || (SELECT count(*) FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname NOT IN ('pg_catalog', 'information_schema'))
  || '|' || (SELECT count(*) FROM pg_trigger WHERE NOT tgisinternal)
  || '|' || (SELECT count(*) FROM pg_namespace))`

// pgTables lists the tables that hold rows: plain tables and partitions, not partitioned parents.
const pgTables = `SELECT quote_ident(n.nspname) || '.' || quote_ident(c.relname)
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
  WHERE c.relkind = 'r' AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\_to%'
  ORDER BY 1`

// pgSequences gives, for every sequence, the call that sets it back to where it is now.
const pgSequences = `SELECT format('setval(%L::regclass, %s, %s)', quote_ident(schemaname) || '.' || quote_ident(sequencename),
    coalesce(last_value, start_value), CASE WHEN last_value IS NULL THEN 'false' ELSE 'true' END)
  FROM pg_sequences ORDER BY 1`

// takeReusable hands out an emptied database of this process, or "" when none is free.
func takeReusable() string {
	pgReuse.Lock()
	defer pgReuse.Unlock()
	n := len(pgReuse.free)
	if n == 0 {
		return ""
	}
	name := pgReuse.free[n-1]
	pgReuse.free = pgReuse.free[:n-1]
	return name
}

// readBase records what the new copy name holds, unless it is recorded already.
func readBase(dsn string) error {
	pgReuse.Lock()
	defer pgReuse.Unlock()
	if pgReuse.base != nil {
		return nil
	}
	return withConn(dsn, func(ctx context.Context, c *pgconn.PgConn) error {
		b, err := readBaseFrom(ctx, c)
		pgReuse.base = b
		return err
	})
}

// readBaseFrom reads what a new copy of the template holds.
func readBaseFrom(ctx context.Context, c *pgconn.PgConn) (*pgBase, error) {
	var err error
	b := &pgBase{}
	if b.schema, err = one(ctx, c, pgSchemaFingerprint); err != nil {
		return nil, fmt.Errorf("schema fingerprint: %w", err)
	}
	tables, err := column(ctx, c, pgTables)
	if err != nil {
		return nil, fmt.Errorf("list tables: %w", err)
	}
	b.tables = tables
	for _, t := range tables {
		var buf bytes.Buffer
		if _, err := c.CopyTo(ctx, &buf, "COPY "+t+" TO STDOUT"); err != nil {
			return nil, fmt.Errorf("copy %s: %w", t, err)
		}
		if buf.Len() > 0 {
			b.seeds = append(b.seeds, pgSeed{table: t, rows: buf.Bytes()})
		}
	}
	seqs, err := column(ctx, c, pgSequences)
	if err != nil {
		return nil, fmt.Errorf("list sequences: %w", err)
	}
	if len(seqs) > 0 {
		b.seqs = "SELECT " + strings.Join(seqs, ", ")
	}
	return b, nil
}

// release empties database name for the next test of this process, or drops it when it cannot
// be reused (its schema changed, or emptying it failed). Runs when the test's own pool is closed.
func release(t testing.TB, admin *sql.DB, name, dsn string) {
	// a server process or pool of the test may still be ending its sessions
	_, err := admin.Exec(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, name)
	if err == nil {
		pgReuse.Lock()
		b := pgReuse.base
		pgReuse.Unlock()
		if b == nil {
			err = errors.New("the template's rows are not read yet")
		} else {
			err = reset(dsn, b)
		}
	}
	if err == nil {
		giveBack(name)
		return
	}
	t.Logf("testutil: %s is dropped, not reused: %v", name, err)
	_, _ = admin.Exec(`DROP DATABASE IF EXISTS ` + name + ` WITH (FORCE)`)
}

// reset makes database dsn hold what the template holds again; an error means it must be
// dropped instead. Every session on it has ended.
func reset(dsn string, b *pgBase) error {
	return withConn(dsn, func(ctx context.Context, c *pgconn.PgConn) error { return resetOn(ctx, c, b) })
}

// withConn runs fn on a connection of its own to dsn, with 30 s for all of it.
func withConn(dsn string, fn func(context.Context, *pgconn.PgConn) error) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := pgconn.Connect(ctx, dsn)
	if err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	defer c.Close(context.Background())
	return fn(ctx, c)
}

func resetOn(ctx context.Context, c *pgconn.PgConn, b *pgBase) error {
	schema, err := one(ctx, c, pgSchemaFingerprint)
	if err != nil {
		return fmt.Errorf("schema fingerprint: %w", err)
	}
	if schema != b.schema {
		return fmt.Errorf("the schema differs from the template's")
	}
	// replica role: no foreign-key checks or triggers, so the tables empty in any order
	var q strings.Builder
	q.WriteString("SET session_replication_role = replica;")
	for _, t := range b.tables {
		q.WriteString("DELETE FROM " + t + ";")
	}
	results, err := c.Exec(ctx, q.String()).ReadAll()
	if err != nil {
		return fmt.Errorf("empty the tables: %w", err)
	}
	// a table that held many rows leaves as many dead ones for the next test to scan past
	var bulky []string
	for i, r := range results[1:] {
		if r.CommandTag.RowsAffected() > 2000 {
			bulky = append(bulky, b.tables[i])
		}
	}
	if len(bulky) > 0 {
		if err := c.Exec(ctx, "VACUUM "+strings.Join(bulky, ", ")).Close(); err != nil {
			return fmt.Errorf("vacuum: %w", err)
		}
	}
	for _, s := range b.seeds {
		if _, err := c.CopyFrom(ctx, bytes.NewReader(s.rows), "COPY "+s.table+" FROM STDIN"); err != nil {
			return fmt.Errorf("copy back %s: %w", s.table, err)
		}
	}
	if b.seqs != "" {
		if err := c.Exec(ctx, b.seqs).Close(); err != nil {
			return fmt.Errorf("set sequences back: %w", err)
		}
	}
	return nil
}

// giveBack puts an emptied database in this process's free list.
func giveBack(name string) {
	pgReuse.Lock()
	pgReuse.free = append(pgReuse.free, name)
	pgReuse.Unlock()
}

// one runs a query answering one text value.
func one(ctx context.Context, c *pgconn.PgConn, sql string) (string, error) {
	vals, err := column(ctx, c, sql)
	if err != nil {
		return "", err
	}
	if len(vals) != 1 {
		return "", fmt.Errorf("%d rows, want 1", len(vals))
	}
	return vals[0], nil
}

// column runs a query and answers its first column as text.
func column(ctx context.Context, c *pgconn.PgConn, sql string) ([]string, error) {
	res := c.ExecParams(ctx, sql, nil, nil, nil, nil).Read()
	if res.Err != nil {
		return nil, res.Err
	}
	out := make([]string, 0, len(res.Rows))
	for _, r := range res.Rows {
		out = append(out, string(r[0]))
	}
	return out, nil
}
