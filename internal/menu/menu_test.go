package menu_test

import (
	"context"
	"strings"
	"testing"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/kit"
	"chargeops/internal/menu"
	"chargeops/internal/testutil"
)

var root = testutil.Root()

// setup syncs the key catalogue and two interfaces the code declares, one of them locked.
func setup(t *testing.T, d *db.DB) *menu.Service {
	t.Helper()
	ctx := context.Background()
	if err := access.SyncCatalogue(ctx, d); err != nil {
		t.Fatal(err)
	}
	reg := access.NewRegistry(d)
	if err := reg.Sync(ctx, []access.InterfaceSpec{
		{Method: "POST", Path: "/api/auth/sys/open/list", Name: "Open", Keys: []string{"auth_device_list"}},
		{Method: "POST", Path: "/api/auth/sys/locked/list", Name: "Locked", Keys: []string{"auth_menu"}, Locked: true},
	}); err != nil {
		t.Fatal(err)
	}
	return menu.NewService(d, reg)
}

func interfaceID(t *testing.T, d *db.DB, url string) int64 {
	t.Helper()
	var id int64
	if err := d.QueryRow(context.Background(), `SELECT id FROM api_interface WHERE url = ?`, url).Scan(&id); err != nil {
		t.Fatal(err)
	}
	return id
}

func count(t *testing.T, d *db.DB, ids ...int64) int {
	t.Helper()
	var n int
	in := kit.IDs(ids)
	if err := d.QueryRow(context.Background(), `SELECT COUNT(*) FROM api_interface WHERE id IN (`+in.In()+`)`, in.Args()...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestDeleteInterfaces(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		svc := setup(t, d)
		open, locked := interfaceID(t, d, "/api/auth/sys/open/list"), interfaceID(t, d, "/api/auth/sys/locked/list")
		own, err := svc.SaveInterface(ctx, root, menu.Interface{Name: "Own", Method: "GET", URL: "/api/auth/own/thing", Keys: []string{"auth_menu"}})
		if err != nil {
			t.Fatal(err)
		}

		t.Run("a locked interface in the batch: refused, none deleted", func(t *testing.T) {
			err := svc.DeleteInterfaces(ctx, root, kit.IDs{open, locked})
			if e, ok := apperr.As(err); !ok || e.Key != "err.interface_locked" {
				t.Fatalf("got %v, want err.interface_locked", err)
			}
			if count(t, d, open, locked) != 2 {
				t.Fatal("an interface was deleted by a refused batch")
			}
		})
		t.Run("an unknown id in the batch: not found, none deleted", func(t *testing.T) {
			if err := svc.DeleteInterfaces(ctx, root, kit.IDs{open, 999999}); !apperr.IsNotFound(err) {
				t.Fatalf("got %v, want not found", err)
			}
			if count(t, d, open) != 1 {
				t.Fatal("deleted by a refused batch")
			}
		})
		t.Run("a caller limited to some customers changes no interface", func(t *testing.T) {
			limited := &access.Principal{Scope: access.Scope{CustomerIDs: []int64{1}, AllSites: true}}
			if err := svc.DeleteInterfaces(ctx, limited, kit.IDs{open}); err != apperr.ErrNoPermission {
				t.Fatalf("got %v, want no permission", err)
			}
			if err := svc.AddMenu(ctx, limited, menu.MenuInput{Key: "limitedMenu", NameEn: "L", NameZh: "L"}); err != apperr.ErrNoPermission {
				t.Fatalf("add menu: got %v, want no permission", err)
			}
		})
		t.Run("unlocked interfaces are deleted with their keys", func(t *testing.T) {
			if err := svc.DeleteInterfaces(ctx, root, kit.IDs{open, own, own}); err != nil {
				t.Fatal(err)
			}
			if count(t, d, open, own) != 0 {
				t.Fatal("not deleted")
			}
			var keys int
			if err := d.QueryRow(ctx, `SELECT COUNT(*) FROM api_interface_permission WHERE interface_id = ?`, own).Scan(&keys); err != nil || keys != 0 {
				t.Fatalf("%d keys left, %v", keys, err)
			}
		})
	})
}

func TestValidationNamesItsField(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		svc := setup(t, d)
		valid := func() menu.MenuInput {
			return menu.MenuInput{Key: "myTools", ParentKey: "auth_system", NameEn: "Tools", NameZh: "工具", URL: "https://tools.example", Sort: 5}
		}
		for _, c := range []struct {
			name, field, key string
			change           func(in *menu.MenuInput)
		}{
			{"a key with a dash", "key", "err.invalid", func(in *menu.MenuInput) { in.Key = "my-tools" }},
			{"no English name", "nameEn", "err.required", func(in *menu.MenuInput) { in.NameEn = " " }},
			{"a long Chinese name", "nameZh", "err.required", func(in *menu.MenuInput) { in.NameZh = strings.Repeat("工", 22) }},
			{"a long URL", "url", "err.invalid", func(in *menu.MenuInput) { in.URL = strings.Repeat("u", menu.MaxURL+1) }},
			{"a sort over the range", "sort", "err.invalid", func(in *menu.MenuInput) { in.Sort = menu.MaxSort + 1 }},
			{"a parent that does not exist", "parentKey", "err.invalid", func(in *menu.MenuInput) { in.ParentKey = "noSuchMenu" }},
			{"hiding the menu screen itself", "hidden", "err.menu_keep_visible", func(in *menu.MenuInput) { in.Key, in.Hidden = "auth_menu", true }},
		} {
			t.Run(c.name, func(t *testing.T) {
				in := valid()
				c.change(&in)
				err := svc.AddMenu(ctx, root, in)
				if e, ok := apperr.As(err); !ok || e.Key != c.key || e.Args["field"] != c.field {
					t.Fatalf("got %v, want %s naming %q", err, c.key, c.field)
				}
			})
		}
		t.Run("a menu is its own parent", func(t *testing.T) {
			in := valid()
			in.Key, in.ParentKey = "auth_system", "auth_system"
			err := svc.UpdateMenu(ctx, root, in)
			if e, ok := apperr.As(err); !ok || e.Args["field"] != "parentKey" {
				t.Fatalf("got %v, want parentKey", err)
			}
		})
		t.Run("a key taken is a conflict (by the key's name)", func(t *testing.T) {
			if err := svc.AddMenu(ctx, root, valid()); err != nil {
				t.Fatal(err)
			}
			err := svc.AddMenu(ctx, root, valid())
			if e, ok := apperr.As(err); !ok || e.Key != "err.name_taken" {
				t.Fatalf("got %v, want err.name_taken", err)
			}
		})

		iface := func() menu.Interface {
			return menu.Interface{Name: "Thing", Method: "post", URL: "/api/auth/thing/list", Keys: []string{"auth_menu"}}
		}
		for _, c := range []struct {
			name, field, key string
			change           func(in *menu.Interface)
		}{
			{"an unknown method", "method", "err.invalid", func(in *menu.Interface) { in.Method = "FETCH" }},
			{"a path outside the signed-in API", "url", "err.invalid", func(in *menu.Interface) { in.URL = "/api/unauth/login" }},
			{"no name", "name", "err.required", func(in *menu.Interface) { in.Name = "" }},
			{"too many keys", "keys", "err.invalid", func(in *menu.Interface) { in.Keys = make([]string, menu.MaxInterfaceKeys+1) }},
		} {
			t.Run("interface: "+c.name, func(t *testing.T) {
				in := iface()
				c.change(&in)
				_, err := svc.SaveInterface(ctx, root, in)
				if e, ok := apperr.As(err); !ok || e.Key != c.key || e.Args["field"] != c.field {
					t.Fatalf("got %v, want %s naming %q", err, c.key, c.field)
				}
			})
		}
		t.Run("interface: the same method and path again is a conflict (by the key's name)", func(t *testing.T) {
			if _, err := svc.SaveInterface(ctx, root, iface()); err != nil {
				t.Fatal(err)
			}
			_, err := svc.SaveInterface(ctx, root, iface())
			if e, ok := apperr.As(err); !ok || e.Key != "err.name_taken" {
				t.Fatalf("got %v, want err.name_taken", err)
			}
		})
	})
}
