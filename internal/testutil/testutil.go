// Package testutil runs store and API tests on both databases: SQLite in a temporary folder
// and PostgreSQL (CHARGEOPS_TEST_PG, default the local server) in a fresh schema per test.
package testutil

import (
	"context"
	"database/sql"
	"fmt"
	"net"
	"net/url"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"chargeops/internal/access"
	"chargeops/internal/db"
)

// PostgresURL is the server the tests use.
func PostgresURL() string {
	if u := os.Getenv("CHARGEOPS_TEST_PG"); u != "" {
		return u
	}
	return "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"
}

var schemaSeq atomic.Int64

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

func openSQLite(t testing.TB) (*db.DB, string) {
	t.Helper()
	dir := t.TempDir()
	d, err := db.Open(context.Background(), "", dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	migrate(t, d)
	return d, dir
}

// OpenPostgres returns a migrated PostgreSQL database in a fresh schema, dropped afterwards.
func OpenPostgres(t testing.TB) *db.DB {
	t.Helper()
	d, _ := openPostgres(t)
	return d
}

func openPostgres(t testing.TB) (*db.DB, string) {
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
	schema := fmt.Sprintf("t_%d_%d_%d", os.Getpid(), time.Now().UnixNano()%1e9, schemaSeq.Add(1))
	if _, err := admin.Exec(`CREATE SCHEMA ` + schema); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_, _ = admin.Exec(`DROP SCHEMA ` + schema + ` CASCADE`)
		admin.Close()
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	d, err := db.Open(context.Background(), u.String(), "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	migrate(t, d)
	return d, u.String()
}

func migrate(t testing.TB, d *db.DB) {
	t.Helper()
	if _, err := d.Migrate(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := access.SyncCatalogue(context.Background(), d); err != nil {
		t.Fatal(err)
	}
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
