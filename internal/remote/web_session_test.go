package remote_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"chargeops/internal/config"
	"chargeops/internal/db"
	"chargeops/internal/remote"
	"chargeops/internal/session"
	"chargeops/internal/testutil"
	"chargeops/internal/testutil/apitest"
)

// page gets a web-page URL without cookies (the path token is the authority) in a language.
func page(t *testing.T, u, lang string) (int, string) {
	t.Helper()
	req, err := http.NewRequest("GET", u, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept-Language", lang)
	resp, body := fetchReq(t, req)
	return resp.StatusCode, body
}

// Issue 29 M3: the charger's web-page link answered 200 after its user signed out or was
// disabled. A web token now lives only while the console session it was given to does: sign-out,
// the session's expiry, a disabled account and a role change refuse the page at once (403, a
// localised page) and end the web session with its audit row; other users' pages stay.
func TestRemoteWebPageEndsWithConsoleSession(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		env := apitest.New(t, d, func(c *config.Config) { c.NodeName = "node-solo" })
		w := newWorld(t, env, env.URL)
		ctx := context.Background()
		w.open(t, w.engineer, "web")
		rootURL := env.URL + w.webURL(t, w.root)

		// open gets c's page: 200 first.
		open := func(t *testing.T, c *apitest.Client) string {
			t.Helper()
			u := env.URL + w.webURL(t, c)
			if st, body := page(t, u, "en-US"); st != 200 || !strings.Contains(body, "web admin") {
				t.Fatalf("page before: %d %.200s", st, body)
			}
			return u
		}
		// refused checks the page is refused at once, in both languages, and its session ended.
		refused := func(t *testing.T, u string) {
			t.Helper()
			st, body := page(t, u, "en-US")
			if st != http.StatusForbidden || !strings.Contains(body, "console session has ended") {
				t.Fatalf("page after: %d %.200s", st, body)
			}
			if st, body := page(t, u, "zh-CN"); st != http.StatusForbidden || !strings.Contains(body, "控制台会话已结束") {
				t.Fatalf("zh-CN page after: %d %.200s", st, body)
			}
			tok := u[strings.LastIndex(strings.TrimSuffix(u, "/"), "/")+1 : len(u)-1]
			var ended int64
			if err := d.QueryRow(ctx, `SELECT ended_at FROM remote_session WHERE kind = 'web' AND token_hash = ?`, session.HashToken(tok)).Scan(&ended); err != nil || ended == 0 {
				t.Fatalf("web session not ended (%d, %v)", ended, err)
			}
			if st, _ := page(t, rootURL, "en-US"); st != 200 {
				t.Fatalf("root's page refused too: %d", st)
			}
		}

		t.Run("sign-out", func(t *testing.T) {
			u := open(t, w.engineer)
			apitest.Must(t, w.engineer.Call("POST", "/api/unauth/logout", nil))
			refused(t, u)
		})
		t.Run("the console session's expiry", func(t *testing.T) {
			u := open(t, w.viewer)
			if _, err := d.Exec(ctx, `UPDATE session SET last_seen_at = ? WHERE id = ?`, db.NowMS()-48*time.Hour.Milliseconds(),
				session.HashToken(w.viewer.Cookie("chargeops_token"))); err != nil {
				t.Fatal(err)
			}
			refused(t, u)
		})
		var webUser, webRole int64
		var webName string
		if err := d.QueryRow(ctx, `SELECT id, user_name, role_id FROM app_user WHERE user_name LIKE 'web_%'`).Scan(&webUser, &webName, &webRole); err != nil {
			t.Fatal(err)
		}
		t.Run("a role change", func(t *testing.T) {
			u := open(t, w.webOnly)
			apitest.Must(t, w.root.Call("POST", "/api/auth/sys/role/auth/data", map[string]any{"id": webRole, "customerAccess": 1, "siteAccess": 0,
				"webSshAccess": 0, "webSshLevel": 0, "cfgReadLevel": 5, "cfgWriteLevel": 5, "cfgDownloadLevel": 5, "paramLevel": 5, "docLevel": 5, "attachLevel": 5}))
			refused(t, u)
		})
		t.Run("a disabled account", func(t *testing.T) {
			apitest.Must(t, w.root.Call("POST", "/api/auth/sys/role/auth/data", map[string]any{"id": webRole, "customerAccess": 1, "siteAccess": 0,
				"webSshAccess": 3, "webSshLevel": 0, "cfgReadLevel": 5, "cfgWriteLevel": 5, "cfgDownloadLevel": 5, "paramLevel": 5, "docLevel": 5, "attachLevel": 5}))
			again := env.Client().MustLogin(webName, password)
			u := open(t, again)
			apitest.Must(t, w.root.Call("POST", "/api/auth/sys/user/status", map[string]any{"ids": []int64{webUser}, "status": 0}))
			refused(t, u)
		})
		t.Run("the sweep ends web sessions of ended console sessions", func(t *testing.T) {
			var name string
			if err := d.QueryRow(ctx, `SELECT user_name FROM app_user WHERE id = ?`, w.engineerID).Scan(&name); err != nil {
				t.Fatal(err)
			}
			again := env.Client().MustLogin(name, password)
			u := env.URL + w.webURL(t, again)
			apitest.Must(t, again.Call("POST", "/api/unauth/logout", nil))
			env.App.Remote.Sweep(ctx)
			var n int
			if err := d.QueryRow(ctx, `SELECT COUNT(*) FROM remote_session WHERE kind = 'web' AND ended_at = 0 AND user_id = ?`, w.engineerID).Scan(&n); err != nil || n != 0 {
				t.Fatalf("%d web sessions of the signed-out engineer open (%v)", n, err)
			}
			if st, _ := page(t, u, "en-US"); st != http.StatusForbidden {
				t.Fatalf("page of a swept session: %d", st)
			}
		})
		var audit int
		if err := d.QueryRow(ctx, `SELECT COUNT(*) FROM action_log WHERE action = ? AND data LIKE ?`, remote.ActionWeb, "%"+w.sn+"%").Scan(&audit); err != nil || audit < 5 {
			t.Errorf("%d web audit rows (%v), want the 5 ended sessions", audit, err)
		}
	})
}
