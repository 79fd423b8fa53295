package httpapi_test

import (
	"fmt"
	"testing"

	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/testutil"
	"chargeops/internal/testutil/apitest"
)

// orgKeys are every key of the organisation screens.
var orgKeys = []string{"auth_site", "auth_site_list", "auth_site_add", "auth_site_edit", "auth_site_detail",
	"auth_device", "auth_device_list", "auth_device_add", "auth_device_edit", "auth_device_delete", "auth_device_info", "auth_device_detail",
	"auth_system", "auth_customer", "auth_customer_list", "auth_customer_detail", "auth_user", "auth_user_list", "auth_user_add",
	"auth_user_edit", "auth_user_authData", "auth_user_customerStationList", "auth_user_detail", "auth_role", "auth_role_list",
	"auth_role_authMenu", "auth_role_authData",
	"auth_deviceModel", "auth_deviceModel_alias", "auth_dict", "auth_dict_group"}

// org is a small organisation: two customers, a site and a device each, and a user of each
// customer whose role may do everything but only for its own customer.
type org struct {
	env                      *apitest.Env
	root, a, b               *apitest.Client
	custA, custB             int64
	siteA, siteB             int64
	devA, devB, model        int64
	userA, userB, otherUserB int64
}

func id(t *testing.T, a apitest.Answer) int64 {
	t.Helper()
	var v struct{ ID int64 }
	apitest.Must(t, a).Into(t, &v)
	return v.ID
}

func newOrg(t *testing.T, d *db.DB) *org { return newOrgOn(t, apitest.New(t, d, nil)) }

// newOrgOn builds the two customers on a node started with its own configuration.
func newOrgOn(t *testing.T, env *apitest.Env) *org {
	o := &org{env: env, root: env.Root()}
	r := o.root
	o.custA = id(t, r.Call("POST", "/api/auth/sys/customer/add", map[string]any{"name": "Alpha Charging", "code": "ALPHA"}))
	o.custB = id(t, r.Call("POST", "/api/auth/sys/customer/add", map[string]any{"name": "Beta Energy", "code": "BETA"}))
	o.siteA = id(t, r.Call("POST", "/api/auth/sys/site/add", map[string]any{"customerId": o.custA, "name": "Alpha Futian", "code": "A-FT"}))
	o.siteB = id(t, r.Call("POST", "/api/auth/sys/site/add", map[string]any{"customerId": o.custB, "name": "Beta Kowloon", "code": "B-KL"}))
	o.model = id(t, r.Call("POST", "/api/auth/sys/dev/model/add", map[string]any{"name": "AC-7kW", "deviceType": 2}))
	o.devA = id(t, r.Call("POST", "/api/auth/sys/dev/basic/add", map[string]any{"sn": "ALPHA-0001", "name": "Alpha 1", "modelId": o.model, "siteId": o.siteA}))
	o.devB = id(t, r.Call("POST", "/api/auth/sys/dev/basic/add", map[string]any{"sn": "BETA-0001", "name": "Beta 1", "modelId": o.model, "siteId": o.siteB}))
	roleID := id(t, r.Call("POST", "/api/auth/sys/role/add", map[string]any{"name": "customer admin"}))
	apitest.Must(t, r.Call("POST", "/api/auth/sys/role/auth/menu", map[string]any{"id": roleID, "keys": orgKeys}))
	apitest.Must(t, r.Call("POST", "/api/auth/sys/role/auth/data", map[string]any{"id": roleID, "customerAccess": 1, "siteAccess": 0,
		"webSshLevel": 5, "cfgReadLevel": 5, "cfgWriteLevel": 5, "cfgDownloadLevel": 5, "paramLevel": 5, "docLevel": 5, "attachLevel": 5}))
	addUser := func(name string, customer int64) int64 {
		k := r.Key()
		return id(t, r.Call("POST", "/api/auth/sys/user/add", map[string]any{"userName": name, "keyId": k.KeyID,
			"password": k.NewPassword(t, "Scope#Pass123"), "roleId": roleID, "customerId": customer}))
	}
	o.userA, o.userB, o.otherUserB = addUser("alpha_admin", o.custA), addUser("beta_admin", o.custB), addUser("beta_staff", o.custB)
	o.a = env.Client().MustLogin("alpha_admin", "Scope#Pass123")
	o.b = env.Client().MustLogin("beta_admin", "Scope#Pass123")
	return o
}

// listIDs returns the ids a list call answers.
func listIDs(t *testing.T, c *apitest.Client, path string, body map[string]any) []int64 {
	t.Helper()
	var out struct{ List []struct{ ID int64 } }
	apitest.Must(t, c.Call("POST", path, body)).Into(t, &out)
	ids := []int64{}
	for _, x := range out.List {
		ids = append(ids, x.ID)
	}
	return ids
}

func TestDataScopeMatrix(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		o := newOrg(t, d)
		type who struct {
			name   string
			c      *apitest.Client
			own    map[string]int64
			others map[string]int64
		}
		objects := func(cust, site, dev, user int64) map[string]int64 {
			return map[string]int64{"customer": cust, "site": site, "device": dev, "user": user}
		}
		users := []who{
			{"customer A", o.a, objects(o.custA, o.siteA, o.devA, o.userA), objects(o.custB, o.siteB, o.devB, o.otherUserB)},
			{"customer B", o.b, objects(o.custB, o.siteB, o.devB, o.userB), objects(o.custA, o.siteA, o.devA, o.userA)},
		}
		lists := map[string]string{"customer": "/api/auth/sys/customer/list", "site": "/api/auth/sys/site/list",
			"device": "/api/auth/sys/dev/basic/list", "user": "/api/auth/sys/user/list"}

		t.Run("root sees everything", func(t *testing.T) {
			for kind, path := range lists {
				ids := listIDs(t, o.root, path, map[string]any{})
				if kind != "user" && len(ids) != 2 {
					t.Errorf("root %s list: %v", kind, ids)
				}
			}
		})
		for _, u := range users {
			other := u.others
			t.Run(u.name+"'s lists hold only its own customer's objects", func(t *testing.T) {
				for kind, path := range lists {
					ids := listIDs(t, u.c, path, map[string]any{})
					for _, got := range ids {
						if got == u.others[kind] {
							t.Errorf("%s sees the other customer's %s %d in %s", u.name, kind, got, path)
						}
					}
					if kind != "user" && (len(ids) != 1 || ids[0] != u.own[kind]) {
						t.Errorf("%s %s list = %v, want [%d]", u.name, kind, ids, u.own[kind])
					}
				}
			})
			t.Run(u.name+"'s every read and change of the other customer's objects is refused", func(t *testing.T) {
				calls := []struct {
					method, path string
					body         map[string]any
				}{
					{"GET", "/api/auth/sys/customer/detail", map[string]any{"id": other["customer"]}},
					{"POST", "/api/auth/sys/customer/update", map[string]any{"id": other["customer"], "name": "Hijacked", "code": "HJ"}},
					{"POST", "/api/auth/sys/customer/delete", map[string]any{"ids": []int64{other["customer"]}}},
					{"GET", "/api/auth/sys/site/detail", map[string]any{"id": other["site"]}},
					{"GET", "/api/auth/sys/site/overview", map[string]any{"id": other["site"]}},
					{"POST", "/api/auth/sys/site/update", map[string]any{"id": other["site"], "customerId": other["customer"], "name": "Hijacked", "code": "HJ-1"}},
					{"POST", "/api/auth/sys/site/update", map[string]any{"id": u.own["site"], "customerId": other["customer"], "name": "Moved", "code": "MV-1"}},
					{"POST", "/api/auth/sys/site/status", map[string]any{"ids": []int64{other["site"]}, "status": 0}},
					{"POST", "/api/auth/sys/site/delete", map[string]any{"ids": []int64{other["site"]}}},
					{"POST", "/api/auth/sys/site/add", map[string]any{"customerId": other["customer"], "name": "Intruder", "code": "INTR"}},
					{"GET", "/api/auth/sys/dev/basic/detail", map[string]any{"id": other["device"]}},
					{"POST", "/api/auth/sys/dev/basic/update", map[string]any{"id": other["device"], "sn": "X", "name": "Hijacked", "modelId": o.model, "siteId": other["site"]}},
					{"POST", "/api/auth/sys/dev/basic/delete", map[string]any{"ids": []int64{other["device"]}}},
					{"POST", "/api/auth/sys/dev/basic/enable", map[string]any{"ids": []int64{other["device"]}, "enabled": false}},
					{"POST", "/api/auth/sys/dev/basic/maintain", map[string]any{"ids": []int64{other["device"]}, "on": true}},
					{"POST", "/api/auth/sys/dev/basic/maintained", map[string]any{"ids": []int64{other["device"]}}},
					{"GET", "/api/auth/sys/user/detail", map[string]any{"id": other["user"]}},
					{"POST", "/api/auth/sys/user/update", map[string]any{"id": other["user"], "nickName": "Hijacked"}},
					{"POST", "/api/auth/sys/user/status", map[string]any{"ids": []int64{other["user"]}, "status": 0}},
					{"POST", "/api/auth/sys/user/assign", map[string]any{"id": other["user"], "customerIds": []int64{}, "siteIds": []int64{}}},
					{"POST", "/api/auth/sys/user/assign", map[string]any{"id": u.own["user"], "customerIds": []int64{other["customer"]}}},
				}
				for _, call := range calls {
					a := u.c.Call(call.method, call.path, call.body)
					if a.Code != apperr.NotFound && a.Code != apperr.NoPermission && a.Code != apperr.Invalid {
						t.Errorf("%s %s %s %v: code %d %q, want not found / no permission", u.name, call.method, call.path, call.body, a.Code, a.Message)
					}
				}
			})
			t.Run(u.name+" cannot add a device to the other customer's site (an invalid site)", func(t *testing.T) {
				apitest.WantCode(t, u.c.Call("POST", "/api/auth/sys/dev/basic/add", map[string]any{"sn": "INTRUDER-1", "name": "Intruder",
					"modelId": o.model, "siteId": other["site"]}), apperr.Invalid)
			})
			t.Run(u.name+" cannot add a user to the other customer", func(t *testing.T) {
				k := u.c.Key()
				apitest.WantCode(t, u.c.Call("POST", "/api/auth/sys/user/add", map[string]any{"userName": "intruder_x", "keyId": k.KeyID,
					"password": k.NewPassword(t, "Scope#Pass123"), "roleId": 0, "customerId": other["customer"]}), apperr.NotFound)
			})
		}
		t.Run("nothing of B changed", func(t *testing.T) {
			var dev struct {
				Name    string
				Enabled bool
			}
			apitest.Must(t, o.root.Call("GET", "/api/auth/sys/dev/basic/detail", map[string]any{"id": o.devB})).Into(t, &dev)
			if dev.Name != "Beta 1" || !dev.Enabled {
				t.Fatalf("B's device changed: %+v", dev)
			}
			var cust struct{ Name string }
			apitest.Must(t, o.root.Call("GET", "/api/auth/sys/customer/detail", map[string]any{"id": o.custB})).Into(t, &cust)
			if cust.Name != "Beta Energy" {
				t.Fatalf("B's customer changed: %+v", cust)
			}
		})
		t.Run("the refused read of B's site is in the action log", func(t *testing.T) {
			logs := actionRows(t, o.root, map[string]any{"userName": "alpha_admin"})
			found := false
			for _, l := range logs {
				found = found || (l.Action == "GET /api/auth/sys/site/detail" && l.Code == apperr.NotFound && l.Data == fmt.Sprintf("id=%d", o.siteB))
			}
			if !found {
				t.Fatalf("the refused read of B's site is not in the action log: %+v", logs)
			}
		})
	})
}

func TestNoEscalationThroughRoles(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		o := newOrg(t, d)
		// A customer admin manages its own customer's roles only, and cannot grant keys or data
		// access it lacks; the platform role it holds is not its to change.
		var roles struct {
			List []struct {
				ID   int64
				Name string
			}
		}
		apitest.Must(t, o.a.Call("POST", "/api/auth/sys/role/list", map[string]any{})).Into(t, &roles)
		if len(roles.List) != 1 || roles.List[0].Name != "customer admin" {
			t.Fatalf("customer admin sees roles %+v", roles.List)
		}
		platformRole := roles.List[0].ID
		t.Run("the platform role a customer admin holds is not its to change", func(t *testing.T) {
			apitest.WantCode(t, o.a.Call("POST", "/api/auth/sys/role/auth/menu", map[string]any{"id": platformRole, "keys": []string{"auth_site"}}), apperr.NoPermission)
		})
		own := id(t, o.a.Call("POST", "/api/auth/sys/role/add", map[string]any{"name": "alpha operators"}))
		t.Run("a customer admin grants its own role keys it holds", func(t *testing.T) {
			apitest.Must(t, o.a.Call("POST", "/api/auth/sys/role/auth/menu", map[string]any{"id": own, "keys": []string{"auth_site", "auth_site_list"}}))
		})
		t.Run("a customer admin cannot grant a key it lacks", func(t *testing.T) {
			apitest.WantCode(t, o.a.Call("POST", "/api/auth/sys/role/auth/menu", map[string]any{"id": own, "keys": []string{"auth_menu"}}), apperr.NoPermission)
		})
		t.Run("a customer admin cannot grant wider data access than its own", func(t *testing.T) {
			apitest.WantCode(t, o.a.Call("POST", "/api/auth/sys/role/auth/data", map[string]any{"id": own, "customerAccess": 0, "siteAccess": 0,
				"webSshLevel": 5, "cfgReadLevel": 5, "cfgWriteLevel": 5, "cfgDownloadLevel": 5, "paramLevel": 5, "docLevel": 5, "attachLevel": 5}), apperr.NoPermission)
		})
		t.Run("a customer admin grants data access within its own", func(t *testing.T) {
			apitest.Must(t, o.a.Call("POST", "/api/auth/sys/role/auth/data", map[string]any{"id": own, "customerAccess": 1, "siteAccess": 0,
				"webSshLevel": 5, "cfgReadLevel": 5, "cfgWriteLevel": 5, "cfgDownloadLevel": 5, "paramLevel": 5, "docLevel": 5, "attachLevel": 5}))
		})
		t.Run("B's admin does not even see A's role", func(t *testing.T) {
			apitest.WantCode(t, o.b.Call("GET", "/api/auth/sys/role/detail", map[string]any{"id": own}), apperr.NotFound)
			apitest.WantCode(t, o.b.Call("POST", "/api/auth/sys/role/delete", map[string]any{"ids": []int64{own}}), apperr.NotFound)
		})
		t.Run("a role holding keys the admin lacks cannot be given to a user", func(t *testing.T) {
			superRole := id(t, o.root.Call("POST", "/api/auth/sys/role/add", map[string]any{"name": "super"}))
			apitest.Must(t, o.root.Call("POST", "/api/auth/sys/role/auth/menu", map[string]any{"id": superRole, "keys": []string{"auth_menu", "auth_user_add"}}))
			k := o.a.Key()
			apitest.WantCode(t, o.a.Call("POST", "/api/auth/sys/user/add", map[string]any{"userName": "sneaky_one", "keyId": k.KeyID,
				"password": k.NewPassword(t, "Scope#Pass123"), "roleId": superRole, "customerId": o.custA}), apperr.NoPermission)
		})
	})
}

func TestReadOnlyCustomerCanLookButNotChange(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		o := newOrg(t, d)
		apitest.Must(t, o.root.Call("POST", "/api/auth/sys/customer/update", map[string]any{"id": o.custA, "name": "Alpha Charging", "code": "ALPHA", "readOnly": true}))
		a := o.env.Client().MustLogin("alpha_admin", "Scope#Pass123")
		t.Run("its user can list devices", func(t *testing.T) {
			apitest.Must(t, a.Call("POST", "/api/auth/sys/dev/basic/list", map[string]any{}))
		})
		t.Run("its user cannot change a device", func(t *testing.T) {
			apitest.WantCode(t, a.Call("POST", "/api/auth/sys/dev/basic/enable", map[string]any{"ids": []int64{o.devA}, "enabled": false}), apperr.NoPermission)
		})
		t.Run("its user can still change its own profile", func(t *testing.T) {
			apitest.Must(t, a.Call("POST", "/api/auth/sys/user/owner/update", map[string]any{"nickName": "Still me"}))
		})
	})
}
