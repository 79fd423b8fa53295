package db_test

import (
	"context"
	"testing"
	"time"

	"chargeops/internal/db"
	"chargeops/internal/testutil"
)

// growWAL writes while a reader keeps its snapshot, so no checkpoint can reset the log, and
// returns the log's size.
func growWAL(t *testing.T, d *db.DB) int64 {
	t.Helper()
	ctx := context.Background()
	reader, err := d.Pool().Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer reader.Close()
	if _, err := reader.ExecContext(ctx, `BEGIN`); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := reader.QueryRowContext(ctx, `SELECT COUNT(*) FROM customer`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Exec(ctx, `CREATE TABLE wal_filler (b BLOB)`); err != nil {
		t.Fatal(err)
	}
	for range 64 {
		if _, err := d.Exec(ctx, `INSERT INTO wal_filler VALUES (randomblob(65536))`); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := reader.ExecContext(ctx, `ROLLBACK`); err != nil {
		t.Fatal(err)
	}
	return d.WALSize()
}

// A write-ahead log that grew is given back: at once by TruncateWAL (after a recovery), and by
// the checkpointer once the log is larger than WALTruncateAbove (a PASSIVE checkpoint alone
// never shrinks the file).
func TestWALIsTruncated(t *testing.T) {
	t.Run("after a recovery", func(t *testing.T) {
		d := testutil.OpenSQLite(t)
		if size := growWAL(t, d); size < 4<<20 {
			t.Fatalf("the log grew to only %d bytes", size)
		}
		if err := d.TruncateWAL(context.Background()); err != nil {
			t.Fatal(err)
		}
		if size := d.WALSize(); size != 0 {
			t.Fatalf("the log holds %d bytes after TruncateWAL", size)
		}
	})
	t.Run("when large", func(t *testing.T) {
		old := db.WALTruncateAbove
		db.WALTruncateAbove = 2 << 20
		defer func() { db.WALTruncateAbove = old }()
		d := testutil.OpenSQLite(t)
		grown := growWAL(t, d)
		for deadline := time.Now().Add(30 * time.Second); d.WALSize() >= grown; time.Sleep(100 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("the checkpointer left a log of %d bytes (limit %d)", d.WALSize(), db.WALTruncateAbove)
			}
		}
	})
}
