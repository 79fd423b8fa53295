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

// TestReusedPostgres: a test's PostgreSQL database is emptied for the next test of the process
// (pgreuse.go), which must not tell it from a new copy of the template.
func TestReusedPostgres(t *testing.T) {
	ctx := context.Background()
	type state struct{ permissions, customers, nextID int }
	read := func(t *testing.T, d *db.DB) (s state) {
		t.Helper()
		for q, v := range map[string]*int{
			`SELECT count(*) FROM permission`: &s.permissions,
			`SELECT count(*) FROM customer`:   &s.customers,
		} {
			if err := d.QueryRow(ctx, q).Scan(v); err != nil {
				t.Fatal(err)
			}
		}
		if err := d.QueryRow(ctx, `INSERT INTO customer (name, code, created_at, updated_at) VALUES ('probe', 'PROBE', 0, 0) RETURNING id`).Scan(&s.nextID); err != nil {
			t.Fatal(err)
		}
		return s
	}
	// the first database below is a new copy: the ones earlier tests left are dropped
	admin := pgAdmin(t)
	defer admin.Close()
	for n := takeReusable(); n != ""; n = takeReusable() {
		if _, err := admin.Exec(`DROP DATABASE ` + n + ` WITH (FORCE)`); err != nil {
			t.Fatal(err)
		}
	}
	var first string
	var fresh state
	t.Run("a test writes rows, changes the template's rows and moves sequences on", func(t *testing.T) {
		d, dsn := openPostgres(t)
		first = dsn
		fresh = read(t, d)
		for _, q := range []string{
			`INSERT INTO customer (name, code, created_at, updated_at) VALUES ('a', 'A', 0, 0), ('b', 'B', 0, 0)`,
			`DELETE FROM permission`,
			`UPDATE setting SET value = 'changed'`,
		} {
			if _, err := d.Exec(ctx, q); err != nil {
				t.Fatal(err)
			}
		}
	})
	t.Run("the next test gets the same database as new", func(t *testing.T) {
		d, dsn := openPostgres(t)
		if dsn != first {
			t.Fatalf("got %s, want the released %s", dsn, first)
		}
		if got := read(t, d); got != fresh {
			t.Fatalf("reused database holds %+v, a new copy held %+v", got, fresh)
		}
		var changed int
		if err := d.QueryRow(ctx, `SELECT count(*) FROM setting WHERE value = 'changed'`).Scan(&changed); err != nil {
			t.Fatal(err)
		}
		if changed != 0 {
			t.Fatalf("%d settings kept the last test's value", changed)
		}
		if _, err := d.Exec(ctx, `CREATE TABLE probe (x INTEGER)`); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("a database whose schema a test changed is dropped, not reused", func(t *testing.T) {
		_, dsn := openPostgres(t)
		if dsn == first {
			t.Fatal("a database with a table the template lacks was handed out again")
		}
	})
}
