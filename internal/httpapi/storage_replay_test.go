package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/storage"
	"chargeops/internal/storage/storagetest"
	"chargeops/internal/testutil"
	"chargeops/internal/testutil/apitest"
)

// Issue 29 M1: a second PUT to a signed upload target must never change what readers get,
// neither after confirm, nor after the upload became a level-0 attachment, nor after the
// attachment was deleted (docs/storage.md, "Staging"). Both back-ends, both databases.
func TestUploadTargetReplay(t *testing.T) {
	t.Parallel()
	for backend, configure := range storageBackends {
		t.Run(backend, func(t *testing.T) {
			testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
				replayOn(t, newOrgOn(t, apitest.New(t, d, configure(t))), backend)
			})
		})
	}
}

func replayOn(t *testing.T, o *org, backend string) {
	env, ctx, root := o.env, context.Background(), o.root
	store, uploads := env.App.Server.Uploads.Store, env.App.Server.Uploads
	original := storagetest.Sample("pdf")
	// A real PDF too, so the content rule alone would let it through.
	replaced := append(storagetest.Sample("pdf"), []byte("\n% replaced by a replayed PUT\n")...)

	g, a := upload(t, env, root, storage.KindFile, "docs/contract.pdf", "", original)
	apitest.Must(t, a)

	// replay sends the replaced bytes to the grant's target again: the local back-end refuses
	// it with its localised message; S3 cannot refuse a presigned PUT, which only lands on the
	// staging key.
	replay := func(t *testing.T) {
		t.Helper()
		status, raw := sendUpload(t, env, g, replaced)
		if backend == "s3" {
			if status >= 300 {
				t.Fatalf("S3 refused the presigned PUT (HTTP %d): the test no longer replays anything", status)
			}
			return
		}
		var refused apitest.Answer
		_ = json.Unmarshal(raw, &refused)
		if status != http.StatusForbidden || refused.Code != apperr.NoPermission || refused.Message != "This upload link has already been used or has expired; upload the file again" {
			t.Fatalf("replayed PUT: HTTP %d %d %q, want 403 %d", status, refused.Code, refused.Message, apperr.NoPermission)
		}
	}
	stored := func(t *testing.T) []byte {
		t.Helper()
		rc, _, err := store.Open(ctx, g.ObjectKey)
		if err != nil {
			t.Fatalf("open %s: %v", g.ObjectKey, err)
		}
		defer rc.Close()
		var b bytes.Buffer
		_, _ = b.ReadFrom(rc)
		return b.Bytes()
	}

	t.Run("a replayed PUT after confirm is refused and the link serves the original", func(t *testing.T) {
		replay(t)
		var u struct{ URL string }
		apitest.Must(t, root.Call("GET", "/api/auth/sys/system/oss/url", map[string]any{"objectKey": g.ObjectKey})).Into(t, &u)
		if resp, got := fetch(t, absolute(env, u.URL)); resp.StatusCode != 200 || !bytes.Equal(got, original) {
			t.Fatalf("download after replay: HTTP %d, %d bytes (original %d)", resp.StatusCode, len(got), len(original))
		}
		if backend == "local" {
			if _, err := store.Stat(ctx, storage.StagingKey(g.ObjectKey)); err != storage.ErrNotFound {
				t.Errorf("the refused PUT left a staging object: %v", err)
			}
		}
	})

	var fileID int64
	t.Run("after the upload became a level-0 attachment root downloads the original", func(t *testing.T) {
		folder := id(t, root.Call("POST", "/api/auth/sys/attach/folder/add", map[string]any{"customerId": o.custA, "name": "Contracts", "readLevel": 0, "writeLevel": 0, "downloadLevel": 0}))
		fileID = id(t, root.Call("POST", "/api/auth/sys/attach/file/add", map[string]any{"folderId": folder, "objectKey": g.ObjectKey, "name": "contract.pdf",
			"readLevel": 0, "writeLevel": 0, "downloadLevel": 0}))
		replay(t)
		// Confirm again (issue 29 L2) neither re-signs the held object nor promotes the replay.
		apitest.WantCode(t, root.Call("POST", "/api/auth/sys/system/oss/confirm", map[string]any{"objectKey": g.ObjectKey}), apperr.NotFound)
		var l struct{ URL string }
		apitest.Must(t, root.Call("GET", "/api/auth/sys/attach/file/url", map[string]any{"id": fileID})).Into(t, &l)
		if resp, got := fetch(t, absolute(env, l.URL)); resp.StatusCode != 200 || !bytes.Equal(got, original) {
			t.Fatalf("attachment download after replay: HTTP %d, %d bytes (original %d)", resp.StatusCode, len(got), len(original))
		}
		if !bytes.Equal(stored(t), original) {
			t.Fatal("the stored object changed")
		}
	})

	t.Run("a PUT after the attachment is deleted leaves no object", func(t *testing.T) {
		apitest.Must(t, root.Call("POST", "/api/auth/sys/attach/file/delete", map[string]any{"ids": []int64{fileID}}))
		if _, err := store.Stat(ctx, g.ObjectKey); err != storage.ErrNotFound {
			t.Fatalf("the deleted attachment's object is still stored: %v", err)
		}
		replay(t)
		if _, err := store.Stat(ctx, g.ObjectKey); err != storage.ErrNotFound {
			t.Fatalf("the replayed PUT re-created the object: %v", err)
		}
		apitest.WantCode(t, root.Call("POST", "/api/auth/sys/system/oss/confirm", map[string]any{"objectKey": g.ObjectKey}), apperr.NotFound)
		// What S3 accepted lies on the staging key with no upload record: retention removes it.
		if _, err := uploads.PurgeStaging(ctx, time.Now().Add(time.Minute)); err != nil {
			t.Fatalf("purge staging: %v", err)
		}
		left, err := store.List(ctx, storage.StagingPrefix, 100)
		if err != nil || len(left) != 0 {
			t.Fatalf("staging objects after the purge: %v %v", left, err)
		}
	})
}

// Issue 29 L2: oss/confirm works once, on a pending upload of the caller; it never re-signs a
// confirmed or held object, nor someone else's.
func TestConfirmOnlyOnce(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		o := newOrg(t, d)
		grantOrg(t, o, attachKeys...)
		env := o.env
		const confirm = "/api/auth/sys/system/oss/confirm"

		var g writeGrant
		apitest.Must(t, o.a.Call("GET", "/api/auth/sys/system/oss/sts/write", map[string]any{"kind": "file", "fileName": "docs/a.pdf"})).Into(t, &g)
		t.Run("nothing uploaded yet: not found, and the upload stays open", func(t *testing.T) {
			apitest.WantCode(t, o.a.Call("POST", confirm, map[string]any{"objectKey": g.ObjectKey}), apperr.NotFound)
			if status, raw := sendUpload(t, env, g, storagetest.Sample("pdf")); status >= 300 {
				t.Fatalf("upload after an early confirm: HTTP %d %.200s", status, raw)
			}
		})
		t.Run("another user of the same customer cannot confirm it", func(t *testing.T) {
			apitest.WantCode(t, o.root.Call("POST", confirm, map[string]any{"objectKey": g.ObjectKey}), apperr.NotFound)
		})
		t.Run("the uploader confirms once", func(t *testing.T) {
			var u uploaded
			apitest.Must(t, o.a.Call("POST", confirm, map[string]any{"objectKey": g.ObjectKey})).Into(t, &u)
			if u.URL == "" {
				t.Fatal("no link")
			}
			apitest.WantCode(t, o.a.Call("POST", confirm, map[string]any{"objectKey": g.ObjectKey}), apperr.NotFound)
		})
		t.Run("a held attachment object is never re-signed for its uploader", func(t *testing.T) {
			folder := id(t, o.a.Call("POST", "/api/auth/sys/attach/folder/add", map[string]any{"name": "Held", "readLevel": 5, "writeLevel": 5, "downloadLevel": 5}))
			id(t, o.a.Call("POST", "/api/auth/sys/attach/file/add", map[string]any{"folderId": folder, "objectKey": g.ObjectKey, "name": "a.pdf",
				"readLevel": 5, "writeLevel": 5, "downloadLevel": 5}))
			a := o.a.Call("POST", confirm, map[string]any{"objectKey": g.ObjectKey})
			apitest.WantCode(t, a, apperr.NotFound)
			if bytes.Contains(a.Data, []byte("url")) {
				t.Fatalf("confirm answered a link: %s", a.Data)
			}
		})
	})
}
