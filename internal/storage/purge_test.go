package storage_test

import (
	"bytes"
	"context"
	"errors"
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

// Issue 29 M1: bytes a replayed upload target left on a staging key (S3 cannot refuse a
// presigned PUT) are never served and are swept: after the upload's confirm and after its
// deletion. A pending upload's staging object, and any staging object younger than the cut,
// stay. Both back-ends, both databases.
func TestOrphanStagingObjectsArePurged(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		for name, store := range backends(t) {
			t.Run(name, func(t *testing.T) {
				ctx := context.Background()
				s := storage.NewService(d, store, nil, 0)
				p := &access.Principal{UserID: 1, Root: true, Scope: access.FullScope()}
				original, replayed := storagetest.Sample("png"), append(storagetest.Sample("png"), 0, 1, 2)
				send := func(key string, body []byte) {
					t.Helper()
					if _, err := store.Put(ctx, bytes.NewReader(body), storage.PutSpec{Key: storage.StagingKey(key), Size: int64(len(body)), ContentType: "image/png"}); err != nil {
						t.Fatalf("put staging %s: %v", key, err)
					}
				}
				grant := func(file string) string {
					t.Helper()
					g, err := s.Write(ctx, p, storage.WriteInput{FileName: file})
					if err != nil {
						t.Fatalf("write %s: %v", file, err)
					}
					return g.ObjectKey
				}
				pending, confirmed, deleted := grant("pending.png"), grant("confirmed.png"), grant("deleted.png")
				send(pending, original)
				for _, k := range []string{confirmed, deleted} {
					send(k, original)
					if _, err := s.Confirm(ctx, p, k); err != nil {
						t.Fatalf("confirm %s: %v", k, err)
					}
					if _, err := store.Stat(ctx, storage.StagingKey(k)); !errors.Is(err, storage.ErrNotFound) {
						t.Fatalf("confirm left the staging object of %s: %v", k, err)
					}
				}
				if err := s.Forget(ctx, deleted); err != nil {
					t.Fatal(err)
				}
				send(confirmed, replayed) // replays, as S3 accepts them
				send(deleted, replayed)

				if n, err := s.PurgeStaging(ctx, time.Now().Add(-storage.StagingGrace)); err != nil || n != 0 {
					t.Fatalf("PurgeStaging within the grace = %d, %v; want 0", n, err)
				}
				if n, err := s.PurgeStaging(ctx, time.Now().Add(time.Minute)); err != nil || n != 2 {
					t.Fatalf("PurgeStaging = %d, %v; want the 2 orphans", n, err)
				}
				left, err := store.List(ctx, storage.StagingPrefix, 10)
				if err != nil || len(left) != 1 || left[0].Key != storage.StagingKey(pending) {
					t.Fatalf("staging objects left %+v, %v; want only the pending upload's", left, err)
				}
				for key, want := range map[string][]byte{confirmed: original} {
					head, err := store.ReadHead(ctx, key, 1<<10)
					if err != nil || !bytes.Equal(head, want) {
						t.Fatalf("%s holds %d bytes (%v); want the confirmed original", key, len(head), err)
					}
				}
				if _, err := store.Stat(ctx, deleted); !errors.Is(err, storage.ErrNotFound) {
					t.Fatalf("the deleted upload's object is back: %v", err)
				}
			})
		}
	})
}
