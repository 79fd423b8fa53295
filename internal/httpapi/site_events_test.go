package httpapi_test

import (
	"context"
	"slices"
	"testing"

	"github.com/lorenzodonini/ocpp-go/ocpp1.6/core"

	"chargeops/internal/db"
	"chargeops/internal/fleet"
	"chargeops/internal/gateway/ocpp16"
	"chargeops/internal/testutil"
	"chargeops/internal/testutil/apitest"
)

// eventIDs are the ids of an event list answer (home/events or dev/alarm/list) at site (0: all).
func eventIDs(t *testing.T, a apitest.Answer, site int64) []int64 {
	t.Helper()
	var out struct {
		List []struct{ ID, SiteID int64 }
	}
	apitest.Must(t, a).Into(t, &out)
	ids := []int64{}
	for _, e := range out.List {
		if site == 0 || e.SiteID == site {
			ids = append(ids, e.ID)
		}
	}
	slices.Sort(ids)
	return ids
}

// Issue 30 item 17: a site's Events tab lists what home lists for the site, alarms and faults
// included. An event belongs to the site its device is on when it happens: a charger whose
// connection was admitted before the device moved to another site reports for the new site,
// and the events of the old site stay there, for root and for a user of that site alone.
func TestSiteEventsAreWhereTheyHappened(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		o := newOrg(t, d)
		r := o.root
		siteA2 := id(t, r.Call("POST", "/api/auth/sys/site/add", map[string]any{"customerId": o.custA, "name": "Alpha Nanshan", "code": "A-NS"}))
		admitted, err := o.env.App.Fleet.DeviceByID(ctx, o.devA) // what the charger's connection holds
		if err != nil || admitted == nil {
			t.Fatalf("device: %v", err)
		}
		report := func(status, code string) {
			t.Helper()
			req := core.StatusNotificationRequest{ConnectorId: 1, Status: core.ChargePointStatus(status), ErrorCode: core.ChargePointErrorCode(code)}
			if err := o.env.App.Fleet.ConnectorStatus(ctx, ocpp16.StatusReport(admitted, &req)); err != nil {
				t.Fatal(err)
			}
		}
		report("Faulted", "GroundFailure") // a fault at site A
		apitest.Must(t, r.Call("POST", "/api/auth/sys/dev/basic/update", map[string]any{"id": o.devA, "sn": "ALPHA-0001", "name": "Alpha 1",
			"modelId": o.model, "siteId": siteA2}))
		report("Available", "HighTemperature") // an alarm after the move, on the same connection

		all := []int{fleet.KindOffline, fleet.KindAlarm, fleet.KindFault, fleet.KindUnavailable}
		home := func(c *apitest.Client, site int64) []int64 {
			return eventIDs(t, c.Call("POST", "/api/auth/sys/home/events", map[string]any{"limit": 50}), site)
		}
		tab := func(c *apitest.Client, site int64) []int64 {
			return eventIDs(t, c.Call("POST", "/api/auth/sys/dev/alarm/list", map[string]any{"siteId": site, "kinds": all, "pageSize": 50}), 0)
		}
		atA, atA2 := home(r, o.siteA), home(r, siteA2)
		if len(atA) != 1 || len(atA2) != 1 {
			t.Fatalf("home: site A events %v, site A2 events %v, want one each (the alarm after the move at A2)", atA, atA2)
		}
		for _, c := range []struct {
			site int64
			want []int64
		}{{o.siteA, atA}, {siteA2, atA2}} {
			if got := tab(r, c.site); !slices.Equal(got, c.want) {
				t.Errorf("site %d Events tab %v, home lists %v", c.site, got, c.want)
			}
		}

		// a user of site A alone sees A's fault on home and on A's tab alike
		rid := id(t, r.Call("POST", "/api/auth/sys/role/add", map[string]any{"name": "alpha site A", "customerId": o.custA}))
		apitest.Must(t, r.Call("POST", "/api/auth/sys/role/auth/menu", map[string]any{"id": rid, "keys": []string{"auth_home", "auth_site", "auth_site_list", "auth_site_detail"}}))
		apitest.Must(t, r.Call("POST", "/api/auth/sys/role/auth/data", map[string]any{"id": rid, "customerAccess": 1, "siteAccess": 1}))
		k := r.Key()
		uid := id(t, r.Call("POST", "/api/auth/sys/user/add", map[string]any{"userName": "alpha_site_a", "keyId": k.KeyID,
			"password": k.NewPassword(t, "Scope#Pass123"), "roleId": rid, "customerId": o.custA}))
		apitest.Must(t, r.Call("POST", "/api/auth/sys/user/assign", map[string]any{"id": uid, "siteIds": []int64{o.siteA}}))
		siteUser := o.env.Client().MustLogin("alpha_site_a", "Scope#Pass123")
		if got, want := tab(siteUser, o.siteA), home(siteUser, o.siteA); !slices.Equal(got, atA) || !slices.Equal(want, atA) {
			t.Errorf("site A's user: tab %v, home %v, want %v", got, want, atA)
		}
	})
}
