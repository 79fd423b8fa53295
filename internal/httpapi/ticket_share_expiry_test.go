package httpapi_test

import (
	"strconv"
	"testing"

	"chargeops/internal/db"
	"chargeops/internal/testutil"
	"chargeops/internal/testutil/apitest"
)

// Issue 30 item 13: the anonymous share page's timeline said "permanent" for a 7-day link (the
// entry's expiry was blanked, which the page reads as permanent). Both timelines, the console's
// and the share page's, carry the real expiry; a permanent share's entry says 0.
func TestTicketShareTimelineShowsRealExpiry(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		o := newOrg(t, d)
		grantOrg(t, o, ticketKeys...)
		tk := id(t, o.a.Call("POST", "/api/auth/sys/issue/add", map[string]any{"title": "Share expiry", "category": 1, "priority": 2,
			"occurredAt": 1700000000000, "deviceId": o.devA, "description": "<p>x</p>"}))
		var week, forever struct {
			Token     string
			ExpiresAt int64
		}
		apitest.Must(t, o.a.Call("POST", "/api/auth/sys/issue/share/add", map[string]any{"id": tk, "days": 7})).Into(t, &week)
		apitest.Must(t, o.a.Call("POST", "/api/auth/sys/issue/share/add", map[string]any{"id": tk, "days": 0})).Into(t, &forever)
		if week.ExpiresAt == 0 || forever.ExpiresAt != 0 {
			t.Fatalf("made shares expire at %d and %d", week.ExpiresAt, forever.ExpiresAt)
		}
		type entries struct {
			Entries []struct{ Kind, Field, To string }
		}
		shareTos := func(v entries) []string {
			var out []string
			for _, e := range v.Entries {
				if e.Kind == "share" {
					out = append(out, e.To)
				}
			}
			return out
		}
		want := map[string]bool{strconv.FormatInt(week.ExpiresAt, 10): true, "0": true}
		check := func(where string, tos []string) {
			t.Helper()
			if len(tos) != 2 || !want[tos[0]] || !want[tos[1]] || tos[0] == tos[1] {
				t.Errorf("%s: share entries expire at %v, want %v", where, tos, want)
			}
		}
		var console entries
		apitest.Must(t, o.a.Call("GET", "/api/auth/sys/issue/detail?id="+strconv.FormatInt(tk, 10), nil)).Into(t, &console)
		check("console", shareTos(console))
		var shared entries
		apitest.Must(t, o.env.Client().Call("POST", "/api/unauth/issue/share/detail", map[string]any{"token": week.Token})).Into(t, &shared)
		check("share page", shareTos(shared))
		for _, e := range shared.Entries {
			if e.Kind == "share" && e.Field != "" {
				t.Errorf("the share page names a share: %q", e.Field)
			}
		}
	})
}
