// Package db opens SQLite or PostgreSQL behind one small API and applies the ordered migrations.
// Queries are written once with '?' placeholders; Rebind turns them into $n for PostgreSQL.
package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver
	_ "modernc.org/sqlite"             // registers the "sqlite" driver
)

// Dialect tells the few places that must differ (DDL tokens, placeholders) which database runs.
type Dialect int

const (
	SQLite Dialect = iota
	Postgres
)

func (d Dialect) String() string {
	if d == Postgres {
		return "postgres"
	}
	return "sqlite"
}

// Querier is what stores need; both *DB and *Tx satisfy it.
type Querier interface {
	Exec(ctx context.Context, query string, args ...any) (sql.Result, error)
	Query(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRow(ctx context.Context, query string, args ...any) *sql.Row
	Dialect() Dialect
}

// DB is a pool on either database.
type DB struct {
	pool    *sql.DB
	dialect Dialect
	stop    func() // ends the SQLite checkpointer
	walPath string // SQLite's write-ahead log file
}

// Open connects. An empty dsn means SQLite in dataDir/chargeops.db; "postgres://" or
// "postgresql://" means PostgreSQL; "sqlite:PATH" names another SQLite file.
func Open(ctx context.Context, dsn, dataDir string) (*DB, error) {
	var d DB
	var err error
	switch {
	case strings.HasPrefix(dsn, "postgres://"), strings.HasPrefix(dsn, "postgresql://"):
		d.dialect = Postgres
		d.pool, err = sql.Open("pgx", dsn)
		if err == nil {
			d.pool.SetMaxOpenConns(20)
			d.pool.SetMaxIdleConns(10)
			d.pool.SetConnMaxIdleTime(5 * time.Minute)
		}
	default:
		path := strings.TrimPrefix(dsn, "sqlite:")
		if path == "" {
			if err := os.MkdirAll(dataDir, 0o750); err != nil {
				return nil, fmt.Errorf("create data folder: %w", err)
			}
			path = filepath.Join(dataDir, "chargeops.db")
		}
		d.dialect = SQLite
		d.walPath = path + "-wal"
		// WAL lets readers run beside the single writer; IMMEDIATE transactions take the write
		// lock up front so two writers queue on busy_timeout instead of failing to upgrade.
		// Statement journals (a multi-row INSERT inside a transaction, savepoints) stay in
		// memory instead of temporary files, and each connection caches up to 256 MiB of pages: the
		// ingest pipeline's batches write without extra file I/O (docs/benchmarks.md).
		d.pool, err = sql.Open("sqlite", "file:"+path+"?_pragma=journal_mode(WAL)&_pragma=busy_timeout(10000)"+
			"&_pragma=foreign_keys(1)&_pragma=synchronous(NORMAL)&_pragma=temp_store(MEMORY)&_pragma=cache_size(-262144)&_pragma=wal_autocheckpoint(20000)&_txlock=immediate")
		if err == nil {
			d.pool.SetMaxOpenConns(8)
		}
	}
	if err != nil {
		return nil, err
	}
	pingCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := d.pool.PingContext(pingCtx); err != nil {
		d.pool.Close()
		return nil, fmt.Errorf("connect to %s: %w", d.dialect, err)
	}
	if d.dialect == SQLite {
		d.stop = startCheckpointer(&d)
	}
	return &d, nil
}

func (d *DB) Dialect() Dialect { return d.dialect }
func (d *DB) Close() error {
	if d.stop != nil {
		d.stop()
	}
	return d.pool.Close()
}

// Pool exposes the underlying pool for health checks and metrics.
func (d *DB) Pool() *sql.DB { return d.pool }

func (d *DB) Exec(ctx context.Context, q string, args ...any) (sql.Result, error) {
	return d.pool.ExecContext(ctx, Rebind(d.dialect, q), args...)
}
func (d *DB) Query(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	return d.pool.QueryContext(ctx, Rebind(d.dialect, q), args...)
}
func (d *DB) QueryRow(ctx context.Context, q string, args ...any) *sql.Row {
	return d.pool.QueryRowContext(ctx, Rebind(d.dialect, q), args...)
}

// Tx is a transaction with the same Querier methods.
type Tx struct {
	tx      *sql.Tx
	dialect Dialect
}

func (t *Tx) Dialect() Dialect { return t.dialect }
func (t *Tx) Exec(ctx context.Context, q string, args ...any) (sql.Result, error) {
	return t.tx.ExecContext(ctx, Rebind(t.dialect, q), args...)
}
func (t *Tx) Query(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	return t.tx.QueryContext(ctx, Rebind(t.dialect, q), args...)
}
func (t *Tx) QueryRow(ctx context.Context, q string, args ...any) *sql.Row {
	return t.tx.QueryRowContext(ctx, Rebind(t.dialect, q), args...)
}

// InTx runs fn in a transaction, committing when it returns nil.
func (d *DB) InTx(ctx context.Context, fn func(tx *Tx) error) error {
	sqlTx, err := d.pool.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(&Tx{tx: sqlTx, dialect: d.dialect}); err != nil {
		_ = sqlTx.Rollback()
		return err
	}
	return sqlTx.Commit()
}

// Rebind rewrites '?' placeholders to $1..$n for PostgreSQL. Queries never hold a literal '?'.
func Rebind(d Dialect, q string) string {
	if d != Postgres || !strings.Contains(q, "?") {
		return q
	}
	var b strings.Builder
	b.Grow(len(q) + 8)
	n := 0
	for i := 0; i < len(q); i++ {
		if q[i] == '?' {
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
			continue
		}
		b.WriteByte(q[i])
	}
	return b.String()
}

// InsertID runs an INSERT ... RETURNING id (both databases support RETURNING).
func InsertID(ctx context.Context, q Querier, query string, args ...any) (int64, error) {
	var id int64
	err := q.QueryRow(ctx, query+" RETURNING id", args...).Scan(&id)
	return id, err
}

// NotFound reports sql.ErrNoRows.
func NotFound(err error) bool { return errors.Is(err, sql.ErrNoRows) }

// Placeholders returns "?,?,?" for n values.
func Placeholders(n int) string {
	if n <= 0 {
		return ""
	}
	return strings.Repeat("?,", n-1) + "?"
}

// NowMS is the storage form of time: UTC unix milliseconds, the same on both databases.
func NowMS() int64 { return time.Now().UnixMilli() }

// Contains returns a LIKE pattern matching s anywhere, with s's own % _ \ taken literally.
// Use it as `col LIKE ? ESCAPE '\'`.
func Contains(s string) string {
	return "%" + strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s) + "%"
}

// IsForeignKeyViolation reports a foreign-key failure on either database.
func IsForeignKeyViolation(err error) bool {
	if err == nil {
		return false
	}
	s := err.Error()
	return strings.Contains(s, "FOREIGN KEY constraint failed") || strings.Contains(s, "SQLSTATE 23503")
}

// BoolInt is the storage form of a flag (INTEGER 0/1 on both databases).
func BoolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Affected passes err through, or returns notFound when the statement touched no row.
func Affected(res sql.Result, err error, notFound error) error {
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return notFound
	}
	return nil
}

// Text is s as a database text value: a charger's bytes that are not UTF-8, and NUL (which
// PostgreSQL's text refuses), become U+FFFD, so one frame cannot make a whole batch fail.
func Text(s string) string {
	if utf8.ValidString(s) && strings.IndexByte(s, 0) < 0 {
		return s
	}
	return strings.ReplaceAll(strings.ToValidUTF8(s, "\uFFFD"), "\x00", "\uFFFD")
}
