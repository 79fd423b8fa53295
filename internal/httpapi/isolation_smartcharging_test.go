package httpapi_test

import (
	"context"
	"testing"
	"time"
)

// smartChargingIsoScenarios: smart charging and site load management
// (routes_smartcharging.go). A's device holds a stored profile whose creator is the marker
// "ALPHA-0003", and A's site a power setting limited to the marker figure 777.7 kW, so a
// read that leaks shows them; the writes aim at A's device and site.
func (w *isoWorld) smartChargingIsoScenarios(t *testing.T) map[string]isoCall {
	t.Helper()
	now := time.Now().UnixMilli()
	ctx := context.Background()
	if _, err := w.env.DB.Exec(ctx, `INSERT INTO device_charging_profile (device_id, profile_id, connector_id, purpose, stack_level, profile, state, created_by, updated_at)
		VALUES (?, 7, 0, 'TxDefault', 1, '{"id":7,"stackLevel":1,"purpose":"TxDefault","kind":"Relative","schedule":{"unit":"A","periods":[{"start":0,"limit":16}]}}', 1, 'ALPHA-0003', ?)
		ON CONFLICT (device_id, profile_id) DO NOTHING`, w.devA, now); err != nil {
		t.Fatal(err)
	}
	if _, err := w.env.DB.Exec(ctx, `INSERT INTO site_power (site_id, enabled, limit_kw, updated_by, updated_at) VALUES (?, 1, 777.7, 'ALPHA-0003', ?)
		ON CONFLICT (site_id) DO NOTHING`, w.siteA, now); err != nil {
		t.Fatal(err)
	}
	A := func(b map[string]any) isoCall { return isoCall{body: b, aimsAtA: true} }
	profile := map[string]any{"id": 8, "stackLevel": 1, "purpose": "TxDefault", "kind": "Relative",
		"schedule": map[string]any{"unit": "A", "periods": []map[string]any{{"start": 0, "limit": 10}}}}
	site := map[string]any{"siteId": w.siteA, "enabled": true, "limitKw": 50, "minA": 6, "editLevel": 5}
	return map[string]isoCall{
		"GET /api/auth/sys/dev/profile/list":   A(map[string]any{"deviceId": w.devA}),
		"GET /api/auth/sys/dev/power":          A(map[string]any{"deviceId": w.devA}),
		"POST /api/auth/sys/dev/power":         A(map[string]any{"deviceId": w.devA, "phases": 1, "phase": 2, "minA": 6, "maxA": 16, "priority": 1}),
		"GET /api/auth/sys/site/power":         A(map[string]any{"siteId": w.siteA}),
		"POST /api/auth/sys/site/power":        A(site),
		"GET /api/auth/sys/site/power/history": A(map[string]any{"siteId": w.siteA, "start": now - time.Hour.Milliseconds(), "end": now}),
		"GET /openapi/v1/site-power":           A(map[string]any{"siteId": w.siteA}),
		"POST /openapi/v1/site-power":          A(site),
		"GET /openapi/v1/charging-profiles":    A(map[string]any{"deviceId": w.devA}),
		"POST /openapi/v1/charging-profiles":   A(map[string]any{"deviceId": w.devA, "connectorId": 0, "profile": profile}),
	}
}
