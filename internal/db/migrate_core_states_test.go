package db_test

import (
	"context"
	"fmt"
	"testing"

	"chargeops/internal/db"
	"chargeops/internal/devstate"
	"chargeops/internal/testutil"
)

// backfill is a named case of a migration that fills a new column from a stored name.
type backfill struct {
	stored string
	want   int
}

// checkBackfill migrates a database up to version before, stores one row per case (insert
// returns the row's id), applies the rest and checks the new column of each row (read).
func checkBackfill(t *testing.T, before int, cases []backfill, insert func(d *db.DB, i int, stored string) (int64, error), read string) {
	t.Helper()
	testutil.ForEachDB(t, func(t *testing.T, migrated *db.DB) {
		ctx := context.Background()
		d := testutil.OpenMigratedTo(t, migrated.Dialect(), before)
		ids := make([]int64, len(cases))
		for i, c := range cases {
			id, err := insert(d, i, c.stored)
			if err != nil {
				t.Fatal(err)
			}
			ids[i] = id
		}
		if _, err := d.Migrate(ctx); err != nil {
			t.Fatal(err)
		}
		for i, c := range cases {
			t.Run(fmt.Sprintf("stored %q", c.stored), func(t *testing.T) {
				var got int
				if err := d.QueryRow(ctx, read, ids[i]).Scan(&got); err != nil {
					t.Fatal(err)
				}
				if got != c.want {
					t.Fatalf("after the migration %q has %d, want %d", c.stored, got, c.want)
				}
			})
		}
	})
}

// Migration 0047 gives every connector stored before it the state of its OCPP 1.6 name, so an
// upgraded database computes the same device statuses (ocpp16.StatusReport maps the same).
func TestConnectorStateBackfill(t *testing.T) {
	checkBackfill(t, 46, []backfill{
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
	}, func(d *db.DB, i int, status string) (int64, error) {
		// one device, connector i+1: the connector is the row's id
		_, err := d.Exec(context.Background(), `INSERT INTO device_connector (device_id, connector_id, status, updated_at) VALUES (?, ?, ?, ?)`,
			1, i+1, status, db.NowMS())
		return int64(i + 1), err
	}, `SELECT state FROM device_connector WHERE device_id = 1 AND connector_id = ?`)
}

// Migration 0048 ends the progress of the upgrades stored before it on their OCPP 1.6 step
// names (installed or failed), so a late step does not move them; the others go on.
func TestCommandProgressEndBackfill(t *testing.T) {
	checkBackfill(t, 47, []backfill{
		{"", 0},
		{"Accepted", 0},
		{"Downloading", 0},
		{"Downloaded", 0},
		{"Installing", 0},
		{"Installed", 1},
		{"DownloadFailed", 1},
		{"InstallationFailed", 1},
	}, func(d *db.DB, _ int, progress string) (int64, error) {
		var id int64
		err := d.QueryRow(context.Background(), `INSERT INTO command (device_id, sn, control_type, result, progress, created_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING id`,
			1, "SN-0048", 5, devstate.ResultSuccess, progress, db.NowMS()).Scan(&id)
		return id, err
	}, `SELECT progress_end FROM command WHERE id = ?`)
}
