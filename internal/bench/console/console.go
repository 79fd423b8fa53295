// Package console is a Go client of the chargeops API as the browser console uses it: the
// sign-in with fields sealed by RSA-OAEP and a one-time nonce (docs/api.md, "Passwords on the
// wire"), the session and CSRF cookies, and the {code, message, data} envelope. `chargeops
// bench` signs in with it to time remote commands; internal/testutil/apitest seals with Seal.
package console

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"time"

	"chargeops/internal/passwd"
)

// Cookie and header names (docs/api.md, "Cookies and CSRF").
const (
	csrfCookie = "chargeops_csrf"
	csrfHeader = "X-CSRF-Token"
)

// Seal encrypts text with the login key's public key (an SPKI PEM RSA key) as the browser's
// Web Crypto RSA-OAEP/SHA-256 does, and returns it base64-encoded.
func Seal(publicKeyPEM, text string) (string, error) {
	block, _ := pem.Decode([]byte(publicKeyPEM))
	if block == nil {
		return "", errors.New("login key: the public key is not PEM")
	}
	pub, err := x509.ParsePKIXPublicKey(block.Bytes)
	if err != nil {
		return "", fmt.Errorf("login key: %w", err)
	}
	rsaPub, ok := pub.(*rsa.PublicKey)
	if !ok {
		return "", errors.New("login key: not an RSA key")
	}
	ct, err := rsa.EncryptOAEP(sha256.New(), rand.Reader, rsaPub, []byte(text), nil)
	if err != nil {
		return "", fmt.Errorf("login key: %w", err)
	}
	return base64.StdEncoding.EncodeToString(ct), nil
}

// Answer is a decoded envelope.
type Answer struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data"`
}

// Err is the answer as an error when its code is not 0 (success).
func (a Answer) Err() error {
	if a.Code == 0 {
		return nil
	}
	return &CodeError{Code: a.Code, Message: a.Message}
}

// CodeError is an API answer whose code is not success.
type CodeError struct {
	Code    int
	Message string
}

func (e *CodeError) Error() string { return fmt.Sprintf("code %d: %s", e.Code, e.Message) }

// Client is one signed-in browser.
type Client struct {
	base string
	http *http.Client
}

// New returns a client of the node at base (http://host:port) with an empty cookie jar.
func New(base string) *Client {
	jar, _ := cookiejar.New(nil)
	return &Client{base: strings.TrimSuffix(base, "/"), http: &http.Client{Jar: jar, Timeout: 30 * time.Second}}
}

// Base is the node's URL.
func (c *Client) Base() string { return c.base }

// loginKey is the answer of GET /api/unauth/login/key.
type loginKey struct {
	KeyID     string `json:"keyId"`
	PublicKey string `json:"publicKey"`
	Nonce     string `json:"nonce"`
}

// Login signs in as the console does (the node must run without the login captcha).
func (c *Client) Login(ctx context.Context, user, password string) error {
	var k loginKey
	if err := c.Call(ctx, http.MethodGet, "/api/unauth/login/key", nil, &k); err != nil {
		return fmt.Errorf("login key: %w", err)
	}
	name, err := Seal(k.PublicKey, user)
	if err != nil {
		return err
	}
	pw, err := Seal(k.PublicKey, k.Nonce+":"+passwd.Digest(password))
	if err != nil {
		return err
	}
	body := map[string]any{"keyId": k.KeyID, "userName": name, "password": pw}
	if err := c.Call(ctx, http.MethodPost, "/api/unauth/login", body, nil); err != nil {
		return fmt.Errorf("login as %s: %w", user, err)
	}
	return c.acceptPrivacy(ctx)
}

// acceptPrivacy accepts the current privacy policy when it is owed, as the console's modal
// does; until then the node answers every other session call with 20014.
func (c *Client) acceptPrivacy(ctx context.Context) error {
	var info struct {
		Privacy struct {
			NeedConfirm             bool   `json:"needConfirm"`
			NewPrivacyPolicyVersion string `json:"newPrivacyPolicyVersion"`
		} `json:"privacy"`
	}
	if err := c.Call(ctx, http.MethodPost, "/api/unauth/info", nil, &info); err != nil {
		return fmt.Errorf("session info: %w", err)
	}
	if !info.Privacy.NeedConfirm {
		return nil
	}
	if err := c.Call(ctx, http.MethodPost, "/api/auth/sys/user/owner/privacy", map[string]any{"version": info.Privacy.NewPrivacyPolicyVersion}, nil); err != nil {
		return fmt.Errorf("accept the privacy policy: %w", err)
	}
	return nil
}

// Call sends a JSON request (for GET, body's fields become the query) and decodes the
// envelope's data into out (when not nil). A code other than success is a *CodeError.
func (c *Client) Call(ctx context.Context, method, path string, body, out any) error {
	a, err := c.Do(ctx, method, path, body)
	if err != nil {
		return err
	}
	if err := a.Err(); err != nil {
		return err
	}
	if out != nil && len(a.Data) > 0 {
		if err := json.Unmarshal(a.Data, out); err != nil {
			return fmt.Errorf("%s %s: decode %.200s: %w", method, path, a.Data, err)
		}
	}
	return nil
}

// Do sends a request and returns the envelope, whatever its code.
func (c *Client) Do(ctx context.Context, method, path string, body any) (Answer, error) {
	var a Answer
	target := c.base + path
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return a, err
		}
		if method == http.MethodGet {
			q, err := query(b)
			if err != nil {
				return a, err
			}
			target += "?" + q
		} else {
			rd = bytes.NewReader(b)
		}
	}
	req, err := http.NewRequestWithContext(ctx, method, target, rd)
	if err != nil {
		return a, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept-Language", "en-US")
	if csrf := c.cookie(csrfCookie); csrf != "" {
		req.Header.Set(csrfHeader, csrf)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return a, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return a, fmt.Errorf("%s %s: %w", method, path, err)
	}
	if err := json.Unmarshal(raw, &a); err != nil {
		return a, fmt.Errorf("%s %s: not an envelope (HTTP %d): %.200q", method, path, resp.StatusCode, raw)
	}
	return a, nil
}

// Get sends a plain GET outside the API (e.g. /healthz) and returns the HTTP status.
func (c *Client) Get(ctx context.Context, path string) (int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+path, nil)
	if err != nil {
		return 0, err
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return 0, err
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode, nil
}

func (c *Client) cookie(name string) string {
	u, err := url.Parse(c.base)
	if err != nil {
		return ""
	}
	for _, ck := range c.http.Jar.Cookies(u) {
		if ck.Name == name {
			return ck.Value
		}
	}
	return ""
}

// query turns a JSON object's top-level fields into a query string.
func query(obj []byte) (string, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(obj, &m); err != nil {
		return "", fmt.Errorf("GET parameters must be an object: %w", err)
	}
	q := url.Values{}
	for k, v := range m {
		var s string
		if json.Unmarshal(v, &s) != nil {
			s = string(v)
		}
		q.Set(k, s)
	}
	return q.Encode(), nil
}
