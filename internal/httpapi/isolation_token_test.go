package httpapi_test

import (
	"testing"
)

// seedIsoToken adds a token of customer A (named with an A marker) for TestRouteIsolation.
func seedIsoToken(t *testing.T, w *isoWorld) int64 {
	t.Helper()
	return id(t, w.root.Call("POST", "/api/auth/sys/token/add", map[string]any{"customerId": w.custA, "idTag": "ALPHA-CARD-1", "name": "Alpha Charging card"}))
}

// tokenIsoScenarios are the token routes' calls aimed at A's token, customer or device (A) or
// only listing (L).
func (w *isoWorld) tokenIsoScenarios() map[string]isoCall {
	A := func(b map[string]any) isoCall { return isoCall{body: b, aimsAtA: true} }
	L := func(b map[string]any) isoCall { return isoCall{body: b} }
	sys := "/api/auth/sys/token/"
	tk := w.token
	return map[string]isoCall{
		"POST " + sys + "list":           L(map[string]any{"customerId": w.custA, "idTag": "ALPHA", "pageSize": 100}),
		"GET " + sys + "detail":          A(map[string]any{"id": tk}),
		"POST " + sys + "add":            A(map[string]any{"customerId": w.custA, "idTag": "INTRUDER-1", "name": "intruder"}),
		"POST " + sys + "update":         A(map[string]any{"id": tk, "idTag": "ALPHA-CARD-1", "name": "hijacked by an intruder"}),
		"POST " + sys + "block":          A(map[string]any{"ids": []int64{tk}}),
		"POST " + sys + "unblock":        A(map[string]any{"ids": []int64{tk}}),
		"POST " + sys + "expiry":         A(map[string]any{"ids": []int64{tk}, "expiresAt": 1}),
		"POST " + sys + "delete":         A(map[string]any{"ids": []int64{tk}}),
		"POST " + sys + "import":         A(map[string]any{"customerId": w.custA, "fileName": "t.xlsx", "content": "UEsDBA=="}),
		"GET " + sys + "import/template": L(nil),
		"GET " + sys + "policy":          A(map[string]any{"customerId": w.custA}),
		"POST " + sys + "policy/update":  A(map[string]any{"customerId": w.custA, "unknown": 1}),
		"GET " + sys + "locallist/state": A(map[string]any{"deviceId": w.devA}),
		"POST " + sys + "locallist/send": A(map[string]any{"deviceId": w.devA, "updateType": "Full"}),
	}
}
