package testutil

import (
	"context"
	"testing"

	"chargeops/internal/db"
)

func TestForEachDB(t *testing.T) {
	ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		t.Run("the database is migrated with the catalogue", func(t *testing.T) {
			var n int
			if err := d.QueryRow(ctx, `SELECT count(*) FROM permission`).Scan(&n); err != nil {
				t.Fatal(err)
			}
			if n == 0 {
				t.Fatal("no permission rows")
			}
		})
		t.Run("each test has a database of its own", func(t *testing.T) {
			if _, err := d.Exec(ctx, `INSERT INTO setting (key, value, updated_at) VALUES ('testutil_probe', 'x', 0)`); err != nil {
				t.Fatal(err)
			}
			other := OpenSQLite(t)
			if d.Dialect() == db.Postgres {
				other = OpenPostgres(t)
			}
			var n int
			if err := other.QueryRow(ctx, `SELECT count(*) FROM setting WHERE key = 'testutil_probe'`).Scan(&n); err != nil {
				t.Fatal(err)
			}
			if n != 0 {
				t.Fatal("a row written in one test's database is seen in another's")
			}
		})
	})
}

func TestEventually(t *testing.T) {
	t.Run("returns once the condition holds", func(t *testing.T) {
		n := 0
		Eventually(t, "the third check", func() bool { n++; return n == 3 })
		if n != 3 {
			t.Fatalf("checked %d times, want 3", n)
		}
	})
}
