package httpapi_test

import (
	"testing"

	"chargeops/internal/actionlog"
	"chargeops/internal/db"
	"chargeops/internal/testutil"
	"chargeops/internal/testutil/apitest"
)

// Issue 30 item 19: an action-log row names its action as the route table does, in the
// caller's language, with the raw "METHOD path" kept; the export carries both.
func TestActionLogNamesActions(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		env := apitest.New(t, d, nil)
		root := env.Root()
		apitest.Must(t, root.Call("POST", "/api/auth/sys/customer/add", map[string]any{"name": "Named Co", "code": "NAMED"}))
		// refused (no such device), still a row
		root.Call("POST", "/api/auth/sys/dev/control/send", map[string]any{"deviceIds": []int64{987654}, "controlType": 1})

		names := func(locale string) map[string]string {
			t.Helper()
			root.Locale = locale
			var page struct {
				List []actionlog.Entry `json:"list"`
			}
			apitest.Must(t, root.Call("POST", "/api/auth/sys/logs/action/list", map[string]any{"type": actionlog.TypeOperation, "pageSize": 100})).Into(t, &page)
			out := map[string]string{}
			for _, e := range page.List {
				out[e.Action] = e.ActionName
			}
			return out
		}
		en := names("en-US")
		if got := en["POST /api/auth/sys/customer/add"]; got != "Add a customer" {
			t.Errorf("en-US name %q (rows %v)", got, en)
		}
		// the summary's notes for developers ("control type 1-20; docs/gateway.md") are left out
		if got := en["POST /api/auth/sys/dev/control/send"]; got != "Send a remote operation to one or more devices" {
			t.Errorf("en-US control name %q", got)
		}
		zh := names("zh-CN")
		if got := zh["POST /api/auth/sys/customer/add"]; got != "新增客户" {
			t.Errorf("zh-CN name %q", got)
		}

		root.Locale = "en-US"
		rows := sheetRows(t, root.CallRaw("POST", "/api/auth/sys/logs/action/export", map[string]any{"type": actionlog.TypeOperation}))
		found := false
		for _, r := range rows[1:] {
			found = found || r[2] == "Add a customer (POST /api/auth/sys/customer/add)"
		}
		if !found {
			t.Errorf("export rows %v", rows)
		}
	})
}
