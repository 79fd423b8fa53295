package loadmgmt

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	"chargeops/internal/db"
)

// The rows the tests need, in plain SQL as fleettest.Seed writes them (fleettest itself
// reaches this package through the app's routes: an import cycle in an internal test).

type org struct {
	CustomerA, CustomerB int64
	SiteA, SiteB         int64
	ModelID              int64
}

var seedSeq atomic.Int64

// must returns a function that fails the test on an insert's error.
func must(t testing.TB) func(int64, error) int64 {
	return func(id int64, err error) int64 {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
}

func seed(t testing.TB, d *db.DB) org {
	t.Helper()
	ctx := context.Background()
	now := db.NowMS()
	n := seedSeq.Add(1)
	var o org
	o.CustomerA = must(t)(db.InsertID(ctx, d, `INSERT INTO customer (name, code, created_at, updated_at) VALUES (?, ?, ?, ?)`, fmt.Sprintf("LM A %d", n), fmt.Sprintf("LMA%d", n), now, now))
	o.CustomerB = must(t)(db.InsertID(ctx, d, `INSERT INTO customer (name, code, created_at, updated_at) VALUES (?, ?, ?, ?)`, fmt.Sprintf("LM B %d", n), fmt.Sprintf("LMB%d", n), now, now))
	o.SiteA = addSite(t, d, o.CustomerA, fmt.Sprintf("LSA%d", n))
	o.SiteB = addSite(t, d, o.CustomerB, fmt.Sprintf("LSB%d", n))
	o.ModelID = must(t)(db.InsertID(ctx, d, `INSERT INTO device_model (name, vendor, created_at, updated_at) VALUES (?, ?, ?, ?)`, fmt.Sprintf("LM AC %d", n), "Test", now, now))
	return o
}

func addSite(t testing.TB, d db.Querier, customer int64, code string) int64 {
	t.Helper()
	now := db.NowMS()
	return must(t)(db.InsertID(context.Background(), d, `INSERT INTO site (customer_id, name, code, created_at, updated_at) VALUES (?, ?, ?, ?, ?)`, customer, "Site "+code, code, now, now))
}

// addDevice adds a charger at a site, online or not.
func addDevice(t testing.TB, d db.Querier, o org, customer, site int64, sn string, online bool) int64 {
	t.Helper()
	ctx := context.Background()
	now := db.NowMS()
	id := must(t)(db.InsertID(ctx, d, `INSERT INTO device (sn, name, model_id, site_id, customer_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
		sn, "Charger "+sn, o.ModelID, site, customer, now, now))
	if _, err := d.Exec(ctx, `INSERT INTO device_state (device_id, online, node) VALUES (?, ?, ?)`, id, db.BoolInt(online), "n1"); err != nil {
		t.Fatal(err)
	}
	return id
}

// startSession opens a session on a charger's connector 1 and returns its id.
func startSession(t testing.TB, d db.Querier, dev, customer, site int64, started int64) int64 {
	t.Helper()
	return must(t)(db.InsertID(context.Background(), d, `INSERT INTO device_transaction (device_id, connector_id, id_tag, started_at, site_id, customer_id) VALUES (?, ?, ?, ?, ?, ?)`,
		dev, 1, "TAG", started, site, customer))
}

func stopSession(t testing.TB, d *db.DB, id int64) {
	t.Helper()
	if _, err := d.Exec(context.Background(), `UPDATE device_transaction SET stopped_at = ? WHERE id = ?`, db.NowMS(), id); err != nil {
		t.Fatal(err)
	}
}
