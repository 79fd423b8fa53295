package httpapi_test

import (
	"testing"

	"chargeops/internal/testutil/apitest"
)

// isoTicket is a ticket of customer A (on A's device, titled with an A marker) and its
// anonymous share, for TestRouteIsolation.
type isoTicket struct {
	id, share int64
}

func seedIsoTicket(t *testing.T, w *isoWorld) isoTicket {
	t.Helper()
	r := w.root
	tk := id(t, r.Call("POST", "/api/auth/sys/issue/add", map[string]any{"title": "Alpha Futian connector fault", "category": 1, "priority": 1,
		"occurredAt": 1700000000000, "deviceId": w.devA, "description": "<p>Alpha Futian: connector 1 faulted</p>"}))
	apitest.Must(t, r.Call("POST", "/api/auth/sys/issue/comment", map[string]any{"id": tk, "comment": "<p>alpha_admin looked at it</p>"}))
	var made struct{ ID int64 }
	apitest.Must(t, r.Call("POST", "/api/auth/sys/issue/share/add", map[string]any{"id": tk, "days": 7})).Into(t, &made)
	return isoTicket{id: tk, share: made.ID}
}

// ticketIsoScenarios are the ticket routes' calls aimed at A's ticket (A) or only listing (L).
func (w *isoWorld) ticketIsoScenarios() map[string]isoCall {
	A := func(b map[string]any) isoCall { return isoCall{body: b, aimsAtA: true} }
	L := func(b map[string]any) isoCall { return isoCall{body: b} }
	sys := "/api/auth/sys/issue/"
	tk := w.ticket.id
	noToken := "00000000000000000000000000000000"
	return map[string]isoCall{
		"POST " + sys + "list":                 L(map[string]any{"tab": "all", "customerId": w.custA, "siteId": w.siteA, "deviceId": w.devA, "text": "Alpha", "pageSize": 100}),
		"GET " + sys + "detail":                A(map[string]any{"id": tk}),
		"POST " + sys + "add":                  A(map[string]any{"title": "Intruder", "category": 1, "priority": 0, "occurredAt": 1700000000000, "deviceId": w.devA}),
		"POST " + sys + "update":               A(map[string]any{"id": tk, "title": "Hijacked", "category": 4, "priority": 0, "occurredAt": 1700000000000, "customerId": w.custA}),
		"POST " + sys + "comment":              A(map[string]any{"id": tk, "comment": "<p>intruder</p>"}),
		"POST " + sys + "pending":              A(map[string]any{"id": tk}),
		"POST " + sys + "close":                A(map[string]any{"id": tk, "comment": "<p>closed by an intruder</p>"}),
		"POST " + sys + "reopen":               A(map[string]any{"id": tk, "comment": "<p>reopened by an intruder</p>"}),
		"POST " + sys + "share/add":            A(map[string]any{"id": tk, "days": 1}),
		"POST " + sys + "share/list":           A(map[string]any{"id": tk}),
		"POST " + sys + "share/revoke":         A(map[string]any{"id": w.ticket.share}),
		"POST /api/unauth/issue/share/detail":  L(map[string]any{"token": noToken}),
		"POST /api/unauth/issue/share/comment": L(map[string]any{"token": noToken, "name": "intruder", "comment": "<p>x</p>"}),
	}
}
