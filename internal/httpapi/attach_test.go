package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/storage/storagetest"
	"chargeops/internal/testutil"
	"chargeops/internal/testutil/apitest"
)

var attachKeys = []string{"auth_attach", "auth_attach_tree"}

// attachFile uploads body as c (write, upload, confirm) and registers it in folder.
func attachFile(t *testing.T, o *org, c *apitest.Client, folder int64, name string, body []byte, level int) (int64, apitest.Answer) {
	t.Helper()
	_, up := upload(t, o.env, c, "file", "docs/"+name, "", body)
	var u uploaded
	apitest.Must(t, up).Into(t, &u)
	a := c.Call("POST", "/api/auth/sys/attach/file/add", map[string]any{"folderId": folder, "objectKey": u.ObjectKey, "name": name,
		"description": "test", "readLevel": level, "writeLevel": level, "downloadLevel": level})
	if a.Code != apperr.OK {
		return 0, a
	}
	var v struct{ ID int64 }
	a.Into(t, &v)
	return v.ID, a
}

// attachUser makes a user of customer with the attachment keys at attachLevel.
func attachUser(t *testing.T, o *org, name string, customer int64, level int) *apitest.Client {
	t.Helper()
	r := o.root
	rid := id(t, r.Call("POST", "/api/auth/sys/role/add", map[string]any{"name": name + " role", "customerId": customer}))
	apitest.Must(t, r.Call("POST", "/api/auth/sys/role/auth/menu", map[string]any{"id": rid, "keys": attachKeys}))
	apitest.Must(t, r.Call("POST", "/api/auth/sys/role/auth/data", map[string]any{"id": rid, "customerAccess": 1, "siteAccess": 0,
		"webSshLevel": 5, "cfgReadLevel": 5, "cfgWriteLevel": 5, "cfgDownloadLevel": 5, "paramLevel": 5, "docLevel": 5, "attachLevel": level}))
	k := r.Key()
	id(t, r.Call("POST", "/api/auth/sys/user/add", map[string]any{"userName": name, "keyId": k.KeyID,
		"password": k.NewPassword(t, "Attach#Pass123"), "roleId": rid, "customerId": customer}))
	return o.env.Client().MustLogin(name, "Attach#Pass123")
}

func TestAttachments(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		o := newOrg(t, d)
		grantOrg(t, o, attachKeys...)
		env, ctx := o.env, context.Background()
		low := attachUser(t, o, "alpha_low_attach", o.custA, 4) // may use levels 4 and 5
		high := attachUser(t, o, "alpha_high_attach", o.custA, 1)

		// A's admin (level 5 in newOrg's role) cannot make level-2 items; the level-1 user can.
		pub := id(t, o.a.Call("POST", "/api/auth/sys/attach/folder/add", map[string]any{"name": "Manuals", "readLevel": 5, "writeLevel": 5, "downloadLevel": 5}))
		secret := id(t, high.Call("POST", "/api/auth/sys/attach/folder/add", map[string]any{"name": "Secret", "readLevel": 2, "writeLevel": 2, "downloadLevel": 2}))
		body := storagetest.Sample("pdf")
		pubFile, a := attachFile(t, o, o.a, pub, "manual.pdf", body, 5)
		apitest.Must(t, a)
		secretFile, a := attachFile(t, o, high, secret, "secret.pdf", body, 2)
		apitest.Must(t, a)
		lvl3File, a := attachFile(t, o, high, pub, "level3.pdf", body, 3)
		apitest.Must(t, a)

		t.Run("levels lower than the folder's are refused", func(t *testing.T) {
			_, a := attachFile(t, o, high, secret, "loose.pdf", body, 4)
			if a.Code != apperr.Invalid || !strings.Contains(a.Message, "cannot be lower than the folder") {
				t.Fatalf("got %d %q", a.Code, a.Message)
			}
			a = high.Call("POST", "/api/auth/sys/attach/folder/add", map[string]any{"parentId": secret, "name": "Sub", "readLevel": 3, "writeLevel": 2, "downloadLevel": 2})
			apitest.WantCode(t, a, apperr.Invalid)
			a = high.Call("POST", "/api/auth/sys/attach/file/update", map[string]any{"id": secretFile, "name": "secret.pdf", "readLevel": 5, "writeLevel": 2, "downloadLevel": 2})
			apitest.WantCode(t, a, apperr.Invalid)
		})

		t.Run("a user below the read level neither lists nor reads nor links", func(t *testing.T) {
			var tree []struct {
				ID   int64
				Name string
			}
			apitest.Must(t, low.Call("GET", "/api/auth/sys/attach/folder/tree", nil)).Into(t, &tree)
			if len(tree) != 1 || tree[0].ID != pub {
				t.Errorf("low tree %+v, want only Manuals", tree)
			}
			if got := listIDs(t, low, "/api/auth/sys/attach/file/list", map[string]any{}); !sameIDs(got, pubFile) {
				t.Errorf("low lists %v, want [%d]", got, pubFile)
			}
			if got := listIDs(t, low, "/api/auth/sys/attach/file/list", map[string]any{"folderId": secret}); len(got) != 0 {
				t.Errorf("low lists the secret folder: %v", got)
			}
			for _, f := range []int64{secretFile, lvl3File} {
				apitest.WantCode(t, low.Call("GET", "/api/auth/sys/attach/file/detail", map[string]any{"id": f}), apperr.NotFound)
				apitest.WantCode(t, low.Call("GET", "/api/auth/sys/attach/file/url", map[string]any{"id": f}), apperr.NotFound)
				apitest.WantCode(t, low.Call("POST", "/api/auth/sys/attach/share/add", map[string]any{"fileId": f, "validity": 1}), apperr.NotFound)
				apitest.WantCode(t, low.Call("POST", "/api/auth/sys/attach/file/delete", map[string]any{"ids": []int64{f}}), apperr.NotFound)
			}
			apitest.WantCode(t, low.Call("POST", "/api/auth/sys/attach/folder/delete", map[string]any{"id": secret}), apperr.NotFound)
			// The level-1 user sees everything of A.
			if got := listIDs(t, high, "/api/auth/sys/attach/file/list", map[string]any{"name": ".PDF"}); len(got) != 3 {
				t.Errorf("high lists %v", got)
			}
		})

		t.Run("an attachment's object is read only through the file, never the plain URL helper", func(t *testing.T) {
			var f struct{ ObjectKey string }
			apitest.Must(t, high.Call("GET", "/api/auth/sys/attach/file/detail", map[string]any{"id": secretFile})).Into(t, &f)
			if f.ObjectKey == "" {
				t.Fatal("the detail names no objectKey")
			}
			// Not the low user of the same customer who learnt the key, nor the uploader itself:
			// the file's levels and shares decide, through attach/file/url.
			for _, c := range []*apitest.Client{low, high} {
				apitest.WantCode(t, c.Call("GET", "/api/auth/sys/system/oss/url", map[string]any{"objectKey": f.ObjectKey}), apperr.NotFound)
				apitest.WantCode(t, c.Call("GET", "/api/auth/sys/system/oss/sts/read", map[string]any{"objectKey": f.ObjectKey}), apperr.NotFound)
			}
			apitest.Must(t, high.Call("GET", "/api/auth/sys/attach/file/url", map[string]any{"id": secretFile}))
		})

		t.Run("another customer's user gets not found", func(t *testing.T) {
			if got := listIDs(t, o.b, "/api/auth/sys/attach/file/list", map[string]any{"customerId": o.custA}); len(got) != 0 {
				t.Errorf("B lists A's files %v", got)
			}
			apitest.WantCode(t, o.b.Call("GET", "/api/auth/sys/attach/file/detail", map[string]any{"id": pubFile}), apperr.NotFound)
			apitest.WantCode(t, o.b.Call("GET", "/api/auth/sys/attach/file/url", map[string]any{"id": pubFile}), apperr.NotFound)
			apitest.WantCode(t, o.b.Call("POST", "/api/auth/sys/attach/folder/update", map[string]any{"id": pub, "name": "x", "readLevel": 5, "writeLevel": 5, "downloadLevel": 5}), apperr.NotFound)
			bFolder := id(t, o.b.Call("POST", "/api/auth/sys/attach/folder/add", map[string]any{"name": "Beta", "readLevel": 5, "writeLevel": 5, "downloadLevel": 5}))
			apitest.WantCode(t, o.b.Call("POST", "/api/auth/sys/attach/file/move", map[string]any{"ids": []int64{pubFile}, "folderId": bFolder}), apperr.NotFound)
		})

		t.Run("the download link gives the bytes under the file's name", func(t *testing.T) {
			var l struct{ URL string }
			apitest.Must(t, low.Call("GET", "/api/auth/sys/attach/file/url", map[string]any{"id": pubFile})).Into(t, &l)
			resp, got := fetch(t, absolute(env, l.URL))
			if resp.StatusCode != 200 || !bytes.Equal(got, body) || !strings.Contains(resp.Header.Get("Content-Disposition"), "manual.pdf") {
				t.Fatalf("download %d %q %d bytes", resp.StatusCode, resp.Header.Get("Content-Disposition"), len(got))
			}
		})

		t.Run("moving into a folder raises the levels; a folder with content is not deleted", func(t *testing.T) {
			apitest.Must(t, high.Call("POST", "/api/auth/sys/attach/file/move", map[string]any{"ids": []int64{lvl3File}, "folderId": secret}))
			var f struct{ ReadLevel, WriteLevel, DownloadLevel, FolderID int64 }
			apitest.Must(t, high.Call("GET", "/api/auth/sys/attach/file/detail", map[string]any{"id": lvl3File})).Into(t, &f)
			if f.FolderID != secret || f.ReadLevel != 2 || f.WriteLevel != 2 || f.DownloadLevel != 2 {
				t.Errorf("moved file %+v", f)
			}
			a := high.Call("POST", "/api/auth/sys/attach/folder/delete", map[string]any{"id": secret})
			if a.Code != apperr.Conflict || !strings.Contains(a.Message, "not empty") {
				t.Errorf("delete non-empty folder: %d %q", a.Code, a.Message)
			}
		})

		t.Run("deleting a file deletes its object", func(t *testing.T) {
			var f struct{ ObjectKey string }
			apitest.Must(t, high.Call("GET", "/api/auth/sys/attach/file/detail", map[string]any{"id": lvl3File})).Into(t, &f)
			apitest.Must(t, high.Call("POST", "/api/auth/sys/attach/file/delete", map[string]any{"ids": []int64{lvl3File}}))
			if _, err := env.App.Server.Uploads.Store.Stat(ctx, f.ObjectKey); err == nil {
				t.Fatal("the object is still stored")
			}
			apitest.WantCode(t, high.Call("GET", "/api/auth/sys/attach/file/detail", map[string]any{"id": lvl3File}), apperr.NotFound)
		})

		t.Run("share: info and download signed out, wrong codes lock, reset unlocks, expiry, log", func(t *testing.T) {
			var made struct {
				ID               int64
				URL, Token, Code string
				ExpiresAt        int64
			}
			apitest.Must(t, o.a.Call("POST", "/api/auth/sys/attach/share/add", map[string]any{"fileId": pubFile, "validity": 7, "code": "4321"})).Into(t, &made)
			if made.Code != "4321" || len(made.Token) != 32 || !strings.HasSuffix(made.URL, "/share/file?token="+made.Token) || made.ExpiresAt == 0 {
				t.Fatalf("share %+v", made)
			}
			apitest.WantCode(t, o.a.Call("POST", "/api/auth/sys/attach/share/add", map[string]any{"fileId": pubFile, "validity": 7, "code": "12a4"}), apperr.Invalid)
			apitest.WantCode(t, o.a.Call("POST", "/api/auth/sys/attach/share/add", map[string]any{"fileId": pubFile}), apperr.Invalid)
			var gen struct{ Code string }
			apitest.Must(t, o.a.Call("POST", "/api/auth/sys/attach/share/add", map[string]any{"fileId": pubFile, "validity": 0})).Into(t, &gen)
			if len(gen.Code) != 4 {
				t.Errorf("generated code %q", gen.Code)
			}
			var stored string
			if err := d.QueryRow(ctx, `SELECT token_hash FROM attach_share WHERE id = ?`, made.ID).Scan(&stored); err != nil || stored == made.Token || strings.Contains(stored, made.Token) {
				t.Errorf("token stored in clear (%v)", err)
			}

			anon := env.Client()
			var info struct {
				Name      string
				Size      int64
				ExpiresAt int64
				Locked    bool
			}
			apitest.Must(t, anon.Call("POST", "/api/unauth/share/info", map[string]any{"token": made.Token})).Into(t, &info)
			if info.Name != "manual.pdf" || info.Size != int64(len(body)) || info.Locked {
				t.Errorf("info %+v", info)
			}
			var link struct{ URL string }
			apitest.Must(t, anon.Call("POST", "/api/unauth/share/download", map[string]any{"token": made.Token, "code": "4321"})).Into(t, &link)
			resp, got := fetch(t, absolute(env, link.URL))
			if resp.StatusCode != 200 || !bytes.Equal(got, body) {
				t.Fatalf("shared download %d, %d bytes", resp.StatusCode, len(got))
			}
			apitest.Must(t, anon.Call("GET", "/api/unauth/oss/sts/read", map[string]any{"token": made.Token, "code": "4321"}))
			w := anon.Call("GET", "/api/unauth/oss/sts/write", nil)
			if w.Code != apperr.NoPermission || w.Message != "Uploads need you to sign in" {
				t.Errorf("signed-out write: %d %q", w.Code, w.Message)
			}

			for i := 1; i <= 5; i++ {
				a := anon.Call("POST", "/api/unauth/share/download", map[string]any{"token": made.Token, "code": "0000"})
				if i < 5 && a.Code != apperr.Invalid {
					t.Fatalf("wrong code %d: %d %q", i, a.Code, a.Message)
				}
				if i == 5 && a.Code != apperr.Conflict {
					t.Fatalf("fifth wrong code: %d %q", a.Code, a.Message)
				}
			}
			apitest.WantCode(t, anon.Call("POST", "/api/unauth/share/download", map[string]any{"token": made.Token, "code": "4321"}), apperr.Conflict)
			apitest.Must(t, anon.Call("POST", "/api/unauth/share/info", map[string]any{"token": made.Token})).Into(t, &info)
			if !info.Locked {
				t.Error("info does not say locked")
			}
			// Another customer cannot reset it; the owner can, with a new code, and the link stays.
			apitest.WantCode(t, o.b.Call("POST", "/api/auth/sys/attach/share/reset", map[string]any{"id": made.ID}), apperr.NotFound)
			var reset struct{ Code string }
			apitest.Must(t, o.a.Call("POST", "/api/auth/sys/attach/share/reset", map[string]any{"id": made.ID, "code": "9876"})).Into(t, &reset)
			apitest.WantCode(t, anon.Call("POST", "/api/unauth/share/download", map[string]any{"token": made.Token, "code": "4321"}), apperr.Invalid)
			apitest.Must(t, anon.Call("POST", "/api/unauth/share/download", map[string]any{"token": made.Token, "code": "9876"}))

			// Expired: its expiry moved into the past.
			if _, err := d.Exec(ctx, `UPDATE attach_share SET expires_at = ? WHERE id = ?`, db.NowMS()-1000, made.ID); err != nil {
				t.Fatal(err)
			}
			for _, path := range []string{"/api/unauth/share/info", "/api/unauth/share/download"} {
				a := anon.Call("POST", path, map[string]any{"token": made.Token, "code": "9876"})
				if a.Code != apperr.NotFound || a.Message != "File sharing has expired" {
					t.Errorf("%s expired: %d %q", path, a.Code, a.Message)
				}
			}
			zh := env.Client()
			zh.Locale = "zh-CN"
			if a := zh.Call("POST", "/api/unauth/share/info", map[string]any{"token": made.Token}); a.Message != "文件分享已过期" {
				t.Errorf("zh-CN expired %q", a.Message)
			}

			var log []struct{ Action, Result string }
			apitest.Must(t, o.a.Call("POST", "/api/auth/sys/attach/share/log/list", map[string]any{"id": made.ID})).Into(t, &log)
			count := map[string]int{}
			for _, l := range log {
				count[l.Result]++
			}
			// info ×2 ok+locked, download ok ×3 (before lock, sts/read, after reset), wrong ×6, locked ×1, expired ×3
			if count["ok"] != 4 || count["wrong_code"] != 6 || count["locked"] != 2 || count["expired"] != 3 {
				t.Errorf("access log %v (%d rows)", count, len(log))
			}
			var shares []struct {
				ID      int64
				Expired bool
			}
			apitest.Must(t, o.a.Call("POST", "/api/auth/sys/attach/share/list", map[string]any{"fileId": pubFile})).Into(t, &shares)
			if len(shares) != 2 {
				t.Errorf("shares %+v", shares)
			}
			apitest.Must(t, o.a.Call("POST", "/api/auth/sys/attach/share/delete", map[string]any{"id": made.ID}))
		})

		t.Run("the share link is built on the caller's origin when it is the node's", func(t *testing.T) {
			share := func(origin string) (int, string) {
				req, err := http.NewRequest("POST", env.URL+"/api/auth/sys/attach/share/add", strings.NewReader(fmt.Sprintf(`{"fileId":%d,"validity":30}`, pubFile)))
				if err != nil {
					t.Fatal(err)
				}
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Cookie", "chargeops_token="+o.a.Cookie("chargeops_token")+"; chargeops_csrf="+o.a.Cookie("chargeops_csrf"))
				req.Header.Set("X-CSRF-Token", o.a.Cookie("chargeops_csrf"))
				if origin != "" {
					req.Header.Set("Origin", origin)
				}
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				defer resp.Body.Close()
				var a struct {
					Code int
					Data struct{ URL string }
				}
				_ = json.NewDecoder(resp.Body).Decode(&a)
				return a.Code, a.Data.URL
			}
			if code, u := share(env.URL); code != apperr.OK || !strings.HasPrefix(u, env.URL+"/share/file?token=") {
				t.Errorf("own origin: %d %q", code, u)
			}
			if code, u := share("https://evil.example"); code == apperr.OK && strings.Contains(u, "evil.example") {
				t.Errorf("a foreign Origin made the link: %q", u)
			}
		})

		t.Run("a charger's diagnostics upload is an attachment in diagnostics/<SN>", func(t *testing.T) {
			res, err := d.Exec(ctx, `UPDATE device_state SET diagnostics_job = 777 WHERE device_id = ?`, o.devA)
			if n, _ := res.RowsAffected(); err != nil || n == 0 {
				if _, err := d.Exec(ctx, `INSERT INTO device_state (device_id, diagnostics_job) VALUES (?, 777)`, o.devA); err != nil {
					t.Fatal(err)
				}
			}
			path := env.App.Fleet.SignedPath(fmt.Sprintf("/fleet/files/diagnostics/%d/777", o.devA), 60e9)
			req, err := http.NewRequest("PUT", env.URL+path+"&name=diag.log", strings.NewReader("diagnostics text"))
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Content-Type", "text/plain")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusCreated {
				t.Fatalf("diagnostics upload: %d", resp.StatusCode)
			}
			var files struct {
				List []struct {
					ID         int64
					Name, Path string
					Size       int64
					CustomerID int64
				}
			}
			apitest.Must(t, o.root.Call("POST", "/api/auth/sys/attach/file/list", map[string]any{"customerId": o.custA, "name": "diag"})).Into(t, &files)
			if len(files.List) != 1 || files.List[0].Path != "diagnostics/ALPHA-0001" || files.List[0].Size != int64(len("diagnostics text")) {
				t.Fatalf("diagnostics attachment %+v", files.List)
			}
			var l struct{ URL string }
			apitest.Must(t, o.root.Call("GET", "/api/auth/sys/attach/file/url", map[string]any{"id": files.List[0].ID})).Into(t, &l)
			if resp, got := fetch(t, absolute(env, l.URL)); resp.StatusCode != 200 || string(got) != "diagnostics text" {
				t.Errorf("diagnostics download %d %q", resp.StatusCode, got)
			}
			// Read and download at level 5, like the device's diagnostics list; changes at level 0 only.
			if got := listIDs(t, o.a, "/api/auth/sys/attach/file/list", map[string]any{"name": "diag"}); len(got) != 1 {
				t.Errorf("the customer's level-5 admin lists diagnostics %v, want the one file", got)
			}
			if res := o.a.Call("POST", "/api/auth/sys/attach/file/delete", map[string]any{"ids": []int64{files.List[0].ID}}); res.Code == 0 {
				t.Errorf("a level-5 admin deleted a diagnostics attachment")
			}
		})
	})
}
