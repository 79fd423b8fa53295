// Package openapi is chargeops' API for third-party applications (docs/openapi.md): the
// signature every request carries and every webhook delivery is sent with, the guard that checks
// it (timestamp window, one-time nonce across nodes, per-application rate limits), and the
// request log with its statistics. The v1 endpoints themselves are routes of internal/httpapi
// that call the same services as the console, as the application's bound user.
package openapi

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Headers of a signed request (and of a webhook delivery).
const (
	HeaderAppID     = "X-App-Id"
	HeaderTimestamp = "X-Timestamp" // unix seconds
	HeaderNonce     = "X-Nonce"     // 16-64 characters of A-Z a-z 0-9 - _
	HeaderSignature = "X-Signature" // lowercase hex HMAC-SHA256
)

// Algorithm is the first line of the string to sign.
const Algorithm = "CHARGEOPS-HMAC-SHA256"

// Request is what a signature covers.
type Request struct {
	Method    string // upper case
	Path      string // as sent, percent-encoded (URL.EscapedPath)
	RawQuery  string // as sent; canonicalised here
	Body      []byte
	AppID     string
	Timestamp string
	Nonce     string
}

// StringToSign is the canonical text the HMAC covers, lines joined by "\n":
//
//	CHARGEOPS-HMAC-SHA256
//	<METHOD>
//	<path>
//	<canonical query>
//	<hex SHA-256 of the body>
//	<appId>
//	<timestamp>
//	<nonce>
//
// The canonical query is every key=value pair, each side percent-encoded as RFC 3986 (letters,
// digits and -._~ stay; a space is %20), sorted by key then value, joined by "&".
func StringToSign(r Request) string {
	sum := sha256.Sum256(r.Body)
	return strings.Join([]string{Algorithm, strings.ToUpper(r.Method), r.Path, CanonicalQuery(r.RawQuery),
		hex.EncodeToString(sum[:]), r.AppID, r.Timestamp, r.Nonce}, "\n")
}

// Sign is the signature of r under secret: lowercase hex HMAC-SHA256 of StringToSign.
func Sign(secret []byte, r Request) string {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte(StringToSign(r)))
	return hex.EncodeToString(m.Sum(nil))
}

// Verify reports whether sig is r's signature under one of the secrets (nil ones skipped),
// comparing in constant time.
func Verify(sig string, r Request, secrets ...[]byte) bool {
	got, err := hex.DecodeString(strings.ToLower(sig))
	if err != nil || len(got) != sha256.Size {
		return false
	}
	text := []byte(StringToSign(r))
	ok := false
	for _, s := range secrets {
		if s == nil {
			continue
		}
		m := hmac.New(sha256.New, s)
		m.Write(text)
		// Every secret is tried, so the time does not tell which one matched.
		if hmac.Equal(m.Sum(nil), got) {
			ok = true
		}
	}
	return ok
}

// CanonicalQuery sorts and re-encodes a raw query string (see StringToSign). A pair that does
// not decode is kept as sent, so it still counts but cannot be confused with another.
func CanonicalQuery(raw string) string {
	if raw == "" {
		return ""
	}
	type kv struct{ k, v string }
	var pairs []kv
	for part := range strings.SplitSeq(raw, "&") {
		if part == "" {
			continue
		}
		k, v, _ := strings.Cut(part, "=")
		if dk, err := url.QueryUnescape(k); err == nil {
			k = dk
		}
		if dv, err := url.QueryUnescape(v); err == nil {
			v = dv
		}
		pairs = append(pairs, kv{encode(k), encode(v)})
	}
	sort.Slice(pairs, func(i, j int) bool {
		if pairs[i].k != pairs[j].k {
			return pairs[i].k < pairs[j].k
		}
		return pairs[i].v < pairs[j].v
	})
	out := make([]string, len(pairs))
	for i, p := range pairs {
		out[i] = p.k + "=" + p.v
	}
	return strings.Join(out, "&")
}

// CheckQuery refuses a query the signature would not pin (docs/openapi.md, "The query"): the
// canonical query sorts pairs and decodes them, so a key sent twice (which of its values a
// handler reads depends on the order) and a pair whose encoding is not the canonical one
// ("%3B" and ";", "%41" and "A", "+" and "%20", an escape that does not decode) could mean one
// thing to the signature and another to the handler. Every pair must be sent as the canonical
// query writes it (RFC 3986: A-Z a-z 0-9 - . _ ~ as they are, every other byte as %XX in upper
// case), each key once; the pairs may come in any order.
func CheckQuery(raw string) error {
	if raw == "" {
		return nil
	}
	seen := map[string]bool{}
	for part := range strings.SplitSeq(raw, "&") {
		k, v, _ := strings.Cut(part, "=")
		key, ok := canonicalPart(k)
		if !ok || key == "" {
			return ErrQueryEncoding.With(map[string]any{"key": shown(k)})
		}
		if _, ok := canonicalPart(v); !ok {
			return ErrQueryEncoding.With(map[string]any{"key": shown(key)})
		}
		if seen[key] {
			return ErrQueryDuplicate.With(map[string]any{"key": shown(key)})
		}
		seen[key] = true
	}
	return nil
}

// shown is a key as a refusal names it: at most 64 bytes of valid UTF-8.
func shown(k string) string {
	if len(k) > 64 {
		k = k[:64]
	}
	return strings.ToValidUTF8(k, "")
}

// canonicalPart decodes one side of a query pair and reports whether it was sent in the
// canonical encoding.
func canonicalPart(s string) (string, bool) {
	d, err := url.PathUnescape(s)
	return d, err == nil && encode(d) == s
}

// encode percent-encodes s as RFC 3986: unreserved characters stay, every other byte is %XX
// in upper case.
func encode(s string) string {
	const hexd = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '_' || c == '.' || c == '~' {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hexd[c>>4])
		b.WriteByte(hexd[c&15])
	}
	return b.String()
}

// ValidNonce reports whether n has the nonce's form: 16 to 64 characters of A-Z a-z 0-9 - _.
func ValidNonce(n string) bool {
	if len(n) < 16 || len(n) > 64 {
		return false
	}
	for i := 0; i < len(n); i++ {
		c := n[i]
		if !('A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// SignRequest sets the four signature headers on req, whose body is body, with a fresh random
// nonce and the timestamp at: the one signer of the OpenAPI's clients and of webhook
// deliveries. An empty path (a receiver URL without one) is signed as "/", as it is sent.
func SignRequest(req *http.Request, body []byte, appID string, secret []byte, at time.Time) {
	nonce := make([]byte, 16)
	_, _ = rand.Read(nonce)
	path := req.URL.EscapedPath()
	if path == "" {
		path = "/"
	}
	r := Request{Method: req.Method, Path: path, RawQuery: req.URL.RawQuery, Body: body, AppID: appID,
		Timestamp: strconv.FormatInt(at.Unix(), 10), Nonce: hex.EncodeToString(nonce)}
	req.Header.Set(HeaderAppID, r.AppID)
	req.Header.Set(HeaderTimestamp, r.Timestamp)
	req.Header.Set(HeaderNonce, r.Nonce)
	req.Header.Set(HeaderSignature, Sign(secret, r))
}
