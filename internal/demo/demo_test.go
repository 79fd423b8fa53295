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
		again, more, err := demo.Seed(ctx, a)
		if err != nil || again != nil || more != nil {
			t.Fatalf("second seed did something: %v %v %v", again, more, err)
		}
	})
}
