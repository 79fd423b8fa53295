package httpapi_test

import (
	"testing"

	"chargeops/internal/db"
	"chargeops/internal/fleet"
)

// seedIsoLogs gives A's device an open fault named with an A marker, for the error-log routes
// of TestRouteIsolation (A's action-log rows exist already: A's admin made A's objects).
func seedIsoLogs(t *testing.T, w *isoWorld, d *db.DB) {
	t.Helper()
	insertEvent(t, d, logEvent{device: w.devA, customer: w.custA, site: w.siteA, kind: fleet.KindFault, level: fleet.LevelCA,
		code: "GroundFailure", name: "Alpha Futian ground failure", status: fleet.EventOpen, started: 1700000000000, recorded: 1700000000000})
}

// logsIsoScenarios are the log routes' calls: each lists or exports, naming A's device, site
// and user as filters.
func (w *isoWorld) logsIsoScenarios() map[string]isoCall {
	L := func(b map[string]any) isoCall { return isoCall{body: b} }
	sys := "/api/auth/sys/logs/"
	return map[string]isoCall{
		"POST " + sys + "error/list":    L(map[string]any{"deviceId": w.devA, "siteId": w.siteA, "pageSize": 100}),
		"POST " + sys + "error/export":  L(map[string]any{"sn": "ALPHA-0001"}),
		"POST " + sys + "action/export": L(map[string]any{"userId": w.userA}),
	}
}
