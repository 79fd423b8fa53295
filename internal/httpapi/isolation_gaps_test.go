package httpapi_test

import "encoding/base64"

// gapsIsoScenarios are the calls of the routes the specification's last gaps added (issue 29),
// aimed at A's objects (A) or only listing (L).
func (w *isoWorld) gapsIsoScenarios() map[string]isoCall {
	A := func(b map[string]any) isoCall { return isoCall{body: b, aimsAtA: true} }
	L := func(b map[string]any) isoCall { return isoCall{body: b} }
	params := base64.StdEncoding.EncodeToString([]byte(`{"HeartbeatInterval": "600"}`))
	return map[string]isoCall{
		"GET /api/auth/sys/dict/region/all":    L(nil),
		"POST /api/auth/sys/dev/config/import": A(map[string]any{"deviceId": w.devA, "fileName": "params.json", "content": params}),
	}
}
