package httpapi_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/testutil"
	"chargeops/internal/testutil/apitest"
)

var appKeys = []string{"auth_application", "auth_application_list", "auth_application_add", "auth_application_edit", "auth_application_detail"}

type madeApp struct {
	ID            int64  `json:"id"`
	AppID         string `json:"appId"`
	AppSecret     string `json:"appSecret"`
	PrevExpiresAt int64  `json:"prevExpiresAt"`
}

func TestApplications(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		o := newOrg(t, d)
		grantOrg(t, o, appKeys...)
		ctx := context.Background()
		apps := o.env.App.Server.Apps
		base := "/api/auth/sys/application/"

		var made madeApp
		apitest.Must(t, o.a.Call("POST", base+"add", map[string]any{"name": "Alpha billing", "description": "ERP link", "userId": o.userA})).Into(t, &made)
		if made.ID == 0 || made.AppID == "" || len(made.AppSecret) != 43 {
			t.Fatalf("add answered %+v", made)
		}

		t.Run("the secret is shown once: never in list or detail, and not stored in clear", func(t *testing.T) {
			l := o.a.Call("POST", base+"list", map[string]any{"name": "billing"})
			apitest.Must(t, l)
			dt := apitest.Must(t, o.a.Call("GET", base+"detail", map[string]any{"id": made.ID}))
			for _, a := range []apitest.Answer{l, dt} {
				if strings.Contains(string(a.Data), made.AppSecret) || strings.Contains(strings.ToLower(string(a.Data)), "secret\"") {
					t.Errorf("answer shows a secret: %s", a.Data)
				}
				if !strings.Contains(string(a.Data), made.AppID) {
					t.Errorf("answer lacks the appId: %s", a.Data)
				}
			}
			if ids := listIDs(t, o.a, base+"list", map[string]any{"status": 1}); !sameIDs(ids, made.ID) {
				t.Errorf("list %v, want [%d]", ids, made.ID)
			}
			var stored, prev string
			if err := d.QueryRow(ctx, `SELECT secret_enc, prev_secret_enc FROM application WHERE id = ?`, made.ID).Scan(&stored, &prev); err != nil {
				t.Fatal(err)
			}
			if stored == "" || strings.Contains(stored, made.AppSecret) || prev != "" {
				t.Errorf("stored secret %q (previous %q) is the plain secret or empty", stored, prev)
			}
			var logged int
			if err := d.QueryRow(ctx, `SELECT COUNT(*) FROM action_log WHERE action = ? AND user_name = 'alpha_admin'`, "POST "+base+"add").Scan(&logged); err != nil || logged != 1 {
				t.Errorf("action log rows of add: %d %v", logged, err)
			}
			var leaked int
			if err := d.QueryRow(ctx, `SELECT COUNT(*) FROM action_log WHERE data LIKE ?`, "%"+made.AppSecret+"%").Scan(&leaked); err != nil || leaked != 0 {
				t.Errorf("secret in the action log: %d %v", leaked, err)
			}
		})

		t.Run("rotation keeps the previous secret valid within the grace period only", func(t *testing.T) {
			var rot madeApp
			apitest.Must(t, o.a.Call("POST", base+"secret/rotate", map[string]any{"id": made.ID})).Into(t, &rot)
			if rot.AppSecret == "" || rot.AppSecret == made.AppSecret || rot.AppID != made.AppID {
				t.Fatalf("rotate answered %+v", rot)
			}
			_, cur, prev, err := apps.Secrets(ctx, made.AppID)
			if err != nil || string(cur) != rot.AppSecret || string(prev) != made.AppSecret {
				t.Fatalf("within grace: cur %q prev %q err %v", cur, prev, err)
			}
			apps.Now = func() time.Time { return time.UnixMilli(rot.PrevExpiresAt).Add(time.Second) }
			defer func() { apps.Now = time.Now }()
			_, cur, prev, err = apps.Secrets(ctx, made.AppID)
			if err != nil || string(cur) != rot.AppSecret || prev != nil {
				t.Fatalf("after grace: cur %q prev %q err %v", cur, prev, err)
			}
		})

		t.Run("update, disable and enable", func(t *testing.T) {
			apitest.Must(t, o.a.Call("POST", base+"update", map[string]any{"id": made.ID, "name": "Alpha ERP", "description": "", "userId": o.userA, "status": 0}))
			var a struct {
				Name   string
				Status int
				UserID int64 `json:"userId"`
			}
			apitest.Must(t, o.a.Call("GET", base+"detail", map[string]any{"id": made.ID})).Into(t, &a)
			if a.Name != "Alpha ERP" || a.Status != 0 || a.UserID != o.userA {
				t.Errorf("after update: %+v", a)
			}
			apitest.Must(t, o.a.Call("POST", base+"status", map[string]any{"ids": []int64{made.ID}, "status": 1}))
			apitest.Must(t, o.a.Call("GET", base+"detail", map[string]any{"id": made.ID})).Into(t, &a)
			if a.Status != 1 {
				t.Errorf("after enable: %+v", a)
			}
		})

		t.Run("another customer's user neither sees nor changes A's application", func(t *testing.T) {
			if ids := listIDs(t, o.b, base+"list", map[string]any{}); len(ids) != 0 {
				t.Errorf("B lists %v", ids)
			}
			apitest.WantCode(t, o.b.Call("GET", base+"detail", map[string]any{"id": made.ID}), apperr.NotFound)
			apitest.WantCode(t, o.b.Call("POST", base+"update", map[string]any{"id": made.ID, "name": "x", "userId": o.userB}), apperr.NotFound)
			apitest.WantCode(t, o.b.Call("POST", base+"secret/rotate", map[string]any{"id": made.ID}), apperr.NotFound)
			apitest.WantCode(t, o.b.Call("POST", base+"status", map[string]any{"ids": []int64{made.ID}, "status": 0}), apperr.NotFound)
			apitest.WantCode(t, o.b.Call("POST", base+"delete", map[string]any{"ids": []int64{made.ID}}), apperr.NotFound)
			// A bound user outside the caller's scope is refused, named by its field.
			a := o.b.Call("POST", base+"add", map[string]any{"name": "Beta app", "userId": o.userA})
			apitest.WantCode(t, a, apperr.Invalid)
			if !strings.Contains(a.Message, "bound user") {
				t.Errorf("message %q", a.Message)
			}
			var opts []struct{ ID int64 }
			apitest.Must(t, o.b.Call("POST", base+"user/options", map[string]any{"name": "alpha"})).Into(t, &opts)
			if len(opts) != 0 {
				t.Errorf("B's user options show A's users: %v", opts)
			}
			_, cur, _, err := apps.Secrets(ctx, made.AppID)
			if err != nil || len(cur) == 0 {
				t.Errorf("A's application changed: %v", err)
			}
		})

		t.Run("validation errors are localised and change nothing", func(t *testing.T) {
			zh := o.env.Client().MustLogin("alpha_admin", "Scope#Pass123")
			zh.Locale = "zh-CN"
			for _, c := range []struct {
				body   map[string]any
				en, cn string
			}{
				{map[string]any{"name": " ", "userId": o.userA}, "Name cannot be empty", "不能为空"},
				{map[string]any{"name": strings.Repeat("n", 101), "userId": o.userA}, "at most 100 characters", "最多 100 个字符"},
				{map[string]any{"name": "ok", "description": strings.Repeat("d", 501), "userId": o.userA}, "at most 500 characters", "最多 500 个字符"},
				{map[string]any{"name": "ok"}, "Bound user cannot be empty", "绑定用户 不能为空"},
				{map[string]any{"name": "ok", "userId": 999999}, "bound user", "绑定用户"},
				{map[string]any{"name": "ok", "userId": o.userA, "status": 7}, "Status is invalid", "状态 无效"},
				{map[string]any{"name": "ok", "userId": o.userA, "icon": "uploads/none/missing.png"}, "Icon is invalid", "图标 无效"},
			} {
				a := o.a.Call("POST", base+"add", c.body)
				if a.Code != apperr.Invalid || !strings.Contains(a.Message, c.en) {
					t.Errorf("en %v: %d %q", c.body, a.Code, a.Message)
				}
				a = zh.Call("POST", base+"add", c.body)
				if a.Code != apperr.Invalid || !strings.Contains(a.Message, c.cn) {
					t.Errorf("zh %v: %d %q", c.body, a.Code, a.Message)
				}
			}
			if ids := listIDs(t, o.root, base+"list", map[string]any{}); len(ids) != 1 {
				t.Errorf("refused adds left applications: %v", ids)
			}
		})

		t.Run("delete", func(t *testing.T) {
			apitest.Must(t, o.a.Call("POST", base+"delete", map[string]any{"ids": []int64{made.ID}}))
			apitest.WantCode(t, o.a.Call("GET", base+"detail", map[string]any{"id": made.ID}), apperr.NotFound)
			if _, _, _, err := apps.Secrets(ctx, made.AppID); !apperr.IsNotFound(err) {
				t.Errorf("deleted application's secrets: %v", err)
			}
		})
	})
}
