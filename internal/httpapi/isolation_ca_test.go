package httpapi_test

import (
	"testing"

	"chargeops/internal/db"
	"chargeops/internal/fleet"
)

// seedIsoCertificate gives A's device an installed client certificate, so that the fleet
// certificate list leaks A's device name if its scope fails.
func seedIsoCertificate(t *testing.T, w *isoWorld, d *db.DB) {
	t.Helper()
	if _, err := d.Exec(t.Context(), `INSERT INTO device_certificate (device_id, serial, subject, issuer, not_before, not_after, fingerprint, state, created_at, updated_at)
		VALUES (?, '0A', 'CN=ALPHA-0001', 'CN=Charge point CA', 1700000000000, 1900000000000, 'ab', ?, 1700000000000, 1700000000000)`, w.devA, fleet.CertInstalled); err != nil {
		t.Fatal(err)
	}
}

// caIsoScenarios: the CA is platform data (refused to customer users); the fleet certificate
// list is scoped by device.
func (w *isoWorld) caIsoScenarios() map[string]isoCall {
	sys := "/api/auth/sys/dev/"
	return map[string]isoCall{
		"POST " + sys + "certificate/fleet": {body: map[string]any{"expiringWithinDays": 3650, "pageSize": 100}},
		"GET " + sys + "ca/detail":          {body: nil, aimsAtA: true},
	}
}
