package db_test

import (
	"context"
	"fmt"
	"testing"

	"chargeops/internal/db"
	"chargeops/internal/devstate"
	"chargeops/internal/testutil"
)

// Migration 0047 gives every connector stored before it the state of its OCPP 1.6 name, so an
// upgraded database computes the same device statuses (ocpp16.StatusReport maps the same).
func TestConnectorStateBackfill(t *testing.T) {
	cases := []struct {
		status string
		want   int
	}{
		{"Available", devstate.ConnectorIdle},
		{"Preparing", devstate.ConnectorWorking},
		{"Charging", devstate.ConnectorWorking},
		{"SuspendedEV", devstate.ConnectorWorking},
		{"SuspendedEVSE", devstate.ConnectorWorking},
		{"Finishing", devstate.ConnectorWorking},
		{"Reserved", devstate.ConnectorWorking},
		{"Faulted", devstate.ConnectorFaulted},
		{"Unavailable", devstate.ConnectorUnavailable},
		{"", devstate.ConnectorIdle},
		{"Occupied", devstate.ConnectorIdle},
	}
	testutil.ForEachDB(t, func(t *testing.T, migrated *db.DB) {
		ctx := context.Background()
		d := testutil.OpenMigratedTo(t, migrated.Dialect(), 46)
		for i, c := range cases {
			if _, err := d.Exec(ctx, `INSERT INTO device_connector (device_id, connector_id, status, updated_at) VALUES (?, ?, ?, ?)`, 1, i+1, c.status, db.NowMS()); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := d.Migrate(ctx); err != nil {
			t.Fatal(err)
		}
		for i, c := range cases {
			t.Run(fmt.Sprintf("status %q", c.status), func(t *testing.T) {
				var state int
				if err := d.QueryRow(ctx, `SELECT state FROM device_connector WHERE device_id = ? AND connector_id = ?`, 1, i+1).Scan(&state); err != nil {
					t.Fatal(err)
				}
				if state != c.want {
					t.Fatalf("state of %q after the migration: %d, want %d", c.status, state, c.want)
				}
			})
		}
	})
}

// Migration 0048 ends the progress of the upgrades stored before it on their OCPP 1.6 step
// names (installed or failed), so a late step does not move them; the others go on.
func TestCommandProgressEndBackfill(t *testing.T) {
	cases := []struct {
		progress string
		want     int
	}{
		{"", 0},
		{"Accepted", 0},
		{"Downloading", 0},
		{"Downloaded", 0},
		{"Installing", 0},
		{"Installed", 1},
		{"DownloadFailed", 1},
		{"InstallationFailed", 1},
	}
	testutil.ForEachDB(t, func(t *testing.T, migrated *db.DB) {
		ctx := context.Background()
		d := testutil.OpenMigratedTo(t, migrated.Dialect(), 47)
		ids := make([]int64, len(cases))
		for i, c := range cases {
			if err := d.QueryRow(ctx, `INSERT INTO command (device_id, sn, control_type, result, progress, created_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING id`,
				1, "SN-0048", 5, devstate.ResultSuccess, c.progress, db.NowMS()).Scan(&ids[i]); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := d.Migrate(ctx); err != nil {
			t.Fatal(err)
		}
		for i, c := range cases {
			t.Run(fmt.Sprintf("progress %q", c.progress), func(t *testing.T) {
				var end int
				if err := d.QueryRow(ctx, `SELECT progress_end FROM command WHERE id = ?`, ids[i]).Scan(&end); err != nil {
					t.Fatal(err)
				}
				if end != c.want {
					t.Fatalf("progress_end of %q after the migration: %d, want %d", c.progress, end, c.want)
				}
			})
		}
	})
}
