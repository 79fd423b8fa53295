// Package testutil runs store and API tests on both databases, each test on its own copy of a
// database migrated once (docs/benchmarks.md, "The Go test suite"): SQLite as a copied file in
// a temporary folder, PostgreSQL (CHARGEOPS_TEST_PG, default the local server) as a database
// created from a template database, emptied afterwards and reused by the next test of the
// process (pgreuse.go).
package testutil

import (
	"context"
	"database/sql"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"chargeops/internal/db"
	"chargeops/internal/passwd"
)

func init() {
	// Every test binary that sets up a database hashes passwords at test cost: a sign-in or a
	// new user costs microseconds instead of ~100 ms (production parameters are unchanged).
	passwd.SetTestCost()
}

// PostgresURL is the server the tests use.
func PostgresURL() string {
	if u := os.Getenv("CHARGEOPS_TEST_PG"); u != "" {
		return u
	}
	return "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"
}

var dbSeq atomic.Int64

// ForEachDB runs fn as a subtest on SQLite and on PostgreSQL, each with a fresh migrated
// database. Outside CI a PostgreSQL that cannot be reached skips its subtest with a message;
// in CI (CI=true) it fails.
func ForEachDB(t *testing.T, fn func(t *testing.T, d *db.DB)) {
	t.Run("sqlite", func(t *testing.T) { fn(t, OpenSQLite(t)) })
	t.Run("postgres", func(t *testing.T) { fn(t, OpenPostgres(t)) })
}

// Where is how another process opens a test database: chargeops' --db and --data-dir.
type Where struct{ DSN, DataDir string }

// ForEachDBAt is ForEachDB for tests that also start a server process on the database.
func ForEachDBAt(t *testing.T, fn func(t *testing.T, d *db.DB, at Where)) {
	t.Run("sqlite", func(t *testing.T) {
		d, dir := openSQLite(t)
		fn(t, d, Where{DataDir: dir})
	})
	t.Run("postgres", func(t *testing.T) {
		d, dsn := openPostgres(t)
		fn(t, d, Where{DSN: dsn, DataDir: t.TempDir()})
	})
}

// OpenSQLite returns a migrated SQLite database in a temporary folder.
func OpenSQLite(t testing.TB) *db.DB {
	t.Helper()
	d, _ := openSQLite(t)
	return d
}

// openSQLite copies the run's migrated template file into a new temporary folder and opens it.
func openSQLite(t testing.TB) (*db.DB, string) {
	t.Helper()
	tmpl, err := sqliteTemplate()
	if err != nil {
		t.Fatalf("testutil: SQLite template: %v", err)
	}
	dir := t.TempDir()
	if err := copyFile(tmpl, filepath.Join(dir, "chargeops.db")); err != nil {
		t.Fatalf("testutil: copy the SQLite template: %v", err)
	}
	d, err := db.Open(context.Background(), "", dir)
	if err != nil {
		t.Fatalf("testutil: open SQLite: %v", err)
	}
	t.Cleanup(func() { d.Close() })
	return d, dir
}

// OpenPostgres returns a migrated PostgreSQL database of its own for the test; afterwards it is
// emptied for the next test, or dropped.
func OpenPostgres(t testing.TB) *db.DB {
	t.Helper()
	d, _ := openPostgres(t)
	return d
}

// openPostgres creates a database from the run's template database and opens it.
func openPostgres(t testing.TB) (*db.DB, string) {
	t.Helper()
	admin := pgAdmin(t)
	tmpl, err := pgTemplate(admin)
	if err != nil {
		t.Fatalf("testutil: PostgreSQL template: %v", err)
	}
	name := takeReusable()
	if name == "" {
		name = fmt.Sprintf("chargeops_t_%d_%d", os.Getpid(), dbSeq.Add(1))
		if err := createFromTemplate(admin, name, tmpl); err != nil {
			t.Fatalf("testutil: %v", err)
		}
	}
	dsn, err := pgURL(name)
	if err != nil {
		t.Fatalf("testutil: %v", err)
	}
	// registered before d.Close, so it runs after it (cleanups run last-in first-out)
	t.Cleanup(func() {
		release(t, admin, name, dsn)
		admin.Close()
	})
	if err := readBase(dsn); err != nil {
		t.Fatalf("testutil: read the template's rows from %s: %v", name, err)
	}
	d, err := db.Open(context.Background(), dsn, "")
	if err != nil {
		t.Fatalf("testutil: open PostgreSQL: %v", err)
	}
	t.Cleanup(func() { d.Close() })
	return d, dsn
}

// pgAdmin connects to the server's base database, or skips (fails in CI) when none answers.
func pgAdmin(t testing.TB) *sql.DB {
	t.Helper()
	base := PostgresURL()
	admin, err := sql.Open("pgx", base)
	if err == nil {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		err = admin.PingContext(ctx)
		cancel()
	}
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("PostgreSQL at %s is required in CI: %v", base, err)
		}
		t.Skipf("SKIP: no PostgreSQL reachable at %s (set CHARGEOPS_TEST_PG): %v", base, err)
	}
	return admin
}

// pgURL is the test server's URL naming database name instead.
func pgURL(name string) (string, error) {
	u, err := url.Parse(PostgresURL())
	if err != nil {
		return "", fmt.Errorf("parse CHARGEOPS_TEST_PG: %w", err)
	}
	u.Path = "/" + name
	return u.String(), nil
}

// IsPostgres tells a subtest which database it runs on.
func IsPostgres(t *testing.T) bool {
	return strings.HasSuffix(t.Name(), "/postgres") || strings.Contains(t.Name(), "/postgres/")
}

// NATS is the test NATS server (CHARGEOPS_TEST_NATS, default nats://127.0.0.1:4222), or skips
// the test when none answers.
func NATS(t testing.TB) string {
	t.Helper()
	u := os.Getenv("CHARGEOPS_TEST_NATS")
	if u == "" {
		u = "nats://127.0.0.1:4222"
	}
	c, err := net.DialTimeout("tcp", strings.TrimPrefix(u, "nats://"), time.Second)
	if err != nil {
		t.Skipf("SKIP: no NATS at %s (set CHARGEOPS_TEST_NATS): %v", u, err)
	}
	c.Close()
	return u
}

// OpenMigratedTo returns a new database of the given kind migrated up to version last only,
// for tests of a migration that converts data: SQLite in a new temporary folder, PostgreSQL
// as a new empty database dropped afterwards.
func OpenMigratedTo(t testing.TB, dialect db.Dialect, last int) *db.DB {
	t.Helper()
	ctx := context.Background()
	dsn := ""
	if dialect == db.Postgres {
		admin := pgAdmin(t)
		name := fmt.Sprintf("chargeops_t_%d_%d", os.Getpid(), dbSeq.Add(1))
		if _, err := admin.Exec(`CREATE DATABASE ` + name); err != nil {
			t.Fatalf("testutil: create database %s: %v", name, err)
		}
		t.Cleanup(func() {
			_, _ = admin.Exec(`DROP DATABASE IF EXISTS ` + name + ` WITH (FORCE)`)
			admin.Close()
		})
		var err error
		if dsn, err = pgURL(name); err != nil {
			t.Fatalf("testutil: %v", err)
		}
	}
	d, err := db.Open(ctx, dsn, t.TempDir())
	if err != nil {
		t.Fatalf("testutil: open: %v", err)
	}
	t.Cleanup(func() { d.Close() })
	if _, err := d.MigrateTo(ctx, last); err != nil {
		t.Fatalf("testutil: migrate to %d: %v", last, err)
	}
	return d
}

// Count runs a one-number query (SELECT COUNT(*) ...) and fails the test when it cannot, so an
// assertion on the number never reads a zero that was an error.
func Count(t testing.TB, d *db.DB, query string, args ...any) int {
	t.Helper()
	var n int
	if err := d.QueryRow(context.Background(), query, args...).Scan(&n); err != nil {
		t.Fatalf("count %q: %v", query, err)
	}
	return n
}
