package httpapi_test

import (
	"context"
	"strings"
	"testing"

	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/storage/storagetest"
	"chargeops/internal/testutil"
	"chargeops/internal/testutil/apitest"
)

var ticketKeys = []string{"auth_issue", "auth_issue_list", "auth_issue_add", "auth_issue_edit", "auth_issue_share"}

type ticketView struct {
	ID              int64
	Title           string
	State           string
	Category        int
	Priority        int
	CustomerID      int64
	SiteID          int64
	DeviceID        int64
	DeviceSN        string
	SoftwareVersion string
	Description     string
	Entries         []struct {
		Kind, Field, From, To, Body, UserName, Anonymous string
	}
}

func ticketDetail(t *testing.T, c *apitest.Client, id int64) ticketView {
	t.Helper()
	var v ticketView
	apitest.Must(t, c.Call("GET", "/api/auth/sys/issue/detail", map[string]any{"id": id})).Into(t, &v)
	return v
}

func ticketKinds(v ticketView) string {
	var out []string
	for _, e := range v.Entries {
		s := e.Kind
		if e.Field != "" && e.Kind == "field" {
			s += ":" + e.Field
		}
		if e.Kind == "state" {
			s += ":" + e.From + ">" + e.To
		}
		out = append(out, s)
	}
	return strings.Join(out, ",")
}

func TestTickets(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		o := newOrg(t, d)
		grantOrg(t, o, ticketKeys...)
		ctx := context.Background()
		if _, err := d.Exec(ctx, `UPDATE device SET software_version = ? WHERE id = ?`, "v1.2.3", o.devA); err != nil {
			t.Fatal(err)
		}
		add := func(c *apitest.Client, body map[string]any) apitest.Answer {
			base := map[string]any{"title": "Connector 1 faulted", "category": 1, "priority": 2, "occurredAt": 1700000000000}
			for k, v := range body {
				base[k] = v
			}
			return c.Call("POST", "/api/auth/sys/issue/add", base)
		}

		tk := id(t, add(o.a, map[string]any{"deviceId": o.devA, "customerId": o.custB, "siteId": o.siteB, "description": "<p>first</p>"}))

		t.Run("a device ticket takes its site and customer from the device, never the client's", func(t *testing.T) {
			v := ticketDetail(t, o.a, tk)
			if v.CustomerID != o.custA || v.SiteID != o.siteA || v.DeviceSN != "ALPHA-0001" || v.State != "open" {
				t.Fatalf("got %+v", v)
			}
			if v.SoftwareVersion != "v1.2.3" {
				t.Errorf("software version %q, want the device's", v.SoftwareVersion)
			}
		})

		t.Run("device required except for device-independent issues; another customer's device refused", func(t *testing.T) {
			a := add(o.a, map[string]any{})
			apitest.WantCode(t, a, apperr.Invalid)
			if !strings.Contains(a.Message, "Device") {
				t.Errorf("message %q does not name the device", a.Message)
			}
			apitest.WantCode(t, add(o.a, map[string]any{"deviceId": o.devB}), apperr.Invalid)
			apitest.WantCode(t, add(o.a, map[string]any{"category": 4, "customerId": o.custB}), apperr.Invalid)
			free := id(t, add(o.a, map[string]any{"category": 4}))
			if v := ticketDetail(t, o.a, free); v.CustomerID != o.custA || v.DeviceID != 0 {
				t.Errorf("device-independent ticket %+v", v)
			}
			apitest.WantCode(t, add(o.a, map[string]any{"deviceId": o.devA, "priority": 3}), apperr.Invalid)
			apitest.WantCode(t, add(o.a, map[string]any{"deviceId": o.devA, "title": "  "}), apperr.Invalid)
		})

		t.Run("states: close and reopen need a comment; a closed ticket cannot be closed again; every change is a process entry", func(t *testing.T) {
			before := ticketDetail(t, o.a, tk)
			for _, empty := range []string{"", "   ", "<p> </p>", "<p><br></p>", "<script>alert(1)</script>"} {
				a := o.a.Call("POST", "/api/auth/sys/issue/close", map[string]any{"id": tk, "comment": empty})
				apitest.WantCode(t, a, apperr.Invalid)
				if !strings.Contains(a.Message, "comment cannot be empty") {
					t.Errorf("close with %q: %q", empty, a.Message)
				}
			}
			if after := ticketDetail(t, o.a, tk); after.State != "open" || len(after.Entries) != len(before.Entries) {
				t.Fatalf("a refused close changed the ticket: %s / %d entries", after.State, len(after.Entries))
			}
			apitest.Must(t, o.a.Call("POST", "/api/auth/sys/issue/update", map[string]any{"id": tk, "title": "Connector 1 faulted again", "category": 3, "priority": 1,
				"occurredAt": 1700000000000, "deviceId": o.devA, "softwareVersion": "v1.2.3", "description": "<p>first</p>"}))
			apitest.Must(t, o.a.Call("POST", "/api/auth/sys/issue/comment", map[string]any{"id": tk, "comment": "<p>looking</p>"}))
			apitest.Must(t, o.a.Call("POST", "/api/auth/sys/issue/pending", map[string]any{"id": tk}))
			apitest.WantCode(t, o.a.Call("POST", "/api/auth/sys/issue/pending", map[string]any{"id": tk}), apperr.Conflict)
			apitest.WantCode(t, o.a.Call("POST", "/api/auth/sys/issue/reopen", map[string]any{"id": tk, "comment": "<p>x</p>"}), apperr.Conflict)
			apitest.Must(t, o.a.Call("POST", "/api/auth/sys/issue/close", map[string]any{"id": tk, "comment": "<p>fixed</p>"}))
			apitest.WantCode(t, o.a.Call("POST", "/api/auth/sys/issue/close", map[string]any{"id": tk, "comment": "<p>again</p>"}), apperr.Conflict)
			apitest.WantCode(t, o.a.Call("POST", "/api/auth/sys/issue/update", map[string]any{"id": tk, "title": "x", "category": 3, "priority": 1,
				"occurredAt": 1700000000000, "deviceId": o.devA}), apperr.Conflict)
			apitest.WantCode(t, o.a.Call("POST", "/api/auth/sys/issue/reopen", map[string]any{"id": tk, "comment": "<p></p>"}), apperr.Invalid)
			if v := ticketDetail(t, o.a, tk); v.State != "closed" {
				t.Fatalf("a refused reopen changed the state to %s", v.State)
			}
			apitest.Must(t, o.a.Call("POST", "/api/auth/sys/issue/reopen", map[string]any{"id": tk, "comment": "<p>came back</p>"}))
			v := ticketDetail(t, o.a, tk)
			want := "create,field:title,field:category,field:priority,comment,state:open>pending,state:pending>closed,state:closed>reopen"
			if got := ticketKinds(v); got != want || v.State != "reopen" {
				t.Fatalf("process %s (state %s), want %s", got, v.State, want)
			}
			if e := v.Entries[1]; e.From != "Connector 1 faulted" || e.To != "Connector 1 faulted again" || e.UserName != "alpha_admin" {
				t.Errorf("title entry %+v", e)
			}
			if e := v.Entries[6]; !strings.Contains(e.Body, "fixed") {
				t.Errorf("close entry carries no comment: %+v", e)
			}
		})

		t.Run("comments are sanitised: scripts and event handlers stripped", func(t *testing.T) {
			apitest.Must(t, o.a.Call("POST", "/api/auth/sys/issue/comment", map[string]any{"id": tk,
				"comment": `<p onclick="steal()">ok<script>alert(1)</script><img src="https://x.example/a.png" onerror="alert(2)"><a href="javascript:alert(3)">l</a></p>`}))
			v := ticketDetail(t, o.a, tk)
			body := v.Entries[len(v.Entries)-1].Body
			for _, bad := range []string{"<script", "onclick", "onerror", "javascript:"} {
				if strings.Contains(body, bad) {
					t.Errorf("stored comment keeps %q: %s", bad, body)
				}
			}
			if !strings.Contains(body, "ok") {
				t.Errorf("comment text lost: %s", body)
			}
		})

		t.Run("images in comments: the author's own upload is kept by key and signed for readers; another customer's is refused", func(t *testing.T) {
			keyOf := func(c *apitest.Client, name string) string {
				_, up := upload(t, o.env, c, "image", name, "", storagetest.Sample("png"))
				var u struct{ ObjectKey string }
				apitest.Must(t, up).Into(t, &u)
				return u.ObjectKey
			}
			mine, theirs := keyOf(o.a, "loose-wire.png"), keyOf(o.b, "beta-only.png")
			apitest.Must(t, o.a.Call("POST", "/api/auth/sys/issue/comment", map[string]any{"id": tk,
				"comment": `<p>photo</p><img data-key="` + mine + `" src="https://expired.example/x">`}))
			v := ticketDetail(t, o.a, tk)
			body := v.Entries[len(v.Entries)-1].Body
			if !strings.Contains(body, `data-key="`+mine+`"`) || strings.Contains(body, "expired.example") || !strings.Contains(body, "src=") {
				t.Errorf("stored image not re-signed: %s", body)
			}
			a := o.a.Call("POST", "/api/auth/sys/issue/comment", map[string]any{"id": tk, "comment": `<p>x</p><img data-key="` + theirs + `">`})
			apitest.WantCode(t, a, apperr.Invalid)
		})

		t.Run("scope: customer B cannot list, read, comment, close or share A's ticket", func(t *testing.T) {
			if got := listIDs(t, o.b, "/api/auth/sys/issue/list", map[string]any{"tab": "all"}); len(got) != 0 {
				t.Errorf("B lists %v", got)
			}
			apitest.WantCode(t, o.b.Call("GET", "/api/auth/sys/issue/detail", map[string]any{"id": tk}), apperr.NotFound)
			apitest.WantCode(t, o.b.Call("POST", "/api/auth/sys/issue/comment", map[string]any{"id": tk, "comment": "<p>x</p>"}), apperr.NotFound)
			apitest.WantCode(t, o.b.Call("POST", "/api/auth/sys/issue/close", map[string]any{"id": tk, "comment": "<p>x</p>"}), apperr.NotFound)
			apitest.WantCode(t, o.b.Call("POST", "/api/auth/sys/issue/share/add", map[string]any{"id": tk, "days": 1}), apperr.NotFound)
			if v := ticketDetail(t, o.a, tk); v.State != "reopen" {
				t.Errorf("B changed A's ticket: %s", v.State)
			}
		})

		t.Run("tabs: open holds open, pending and reopen; closed only closed", func(t *testing.T) {
			if got := listIDs(t, o.a, "/api/auth/sys/issue/list", map[string]any{"tab": "open", "deviceId": o.devA}); len(got) != 1 || got[0] != tk {
				t.Errorf("open tab %v", got)
			}
			if got := listIDs(t, o.a, "/api/auth/sys/issue/list", map[string]any{"tab": "closed"}); len(got) != 0 {
				t.Errorf("closed tab %v", got)
			}
			if got := listIDs(t, o.a, "/api/auth/sys/issue/list", map[string]any{"tab": "all", "text": "again"}); len(got) != 1 {
				t.Errorf("text filter %v", got)
			}
		})

		t.Run("a site-limited user sees only the tickets of their sites", func(t *testing.T) {
			r := o.root
			site2 := id(t, r.Call("POST", "/api/auth/sys/site/add", map[string]any{"customerId": o.custA, "name": "Alpha Nanshan", "code": "A-NS"}))
			dev2 := id(t, r.Call("POST", "/api/auth/sys/dev/basic/add", map[string]any{"sn": "ALPHA-0009", "name": "Alpha 9", "modelId": o.model, "siteId": site2}))
			tk2 := id(t, add(o.a, map[string]any{"deviceId": dev2}))
			rid := id(t, r.Call("POST", "/api/auth/sys/role/add", map[string]any{"name": "site engineer", "customerId": o.custA}))
			apitest.Must(t, r.Call("POST", "/api/auth/sys/role/auth/menu", map[string]any{"id": rid, "keys": append([]string{"auth_device", "auth_device_list"}, ticketKeys...)}))
			apitest.Must(t, r.Call("POST", "/api/auth/sys/role/auth/data", map[string]any{"id": rid, "customerAccess": 1, "siteAccess": 1,
				"webSshLevel": 5, "cfgReadLevel": 5, "cfgWriteLevel": 5, "cfgDownloadLevel": 5, "paramLevel": 5, "docLevel": 5, "attachLevel": 5}))
			k := r.Key()
			uid := id(t, r.Call("POST", "/api/auth/sys/user/add", map[string]any{"userName": "alpha_site_eng", "keyId": k.KeyID,
				"password": k.NewPassword(t, "Ticket#Pass123"), "roleId": rid, "customerId": o.custA}))
			apitest.Must(t, r.Call("POST", "/api/auth/sys/user/assign", map[string]any{"id": uid, "customerIds": []int64{o.custA}, "siteIds": []int64{site2}}))
			eng := o.env.Client().MustLogin("alpha_site_eng", "Ticket#Pass123")
			if got := listIDs(t, eng, "/api/auth/sys/issue/list", map[string]any{"tab": "all"}); len(got) != 1 || got[0] != tk2 {
				t.Errorf("site-limited user lists %v, want only %d", got, tk2)
			}
			apitest.WantCode(t, eng.Call("GET", "/api/auth/sys/issue/detail", map[string]any{"id": tk}), apperr.NotFound)
			apitest.WantCode(t, add(eng, map[string]any{"category": 4}), apperr.Invalid) // needs one of their sites
			id(t, add(eng, map[string]any{"category": 4, "siteId": site2}))
		})

		t.Run("anonymous share: a valid token reads and comments; revoked, expired and unknown answer alike; bad tokens are rate limited", func(t *testing.T) {
			var made struct {
				ID    int64
				URL   string
				Token string
			}
			apitest.Must(t, o.a.Call("POST", "/api/auth/sys/issue/share/add", map[string]any{"id": tk, "days": 7})).Into(t, &made)
			if len(made.Token) != 32 || !strings.Contains(made.URL, "/share/issue?token="+made.Token) {
				t.Fatalf("share %+v", made)
			}
			anon := o.env.Client()
			var shared struct {
				Title, State, DeviceSN string
				Entries                []struct{ Kind, Anonymous, Body string }
			}
			apitest.Must(t, anon.Call("POST", "/api/unauth/issue/share/detail", map[string]any{"token": made.Token})).Into(t, &shared)
			if shared.Title != "Connector 1 faulted again" || shared.DeviceSN != "ALPHA-0001" || shared.State != "reopen" {
				t.Fatalf("shared %+v", shared)
			}
			if strings.Contains(string(anon.Call("POST", "/api/unauth/issue/share/detail", map[string]any{"token": made.Token}).Data), "Alpha Charging") {
				t.Errorf("the share shows the customer's name")
			}
			apitest.WantCode(t, anon.Call("POST", "/api/unauth/issue/share/comment", map[string]any{"token": made.Token, "name": " ", "comment": "<p>hi</p>"}), apperr.Invalid)
			apitest.WantCode(t, anon.Call("POST", "/api/unauth/issue/share/comment", map[string]any{"token": made.Token, "name": strings.Repeat("n", 51), "comment": "<p>hi</p>"}), apperr.Invalid)
			apitest.WantCode(t, anon.Call("POST", "/api/unauth/issue/share/comment", map[string]any{"token": made.Token, "name": "Visitor", "comment": "<p> </p>"}), apperr.Invalid)
			apitest.WantCode(t, anon.Call("POST", "/api/unauth/issue/share/comment", map[string]any{"token": made.Token, "name": "Visitor", "comment": `<img data-key="images/x/y.png">`}), apperr.Invalid)
			apitest.Must(t, anon.Call("POST", "/api/unauth/issue/share/comment", map[string]any{"token": made.Token, "name": "Site guard", "comment": `<p>seen it<script>x()</script></p>`}))
			v := ticketDetail(t, o.a, tk)
			last := v.Entries[len(v.Entries)-1]
			if last.Kind != "comment" || last.Anonymous != "Site guard" || strings.Contains(last.Body, "script") {
				t.Fatalf("visitor comment %+v", last)
			}

			gone := func(token string) string {
				t.Helper()
				a := anon.Call("POST", "/api/unauth/issue/share/detail", map[string]any{"token": token})
				apitest.WantCode(t, a, apperr.NotFound)
				return a.Message
			}
			unknown := gone("0123456789abcdef0123456789abcdef")
			var expired struct{ Token string }
			apitest.Must(t, o.a.Call("POST", "/api/auth/sys/issue/share/add", map[string]any{"id": tk, "days": 1})).Into(t, &expired)
			if _, err := d.Exec(ctx, `UPDATE ticket_share SET expires_at = ? WHERE id = (SELECT MAX(id) FROM ticket_share)`, db.NowMS()-1000); err != nil {
				t.Fatal(err)
			}
			if m := gone(expired.Token); m != unknown {
				t.Errorf("expired %q differs from unknown %q", m, unknown)
			}
			apitest.Must(t, o.a.Call("POST", "/api/auth/sys/issue/share/revoke", map[string]any{"id": made.ID}))
			if m := gone(made.Token); m != unknown {
				t.Errorf("revoked %q differs from unknown %q", m, unknown)
			}
			apitest.WantCode(t, anon.Call("POST", "/api/unauth/issue/share/comment", map[string]any{"token": made.Token, "name": "Visitor", "comment": "<p>late</p>"}), apperr.NotFound)
			var shares []struct{ Revoked, Expired bool }
			apitest.Must(t, o.a.Call("POST", "/api/auth/sys/issue/share/list", map[string]any{"id": tk})).Into(t, &shares)
			if len(shares) != 2 || !shares[0].Expired || !shares[1].Revoked {
				t.Errorf("shares %+v", shares)
			}
			if got := ticketKinds(ticketDetail(t, o.a, tk)); !strings.Contains(got, "share,") || !strings.HasSuffix(got, "unshare") {
				t.Errorf("shares are not in the process: %s", got)
			}
			limited := false
			for i := 0; i < 15 && !limited; i++ {
				limited = anon.Call("POST", "/api/unauth/issue/share/detail", map[string]any{"token": "ffffffffffffffffffffffffffffffff"}).Code == apperr.RateLimited
			}
			if !limited {
				t.Errorf("unknown tokens are never rate limited")
			}
		})
	})
}
