package httpapi_test

import (
	"context"
	"testing"

	"chargeops/internal/db"
)

// seedIsoSession gives A's device an ended charging session whose idTag and signed value hold A
// markers, for the session routes of TestRouteIsolation.
func seedIsoSession(t *testing.T, w *isoWorld, d *db.DB) int64 {
	t.Helper()
	ctx := context.Background()
	id, err := db.InsertID(ctx, d, `INSERT INTO device_transaction (device_id, customer_id, site_id, connector_id, id_tag, meter_start, meter_stop,
		energy_wh, started_at, stopped_at, reason) VALUES (?, ?, ?, 1, 'Alpha Charging Tag', 100, 5100, 5000, 1700000000000, 1700003600000, 'Remote')`,
		w.devA, w.custA, w.siteA)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Exec(ctx, `INSERT INTO session_signed_value (transaction_id, device_id, connector_id, measurand, context, format, value, ts, created_at)
		VALUES (?, ?, 1, 'Energy.Active.Import.Register', 'Transaction.End', 'SignedData', 'OCMF|alpha futian signed', 1700003600000, 1700003600000)`,
		id, w.devA); err != nil {
		t.Fatal(err)
	}
	return id
}

// sessionIsoScenarios are the session routes' calls: A's session by id, or lists and exports
// naming A's customer, site and device as filters.
func (w *isoWorld) sessionIsoScenarios() map[string]isoCall {
	A := func(b map[string]any) isoCall { return isoCall{body: b, aimsAtA: true} }
	L := func(b map[string]any) isoCall { return isoCall{body: b} }
	base := "/api/auth/sys/session/"
	return map[string]isoCall{
		"POST " + base + "list":           L(map[string]any{"customerId": w.custA, "siteId": w.siteA, "deviceId": w.devA, "pageSize": 100}),
		"GET " + base + "detail":          A(map[string]any{"id": w.session}),
		"GET " + base + "signed/download": A(map[string]any{"id": w.session}),
		"POST " + base + "export":         L(map[string]any{"sn": "ALPHA-0001", "idTag": "Alpha Charging Tag"}),
	}
}
