package db_test

import (
	"context"
	"testing"

	"chargeops/internal/db"
	"chargeops/internal/testutil"
)

func TestRebind(t *testing.T) {
	for _, c := range []struct {
		name    string
		dialect db.Dialect
		in, out string
	}{
		{"postgres numbers each placeholder", db.Postgres, "a = ? AND b IN (?, ?)", "a = $1 AND b IN ($2, $3)"},
		{"sqlite keeps question marks", db.SQLite, "a = ?", "a = ?"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := db.Rebind(c.dialect, c.in); got != c.out {
				t.Fatal(got)
			}
		})
	}
}

func TestMigrateIsIdempotentAndLikeIsLiteral(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		t.Run("a second migrate applies nothing", func(t *testing.T) {
			if n, err := d.Migrate(ctx); err != nil || n != 0 {
				t.Fatalf("second migrate applied %d, err %v", n, err)
			}
		})
		for _, name := range []string{"50%_off", "plain"} {
			if _, err := d.Exec(ctx, `INSERT INTO setting (key, value, updated_at) VALUES (?, ?, ?)`, name, "v", db.NowMS()); err != nil {
				t.Fatal(err)
			}
		}
		t.Run("LIKE with escaped wildcards matches them literally", func(t *testing.T) {
			var n int
			if err := d.QueryRow(ctx, `SELECT COUNT(*) FROM setting WHERE key LIKE ? ESCAPE '\'`, db.Contains("%_")).Scan(&n); err != nil {
				t.Fatal(err)
			}
			if n != 1 {
				t.Fatalf("LIKE with escaped wildcards matched %d rows, want 1", n)
			}
		})
		t.Run("a duplicate key is refused", func(t *testing.T) {
			if _, err := d.Exec(ctx, `INSERT INTO setting (key, value, updated_at) VALUES (?, ?, ?)`, "plain", "v", 1); err == nil {
				t.Fatal("a duplicate key was stored")
			}
		})
	})
}

func TestPageNormalize(t *testing.T) {
	for _, c := range []struct {
		name     string
		in, want db.Page
	}{
		{"an empty page gets the first page of 20", db.Page{}, db.Page{Page: 1, PageSize: 20}},
		{"a valid page is kept", db.Page{Page: 3, PageSize: 50}, db.Page{Page: 3, PageSize: 50}},
		{"a negative page and an oversized page size fall back to the defaults", db.Page{Page: -1, PageSize: 1000}, db.Page{Page: 1, PageSize: 20}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := c.in.Normalize(); got != c.want {
				t.Errorf("%+v → %+v, want %+v", c.in, got, c.want)
			}
		})
	}
}
