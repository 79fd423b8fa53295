package httpapi_test

import (
	"bytes"
	"testing"
	"time"

	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/storage"
	"chargeops/internal/storage/storagetest"
	"chargeops/internal/testutil"
	"chargeops/internal/testutil/apitest"
)

// Issue 29 (the spec's gaps): the signed-out storage credentials. Read answers the spec's
// credential shape (accessKeyId, accessKeySecret, securityToken, expiration) for a share's
// file and nothing without its code; a fresh call (the console's 10 s refresh) gets a new
// credential; write is refused in both languages (docs/storage.md, "Signed out").
func TestSignedOutStorageCredentials(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		o := newOrg(t, d)
		grantOrg(t, o, attachKeys...)
		env := o.env
		body := storagetest.Sample("pdf")
		folder := id(t, o.a.Call("POST", "/api/auth/sys/attach/folder/add", map[string]any{"name": "Shared", "readLevel": 5, "writeLevel": 5, "downloadLevel": 5}))
		file, a := attachFile(t, o, o.a, folder, "shared.pdf", body, 5)
		apitest.Must(t, a)
		var share struct{ Token string }
		apitest.Must(t, o.a.Call("POST", "/api/auth/sys/attach/share/add", map[string]any{"fileId": file, "validity": 7, "code": "2468"})).Into(t, &share)
		anon := env.Client()

		type credential struct {
			AccessKeyID     string `json:"accessKeyId"`
			AccessKeySecret string `json:"accessKeySecret"`
			SecurityToken   string `json:"securityToken"`
			Expiration      string `json:"expiration"`
			Region, Bucket  string
			URL             string `json:"url"`
			ExpiresAt       int64  `json:"expiresAt"`
		}
		read := func(t *testing.T) credential {
			t.Helper()
			var c credential
			apitest.Must(t, anon.Call("GET", "/api/unauth/oss/sts/read", map[string]any{"token": share.Token, "code": "2468"})).Into(t, &c)
			return c
		}
		t.Run("read answers the credential shape and its link downloads the file", func(t *testing.T) {
			c := read(t)
			exp, err := time.Parse(time.RFC3339, c.Expiration)
			if c.AccessKeyID != storage.CredentialID || c.AccessKeySecret != "" || c.SecurityToken == "" || err != nil ||
				exp.Unix() != time.UnixMilli(c.ExpiresAt).Unix() || time.Until(exp) < 59*time.Minute || c.Region != "oss-cn-hongkong" || c.Bucket == "" {
				t.Fatalf("credential %+v (%v)", c, err)
			}
			if resp, got := fetch(t, absolute(env, c.URL)); resp.StatusCode != 200 || !bytes.Equal(got, body) {
				t.Fatalf("download with the credential: HTTP %d, %d bytes", resp.StatusCode, len(got))
			}
		})
		t.Run("a refresh gets a new credential", func(t *testing.T) {
			first := read(t)
			issued := time.Now().Unix() // the server signed first in this second or before
			// expirations are signed to the second: one refresh in a later second changes both
			// (polling the read instead would spend the share code's rate limit)
			testutil.Eventually(t, "the next second", func() bool { return time.Now().Unix() > issued })
			if again := read(t); again.SecurityToken == first.SecurityToken || again.Expiration == first.Expiration {
				t.Fatalf("refresh kept the credential: %+v after %+v", again, first)
			}
		})
		t.Run("read without the right code gives no credential", func(t *testing.T) {
			apitest.WantCode(t, anon.Call("GET", "/api/unauth/oss/sts/read", map[string]any{"token": share.Token, "code": "1111"}), apperr.Invalid)
			apitest.WantCode(t, anon.Call("GET", "/api/unauth/oss/sts/read", map[string]any{"token": "00000000000000000000000000000000", "code": "2468"}), apperr.NotFound)
		})
		t.Run("write is refused, in both languages", func(t *testing.T) {
			for locale, want := range map[string]string{"en-US": "Uploads need you to sign in", "zh-CN": "上传文件需要先登录"} {
				c := env.Client()
				c.Locale = locale
				w := c.Call("GET", "/api/unauth/oss/sts/write", map[string]any{"kind": "image", "fileName": "a.png"})
				if w.Code != apperr.NoPermission || w.Message != want {
					t.Errorf("%s: signed-out write %d %q", locale, w.Code, w.Message)
				}
			}
		})
	})
}
