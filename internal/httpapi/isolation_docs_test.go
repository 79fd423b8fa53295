package httpapi_test

import "testing"

// isoDocs is a docs category and document of customer A (named with an A marker), for
// TestRouteIsolation.
type isoDocs struct {
	category, doc int64
}

func seedIsoDocs(t *testing.T, w *isoWorld) isoDocs {
	t.Helper()
	r := w.root
	cat := id(t, r.Call("POST", "/api/auth/sys/article/category/add", map[string]any{"customerId": w.custA, "name": "Alpha Futian manuals"}))
	doc := id(t, r.Call("POST", "/api/auth/sys/article/add", map[string]any{"customerId": w.custA, "categoryId": cat, "title": "Alpha Futian wiring",
		"name": "Alpha Futian wiring", "type": 100, "readLevel": 5, "writeLevel": 5, "status": 1, "alarmCodes": []string{"GroundFailure"},
		"content": "<p>alpha futian wiring: check the contactor</p>"}))
	return isoDocs{category: cat, doc: doc}
}

// docsIsoScenarios are the docs routes' calls aimed at A's category and document (A) or only
// listing (L).
func (w *isoWorld) docsIsoScenarios() map[string]isoCall {
	A := func(b map[string]any) isoCall { return isoCall{body: b, aimsAtA: true} }
	L := func(b map[string]any) isoCall { return isoCall{body: b} }
	sys := "/api/auth/sys/article/"
	doc, cat := w.docs.doc, w.docs.category
	props := func(over map[string]any) map[string]any {
		b := map[string]any{"categoryId": cat, "title": "Hijacked", "type": 100, "readLevel": 5, "writeLevel": 5, "status": 1}
		for k, v := range over {
			b[k] = v
		}
		return b
	}
	return map[string]isoCall{
		"GET " + sys + "home":             L(nil),
		"POST " + sys + "search":          L(map[string]any{"q": "alpha futian"}),
		"POST " + sys + "list":            L(map[string]any{"customerId": w.custA, "categoryId": cat, "pageSize": 100}),
		"GET " + sys + "detail":           A(map[string]any{"id": doc}),
		"POST " + sys + "add":             A(props(map[string]any{"customerId": w.custA, "title": "Intruder"})),
		"POST " + sys + "update":          A(props(map[string]any{"id": doc})),
		"POST " + sys + "content":         A(map[string]any{"id": doc, "content": "<p>hijacked</p>"}),
		"POST " + sys + "status":          A(map[string]any{"ids": []int64{doc}, "status": 0}),
		"POST " + sys + "delete":          A(map[string]any{"ids": []int64{doc}}),
		"GET " + sys + "category/list":    L(nil),
		"POST " + sys + "category/add":    A(map[string]any{"customerId": w.custA, "name": "Intruder category"}),
		"POST " + sys + "category/update": A(map[string]any{"id": cat, "name": "Hijacked"}),
		"POST " + sys + "category/delete": A(map[string]any{"ids": []int64{cat}}),
		"GET " + sys + "draft/get":        A(map[string]any{"id": doc}),
		"POST " + sys + "draft/save":      A(map[string]any{"id": doc, "content": "<p>intruder</p>"}),
		"POST " + sys + "draft/delete":    A(map[string]any{"id": doc}),
	}
}
