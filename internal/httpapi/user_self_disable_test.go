package httpapi_test

import (
	"context"
	"strings"
	"testing"

	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/testutil"
	"chargeops/internal/testutil/apitest"
)

// Issue 30 item 16: no user disables their own account, alone or among others: the server
// refuses with a localised message (en-US and zh-CN) and changes nothing; a peer beside them in
// the same call stays enabled too.
func TestNobodyDisablesThemself(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		o := newOrg(t, d)
		grantOrg(t, o, "auth_system", "auth_user", "auth_user_list", "auth_user_edit")
		k := o.root.Key()
		peer := id(t, o.root.Call("POST", "/api/auth/sys/user/add", map[string]any{"userName": "alpha_peer_self", "keyId": k.KeyID,
			"password": k.NewPassword(t, "Scope#Pass123"), "roleId": roleOf(t, o, o.userA), "customerId": o.custA}))
		for _, ids := range [][]int64{{o.userA}, {peer, o.userA}} {
			a := o.a.Call("POST", "/api/auth/sys/user/status", map[string]any{"ids": ids, "status": 0})
			apitest.WantCode(t, a, apperr.Invalid)
			if !strings.Contains(a.Message, "own") {
				t.Errorf("message %q does not say why", a.Message)
			}
		}
		o.a.Locale = "zh-CN"
		zh := o.a.Call("POST", "/api/auth/sys/user/status", map[string]any{"ids": []int64{o.userA}, "status": 0})
		o.a.Locale = "en-US"
		apitest.WantCode(t, zh, apperr.Invalid)
		if !strings.Contains(zh.Message, "自己") {
			t.Errorf("zh-CN message %q", zh.Message)
		}
		var disabled int
		if err := d.QueryRow(context.Background(), `SELECT COUNT(*) FROM app_user WHERE id IN (?, ?) AND status <> 1`, o.userA, peer).Scan(&disabled); err != nil {
			t.Fatal(err)
		}
		if disabled != 0 {
			t.Errorf("%d account(s) disabled by a refused call", disabled)
		}
		// the same caller may still disable the peer alone
		apitest.Must(t, o.a.Call("POST", "/api/auth/sys/user/status", map[string]any{"ids": []int64{peer}, "status": 0}))
	})
}
