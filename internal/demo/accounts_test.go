package demo_test

import (
	"context"
	"reflect"
	"testing"

	"chargeops/internal/app"
	"chargeops/internal/apperr"
	"chargeops/internal/config"
	"chargeops/internal/db"
	"chargeops/internal/demo"
	"chargeops/internal/fleet"
	"chargeops/internal/testutil"
	"chargeops/internal/testutil/apitest"
)

// A restarted demo lists the sign-ins that still exist (the seed prints them only once).
func TestSignInsListTheSeededAccounts(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		cfg := config.Default()
		cfg.MQTTAddr = "127.0.0.1:0" // the embedded broker on a free port, beside any broker on 1883
		cfg.DataDir = t.TempDir()    // the demo's uploads and files
		a, err := app.New(ctx, cfg, d, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := a.Users.UpsertRoot(ctx, "admin_root", "Admin@12345"); err != nil {
			t.Fatal(err)
		}
		seeded, _, err := demo.Seed(ctx, a)
		if err != nil {
			t.Fatal(err)
		}
		t.Run("after a restart: the same accounts as the seed made", func(t *testing.T) {
			root, accounts, err := demo.SignIns(ctx, a, "admin_root")
			if err != nil || !root || !reflect.DeepEqual(accounts, seeded) {
				t.Fatalf("root %v, accounts %v, want %v (%v)", root, accounts, seeded, err)
			}
		})
		t.Run("deleted or disabled accounts are not listed", func(t *testing.T) {
			if _, err := d.Exec(ctx, `DELETE FROM app_user WHERE user_name = ?`, "sz_staff"); err != nil {
				t.Fatal(err)
			}
			if _, err := d.Exec(ctx, `UPDATE app_user SET status = 0 WHERE user_name IN (?, ?)`, "hk_engineer", "admin_root"); err != nil {
				t.Fatal(err)
			}
			root, accounts, err := demo.SignIns(ctx, a, "admin_root")
			var names []string
			for _, acc := range accounts {
				names = append(names, acc.UserName)
			}
			if err != nil || root || !reflect.DeepEqual(names, []string{"platform_admin", "hk_staff", "futian_admin"}) {
				t.Fatalf("root %v, accounts %v (%v)", root, names, err)
			}
		})
	})
}

// Issue 30 item 16: what each demo role may do. The site admin reboots the chargers of their
// own site but not those of the customer's other sites and deletes none; customer staff run
// remote operations on their customer's chargers but delete none; only the platform
// administrator deletes devices (auth_device_delete).
func TestDemoRolesDoWhatTheirJobNeeds(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		env := apitest.New(t, d, nil)
		if _, _, err := demo.Seed(ctx, env.App); err != nil {
			t.Fatal(err)
		}
		device := func(sn string) int64 {
			var id int64
			if err := d.QueryRow(ctx, `SELECT id FROM device WHERE sn = ?`, sn).Scan(&id); err != nil {
				t.Fatalf("device %s: %v", sn, err)
			}
			return id
		}
		ownSite, otherSite, otherCustomer := device("SZ-FT-01-01"), device("SZ-NS-01-01"), device("HK-KB-01-01")
		signIn := func(name string) *apitest.Client { return env.Client().MustLogin(name, demo.Password) }
		reboot := func(c *apitest.Client, dev int64) apitest.Answer {
			return c.Call("POST", "/api/auth/sys/dev/control/send", map[string]any{"deviceIds": []int64{dev}, "controlType": fleet.CtlSoftReset})
		}
		del := func(c *apitest.Client, dev int64) apitest.Answer {
			return c.Call("POST", "/api/auth/sys/dev/basic/delete", map[string]any{"ids": []int64{dev}})
		}
		refused := func(who, what string, a apitest.Answer) {
			t.Helper()
			if a.Code != apperr.NotFound && a.Code != apperr.NoPermission {
				t.Errorf("%s %s: code %d %q, want refused", who, what, a.Code, a.Message)
			}
		}

		site := signIn("futian_admin")
		apitest.Must(t, reboot(site, ownSite))
		refused("futian_admin", "reboots a charger of another site", reboot(site, otherSite))
		refused("futian_admin", "reboots another customer's charger", reboot(site, otherCustomer))
		apitest.WantCode(t, del(site, ownSite), apperr.NoPermission)

		for _, name := range []string{"sz_staff", "hk_engineer"} {
			c := signIn(name)
			apitest.WantCode(t, del(c, ownSite), apperr.NoPermission)
		}
		staff := signIn("sz_staff")
		apitest.Must(t, reboot(staff, otherSite))
		refused("sz_staff", "reboots another customer's charger", reboot(staff, otherCustomer))

		var left int
		if err := d.QueryRow(ctx, `SELECT COUNT(*) FROM device WHERE id IN (?, ?)`, ownSite, otherSite).Scan(&left); err != nil || left != 2 {
			t.Fatalf("refused deletes removed devices: %d left (%v)", left, err)
		}
		apitest.Must(t, del(signIn("platform_admin"), otherSite))
	})
}
