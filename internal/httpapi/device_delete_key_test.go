package httpapi_test

import (
	"context"
	"fmt"
	"testing"

	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/testutil"
	"chargeops/internal/testutil/apitest"
)

// Issue 30 item 16: deleting devices is its own key, auth_device_delete. A role that edits
// devices (auth_device_edit) but lacks it is refused the delete and changes nothing; with it
// the delete goes through and is an action-log row.
func TestDeviceDeleteIsItsOwnKey(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		o := newOrg(t, d)
		const pw = "Delete#Pass123"
		// users of customer A whose role holds keys
		userOfA := func(name string, keys ...string) *apitest.Client {
			r := o.root
			rid := id(t, r.Call("POST", "/api/auth/sys/role/add", map[string]any{"name": "role of " + name, "customerId": o.custA}))
			apitest.Must(t, r.Call("POST", "/api/auth/sys/role/auth/menu", map[string]any{"id": rid, "keys": keys}))
			apitest.Must(t, r.Call("POST", "/api/auth/sys/role/auth/data", map[string]any{"id": rid, "customerAccess": 1, "siteAccess": 0}))
			k := r.Key()
			id(t, r.Call("POST", "/api/auth/sys/user/add", map[string]any{"userName": name, "keyId": k.KeyID,
				"password": k.NewPassword(t, pw), "roleId": rid, "customerId": o.custA}))
			return o.env.Client().MustLogin(name, pw)
		}
		editor := userOfA("dev_editor", "auth_device", "auth_device_list", "auth_device_detail", "auth_device_edit")
		remover := userOfA("dev_remover", "auth_device", "auth_device_list", "auth_device_delete")
		del := func(c *apitest.Client) apitest.Answer {
			return c.Call("POST", "/api/auth/sys/dev/basic/delete", map[string]any{"ids": []int64{o.devA}})
		}

		t.Run("a role that edits devices but lacks the key is refused the delete", func(t *testing.T) {
			apitest.WantCode(t, del(editor), apperr.NoPermission)
			if n := countDevices(t, d, o.devA); n != 1 {
				t.Fatalf("a refused delete removed the device")
			}
		})
		t.Run("that role still edits devices", func(t *testing.T) {
			apitest.Must(t, editor.Call("POST", "/api/auth/sys/dev/basic/enable", map[string]any{"ids": []int64{o.devA}, "enabled": true}))
		})
		t.Run("a role with the key deletes the device", func(t *testing.T) {
			apitest.Must(t, del(remover))
			if n := countDevices(t, d, o.devA); n != 0 {
				t.Fatalf("the device is still there after the delete")
			}
		})
		t.Run("the delete is in the action log", func(t *testing.T) {
			logs := actionRows(t, o.root, map[string]any{"userName": "dev_remover"})
			found := false
			for _, l := range logs {
				found = found || (l.Action == "POST /api/auth/sys/dev/basic/delete" && l.Code == 0)
			}
			if !found {
				t.Fatalf("the delete is not in the action log: %+v", logs)
			}
		})
	})
}

func countDevices(t *testing.T, d *db.DB, id int64) int {
	t.Helper()
	var n int
	if err := d.QueryRow(context.Background(), `SELECT COUNT(*) FROM device WHERE id = ?`, id).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// An upgrade takes nobody's right away: every role that held auth_device_edit (and so could
// delete devices) before migration 0045 holds auth_device_delete after it; other roles do not.
func TestUpgradeKeepsTheRightToDeleteDevices(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, migrated *db.DB) {
		ctx := context.Background()
		d := testutil.OpenMigratedTo(t, migrated.Dialect(), 44)
		now := db.NowMS()
		for i, keys := range [][]string{{"auth_device", "auth_device_edit"}, {"auth_device", "auth_device_list"}} {
			var id int64
			if err := d.QueryRow(ctx, `INSERT INTO role (name, created_at, updated_at) VALUES (?, ?, ?) RETURNING id`, fmt.Sprintf("old role %d", i), now, now).Scan(&id); err != nil {
				t.Fatal(err)
			}
			for _, k := range keys {
				if _, err := d.Exec(ctx, `INSERT INTO role_permission (role_id, perm_key) VALUES (?, ?)`, id, k); err != nil {
					t.Fatal(err)
				}
			}
		}
		if _, err := d.Migrate(ctx); err != nil {
			t.Fatal(err)
		}
		rows, err := d.Query(ctx, `SELECT r.name FROM role r JOIN role_permission p ON p.role_id = r.id WHERE p.perm_key = 'auth_device_delete' ORDER BY r.name`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var names []string
		for rows.Next() {
			var n string
			if err := rows.Scan(&n); err != nil {
				t.Fatal(err)
			}
			names = append(names, n)
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		if len(names) != 1 || names[0] != "old role 0" {
			t.Fatalf("roles holding auth_device_delete after the upgrade: %v, want [old role 0]", names)
		}
	})
}
