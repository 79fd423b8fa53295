package httpapi_test

import (
	"context"
	"testing"
	"time"
)

// opsIsoScenarios: the reservation lists (routes_ops.go). A reservation of A's device carries
// the marker "ALPHA-0002" as its idTag, so a list that leaks it shows it.
func (w *isoWorld) opsIsoScenarios(t *testing.T) map[string]isoCall {
	t.Helper()
	now := time.Now().UnixMilli()
	if _, err := w.env.DB.Exec(context.Background(), `INSERT INTO reservation (device_id, customer_id, site_id, connector_id, id_tag, expires_at, status, user_id, created_at, updated_at)
		VALUES (?, ?, ?, 1, 'ALPHA-0002', ?, 'active', 1, ?, ?)`, w.devA, w.custA, w.siteA, now+time.Hour.Milliseconds(), now, now); err != nil {
		t.Fatal(err)
	}
	if _, err := w.env.DB.Exec(context.Background(), `INSERT INTO device_connector (device_id, connector_id, status, updated_at) VALUES (?, 1, 'Reserved', ?)
		ON CONFLICT (device_id, connector_id) DO NOTHING`, w.devA, now); err != nil {
		t.Fatal(err)
	}
	A := func(b map[string]any) isoCall { return isoCall{body: b, aimsAtA: true} }
	L := func(b map[string]any) isoCall { return isoCall{body: b} }
	return map[string]isoCall{
		"GET /api/auth/sys/dev/reservation/list": L(map[string]any{"deviceId": w.devA}),
		"GET /api/auth/sys/dev/ops/connectors":   A(map[string]any{"deviceId": w.devA}),
		"GET /openapi/v1/reservations":           L(map[string]any{"deviceId": w.devA, "open": true}),
	}
}
