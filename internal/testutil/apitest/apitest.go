// Package apitest starts a whole chargeops node on a test database and talks to it like the
// browser does: cookies, the CSRF header, and passwords sealed with RSA-OAEP and a nonce.
package apitest

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"testing"
	"time"

	"chargeops/internal/app"
	"chargeops/internal/bench/console"
	"chargeops/internal/config"
	"chargeops/internal/db"
	"chargeops/internal/openapi"
	"chargeops/internal/passwd"
)

// Env is a running node.
type Env struct {
	T   testing.TB
	App *app.App
	DB  *db.DB
	URL string
}

// RootName and RootPassword are the super admin every Env starts with.
const (
	RootName     = "root_admin"
	RootPassword = "Root#Pass123"
)

// New starts a node on d. Captcha is off unless mutate turns it on.
func New(t testing.TB, d *db.DB, mutate func(*config.Config)) *Env {
	t.Helper()
	srv := httptest.NewUnstartedServer(nil)
	t.Cleanup(srv.Close)
	cfg := config.Default()
	// the fixtures register keyless chargers (fleettest.Device); tests of the rule turn it on
	cfg.RequireDeviceKeys = false
	cfg.Addr = srv.Listener.Addr().String() // the node's real, loopback address: mailed links point there
	cfg.Captcha = false
	cfg.MQTTAddr = "127.0.0.1:0" // Serve's embedded broker: a free port, beside a broker on 1883
	cfg.DataDir = t.TempDir()    // stored objects (firmware, uploads) stay out of the source tree
	cfg.LoginLockFor = time.Minute
	if mutate != nil {
		mutate(&cfg)
	}
	a, err := app.New(context.Background(), cfg, d, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.RequestLog.Close) // before the database closes (cleanups run last-in first-out)
	if _, _, err := a.Users.UpsertRoot(context.Background(), RootName, RootPassword); err != nil {
		t.Fatal(err)
	}
	srv.Config.Handler = a.Server
	srv.Start()
	return &Env{T: t, App: a, DB: d, URL: srv.URL}
}

// Answer is a decoded envelope.
type Answer struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data"`
	HTTP    int             `json:"-"`
}

// Into decodes Data.
func (a Answer) Into(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal(a.Data, v); err != nil {
		t.Fatalf("decode %s: %v", a.Data, err)
	}
}

// Client is one browser.
type Client struct {
	env    *Env
	http   *http.Client
	Locale string
	// NoCSRF leaves the CSRF header out (to test that it is required).
	NoCSRF bool
	// AppID and AppSecret make the client an application: every request is signed
	// (docs/openapi.md) and carries no session.
	AppID, AppSecret string
}

// AppClient is an application calling the OpenAPI with its appId and secret.
func (e *Env) AppClient(appID, secret string) *Client {
	c := e.Client()
	c.AppID, c.AppSecret = appID, secret
	return c
}

// NewApp makes an application bound to userID (as the caller, who must be allowed to) and
// returns its client.
func (e *Env) NewApp(caller *Client, name string, userID int64) *Client {
	e.T.Helper()
	var made struct{ AppID, AppSecret string }
	Must(e.T, caller.Call("POST", "/api/auth/sys/application/add", map[string]any{"name": name, "userId": userID})).Into(e.T, &made)
	return e.AppClient(made.AppID, made.AppSecret)
}

// Client returns a browser with an empty cookie jar.
func (e *Env) Client() *Client {
	jar, _ := cookiejar.New(nil)
	return &Client{env: e, http: &http.Client{Jar: jar, Timeout: 30 * time.Second}, Locale: "en-US"}
}

// Cookie returns a cookie's value.
func (c *Client) Cookie(name string) string {
	u, _ := url.Parse(c.env.URL)
	for _, ck := range c.http.Jar.Cookies(u) {
		if ck.Name == name {
			return ck.Value
		}
	}
	return ""
}

// Call sends a JSON request (GET: body becomes the query) and decodes the envelope.
func (c *Client) Call(method, path string, body any) Answer {
	c.env.T.Helper()
	raw := c.CallRaw(method, path, body)
	var a Answer
	if err := json.Unmarshal(raw.Body, &a); err != nil {
		c.env.T.Fatalf("%s %s: not an envelope (%d, %s): %.200q", method, path, raw.Status, raw.ContentType, raw.Body)
	}
	a.HTTP = raw.Status
	return a
}

// Raw is an answer as it came: an envelope, a file or an event stream.
type Raw struct {
	Status      int
	ContentType string
	Body        []byte
}

// CallRaw sends a request like Call and returns the answer undecoded (downloads).
func (c *Client) CallRaw(method, path string, body any) Raw {
	c.env.T.Helper()
	var rd io.Reader
	var sent []byte
	target := c.env.URL + path
	if method == http.MethodGet && body != nil {
		q := url.Values{}
		b, _ := json.Marshal(body)
		var m map[string]any
		_ = json.Unmarshal(b, &m)
		for k, v := range m {
			q.Set(k, jsonScalar(v))
		}
		target += "?" + q.Encode()
	} else if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			c.env.T.Fatal(err)
		}
		rd, sent = bytes.NewReader(b), b
	}
	req, err := http.NewRequest(method, target, rd)
	if err != nil {
		c.env.T.Fatal(err)
	}
	if c.AppID != "" {
		openapi.SignRequest(req, sent, c.AppID, []byte(c.AppSecret), time.Now())
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept-Language", c.Locale)
	if csrf := c.Cookie("chargeops_csrf"); csrf != "" && !c.NoCSRF {
		req.Header.Set("X-CSRF-Token", csrf)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		c.env.T.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return Raw{Status: resp.StatusCode, ContentType: resp.Header.Get("Content-Type"), Body: b}
}

func jsonScalar(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case float64:
		b, _ := json.Marshal(x)
		return string(b)
	default:
		b, _ := json.Marshal(x)
		return string(b)
	}
}

// LoginKey is the answer of /api/unauth/login/key.
type LoginKey struct {
	KeyID     string `json:"keyId"`
	PublicKey string `json:"publicKey"`
	Nonce     string `json:"nonce"`
}

// Key fetches a login key with a fresh nonce.
func (c *Client) Key() LoginKey {
	c.env.T.Helper()
	var k LoginKey
	c.Call("GET", "/api/unauth/login/key", nil).Into(c.env.T, &k)
	return k
}

// Encrypt seals text with the key as the browser's Web Crypto RSA-OAEP/SHA-256 does.
func (k LoginKey) Encrypt(t testing.TB, text string) string {
	t.Helper()
	sealed, err := console.Seal(k.PublicKey, text)
	if err != nil {
		t.Fatal(err)
	}
	return sealed
}

// CheckedPassword seals a password that the server checks: nonce:sha256hex(password).
func (k LoginKey) CheckedPassword(t testing.TB, pw string) string {
	return k.Encrypt(t, k.Nonce+":"+passwd.Digest(pw))
}

// NewPassword seals a password that the server sets: nonce:password.
func (k LoginKey) NewPassword(t testing.TB, pw string) string { return k.Encrypt(t, k.Nonce+":"+pw) }

// LoginBody builds the login form.
func (c *Client) LoginBody(name, pw string) map[string]any {
	k := c.Key()
	return map[string]any{"keyId": k.KeyID, "userName": k.Encrypt(c.env.T, name), "password": k.CheckedPassword(c.env.T, pw)}
}

// Login signs in and returns the answer.
func (c *Client) Login(name, pw string) Answer {
	c.env.T.Helper()
	return c.Call("POST", "/api/unauth/login", c.LoginBody(name, pw))
}

// MustLogin signs in and accepts the current privacy policy, as a person at the console does
// before anything else answers (docs/api.md), or fails the test. Login alone leaves it owed.
func (c *Client) MustLogin(name, pw string) *Client {
	c.env.T.Helper()
	if a := c.Login(name, pw); a.Code != 0 {
		c.env.T.Fatalf("login %s: %d %s", name, a.Code, a.Message)
	}
	c.AcceptPrivacy()
	return c
}

// AcceptPrivacy accepts the policy version the session info offers, or fails the test.
func (c *Client) AcceptPrivacy() {
	c.env.T.Helper()
	var info struct {
		Privacy struct {
			NeedConfirm             bool   `json:"needConfirm"`
			NewPrivacyPolicyVersion string `json:"newPrivacyPolicyVersion"`
		} `json:"privacy"`
	}
	Must(c.env.T, c.Call("POST", "/api/unauth/info", nil)).Into(c.env.T, &info)
	if info.Privacy.NeedConfirm {
		Must(c.env.T, c.Call("POST", "/api/auth/sys/user/owner/privacy", map[string]any{"version": info.Privacy.NewPrivacyPolicyVersion}))
	}
}

// Root returns a client signed in as the super admin.
func (e *Env) Root() *Client { return e.Client().MustLogin(RootName, RootPassword) }

// Must fails the test unless the answer is a success, and returns it.
func Must(t testing.TB, a Answer) Answer {
	t.Helper()
	if a.Code != 0 {
		t.Fatalf("want success, got %d %q", a.Code, a.Message)
	}
	return a
}

// WantCode fails the test unless the answer carries code.
func WantCode(t testing.TB, a Answer, code int) {
	t.Helper()
	if a.Code != code {
		t.Fatalf("want code %d, got %d %q", code, a.Code, a.Message)
	}
}

// CreateUser makes a role holding keys and a user with it; it returns the user id and role id.
func (e *Env) CreateUser(root *Client, name, pw string, keys ...string) (userID, roleID int64) {
	e.T.Helper()
	var r struct{ ID int64 }
	Must(e.T, root.Call("POST", "/api/auth/sys/role/add", map[string]any{"name": "role of " + name})).Into(e.T, &r)
	Must(e.T, root.Call("POST", "/api/auth/sys/role/auth/menu", map[string]any{"id": r.ID, "keys": keys}))
	k := root.Key()
	var u struct{ ID int64 }
	Must(e.T, root.Call("POST", "/api/auth/sys/user/add", map[string]any{"userName": name, "keyId": k.KeyID,
		"password": k.NewPassword(e.T, pw), "roleId": r.ID, "email": name + "@example.com"})).Into(e.T, &u)
	return u.ID, r.ID
}
