package fleet_test

import (
	"context"
	"testing"
	"time"

	"chargeops/internal/db"
	"chargeops/internal/fleet"
	"chargeops/internal/testutil"
)

func TestPurgeLogs(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		old := time.Now().Add(-40 * 24 * time.Hour).UnixMilli()
		for i := range 3 {
			if _, err := d.Exec(ctx, `INSERT INTO protocol_log (sn, type, data, created_at) VALUES (?, 2, '', ?)`, "X", old+int64(i)); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := d.Exec(ctx, `INSERT INTO protocol_log (sn, type, data, created_at) VALUES ('X', 2, '', ?)`, db.NowMS()); err != nil {
			t.Fatal(err)
		}
		n, err := fleet.PurgeLogs(ctx, d, 30)
		if err != nil || n != 3 || testutil.Count(t, d, `SELECT COUNT(*) FROM protocol_log`) != 1 {
			t.Fatalf("purged %d (%v), left %d", n, err, testutil.Count(t, d, `SELECT COUNT(*) FROM protocol_log`))
		}
	})
}

func TestComputeStatus(t *testing.T) {
	for _, c := range []struct {
		in   fleet.StatusInput
		want int
	}{
		{fleet.StatusInput{Enabled: false, Online: true}, fleet.StatusDisabled},
		{fleet.StatusInput{Enabled: true, Online: false, FirmwareJob: true}, fleet.StatusOffline},
		{fleet.StatusInput{Enabled: true, Online: true, FirmwareJob: true, Maintain: true}, fleet.StatusFirmware},
		{fleet.StatusInput{Enabled: true, Online: true, Maintain: true, Connectors: []string{"Faulted"}}, fleet.StatusMaintain},
		{fleet.StatusInput{Enabled: true, Online: true, Connectors: []string{"Charging", "Faulted"}}, fleet.StatusFaulted},
		{fleet.StatusInput{Enabled: true, Online: true, Connectors: []string{"Available", "SuspendedEV"}}, fleet.StatusWorking},
		{fleet.StatusInput{Enabled: true, Online: true, Connectors: []string{"Available", "Unavailable"}}, fleet.StatusIdle},
	} {
		if got := fleet.ComputeStatus(c.in); got != c.want {
			t.Errorf("%+v → %d, want %d", c.in, got, c.want)
		}
	}
}
