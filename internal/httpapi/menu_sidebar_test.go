package httpapi_test

import (
	"testing"

	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/testutil"
	"chargeops/internal/testutil/apitest"
)

type sidebarEntry struct {
	Key, ParentKey, NameEn, NameZh, URL string
	Sort                                int
	Hidden, BuiltIn                     bool
}

func sidebarOf(t *testing.T, c *apitest.Client) map[string]sidebarEntry {
	t.Helper()
	var info struct {
		Role struct{ Menus []sidebarEntry }
	}
	apitest.Must(t, c.Call("POST", "/api/unauth/info", nil)).Into(t, &info)
	out := map[string]sidebarEntry{}
	for _, m := range info.Role.Menus {
		out[m.Key] = m
	}
	return out
}

// Menu management reaches the sidebar: session info carries the caller's menus as the
// menu screen left them (renamed, re-sorted, hidden), and only the menus the caller holds.
func TestSidebarMenusFollowMenuManagement(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		env := apitest.New(t, d, nil)
		root := env.Root()
		env.CreateUser(root, "siteuser", "Passw0rd!x", "auth_site", "auth_site_list", "auth_device", "auth_device_list")
		u := env.Client().MustLogin("siteuser", "Passw0rd!x")

		t.Run("a user gets only the menus held, with the catalogue names", func(t *testing.T) {
			m := sidebarOf(t, u)
			if len(m) != 2 || m["auth_site"].NameEn != "Sites" || !m["auth_site"].BuiltIn || m["auth_site"].Hidden {
				t.Fatalf("menus %+v", m)
			}
		})

		t.Run("rename, re-sort and hide reach the user", func(t *testing.T) {
			apitest.Must(t, root.Call("POST", "/api/auth/sys/menu/update", map[string]any{"key": "auth_site", "nameEn": "Charging parks", "nameZh": "充电场站", "sort": 35}))
			apitest.Must(t, root.Call("POST", "/api/auth/sys/menu/update", map[string]any{"key": "auth_device", "nameEn": "Devices", "nameZh": "设备", "sort": 30, "hidden": true}))
			m := sidebarOf(t, u)
			if s := m["auth_site"]; s.NameEn != "Charging parks" || s.NameZh != "充电场站" || s.Sort != 35 || s.Hidden {
				t.Fatalf("renamed menu %+v", s)
			}
			if !m["auth_device"].Hidden {
				t.Fatalf("hidden menu %+v", m["auth_device"])
			}
		})

		t.Run("the way back to this screen cannot be hidden", func(t *testing.T) {
			for _, k := range []string{"auth_menu", "auth_system"} {
				apitest.WantCode(t, root.Call("POST", "/api/auth/sys/menu/update", map[string]any{"key": k, "nameEn": "X", "nameZh": "X", "hidden": true}), apperr.Invalid)
			}
		})

		t.Run("the menu tree shows the hidden flag", func(t *testing.T) {
			var tree []struct {
				Key    string
				Hidden bool
			}
			apitest.Must(t, root.Call("GET", "/api/auth/sys/menu/tree", nil)).Into(t, &tree)
			for _, n := range tree {
				if n.Key == "auth_device" && !n.Hidden {
					t.Fatal("menu tree lost the hidden flag")
				}
			}
		})

		t.Run("root gets every menu, the administrator's own too", func(t *testing.T) {
			apitest.Must(t, root.Call("POST", "/api/auth/sys/menu/add", map[string]any{"key": "ext_grafana", "parentKey": "auth_system", "nameEn": "Grafana", "nameZh": "监控", "sort": 90, "url": "https://grafana.example.com"}))
			m := sidebarOf(t, root)
			if g := m["ext_grafana"]; g.BuiltIn || g.URL != "https://grafana.example.com" || g.ParentKey != "auth_system" {
				t.Fatalf("own menu %+v", g)
			}
			if _, ok := m["auth_home"]; !ok {
				t.Fatal("root misses auth_home")
			}
			if _, ok := sidebarOf(t, u)["ext_grafana"]; ok {
				t.Fatal("a user sees a menu not held")
			}
		})
	})
}
