package db_test

import (
	"context"
	"testing"

	"chargeops/internal/db"
	"chargeops/internal/testutil"
)

// Purge deletes only matching rows, PurgeBatch at a time, and stops after maxBatches.
func TestPurgeDeletesMatchingRowsInBoundedBatches(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		if _, err := d.Exec(ctx, `CREATE TABLE purge_probe (id BIGINT PRIMARY KEY, at BIGINT NOT NULL)`); err != nil {
			t.Fatal(err)
		}
		if _, err := d.Exec(ctx, `INSERT INTO purge_probe (id, at) SELECT n, n FROM (WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 2600) SELECT n FROM c) s`); err != nil {
			t.Fatal(err)
		}
		n, err := db.Purge(ctx, d, "purge_probe", "id", "at <= ?", 2, 2500)
		if err != nil || n != 2*db.PurgeBatch {
			t.Fatalf("first purge = %d, %v; want %d (two batches)", n, err, 2*db.PurgeBatch)
		}
		n, err = db.Purge(ctx, d, "purge_probe", "id", "at <= ?", 20, 2500)
		if err != nil || n != 500 {
			t.Fatalf("second purge = %d, %v; want the 500 left", n, err)
		}
		var left int
		if err := d.QueryRow(ctx, `SELECT COUNT(*) FROM purge_probe`).Scan(&left); err != nil || left != 100 {
			t.Fatalf("rows left = %d, %v; want the 100 newer ones", left, err)
		}
	})
}
