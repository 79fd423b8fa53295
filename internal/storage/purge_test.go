package storage_test

import (
	"bytes"
	"context"
	"testing"
	"time"

	"chargeops/internal/access"
	"chargeops/internal/db"
	"chargeops/internal/storage"
	"chargeops/internal/storage/storagetest"
	"chargeops/internal/testutil"
)

// An upload granted a day ago and never confirmed loses its object and its record; a confirmed
// upload of the same age and a fresh unconfirmed one stay.
func TestAbandonedUploadsArePurged(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		local := storage.NewLocal(t.TempDir(), []byte("test-secret"), "", "oss-cn-hongkong")
		s := storage.NewService(d, local, nil, 0)
		p := &access.Principal{UserID: 1, Root: true, Scope: access.FullScope()}
		put := func(name string) string {
			g, err := s.Write(ctx, p, storage.WriteInput{FileName: name})
			if err != nil {
				t.Fatalf("write %s: %v", name, err)
			}
			if _, err := local.Put(ctx, bytes.NewReader(storagetest.Sample("png")), storage.PutSpec{Key: g.ObjectKey, Size: -1, ContentType: "image/png"}); err != nil {
				t.Fatalf("put %s: %v", name, err)
			}
			return g.ObjectKey
		}
		abandoned, confirmed, fresh := put("a.png"), put("b.png"), put("c.png")
		if _, err := s.Confirm(ctx, p, confirmed); err != nil {
			t.Fatalf("confirm: %v", err)
		}
		old := time.Now().Add(-storage.AbandonAfter - time.Hour).UnixMilli()
		if _, err := d.Exec(ctx, `UPDATE upload SET created_at = ? WHERE object_key IN (?, ?)`, old, abandoned, confirmed); err != nil {
			t.Fatal(err)
		}

		n, err := s.PurgeAbandoned(ctx)
		if err != nil || n != 1 {
			t.Fatalf("PurgeAbandoned = %d, %v; want 1", n, err)
		}
		if _, err := local.Stat(ctx, abandoned); err == nil {
			t.Error("the abandoned object is still stored")
		}
		for _, k := range []string{confirmed, fresh} {
			if _, err := local.Stat(ctx, k); err != nil {
				t.Errorf("%s was purged: %v", k, err)
			}
		}
		var left int
		if err := d.QueryRow(ctx, `SELECT COUNT(*) FROM upload`).Scan(&left); err != nil || left != 2 {
			t.Fatalf("upload rows = %d, %v; want 2", left, err)
		}
	})
}
