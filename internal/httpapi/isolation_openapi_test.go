package httpapi_test

// openapiIsoScenarios are the OpenAPI v1's calls, made by an application bound to the caller,
// aimed at A's objects (A) or only listing (L).
func (w *isoWorld) openapiIsoScenarios() map[string]isoCall {
	A := func(b map[string]any) isoCall { return isoCall{body: b, aimsAtA: true} }
	L := func(b map[string]any) isoCall { return isoCall{body: b} }
	v1 := "/openapi/v1/"
	return map[string]isoCall{
		"GET " + v1 + "devices":         L(map[string]any{"keyword": "ALPHA", "pageSize": 100}),
		"GET " + v1 + "devices/detail":  A(map[string]any{"id": w.devA}),
		"GET " + v1 + "devices/status":  A(map[string]any{"id": w.devA}),
		"GET " + v1 + "devices/series":  A(map[string]any{"deviceId": w.devA, "names": "Power.Active.Import", "startTime": isoRange[0], "endTime": isoRange[1], "step": 60}),
		"GET " + v1 + "sites":           L(map[string]any{"name": "Alpha", "pageSize": 100}),
		"GET " + v1 + "events":          L(map[string]any{"deviceId": w.devA, "pageSize": 100}),
		"POST " + v1 + "commands":       A(map[string]any{"deviceIds": []int64{w.devA}, "controlType": 1}),
		"GET " + v1 + "commands":        L(map[string]any{"deviceId": w.devA, "pageSize": 100}),
		"GET " + v1 + "commands/detail": A(map[string]any{"id": w.cmdA}),
		"GET " + v1 + "protocol-logs":   L(map[string]any{"sn": "ALPHA-0001"}),
		"GET " + v1 + "sessions":        L(map[string]any{"deviceId": w.devA}),
	}
}
