package httpapi_test

import (
	"testing"

	"chargeops/internal/testutil/apitest"
)

// seedIsoApp makes an application of customer A (bound to A's admin, named with an A marker),
// for TestRouteIsolation.
func seedIsoApp(t *testing.T, w *isoWorld) int64 {
	t.Helper()
	var made struct{ ID int64 }
	apitest.Must(t, w.root.Call("POST", "/api/auth/sys/application/add", map[string]any{"name": "Alpha Futian billing", "userId": w.userA,
		"description": "alpha_admin's billing link"})).Into(t, &made)
	return made.ID
}

// applicationIsoScenarios are the application routes' calls aimed at A's application (A) or
// only listing (L).
func (w *isoWorld) applicationIsoScenarios() map[string]isoCall {
	A := func(b map[string]any) isoCall { return isoCall{body: b, aimsAtA: true} }
	L := func(b map[string]any) isoCall { return isoCall{body: b} }
	base := "/api/auth/sys/application/"
	return map[string]isoCall{
		"POST " + base + "list":          L(map[string]any{"name": "Alpha", "pageSize": 100}),
		"GET " + base + "detail":         A(map[string]any{"id": w.app}),
		"POST " + base + "add":           A(map[string]any{"name": "Intruder app", "userId": w.userA}),
		"POST " + base + "update":        A(map[string]any{"id": w.app, "name": "Hijacked", "userId": w.userB}),
		"POST " + base + "status":        A(map[string]any{"ids": []int64{w.app}, "status": 0}),
		"POST " + base + "delete":        A(map[string]any{"ids": []int64{w.app}}),
		"POST " + base + "secret/rotate": A(map[string]any{"id": w.app}),
		"POST " + base + "user/options":  L(map[string]any{"name": "alpha"}),
	}
}
