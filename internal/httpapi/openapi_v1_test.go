package httpapi_test

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lorenzodonini/ocpp-go/ocpp1.6/core"
	ocppws "github.com/lorenzodonini/ocpp-go/ws"

	"chargeops/internal/apperr"
	"chargeops/internal/config"
	"chargeops/internal/db"
	"chargeops/internal/fleet/fleettest"
	"chargeops/internal/testutil"
	"chargeops/internal/testutil/apitest"
)

// thirdParty is an OpenAPI client written from the published description alone (the served
// /openapi/v1/openapi.json and docs/openapi.md), not from chargeops' code: it builds the
// canonical request itself.
type thirdParty struct {
	base, appID, secret string
	// now and nonce, when set, replace the clock and the random nonce (replay and stale tests).
	now   func() time.Time
	nonce string
	// from, when set, is the client address the request comes from (X-Forwarded-For on a node
	// that trusts it).
	from string
	// lang, when set, is the Accept-Language of the request.
	lang string
}

type v1Answer struct {
	HTTP    int
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data"`
	sent    *http.Request
	body    []byte
}

// rfc3986 percent-encodes everything but A-Z a-z 0-9 - _ . ~ (a space is %20).
func rfc3986(s string) string {
	return strings.ReplaceAll(url.QueryEscape(s), "+", "%20")
}

func (c *thirdParty) sign(method, path, rawQuery string, body []byte, ts, nonce string) string {
	var pairs []string
	q, _ := url.ParseQuery(rawQuery)
	for k, vs := range q {
		for _, v := range vs {
			pairs = append(pairs, rfc3986(k)+"="+rfc3986(v))
		}
	}
	sort.Strings(pairs) // keys and values are encoded alike: sorting "k=v" sorts by key, then value
	sum := sha256.Sum256(body)
	text := strings.Join([]string{"CHARGEOPS-HMAC-SHA256", method, path, strings.Join(pairs, "&"), hex.EncodeToString(sum[:]), c.appID, ts, nonce}, "\n")
	m := hmac.New(sha256.New, []byte(c.secret))
	m.Write([]byte(text))
	return hex.EncodeToString(m.Sum(nil))
}

// do sends a signed call; the query goes in canonical form, as the guide asks.
func (c *thirdParty) do(t *testing.T, method, path string, query url.Values, body any) v1Answer {
	t.Helper()
	var pairs []string
	for k, vs := range query {
		for _, v := range vs {
			pairs = append(pairs, rfc3986(k)+"="+rfc3986(v))
		}
	}
	sort.Strings(pairs)
	return c.doRaw(t, method, path, strings.Join(pairs, "&"), body)
}

// doRaw sends a call with the query exactly as given, signed as the guide says.
func (c *thirdParty) doRaw(t *testing.T, method, path, rawQuery string, body any) v1Answer {
	t.Helper()
	var raw []byte
	if body != nil {
		raw, _ = json.Marshal(body)
	}
	target := c.base + path
	if rawQuery != "" {
		target += "?" + rawQuery
	}
	req, err := http.NewRequest(method, target, bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	if c.now != nil {
		now = c.now()
	}
	nonce := c.nonce
	if nonce == "" {
		b := make([]byte, 12)
		_, _ = rand.Read(b)
		nonce = hex.EncodeToString(b)
	}
	ts := strconv.FormatInt(now.Unix(), 10)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-App-Id", c.appID)
	req.Header.Set("X-Timestamp", ts)
	req.Header.Set("X-Nonce", nonce)
	req.Header.Set("X-Signature", c.sign(method, req.URL.EscapedPath(), req.URL.RawQuery, raw, ts, nonce))
	if c.from != "" {
		req.Header.Set("X-Forwarded-For", c.from)
	}
	if c.lang != "" {
		req.Header.Set("Accept-Language", c.lang)
	}
	return send(t, req, raw)
}

func send(t *testing.T, req *http.Request, raw []byte) v1Answer {
	t.Helper()
	req.Body = io.NopCloser(bytes.NewReader(raw))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var a v1Answer
	b, _ := io.ReadAll(resp.Body)
	if err := json.Unmarshal(b, &a); err != nil {
		t.Fatalf("%s %s: not an envelope: %.200s", req.Method, req.URL.Path, b)
	}
	a.HTTP, a.sent, a.body = resp.StatusCode, req, raw
	return a
}

func (a v1Answer) want(t *testing.T, code, status int) v1Answer {
	t.Helper()
	if a.Code != code || a.HTTP != status {
		t.Fatalf("%s %s: got code %d HTTP %d %q, want code %d HTTP %d", a.sent.Method, a.sent.URL.Path, a.Code, a.HTTP, a.Message, code, status)
	}
	return a
}

// resetCharger is an OCPP charge point from ocpp-go (a client chargeops did not write) that
// accepts a Reset and remembers it.
type resetCharger struct {
	fleettest.AcceptingCharger
	mu     sync.Mutex
	resets []string
}

func (h *resetCharger) OnReset(r *core.ResetRequest) (*core.ResetConfirmation, error) {
	h.mu.Lock()
	h.resets = append(h.resets, string(r.Type))
	h.mu.Unlock()
	return core.NewResetConfirmation(core.ResetStatusAccepted), nil
}

// newApp makes an application bound to user as root and returns a third-party client of it.
func newThirdParty(t *testing.T, o *org, name string, userID int64) *thirdParty {
	t.Helper()
	var made struct{ AppID, AppSecret string }
	apitest.Must(t, o.root.Call("POST", "/api/auth/sys/application/add", map[string]any{"name": name, "userId": userID})).Into(t, &made)
	return &thirdParty{base: o.env.URL, appID: made.AppID, secret: made.AppSecret}
}

func TestOpenAPIThirdPartyClient(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		o := newOrg(t, d)
		app := newThirdParty(t, o, "Alpha billing", o.userA)

		t.Run("the published document describes the signature and the endpoints", func(t *testing.T) {
			resp, err := http.Get(o.env.URL + "/openapi/v1/openapi.json")
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var doc struct {
				Info  struct{ Description string }
				Paths map[string]map[string]any
			}
			if err := json.NewDecoder(resp.Body).Decode(&doc); err != nil {
				t.Fatal(err)
			}
			for _, p := range []string{"/openapi/v1/devices", "/openapi/v1/devices/status", "/openapi/v1/sites", "/openapi/v1/events",
				"/openapi/v1/commands", "/openapi/v1/commands/detail", "/openapi/v1/protocol-logs", "/openapi/v1/devices/series", "/openapi/v1/sessions"} {
				if doc.Paths[p] == nil {
					t.Errorf("document lacks %s", p)
				}
			}
			for p := range doc.Paths {
				if !strings.HasPrefix(p, "/openapi/v1/") {
					t.Errorf("the v1 document lists a console path %s", p)
				}
			}
			for _, s := range []string{"CHARGEOPS-HMAC-SHA256", "X-Nonce", "300 s", "RFC 3986"} {
				if !strings.Contains(doc.Info.Description, s) {
					t.Errorf("description does not explain %q", s)
				}
			}
		})

		t.Run("lists its bound user's devices and never another customer's", func(t *testing.T) {
			var l struct {
				List []struct {
					ID int64
					SN string
				}
			}
			a := app.do(t, "GET", "/openapi/v1/devices", url.Values{"pageSize": {"100"}}, nil).want(t, 0, 200)
			if err := json.Unmarshal(a.Data, &l); err != nil {
				t.Fatal(err)
			}
			if len(l.List) != 1 || l.List[0].SN != "ALPHA-0001" {
				t.Fatalf("devices: %+v", l.List)
			}
			app.do(t, "GET", "/openapi/v1/devices/detail", url.Values{"id": {fmt.Sprint(o.devB)}}, nil).want(t, apperr.NotFound, 404)
			app.do(t, "GET", "/openapi/v1/devices/status", url.Values{"id": {fmt.Sprint(o.devB)}}, nil).want(t, apperr.NotFound, 404)
			a = app.do(t, "POST", "/openapi/v1/commands", nil, map[string]any{"deviceIds": []int64{o.devB}, "controlType": 1})
			if a.Code == 0 {
				t.Fatalf("a command to customer B's device was sent: %s", a.Data)
			}
			var sites struct{ List []struct{ Name string } }
			a = app.do(t, "GET", "/openapi/v1/sites", url.Values{"pageSize": {"100"}}, nil).want(t, 0, 200)
			_ = json.Unmarshal(a.Data, &sites)
			if len(sites.List) != 1 || sites.List[0].Name != "Alpha Futian" {
				t.Fatalf("sites: %+v", sites.List)
			}
		})

		t.Run("reboots a charger and reads the command's result", func(t *testing.T) {
			h := &resetCharger{}
			cp := fleettest.ChargePoint("ALPHA-0001", ocppws.NewClient())
			cp.SetCoreHandler(h)
			if err := cp.Start("ws" + strings.TrimPrefix(o.env.URL, "http") + "/ocpp"); err != nil {
				t.Fatal(err)
			}
			defer cp.Stop()
			if _, err := cp.BootNotification("AC-7kW", "Test"); err != nil {
				t.Fatal(err)
			}
			waitOnline(t, app, o.devA)
			var sent struct{ Commands []struct{ ID int64 } }
			a := app.do(t, "POST", "/openapi/v1/commands", nil, map[string]any{"deviceIds": []int64{o.devA}, "controlType": 1}).want(t, 0, 200)
			if err := json.Unmarshal(a.Data, &sent); err != nil || len(sent.Commands) != 1 || sent.Commands[0].ID == 0 {
				t.Fatalf("send: %s", a.Data)
			}
			var cmd struct{ Result int }
			deadline := time.Now().Add(10 * time.Second)
			for cmd.Result != 2 && time.Now().Before(deadline) {
				time.Sleep(100 * time.Millisecond)
				a = app.do(t, "GET", "/openapi/v1/commands/detail", url.Values{"id": {fmt.Sprint(sent.Commands[0].ID)}}, nil).want(t, 0, 200)
				_ = json.Unmarshal(a.Data, &cmd)
			}
			h.mu.Lock()
			defer h.mu.Unlock()
			if cmd.Result != 2 || len(h.resets) != 1 || h.resets[0] != "Soft" {
				t.Fatalf("result %d, charger got %v", cmd.Result, h.resets)
			}
			// The change is in the action log as the bound user's.
			var logs struct {
				List []struct{ Action, UserName string }
			}
			apitest.Must(t, o.root.Call("POST", "/api/auth/sys/logs/action/list", map[string]any{"pageSize": 100})).Into(t, &logs)
			found := false
			for _, l := range logs.List {
				found = found || (l.Action == "POST /openapi/v1/commands" && l.UserName == "alpha_admin")
			}
			if !found {
				t.Errorf("no action-log row for the OpenAPI command: %+v", logs.List)
			}
		})

		t.Run("replayed, stale and wrongly signed requests are refused, each with its code", func(t *testing.T) {
			ok := app.do(t, "GET", "/openapi/v1/sites", nil, nil).want(t, 0, 200)
			// The very same request again: its nonce was used.
			send(t, ok.sent.Clone(context.Background()), ok.body).want(t, apperr.NonceReplayed, 401)
			stale := *app
			stale.now = func() time.Time { return time.Now().Add(-301 * time.Second) }
			stale.do(t, "GET", "/openapi/v1/sites", nil, nil).want(t, apperr.TimestampSkewed, 401)
			wrong := *app
			wrong.secret = "not-the-secret"
			wrong.do(t, "GET", "/openapi/v1/sites", nil, nil).want(t, apperr.SignatureMismatch, 401)
			// A changed query or body after signing breaks the signature.
			req := ok.sent.Clone(context.Background())
			req.URL.RawQuery = "pageSize=100"
			req.Header.Set("X-Nonce", "another-nonce-0001")
			send(t, req, nil).want(t, apperr.SignatureMismatch, 401)
			unknown := *app
			unknown.appID = "app00000000000000000000000000000000"
			unknown.do(t, "GET", "/openapi/v1/sites", nil, nil).want(t, apperr.AppUnknown, 401)
			bare, err := http.NewRequest("GET", o.env.URL+"/openapi/v1/sites", nil)
			if err != nil {
				t.Fatal(err)
			}
			send(t, bare, nil).want(t, apperr.SignatureMissing, 401)
		})

		t.Run("a disabled application and a rotated secret", func(t *testing.T) {
			var l struct {
				List []struct {
					ID    int64
					AppID string
				}
			}
			apitest.Must(t, o.root.Call("POST", "/api/auth/sys/application/list", map[string]any{"pageSize": 100})).Into(t, &l)
			var id int64
			for _, x := range l.List {
				if x.AppID == app.appID {
					id = x.ID
				}
			}
			apitest.Must(t, o.root.Call("POST", "/api/auth/sys/application/status", map[string]any{"ids": []int64{id}, "status": 0}))
			app.do(t, "GET", "/openapi/v1/sites", nil, nil).want(t, apperr.AppDisabled, 403)
			apitest.Must(t, o.root.Call("POST", "/api/auth/sys/application/status", map[string]any{"ids": []int64{id}, "status": 1}))
			var rotated struct{ AppSecret string }
			apitest.Must(t, o.root.Call("POST", "/api/auth/sys/application/secret/rotate", map[string]any{"id": id})).Into(t, &rotated)
			app.do(t, "GET", "/openapi/v1/sites", nil, nil).want(t, 0, 200) // the previous secret, in its grace period
			fresh := *app
			fresh.secret = rotated.AppSecret
			fresh.do(t, "GET", "/openapi/v1/sites", nil, nil).want(t, 0, 200)
		})

		t.Run("every call is in the request log", func(t *testing.T) {
			o.env.App.RequestLog.Flush()
			var calls, refused int
			if err := d.QueryRow(context.Background(), `SELECT COUNT(*), SUM(CASE WHEN code <> 0 THEN 1 ELSE 0 END) FROM openapi_request r
				JOIN application a ON a.id = r.app_id WHERE a.app_id = ?`, app.appID).Scan(&calls, &refused); err != nil {
				t.Fatal(err)
			}
			var statCalls int
			if err := d.QueryRow(context.Background(), `SELECT COALESCE(SUM(calls), 0) FROM openapi_stat_day s JOIN application a ON a.id = s.app_id WHERE a.app_id = ?`,
				app.appID).Scan(&statCalls); err != nil {
				t.Fatal(err)
			}
			if calls < 10 || refused < 5 || statCalls != calls {
				t.Fatalf("request log: %d calls, %d refused, statistics %d", calls, refused, statCalls)
			}
		})
	})
}

// waitOnline waits until the device is online as the OpenAPI shows it.
func waitOnline(t *testing.T, app *thirdParty, id int64) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		var st struct{ Online bool }
		a := app.do(t, "GET", "/openapi/v1/devices/status", url.Values{"id": {fmt.Sprint(id)}}, nil)
		_ = json.Unmarshal(a.Data, &st)
		if st.Online {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("device %d not online", id)
}

func TestOpenAPINonceOnceAcrossNodes(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		o := newOrg(t, d)
		app := newThirdParty(t, o, "Alpha billing", o.userA)
		second := apitest.New(t, d, nil) // another node on the same database
		ok := app.do(t, "GET", "/openapi/v1/devices", nil, nil).want(t, 0, 200)
		replay := ok.sent.Clone(context.Background())
		u, err := url.Parse(second.URL)
		if err != nil {
			t.Fatal(err)
		}
		replay.URL.Host = u.Host
		replay.Host = u.Host
		send(t, replay, nil).want(t, apperr.NonceReplayed, 401)
	})
}

func TestOpenAPILimits(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		o := newOrgOn(t, apitest.New(t, d, func(c *config.Config) { c.OpenAPIRate = 5 }))
		app := newThirdParty(t, o, "Alpha billing", o.userA)
		other := newThirdParty(t, o, "Alpha energy", o.userA)

		t.Run("an application's calls beyond its budget get 429 and 40007", func(t *testing.T) {
			for i := 0; i < 5; i++ {
				app.do(t, "GET", "/openapi/v1/sites", nil, nil).want(t, 0, 200)
			}
			a := app.do(t, "GET", "/openapi/v1/sites", nil, nil).want(t, apperr.AppRateLimited, 429)
			if a.Message == "" {
				t.Error("no message")
			}
			other.do(t, "GET", "/openapi/v1/sites", nil, nil).want(t, 0, 200) // each application has its own budget
		})

		t.Run("a disabled bound user stops its applications", func(t *testing.T) {
			third := newThirdParty(t, o, "Beta link", o.userB)
			third.do(t, "GET", "/openapi/v1/sites", nil, nil).want(t, 0, 200)
			apitest.Must(t, o.root.Call("POST", "/api/auth/sys/user/status", map[string]any{"ids": []int64{o.userB}, "status": 0}))
			third.do(t, "GET", "/openapi/v1/sites", nil, nil).want(t, apperr.AppUserDisabled, 403)
		})
	})
}
