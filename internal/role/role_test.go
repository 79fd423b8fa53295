package role_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/fleet/fleettest"
	"chargeops/internal/kit"
	"chargeops/internal/role"
	"chargeops/internal/session"
	"chargeops/internal/testutil"
)

var root = testutil.Root()

// adminOf administers one customer, holding the key the tests grant.
func adminOf(customerID int64) *access.Principal {
	p := testutil.Customers(customerID)
	p.Keys = map[string]bool{"auth_role_list": true}
	return p
}

type fixture struct {
	fleettest.Org
	svc *role.Service
}

func setup(t *testing.T, d *db.DB) fixture {
	t.Helper()
	return fixture{Org: fleettest.Seed(t, d), svc: role.NewService(d, session.NewStore(d, time.Hour, time.Hour))}
}

func (f fixture) add(t *testing.T, name string, customerID int64) int64 {
	t.Helper()
	id, err := f.svc.Add(context.Background(), root, role.Input{Name: name, CustomerID: customerID})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func exists(t *testing.T, d *db.DB, id int64) bool {
	t.Helper()
	var n int
	if err := d.QueryRow(context.Background(), `SELECT COUNT(*) FROM role WHERE id = ?`, id).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n == 1
}

func TestDelete(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		f := setup(t, d)
		a1, a2, held := f.add(t, "A one", f.CustomerA), f.add(t, "A two", f.CustomerA), f.add(t, "A held", f.CustomerA)
		b1 := f.add(t, "B one", f.CustomerB)
		platform := f.add(t, "Platform", kit.PlatformOwner)
		if err := f.svc.SetKeys(ctx, root, a1, []string{"auth_role_list"}); err != nil {
			t.Fatal(err)
		}
		now := db.NowMS()
		if _, err := d.Exec(ctx, `INSERT INTO app_user (user_name, password_hash, role_id, customer_id, created_at, updated_at) VALUES ('holder', 'x', ?, ?, ?, ?)`,
			held, f.CustomerA, now, now); err != nil {
			t.Fatal(err)
		}
		admin := adminOf(f.CustomerA)

		t.Run("a role of another customer in the batch: not found, none deleted", func(t *testing.T) {
			if err := f.svc.Delete(ctx, admin, kit.IDs{a1, b1}); !apperr.IsNotFound(err) {
				t.Fatalf("got %v, want not found", err)
			}
			if !exists(t, d, a1) || !exists(t, d, b1) {
				t.Fatal("a role was deleted by a refused batch")
			}
		})
		t.Run("a role a user holds in the batch: in use, none deleted", func(t *testing.T) {
			err := f.svc.Delete(ctx, admin, kit.IDs{a1, held})
			if e, ok := apperr.As(err); !ok || e.Key != "err.in_use" {
				t.Fatalf("got %v, want err.in_use", err)
			}
			if !exists(t, d, a1) {
				t.Fatal("the unused role was deleted by a refused batch")
			}
		})
		t.Run("a platform role is not a customer administrator's to delete", func(t *testing.T) {
			err := f.svc.Delete(ctx, admin, kit.IDs{a1, platform})
			if e, ok := apperr.As(err); !ok || e.Code != apperr.NoPermission {
				t.Fatalf("got %v, want no permission", err)
			}
			if !exists(t, d, a1) || !exists(t, d, platform) {
				t.Fatal("a role was deleted by a refused batch")
			}
		})
		t.Run("roles in scope that nobody holds are deleted with their keys", func(t *testing.T) {
			if err := f.svc.Delete(ctx, admin, kit.IDs{a1, a2, a2}); err != nil {
				t.Fatal(err)
			}
			if exists(t, d, a1) || exists(t, d, a2) {
				t.Fatal("not deleted")
			}
			var keys int
			if err := d.QueryRow(ctx, `SELECT COUNT(*) FROM role_permission WHERE role_id = ?`, a1).Scan(&keys); err != nil || keys != 0 {
				t.Fatalf("%d keys left, %v", keys, err)
			}
		})
	})
}

func TestScope(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		f := setup(t, d)
		b1 := f.add(t, "B only", f.CustomerB)
		admin := adminOf(f.CustomerA)

		t.Run("a caller of another customer does not find the role", func(t *testing.T) {
			if _, err := f.svc.GetScoped(ctx, admin, b1); !apperr.IsNotFound(err) {
				t.Fatalf("got %v, want not found", err)
			}
		})
		t.Run("nor renames it, nor sets its keys or settings", func(t *testing.T) {
			if err := f.svc.Update(ctx, admin, role.Input{ID: b1, Name: "Mine now"}); !apperr.IsNotFound(err) {
				t.Fatalf("update: %v", err)
			}
			if err := f.svc.SetKeys(ctx, admin, b1, []string{"auth_role_list"}); !apperr.IsNotFound(err) {
				t.Fatalf("keys: %v", err)
			}
			st := access.RoleSettings{CustomerAccess: 1, SiteAccess: 1, WebSSHLevel: 5, CfgReadLevel: 5, CfgWriteLevel: 5, CfgDownloadLevel: 5,
				ParamLevel: 5, DocLevel: 5, AttachLevel: 5}
			if err := f.svc.SetSettings(ctx, admin, b1, st); !apperr.IsNotFound(err) {
				t.Fatalf("settings: %v", err)
			}
		})
		t.Run("the list holds platform roles and the caller's customer's only", func(t *testing.T) {
			l, err := f.svc.List(ctx, admin, role.ListFilter{})
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range l.List {
				if r.CustomerID != kit.PlatformOwner && r.CustomerID != f.CustomerA {
					t.Fatalf("listed %q of customer %d", r.Name, r.CustomerID)
				}
			}
		})
	})
}

func TestValidationNamesItsField(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		f := setup(t, d)
		id := f.add(t, "Valid", f.CustomerA)
		for _, c := range []struct {
			name, field, key string
			in               role.Input
		}{
			{"no name", "name", "err.required", role.Input{Name: "  "}},
			{"a name of 65 characters", "name", "err.required", role.Input{Name: strings.Repeat("名", 65)}},
			{"a long description", "description", "err.invalid", role.Input{Name: "Fine", Description: strings.Repeat("d", 501)}},
		} {
			t.Run(c.name, func(t *testing.T) {
				_, err := f.svc.Add(ctx, root, c.in)
				if e, ok := apperr.As(err); !ok || e.Key != c.key || e.Args["field"] != c.field {
					t.Fatalf("got %v, want %s naming %q", err, c.key, c.field)
				}
			})
		}
		t.Run("a name another role has is taken (by the key's name)", func(t *testing.T) {
			_, err := f.svc.Add(ctx, root, role.Input{Name: "Valid"})
			if e, ok := apperr.As(err); !ok || e.Key != "err.name_taken" {
				t.Fatalf("got %v, want err.name_taken", err)
			}
			other := f.add(t, "Other", f.CustomerA)
			err = f.svc.Update(ctx, root, role.Input{ID: other, Name: "Valid"})
			if e, ok := apperr.As(err); !ok || e.Key != "err.name_taken" {
				t.Fatalf("rename: got %v, want err.name_taken", err)
			}
		})
		valid := access.RoleSettings{CustomerAccess: 1, SiteAccess: 1, WebSSHLevel: 5, CfgReadLevel: 5, CfgWriteLevel: 5, CfgDownloadLevel: 5,
			ParamLevel: 5, DocLevel: 5, AttachLevel: 5}
		for _, c := range []struct {
			field  string
			change func(st *access.RoleSettings)
		}{
			{"customerAccess", func(st *access.RoleSettings) { st.CustomerAccess = role.MaxCustomerAccess + 1 }},
			{"siteAccess", func(st *access.RoleSettings) { st.SiteAccess = -1 }},
			{"webSshAccess", func(st *access.RoleSettings) { st.WebSSHAccess = role.MaxWebSSHAccess + 1 }},
			{"webSshLevel", func(st *access.RoleSettings) { st.WebSSHLevel = role.LowestLevel + 1 }},
			{"cfgReadLevel", func(st *access.RoleSettings) { st.CfgReadLevel = -1 }},
			{"cfgWriteLevel", func(st *access.RoleSettings) { st.CfgWriteLevel = 6 }},
			{"cfgDownloadLevel", func(st *access.RoleSettings) { st.CfgDownloadLevel = 6 }},
			{"paramLevel", func(st *access.RoleSettings) { st.ParamLevel = 6 }},
			{"docLevel", func(st *access.RoleSettings) { st.DocLevel = 6 }},
			{"attachLevel", func(st *access.RoleSettings) { st.AttachLevel = 6 }},
		} {
			t.Run("a setting out of range names "+c.field, func(t *testing.T) {
				st := valid
				c.change(&st)
				err := f.svc.SetSettings(ctx, root, id, st)
				if e, ok := apperr.As(err); !ok || e.Key != "err.invalid" || e.Args["field"] != c.field {
					t.Fatalf("got %v, want %q invalid", err, c.field)
				}
			})
		}
		t.Run("settings in range are stored", func(t *testing.T) {
			if err := f.svc.SetSettings(ctx, root, id, valid); err != nil {
				t.Fatal(err)
			}
		})
	})
}
