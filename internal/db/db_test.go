package db_test

import (
	"context"
	"testing"

	"chargeops/internal/db"
	"chargeops/internal/testutil"
)

func TestRebind(t *testing.T) {
	if got := db.Rebind(db.Postgres, "a = ? AND b IN (?, ?)"); got != "a = $1 AND b IN ($2, $3)" {
		t.Fatal(got)
	}
	if got := db.Rebind(db.SQLite, "a = ?"); got != "a = ?" {
		t.Fatal(got)
	}
}

func TestMigrateIsIdempotentAndLikeIsLiteral(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		if n, err := d.Migrate(ctx); err != nil || n != 0 {
			t.Fatalf("second migrate applied %d, err %v", n, err)
		}
		for _, name := range []string{"50%_off", "plain"} {
			if _, err := d.Exec(ctx, `INSERT INTO setting (key, value, updated_at) VALUES (?, ?, ?)`, name, "v", db.NowMS()); err != nil {
				t.Fatal(err)
			}
		}
		var n int
		if err := d.QueryRow(ctx, `SELECT COUNT(*) FROM setting WHERE key LIKE ? ESCAPE '\'`, db.Contains("%_")).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n != 1 {
			t.Fatalf("LIKE with escaped wildcards matched %d rows, want 1", n)
		}
		if _, err := d.Exec(ctx, `INSERT INTO setting (key, value, updated_at) VALUES (?, ?, ?)`, "plain", "v", 1); err == nil {
			t.Fatal("a duplicate key was stored")
		}
	})
}

func TestPageNormalize(t *testing.T) {
	for _, c := range []struct{ in, want db.Page }{
		{db.Page{}, db.Page{Page: 1, PageSize: 20}},
		{db.Page{Page: 3, PageSize: 50}, db.Page{Page: 3, PageSize: 50}},
		{db.Page{Page: -1, PageSize: 1000}, db.Page{Page: 1, PageSize: 20}},
	} {
		if got := c.in.Normalize(); got != c.want {
			t.Errorf("%+v → %+v, want %+v", c.in, got, c.want)
		}
	}
}
