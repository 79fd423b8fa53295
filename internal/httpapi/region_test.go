package httpapi_test

import (
	"testing"

	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/region"
	"chargeops/internal/testutil"
	"chargeops/internal/testutil/apitest"
)

// TestRegionAllAndActionLogLocation: GET /api/auth/sys/dict/region/all answers the regions in
// the caller's language to any signed-in user (not to an anonymous caller), and the action log
// names where a row came from by the offline table: the test client's loopback address is the
// default region, "China, Guangdong, Shenzhen" / "中国，广东，深圳", stored as its code and named in
// the reader's language (the export names it with the same function).
func TestRegionAllAndActionLogLocation(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		env := apitest.New(t, d, nil)
		root := env.Root()
		env.CreateUser(root, "plain_region", "Plai#Pass123", "auth_my")
		plain := env.Client().MustLogin("plain_region", "Plai#Pass123")

		t.Run("regions, in each language, to any signed-in user", func(t *testing.T) {
			var en, zh []region.Node
			apitest.Must(t, plain.Call("GET", "/api/auth/sys/dict/region/all", nil)).Into(t, &en)
			plain.Locale = "zh-CN"
			apitest.Must(t, plain.Call("GET", "/api/auth/sys/dict/region/all", nil)).Into(t, &zh)
			plain.Locale = "en-US"
			if len(en) == 0 || en[0].Code != "CN" || en[0].Name != "China" || zh[0].Name != "中国" {
				t.Fatalf("first region: %+v / %+v", en[0], zh[0])
			}
			var gd *region.Node
			for i := range en[0].Children {
				if en[0].Children[i].Code == "CN-44" {
					gd = &en[0].Children[i]
				}
			}
			if gd == nil || len(gd.Children) != 21 {
				t.Fatalf("Guangdong and its cities: %+v", gd)
			}
			apitest.WantCode(t, env.Client().Call("GET", "/api/auth/sys/dict/region/all", nil), apperr.NotLoggedIn)
		})
		t.Run("the action log's location", func(t *testing.T) {
			apitest.Must(t, root.Call("POST", "/api/auth/sys/user/owner/update", map[string]any{"nickName": "Root"}))
			var out struct {
				List []struct{ Action, Location string }
			}
			for locale, want := range map[string]string{"en-US": "China, Guangdong, Shenzhen", "zh-CN": "中国，广东，深圳"} {
				root.Locale = locale
				apitest.Must(t, root.Call("POST", "/api/auth/sys/logs/action/list", map[string]any{"pageSize": 10})).Into(t, &out)
				if len(out.List) == 0 {
					t.Fatal("no action-log rows")
				}
				for _, e := range out.List {
					if e.Location != want {
						t.Fatalf("%s: %s at %q, want %q", locale, e.Action, e.Location, want)
					}
				}
			}
			root.Locale = "en-US"
			var stored string
			if err := d.QueryRow(t.Context(), `SELECT location FROM action_log ORDER BY id DESC LIMIT 1`).Scan(&stored); err != nil || stored != region.DefaultCode {
				t.Fatalf("stored %q %v, want the region code %s", stored, err, region.DefaultCode)
			}
		})
	})
}
