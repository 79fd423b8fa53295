package httpapi_test

import (
	"context"
	"testing"

	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/setting"
	"chargeops/internal/testutil"
	"chargeops/internal/testutil/apitest"
)

// TestPrivacyHeldUntilAccepted: a session whose user has not accepted the current privacy
// policy gets a localised refusal (20014) from every session call but the acceptance; the
// session info and sign-out still answer. Accepted, the same calls succeed; a new policy
// version held by the operator locks every user again until they accept it.
func TestPrivacyHeldUntilAccepted(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		env := apitest.New(t, d, nil)
		root := env.Root()
		env.CreateUser(root, "fresh_user", "Fres#Pass123", "auth_site", "auth_site_list", "auth_my")
		c := env.Client()
		apitest.Must(t, c.Login("fresh_user", "Fres#Pass123"))

		list := func(c *apitest.Client) apitest.Answer {
			return c.Call("POST", "/api/auth/sys/site/list", map[string]any{})
		}
		t.Run("a fresh user is refused, in the caller's language", func(t *testing.T) {
			a := list(c)
			if a.Code != apperr.PrivacyPending || a.Message != "Please accept the privacy policy first" {
				t.Fatalf("site list before accepting: %d %q", a.Code, a.Message)
			}
			c.Locale = "zh-CN"
			a = list(c)
			c.Locale = "en-US"
			if a.Code != apperr.PrivacyPending || a.Message != "请先同意隐私政策" {
				t.Fatalf("zh-CN: %d %q", a.Code, a.Message)
			}
			apitest.WantCode(t, c.Call("GET", "/api/auth/sys/user/owner/detail", nil), apperr.PrivacyPending)
			apitest.WantCode(t, c.Call("POST", "/api/auth/sys/user/owner/update", map[string]any{"nickName": "changed"}), apperr.PrivacyPending)
			var n int
			if err := d.QueryRow(context.Background(), `SELECT COUNT(*) FROM app_user WHERE user_name = ? AND nick_name = ?`, "fresh_user", "changed").Scan(&n); err != nil || n != 0 {
				t.Fatalf("the refused change was applied: %d %v", n, err)
			}
		})
		t.Run("the session info still answers and says what to accept", func(t *testing.T) {
			var info struct {
				Privacy struct{ NeedConfirm bool }
			}
			apitest.Must(t, c.Call("POST", "/api/unauth/info", nil)).Into(t, &info)
			if !info.Privacy.NeedConfirm {
				t.Fatal("info does not ask for the policy")
			}
		})
		t.Run("accepted, the same calls answer", func(t *testing.T) {
			c.AcceptPrivacy()
			apitest.Must(t, list(c))
			apitest.Must(t, c.Call("GET", "/api/auth/sys/user/owner/detail", nil))
		})
		t.Run("a new policy version locks again until accepted", func(t *testing.T) {
			if err := setting.NewStore(d).Set(context.Background(), "privacy.policy", `{"version":"2099-01-01","content":{"en-US":"<p>new</p>"}}`); err != nil {
				t.Fatal(err)
			}
			apitest.WantCode(t, list(c), apperr.PrivacyPending)
			apitest.WantCode(t, list(root), apperr.PrivacyPending) // root too
			apitest.WantCode(t, c.Call("POST", "/api/auth/sys/user/owner/privacy", map[string]any{"version": "2026-11-01"}), apperr.Invalid)
			c.AcceptPrivacy()
			apitest.Must(t, list(c))
			apitest.WantCode(t, list(root), apperr.PrivacyPending)
		})
		t.Run("sign-out is never held", func(t *testing.T) {
			apitest.Must(t, root.Call("POST", "/api/unauth/logout", nil))
		})
	})
}
