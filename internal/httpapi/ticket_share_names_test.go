package httpapi_test

import (
	"context"
	"strings"
	"testing"

	"chargeops/internal/db"
	"chargeops/internal/testutil"
	"chargeops/internal/testutil/apitest"
)

// Issue 29 L6: the anonymous ticket share page showed staff login names (half of a sign-in).
// Its answer names staff by display name only, and not at all when the display name is empty,
// is the login name or holds an email (the page says "Staff"); no login name or email of any
// user appears anywhere in it.
func TestTicketShareShowsNoLoginNames(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		o := newOrg(t, d)
		grantOrg(t, o, ticketKeys...)
		ctx := context.Background()
		set := func(userID int64, nick, email string) {
			t.Helper()
			if _, err := d.Exec(ctx, `UPDATE app_user SET nick_name = ?, email = ? WHERE id = ?`, nick, email, userID); err != nil {
				t.Fatal(err)
			}
		}
		set(o.userA, "Li Wei", "li.wei@alpha.example")
		tk := id(t, o.a.Call("POST", "/api/auth/sys/issue/add", map[string]any{"title": "Pump fault", "category": 1, "priority": 2,
			"occurredAt": 1700000000000, "deviceId": o.devA, "description": "<p>first</p>"}))
		apitest.Must(t, o.a.Call("POST", "/api/auth/sys/issue/comment", map[string]any{"id": tk, "comment": "<p>on it</p>"}))
		apitest.Must(t, o.root.Call("POST", "/api/auth/sys/issue/comment", map[string]any{"id": tk, "comment": "<p>root looked</p>"}))
		var made struct{ Token string }
		apitest.Must(t, o.a.Call("POST", "/api/auth/sys/issue/share/add", map[string]any{"id": tk, "days": 7})).Into(t, &made)

		anon := o.env.Client()
		read := func() (string, []struct{ Kind, UserName, Body string }) {
			t.Helper()
			a := apitest.Must(t, anon.Call("POST", "/api/unauth/issue/share/detail", map[string]any{"token": made.Token}))
			var v struct {
				Entries []struct{ Kind, UserName, Body string }
			}
			a.Into(t, &v)
			return string(a.Data), v.Entries
		}
		secrets := func() []string {
			t.Helper()
			rows, err := d.Query(ctx, `SELECT user_name, email FROM app_user`)
			if err != nil {
				t.Fatal(err)
			}
			defer rows.Close()
			var out []string
			for rows.Next() {
				var login, email string
				if err := rows.Scan(&login, &email); err != nil {
					t.Fatal(err)
				}
				out = append(out, login)
				if email != "" {
					out = append(out, email)
				}
			}
			return out
		}

		raw, entries := read()
		for _, s := range secrets() {
			if strings.Contains(raw, `"`+s+`"`) {
				t.Errorf("the anonymous answer holds %q: %s", s, raw)
			}
		}
		byBody := map[string]string{}
		for _, e := range entries {
			if e.Kind == "comment" {
				byBody[e.Body] = e.UserName
			}
		}
		if byBody["<p>on it</p>"] != "Li Wei" || byBody["<p>root looked</p>"] != "" {
			t.Errorf("comment authors %v: want the display name, and none for a user without one", byBody)
		}

		t.Run("a display name that is the login name or an email is not shown", func(t *testing.T) {
			var login string
			if err := d.QueryRow(ctx, `SELECT user_name FROM app_user WHERE id = ?`, o.userA).Scan(&login); err != nil {
				t.Fatal(err)
			}
			for _, nick := range []string{login, strings.ToUpper(login), "li.wei@alpha.example", " "} {
				set(o.userA, nick, "li.wei@alpha.example")
				raw, entries := read()
				for _, e := range entries {
					if e.UserName != "" {
						t.Errorf("display name %q shown as %q", nick, e.UserName)
					}
				}
				if strings.Contains(strings.ToLower(raw), strings.ToLower(login)) || strings.Contains(raw, "@alpha.example") {
					t.Errorf("display name %q: the answer holds the login name or the email", nick)
				}
			}
		})
	})
}
