package loadmgmt

import (
	"context"
	"fmt"
	"testing"

	"chargeops/internal/db"
	"chargeops/internal/devmodel"
	"chargeops/internal/devstate"
	"chargeops/internal/ess"
	"chargeops/internal/testutil"
)

// TestStorageExtraCountsUnitsThatCoverTheChargers: a site's storage units add their rated power
// to the limit only while online, in peak shaving, running and charged; the site limit of a
// plan grows by it.
func TestStorageExtraCountsUnitsThatCoverTheChargers(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		o := seed(t, d)
		now := db.NowMS()
		storageModel := must(t)(db.InsertID(ctx, d, `INSERT INTO device_model (name, vendor, device_type, created_at, updated_at) VALUES (?, ?, ?, ?, ?)`,
			fmt.Sprintf("BESS %d", now), "Test", devmodel.TypePower, now, now))
		unit := func(sn string, online bool, values map[string]string) int64 {
			id := must(t)(db.InsertID(ctx, d, `INSERT INTO device (sn, name, model_id, site_id, customer_id, status, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
				sn, sn, storageModel, o.SiteA, o.CustomerA, map[bool]int{true: devstate.StatusIdle, false: devstate.StatusOffline}[online], now, now))
			for name, v := range values {
				if _, err := d.Exec(ctx, `INSERT INTO device_runtime (device_id, name, connector_id, value, unit, sampled_at) VALUES (?, ?, 0, ?, '', ?)`, id, name, v, now); err != nil {
					t.Fatal(err)
				}
			}
			return id
		}
		ready := func(soc string) map[string]string {
			return map[string]string{ess.SoC: soc, ess.PCSMode: ess.ModePeakShaving, ess.PCSState: ess.StateStandby, ess.RatedPower: "100000"}
		}
		extra := StorageExtra{DB: d}
		if w := extra.ExtraW(ctx, o.SiteA); w != 0 {
			t.Fatalf("a site without storage: %v W", w)
		}
		unit("BESS-A", true, ready("80"))
		if w := extra.ExtraW(ctx, o.SiteA); w != 100000 {
			t.Fatalf("one ready unit: %v W", w)
		}
		unit("BESS-LOW", true, ready("12"))  // too little charge
		unit("BESS-OFF", false, ready("90")) // offline
		selfUse := ready("90")
		selfUse[ess.PCSMode] = ess.ModeSelfConsumption
		unit("BESS-SELF", true, selfUse) // covers the house, not the chargers
		faulted := ready("90")
		faulted[ess.PCSState] = ess.StateFault
		unit("BESS-FAULT", true, faulted)
		if w := extra.ExtraW(ctx, o.SiteA); w != 100000 {
			t.Fatalf("only the ready unit counts: %v W", w)
		}
		if w := extra.ExtraW(ctx, o.SiteB); w != 0 {
			t.Fatalf("another site's units count: %v W", w)
		}
		unit("BESS-B", true, ready("55"))
		if w := extra.ExtraW(ctx, o.SiteA); w != 200000 {
			t.Fatalf("two ready units: %v W", w)
		}
	})
}
