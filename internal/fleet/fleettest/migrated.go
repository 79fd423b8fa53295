package fleettest

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"chargeops/internal/db"
	"chargeops/internal/testutil"
)

var schemaSeq atomic.Int64

// MigratedTo returns a new database of the same kind as d, migrated up to version last only,
// for tests of what a later migration does to existing rows: SQLite in a new folder,
// PostgreSQL in a new schema of d's server, dropped when the test ends.
func MigratedTo(t testing.TB, d *db.DB, last int) *db.DB {
	t.Helper()
	ctx := context.Background()
	dsn := ""
	if d.Dialect() == db.Postgres {
		schema := fmt.Sprintf("mig%d_%d_%d_%d", last, os.Getpid(), time.Now().UnixNano()%1e9, schemaSeq.Add(1))
		if _, err := d.Exec(ctx, `CREATE SCHEMA `+schema); err != nil {
			t.Fatalf("fleettest: create schema: %v", err)
		}
		t.Cleanup(func() { _, _ = d.Exec(context.Background(), `DROP SCHEMA `+schema+` CASCADE`) })
		u, err := url.Parse(testutil.PostgresURL())
		if err != nil {
			t.Fatalf("fleettest: postgres url: %v", err)
		}
		q := u.Query()
		q.Set("search_path", schema)
		u.RawQuery = q.Encode()
		dsn = u.String()
	}
	fresh, err := db.Open(ctx, dsn, t.TempDir())
	if err != nil {
		t.Fatalf("fleettest: open: %v", err)
	}
	t.Cleanup(func() { fresh.Close() })
	if _, err := fresh.MigrateTo(ctx, last); err != nil {
		t.Fatalf("fleettest: migrate to %d: %v", last, err)
	}
	return fresh
}
