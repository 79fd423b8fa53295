// Package fleettest creates the rows the live-fleet tests need (customers, sites, a model,
// devices) with plain SQL, so they do not depend on the organisation services.
package fleettest

import (
	"context"
	"fmt"
	"testing"

	"chargeops/internal/db"
)

// Org is two customers with one site each and one model.
type Org struct {
	CustomerA, CustomerB int64
	SiteA, SiteB         int64
	ModelID              int64
}

var seq int

// Seed creates the organisation.
func Seed(t testing.TB, d *db.DB) Org {
	t.Helper()
	ctx := context.Background()
	now := db.NowMS()
	seq++
	must := func(id int64, err error) int64 {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	var o Org
	o.CustomerA = must(db.InsertID(ctx, d, `INSERT INTO customer (name, code, created_at, updated_at) VALUES (?, ?, ?, ?)`, fmt.Sprintf("Cust A %d", seq), fmt.Sprintf("CA%d", seq), now, now))
	o.CustomerB = must(db.InsertID(ctx, d, `INSERT INTO customer (name, code, created_at, updated_at) VALUES (?, ?, ?, ?)`, fmt.Sprintf("Cust B %d", seq), fmt.Sprintf("CB%d", seq), now, now))
	o.SiteA = must(db.InsertID(ctx, d, `INSERT INTO site (customer_id, name, code, created_at, updated_at) VALUES (?, ?, ?, ?, ?)`, o.CustomerA, "Site A", fmt.Sprintf("SA%d", seq), now, now))
	o.SiteB = must(db.InsertID(ctx, d, `INSERT INTO site (customer_id, name, code, created_at, updated_at) VALUES (?, ?, ?, ?, ?)`, o.CustomerB, "Site B", fmt.Sprintf("SB%d", seq), now, now))
	o.ModelID = must(db.InsertID(ctx, d, `INSERT INTO device_model (name, vendor, created_at, updated_at) VALUES (?, ?, ?, ?)`, fmt.Sprintf("Test AC %d", seq), "Test", now, now))
	return o
}

// Device adds a device at site/customer and returns its id.
func Device(t testing.TB, d *db.DB, o Org, customerID, siteID int64, sn string) int64 {
	t.Helper()
	now := db.NowMS()
	id, err := db.InsertID(context.Background(), d, `INSERT INTO device (sn, name, model_id, site_id, customer_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
		sn, "Charger "+sn, o.ModelID, siteID, customerID, now, now)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// Devices adds n devices named prefix0001... at customer A's site.
func Devices(t testing.TB, d *db.DB, o Org, prefix string, n int) []string {
	t.Helper()
	sns := make([]string, n)
	now := db.NowMS()
	err := d.InTx(context.Background(), func(tx *db.Tx) error {
		for i := range sns {
			sns[i] = fmt.Sprintf("%s%05d", prefix, i+1)
			if _, err := tx.Exec(context.Background(), `INSERT INTO device (sn, name, model_id, site_id, customer_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
				sns[i], "Charger "+sns[i], o.ModelID, o.SiteA, o.CustomerA, now, now); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return sns
}

// Secure gives device id an authorization key, stored as keyHash (fleet.Service.HashAuthKey of
// its SN and key), and a security profile (1: key over ws, 2: key over TLS).
func Secure(t testing.TB, d *db.DB, id int64, keyHash string, profile int) {
	t.Helper()
	if _, err := d.Exec(context.Background(), `UPDATE device SET auth_key_hash = ?, security_profile = ? WHERE id = ?`, keyHash, profile, id); err != nil {
		t.Fatalf("secure device %d: %v", id, err)
	}
}
