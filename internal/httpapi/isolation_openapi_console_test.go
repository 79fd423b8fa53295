package httpapi_test

// openapiConsoleIsoScenarios are the console's OpenAPI screens' calls aimed at A's application
// (A) or only listing (L); A's application is seedIsoApp's (isolation_application_test.go).
func (w *isoWorld) openapiConsoleIsoScenarios() map[string]isoCall {
	A := func(b map[string]any) isoCall { return isoCall{body: b, aimsAtA: true} }
	L := func(b map[string]any) isoCall { return isoCall{body: b} }
	base := "/api/auth/sys/openapi/"
	return map[string]isoCall{
		"POST " + base + "app/list":  L(map[string]any{"name": "Alpha", "pageSize": 100}),
		"POST " + base + "log/list":  A(map[string]any{"id": w.app, "pageSize": 100}),
		"POST " + base + "log/stats": A(map[string]any{"id": w.app, "startTime": isoRange[0], "endTime": isoRange[1]}),
	}
}
