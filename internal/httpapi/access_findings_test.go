package httpapi_test

import (
	"net/http"
	"strings"
	"testing"

	"chargeops/internal/apperr"
	"chargeops/internal/config"
	"chargeops/internal/db"
	"chargeops/internal/testutil"
	"chargeops/internal/testutil/apitest"
)

// Findings of the access review (docs/decisions.md, "Permissions and data scope"): each test
// replays the attack and asserts it now fails.

// actionRow is a row of the action log as the tests read it.
type actionRow struct {
	UserName, Action, Data, IP string
	Type, Code                 int
}

// actionRows lists the action log's first 100 rows that filter selects, as c.
func actionRows(t *testing.T, c *apitest.Client, filter map[string]any) []actionRow {
	t.Helper()
	filter["pageSize"] = 100
	var out struct{ List []actionRow }
	apitest.Must(t, c.Call("POST", "/api/auth/sys/logs/action/list", filter)).Into(t, &out)
	return out.List
}

func TestFinding1ActionLogScopedAndMasked(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		o := newOrg(t, d)
		logKeys := append([]string{"auth_logs", "auth_logs_action"}, orgKeys...)
		// Both admins may read the action log (their shared platform role gets the keys).
		var roles struct{ List []struct{ ID int64 } }
		apitest.Must(t, o.root.Call("POST", "/api/auth/sys/role/list", map[string]any{"name": "customer admin"})).Into(t, &roles)
		apitest.Must(t, o.root.Call("POST", "/api/auth/sys/role/auth/menu", map[string]any{"id": roles.List[0].ID, "keys": logKeys}))
		a := o.env.Client().MustLogin("alpha_admin", "Scope#Pass123")
		b := o.env.Client().MustLogin("beta_admin", "Scope#Pass123")
		apitest.Must(t, b.Call("POST", "/api/auth/sys/site/update", map[string]any{"id": o.siteB, "customerId": o.custB, "name": "Beta Kowloon East", "code": "B-KL"}))
		apitest.Must(t, a.Call("POST", "/api/auth/sys/site/update", map[string]any{"id": o.siteA, "customerId": o.custA, "name": "Alpha Futian", "code": "A-FT"}))
		// Root changes a charger's key: the body holds a secret below the top level.
		apitest.Must(t, o.root.Call("POST", "/api/auth/sys/dev/control/send", map[string]any{"deviceIds": []int64{o.devA}, "controlType": 11,
			"params": map[string]any{"items": []map[string]any{{"key": "AuthorizationKey", "value": "0011223344556677"}}}}))

		t.Run("a customer's admin reads only its own customer's rows", func(t *testing.T) {
			rows := actionRows(t, a, map[string]any{})
			if len(rows) == 0 {
				t.Fatal("A's admin reads no rows at all")
			}
			for _, r := range rows {
				if r.UserName != "alpha_admin" {
					t.Errorf("A's admin reads a row of %q: %+v", r.UserName, r)
				}
			}
			if rows := actionRows(t, a, map[string]any{"userName": apitest.RootName}); len(rows) != 0 {
				t.Errorf("A's admin reads root's rows: %+v", rows)
			}
			if rows := actionRows(t, a, map[string]any{"userName": "beta_admin"}); len(rows) != 0 {
				t.Errorf("A's admin reads B's rows: %+v", rows)
			}
		})
		t.Run("secrets are masked at any depth", func(t *testing.T) {
			rows := actionRows(t, o.root, map[string]any{"action": "control/send"})
			if len(rows) == 0 {
				t.Fatal("the command is not in the action log")
			}
			for _, r := range rows {
				if strings.Contains(r.Data, "0011223344556677") || !strings.Contains(r.Data, `"value":"***"`) {
					t.Errorf("the charger key reached the action log: %s", r.Data)
				}
			}
		})
	})
}

func TestFinding4SharedRoleCannotEscapeTheTenant(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		o := newOrg(t, d)
		// A platform role with customer access "All" and only keys A's admin holds.
		wide := id(t, o.root.Call("POST", "/api/auth/sys/role/add", map[string]any{"name": "platform viewer"}))
		apitest.Must(t, o.root.Call("POST", "/api/auth/sys/role/auth/menu", map[string]any{"id": wide, "keys": []string{"auth_device", "auth_device_list"}}))
		apitest.Must(t, o.root.Call("POST", "/api/auth/sys/role/auth/data", map[string]any{"id": wide, "customerAccess": 0, "siteAccess": 0,
			"webSshLevel": 5, "cfgReadLevel": 5, "cfgWriteLevel": 5, "cfgDownloadLevel": 5, "paramLevel": 5, "docLevel": 5, "attachLevel": 5}))
		k := o.a.Key()
		a := o.a.Call("POST", "/api/auth/sys/user/add", map[string]any{"userName": "alpha_escape", "keyId": k.KeyID,
			"password": k.NewPassword(t, "Scope#Pass123"), "roleId": wide, "customerId": o.custA})
		if a.Code != apperr.NoPermission {
			t.Fatalf("A's admin gave a role with customer access All: code %d %q", a.Code, a.Message)
		}
		// Nor by changing an existing user's role.
		apitest.WantCode(t, o.a.Call("POST", "/api/auth/sys/user/update", map[string]any{"id": o.userA, "roleId": wide, "customerId": o.custA}), apperr.Invalid)
		k = o.root.Key()
		staff := id(t, o.root.Call("POST", "/api/auth/sys/user/add", map[string]any{"userName": "alpha_staff", "keyId": k.KeyID,
			"password": k.NewPassword(t, "Scope#Pass123"), "roleId": id(t, o.a.Call("POST", "/api/auth/sys/role/add", map[string]any{"name": "alpha staff"})), "customerId": o.custA}))
		apitest.WantCode(t, o.a.Call("POST", "/api/auth/sys/user/update", map[string]any{"id": staff, "roleId": wide, "customerId": o.custA}), apperr.NoPermission)
		// Root still can, and that user then sees B's devices (the role is what it says).
		apitest.Must(t, o.root.Call("POST", "/api/auth/sys/user/update", map[string]any{"id": staff, "roleId": wide, "customerId": o.custA}))
	})
}

func TestFinding5NoTakeOverOfStrongerUsers(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		o := newOrg(t, d)
		// An A user whose role holds a key A's admin lacks (auth_menu), and one with a higher
		// config level: both stronger than the admin.
		stronger := func(name string, keys []string, cfgLevel int) int64 {
			rid := id(t, o.root.Call("POST", "/api/auth/sys/role/add", map[string]any{"name": "role " + name, "customerId": o.custA}))
			apitest.Must(t, o.root.Call("POST", "/api/auth/sys/role/auth/menu", map[string]any{"id": rid, "keys": keys}))
			apitest.Must(t, o.root.Call("POST", "/api/auth/sys/role/auth/data", map[string]any{"id": rid, "customerAccess": 1, "siteAccess": 0,
				"webSshLevel": 5, "cfgReadLevel": cfgLevel, "cfgWriteLevel": cfgLevel, "cfgDownloadLevel": 5, "paramLevel": 5, "docLevel": 5, "attachLevel": 5}))
			k := o.root.Key()
			return id(t, o.root.Call("POST", "/api/auth/sys/user/add", map[string]any{"userName": name, "keyId": k.KeyID,
				"password": k.NewPassword(t, "Scope#Pass123"), "roleId": rid, "customerId": o.custA}))
		}
		for _, target := range []struct {
			name string
			id   int64
		}{
			{"more keys", stronger("alpha_menu_admin", []string{"auth_system", "auth_menu"}, 5)},
			{"a higher level", stronger("alpha_engineer", []string{"auth_device", "auth_device_list"}, 0)},
		} {
			t.Run(target.name, func(t *testing.T) {
				k := o.a.Key()
				apitest.WantCode(t, o.a.Call("POST", "/api/auth/sys/user/password", map[string]any{"id": target.id, "keyId": k.KeyID,
					"password": k.NewPassword(t, "Taken#Over123")}), apperr.NoPermission)
				apitest.WantCode(t, o.a.Call("POST", "/api/auth/sys/user/status", map[string]any{"ids": []int64{target.id}, "status": 0}), apperr.NoPermission)
				apitest.WantCode(t, o.a.Call("POST", "/api/auth/sys/user/update", map[string]any{"id": target.id, "nickName": "mine now"}), apperr.NoPermission)
				apitest.WantCode(t, o.a.Call("POST", "/api/auth/sys/user/assign", map[string]any{"id": target.id, "customerIds": []int64{}}), apperr.NoPermission)
			})
		}
		// The stronger user can still sign in with the old password.
		o.env.Client().MustLogin("alpha_menu_admin", "Scope#Pass123")
		// A user of equal strength stays manageable.
		k := o.root.Key()
		peer := id(t, o.root.Call("POST", "/api/auth/sys/user/add", map[string]any{"userName": "alpha_peer", "keyId": k.KeyID,
			"password": k.NewPassword(t, "Scope#Pass123"), "roleId": roleOf(t, o, o.userA), "customerId": o.custA}))
		apitest.Must(t, o.a.Call("POST", "/api/auth/sys/user/status", map[string]any{"ids": []int64{peer}, "status": 0}))
	})
}

func roleOf(t *testing.T, o *org, userID int64) int64 {
	t.Helper()
	var u struct{ RoleID int64 }
	apitest.Must(t, o.root.Call("GET", "/api/auth/sys/user/detail", map[string]any{"id": userID})).Into(t, &u)
	return u.RoleID
}

func TestFinding12LockedInterfacesFollowTheCode(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		env := apitest.New(t, d, nil)
		root := env.Root()
		_, menuRole := env.CreateUser(root, "menu_admin", "Menu#Pass123", "auth_system", "auth_menu")
		apitest.Must(t, root.Call("POST", "/api/auth/sys/role/auth/data", map[string]any{"id": menuRole, "customerAccess": 0, "siteAccess": 0,
			"webSshLevel": 5, "cfgReadLevel": 5, "cfgWriteLevel": 5, "cfgDownloadLevel": 5, "paramLevel": 5, "docLevel": 5, "attachLevel": 5}))
		admin := env.Client().MustLogin("menu_admin", "Menu#Pass123")
		type iface struct {
			ID          int64
			Method, URL string
			Common      bool
			Locked      bool
			Keys        []string
		}
		find := func(url string) iface {
			var out struct{ List []iface }
			apitest.Must(t, root.Call("POST", "/api/auth/sys/interface/list", map[string]any{"url": url})).Into(t, &out)
			for _, i := range out.List {
				if i.URL == url {
					return i
				}
			}
			t.Fatalf("no interface %s", url)
			return iface{}
		}
		for _, url := range []string{"/api/auth/sys/mail/outbox/list", "/api/auth/sys/user/password", "/api/auth/sys/role/auth/menu", "/api/auth/sys/interface/save"} {
			t.Run(url, func(t *testing.T) {
				i := find(url)
				if !i.Locked {
					t.Fatalf("%s is not shown as locked", url)
				}
				for _, c := range []*apitest.Client{admin, root} {
					apitest.WantCode(t, c.Call("POST", "/api/auth/sys/interface/save", map[string]any{"id": i.ID, "name": "opened", "method": i.Method, "url": i.URL, "common": true}), apperr.NoPermission)
					apitest.WantCode(t, c.Call("POST", "/api/auth/sys/interface/save", map[string]any{"id": i.ID, "name": "opened", "method": i.Method, "url": i.URL, "keys": []string{"auth_home"}}), apperr.NoPermission)
					apitest.WantCode(t, c.Call("POST", "/api/auth/sys/interface/delete", map[string]any{"ids": []int64{i.ID}}), apperr.NoPermission)
				}
				// A second row for the same endpoint cannot be added either.
				apitest.WantCode(t, admin.Call("POST", "/api/auth/sys/interface/save", map[string]any{"name": "twin", "method": i.Method, "url": i.URL, "common": true}), apperr.NoPermission)
			})
		}
		// The outbox stays root's: an ordinary user reads no reset tokens.
		env.CreateUser(root, "plain_user", "Plain#Pass123", "auth_home")
		apitest.WantCode(t, env.Client().MustLogin("plain_user", "Plain#Pass123").Call("POST", "/api/auth/sys/mail/outbox/list", map[string]any{}), apperr.NoPermission)
		// An ordinary interface can still be changed (the console's menu management works).
		site := find("/api/auth/sys/site/list")
		if site.Locked {
			t.Fatal("the site list should not be locked")
		}
		apitest.Must(t, admin.Call("POST", "/api/auth/sys/interface/save", map[string]any{"id": site.ID, "name": "List sites", "method": "POST", "url": site.URL, "keys": []string{"auth_site_list", "auth_home"}}))
	})
}

func TestFinding16HeadersAndMetrics(t *testing.T) {
	t.Parallel()
	d := testutil.OpenSQLite(t)
	env := apitest.New(t, d, func(c *config.Config) { c.MetricsToken = "scrape-secret" })
	call := func(method, path, auth string) *http.Response {
		req, err := http.NewRequest(method, env.URL+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		if auth != "" {
			req.Header.Set("Authorization", "Bearer "+auth)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	get := func(path, auth string) *http.Response { return call("GET", path, auth) }
	t.Run("every answer carries a content security policy", func(t *testing.T) {
		for _, p := range []string{"/", "/manage/home", "/api/unauth/config"} {
			csp := get(p, "").Header.Get("Content-Security-Policy")
			if !strings.Contains(csp, "script-src 'self'") || !strings.Contains(csp, "frame-ancestors 'none'") {
				t.Errorf("%s: CSP %q", p, csp)
			}
		}
	})
	t.Run("metrics need the token when one is set", func(t *testing.T) {
		if s := get("/metrics", "").StatusCode; s != http.StatusUnauthorized {
			t.Errorf("without token: %d", s)
		}
		if s := get("/metrics", "wrong").StatusCode; s != http.StatusUnauthorized {
			t.Errorf("wrong token: %d", s)
		}
		if s := get("/metrics", "scrape-secret").StatusCode; s != http.StatusOK {
			t.Errorf("right token: %d", s)
		}
	})
	t.Run("the memory probe (POST /debug/gc) is guarded like the metrics", func(t *testing.T) {
		if s := call("POST", "/debug/gc", "").StatusCode; s != http.StatusUnauthorized {
			t.Errorf("without token: %d", s)
		}
		if s := call("POST", "/debug/gc", "wrong").StatusCode; s != http.StatusUnauthorized {
			t.Errorf("wrong token: %d", s)
		}
		if s := call("POST", "/debug/gc", "scrape-secret").StatusCode; s != http.StatusOK {
			t.Errorf("right token: %d", s)
		}
	})
	t.Run("without a token only loopback peers read metrics", func(t *testing.T) {
		open := apitest.New(t, d, nil)
		resp, err := http.Get(open.URL + "/metrics")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Errorf("loopback without token: %d", resp.StatusCode)
		}
	})
}
