package httpapi_test

import (
	"context"
	"testing"

	"chargeops/internal/db"
	"chargeops/internal/fleet"
)

// seedIsoSecurityEvent gives A's device a critical security event whose alarm is open, its tech
// info holding an A marker, for the security-event routes of TestRouteIsolation; it returns the
// event's id.
func seedIsoSecurityEvent(t *testing.T, w *isoWorld, d *db.DB) int64 {
	t.Helper()
	ctx := context.Background()
	now := db.NowMS()
	alarm, err := db.InsertID(ctx, d, `INSERT INTO device_event (device_id, customer_id, site_id, kind, level, code, name, info, source, status, started_at, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, w.devA, w.custA, w.siteA, fleet.KindAlarm, fleet.LevelCA, "security.TamperDetectionActivated",
		"TamperDetectionActivated", "Alpha Futian lid", fleet.SourceSecurity, fleet.EventOpen, now, now)
	if err != nil {
		t.Fatal(err)
	}
	id, err := db.InsertID(ctx, d, `INSERT INTO device_security_event (device_id, customer_id, site_id, type, tech_info, critical, occurred_at, created_at, event_id)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, w.devA, w.custA, w.siteA, "TamperDetectionActivated", "Alpha Futian lid opened", 1, now, now, alarm)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// securityEventsIsoScenarios are the security-event routes' calls, aimed at A's device and event.
func (w *isoWorld) securityEventsIsoScenarios() map[string]isoCall {
	A := func(b map[string]any) isoCall { return isoCall{body: b, aimsAtA: true} }
	L := func(b map[string]any) isoCall { return isoCall{body: b} }
	base := "/api/auth/sys/dev/security/event/"
	return map[string]isoCall{
		"POST " + base + "list":   A(map[string]any{"deviceId": w.devA, "pageSize": 100}),
		"POST " + base + "export": L(map[string]any{"type": "TamperDetectionActivated"}),
		"POST " + base + "ack":    A(map[string]any{"ids": []int64{w.secEvent}}),
	}
}
