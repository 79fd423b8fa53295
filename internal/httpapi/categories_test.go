package httpapi_test

import (
	"context"
	"fmt"
	"testing"

	"chargeops/internal/db"
	"chargeops/internal/fleet/fleettest"
	"chargeops/internal/stats"
	"chargeops/internal/testutil"
	"chargeops/internal/testutil/apitest"
)

// TestDeviceCategories: the site page and the home statistics count devices by site device
// category, the device type of their model (1 EV charger ... 6 V2G charger), each within the
// caller's scope: a site's figures hold only its devices, home only the sites the caller sees.
func TestDeviceCategories(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		env := apitest.New(t, d, nil)
		root := env.Root()
		org := fleettest.Seed(t, d)
		ctx := context.Background()
		now := db.NowMS()
		// site A: types 1..6 with 1, 2, 3, 4, 5, 6 devices; site B: three of type 1.
		n := 0
		add := func(deviceType, count int, customer, site int64) {
			model, err := db.InsertID(ctx, d, `INSERT INTO device_model (name, vendor, device_type, created_at, updated_at) VALUES (?, ?, ?, ?, ?)`,
				fmt.Sprintf("Cat %d-%d", deviceType, site), "Test", deviceType, now, now)
			if err != nil {
				t.Fatal(err)
			}
			for range count {
				n++
				if _, err := d.Exec(ctx, `INSERT INTO device (sn, name, model_id, site_id, customer_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
					fmt.Sprintf("CAT-%04d", n), fmt.Sprintf("Cat %d", n), model, site, customer, now, now); err != nil {
					t.Fatal(err)
				}
			}
		}
		for ty := 1; ty <= 6; ty++ {
			add(ty, ty, org.CustomerA, org.SiteA)
		}
		add(1, 3, org.CustomerB, org.SiteB)
		siteA := stats.Categories{EVCharger: 1, ACCharger: 2, StorageCharger: 3, StorageDevice: 4, HomeStorage: 5, V2GCharger: 6}

		t.Run("the site page: the site's own devices", func(t *testing.T) {
			var ov struct{ Categories stats.Categories }
			apitest.Must(t, root.Call("GET", "/api/auth/sys/site/overview", map[string]any{"id": org.SiteA})).Into(t, &ov)
			if ov.Categories != siteA {
				t.Fatalf("site A: %+v, want %+v", ov.Categories, siteA)
			}
			apitest.Must(t, root.Call("GET", "/api/auth/sys/site/overview", map[string]any{"id": org.SiteB})).Into(t, &ov)
			if ov.Categories != (stats.Categories{EVCharger: 3}) {
				t.Fatalf("site B: %+v", ov.Categories)
			}
		})
		t.Run("home: every site the caller sees", func(t *testing.T) {
			var home struct{ Categories stats.Categories }
			apitest.Must(t, root.Call("POST", "/api/auth/sys/home/overview", nil)).Into(t, &home)
			all := siteA
			all.EVCharger += 3
			if home.Categories != all {
				t.Fatalf("root's home: %+v, want %+v", home.Categories, all)
			}
			uid, roleID := env.CreateUser(root, "cat_viewer", "Cats#Pass123", "auth_home")
			if _, err := d.Exec(ctx, `UPDATE role SET customer_access = 1, site_access = 0 WHERE id = ?`, roleID); err != nil {
				t.Fatal(err)
			}
			if _, err := d.Exec(ctx, `UPDATE app_user SET customer_id = ? WHERE id = ?`, org.CustomerA, uid); err != nil {
				t.Fatal(err)
			}
			c := env.Client().MustLogin("cat_viewer", "Cats#Pass123")
			apitest.Must(t, c.Call("POST", "/api/auth/sys/home/overview", nil)).Into(t, &home)
			if home.Categories != siteA {
				t.Fatalf("customer A's home: %+v, want only site A's %+v", home.Categories, siteA)
			}
		})
	})
}
