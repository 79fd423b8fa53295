package demo_test

import (
	"context"
	"testing"

	"chargeops/internal/access"
	"chargeops/internal/app"
	"chargeops/internal/config"
	"chargeops/internal/db"
	"chargeops/internal/demo"
	"chargeops/internal/device"
	"chargeops/internal/testutil"
)

func TestSeedBuildsTheDemoOrganisationOnce(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		a, err := app.New(ctx, config.Default(), d, nil)
		if err != nil {
			t.Fatal(err)
		}
		accounts, sns, err := demo.Seed(ctx, a)
		if err != nil {
			t.Fatal(err)
		}
		if len(accounts) != 5 || len(sns) < 45 || len(sns) > 60 {
			t.Fatalf("%d accounts, %d devices", len(accounts), len(sns))
		}
		list, err := a.Devices.List(ctx, access.FullScope(), device.ListFilter{})
		if err != nil || list.Total != int64(len(sns)) {
			t.Fatalf("devices %d, %v", list.Total, err)
		}
		t.Run("the simulated fleet reports its models and a mix of loads", func(t *testing.T) {
			o, err := demo.SimOptions(ctx, a, "ws://127.0.0.1:1/ocpp")
			if err != nil {
				t.Fatal(err)
			}
			if len(o.SNs) != len(sns) || o.FaultChance <= 0 || o.OfflineChance <= 0 {
				t.Fatalf("%d chargers of %d, fault chance %v, offline chance %v", len(o.SNs), len(sns), o.FaultChance, o.OfflineChance)
			}
			busy := map[float64]bool{}
			for _, sn := range o.SNs {
				p := o.Profiles[sn]
				var model string
				if err := d.QueryRow(ctx, `SELECT m.name FROM device d JOIN device_model m ON m.id = d.model_id WHERE d.sn = ?`, sn).Scan(&model); err != nil {
					t.Fatal(err)
				}
				if p.Model != model || p.Vendor == "" {
					t.Errorf("%s of model %s reports %q by %q", sn, model, p.Model, p.Vendor)
				}
				if dc := model == "DC-120kW"; dc && (!p.DC || p.MaxPowerW != 120000) {
					t.Errorf("%s: a DC-120kW charger meters %+v", sn, p)
				}
				if model == "AC-7kW" && p.DC {
					t.Errorf("%s: an AC charger meters DC", sn)
				}
				if p.Busy <= 0 || p.Busy >= 1 {
					t.Errorf("%s: busy %v", sn, p.Busy)
				}
				busy[p.Busy] = true
			}
			if len(busy) < 4 {
				t.Errorf("loads %v: every charger as busy as the next", busy)
			}
		})
		again, more, err := demo.Seed(ctx, a)
		if err != nil || again != nil || more != nil {
			t.Fatalf("second seed did something: %v %v %v", again, more, err)
		}
	})
}
