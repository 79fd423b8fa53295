package db_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"chargeops/internal/db"
	"chargeops/internal/testutil"
)

// The errors the ingest pipeline holds on (the database cannot do the work now) and those it
// does not (the database refuses the statement), produced by the real databases.
func TestUnavailableTellsOutagesFromRefusals(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		name        string
		err         func(t *testing.T) error
		unavailable bool
		reason      string
	}{
		{"sqlite disk full", func(t *testing.T) error {
			d := testutil.OpenSQLite(t)
			conn, err := d.Pool().Conn(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			var pages int
			if err := conn.QueryRowContext(ctx, `PRAGMA page_count`).Scan(&pages); err != nil {
				t.Fatal(err)
			}
			if _, err := conn.ExecContext(ctx, fmt.Sprintf(`PRAGMA max_page_count = %d`, pages)); err != nil {
				t.Fatal(err)
			}
			_, err = conn.ExecContext(ctx, `CREATE TABLE filler (b BLOB)`)
			for i := 0; err == nil && i < 1000; i++ {
				_, err = conn.ExecContext(ctx, `INSERT INTO filler VALUES (randomblob(65536))`)
			}
			return err
		}, true, "disk full"},
		{"sqlite constraint", func(t *testing.T) error {
			d := testutil.OpenSQLite(t)
			_, err := d.Exec(ctx, `INSERT INTO customer (id) VALUES (NULL), (NULL)`)
			return err
		}, false, "database error"},
		{"postgres unreachable", func(t *testing.T) error {
			d, err := db.Open(ctx, "postgres://postgres@127.0.0.1:1/postgres?sslmode=disable&connect_timeout=2", "")
			if err == nil {
				d.Close()
			}
			return err
		}, true, "database unreachable"},
		{"postgres constraint", func(t *testing.T) error {
			d := testutil.OpenPostgres(t)
			_, err := d.Exec(ctx, `INSERT INTO customer (id) VALUES (NULL)`)
			return err
		}, false, "database error"},
		{"not a database error", func(t *testing.T) error { return errors.New("json: bad value") }, false, "database error"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.err(t)
			if err == nil {
				t.Fatal("no error produced")
			}
			if got := db.Unavailable(err); got != c.unavailable {
				t.Fatalf("Unavailable(%v) = %v, want %v", err, got, c.unavailable)
			}
			if got := db.Reason(err); got != c.reason {
				t.Fatalf("Reason(%v) = %q, want %q", err, got, c.reason)
			}
		})
	}
}
