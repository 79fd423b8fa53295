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

// The status rule of decisions §2 on the connectors' neutral states, highest first.
func TestComputeStatus(t *testing.T) {
	for _, c := range []struct {
		name string
		in   fleet.StatusInput
		want int
	}{
		{"disabled beats online", fleet.StatusInput{Enabled: false, Online: true}, fleet.StatusDisabled},
		{"offline beats a firmware job", fleet.StatusInput{Enabled: true, Online: false, FirmwareJob: true}, fleet.StatusOffline},
		{"a firmware job beats maintenance", fleet.StatusInput{Enabled: true, Online: true, FirmwareJob: true, Maintain: true}, fleet.StatusFirmware},
		{"maintenance beats a faulted connector", fleet.StatusInput{Enabled: true, Online: true, Maintain: true, Connectors: []int{fleet.ConnectorFaulted}}, fleet.StatusMaintain},
		{"a faulted connector beats a working one", fleet.StatusInput{Enabled: true, Online: true, Connectors: []int{fleet.ConnectorWorking, fleet.ConnectorFaulted}}, fleet.StatusFaulted},
		{"a working connector makes the device working", fleet.StatusInput{Enabled: true, Online: true, Connectors: []int{fleet.ConnectorIdle, fleet.ConnectorWorking}}, fleet.StatusWorking},
		{"idle and unavailable connectors leave it idle", fleet.StatusInput{Enabled: true, Online: true, Connectors: []int{fleet.ConnectorIdle, fleet.ConnectorUnavailable}}, fleet.StatusIdle},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := fleet.ComputeStatus(c.in); got != c.want {
				t.Errorf("%+v → %d, want %d", c.in, got, c.want)
			}
		})
	}
}
