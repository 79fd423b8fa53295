package httpapi_test

// remoteIsoScenarios are the remote-access routes' calls aimed at A's device (A) or only
// listing (L). The terminal's call is a plain GET: a caller outside A is refused before any
// WebSocket upgrade.
func (w *isoWorld) remoteIsoScenarios() map[string]isoCall {
	A := func(b map[string]any) isoCall { return isoCall{body: b, aimsAtA: true} }
	L := func(b map[string]any) isoCall { return isoCall{body: b} }
	base := "/api/auth/sys/dev/"
	return map[string]isoCall{
		"GET " + base + "link/status":        A(map[string]any{"deviceId": w.devA}),
		"POST " + base + "link/open":         A(map[string]any{"deviceId": w.devA, "kind": "web"}),
		"POST " + base + "link/close":        A(map[string]any{"deviceId": w.devA}),
		"POST " + base + "basic/vpn/restart": A(map[string]any{"deviceId": w.devA}),
		"POST " + base + "link/web":          A(map[string]any{"deviceId": w.devA}),
		"GET " + base + "link/terminal":      A(map[string]any{"deviceId": w.devA}),
		"POST " + base + "link/session/list": L(map[string]any{"pageSize": 100}),
	}
}
