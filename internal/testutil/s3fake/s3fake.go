// Package s3fake starts an in-process S3 server (gofakes3 with its in-memory back-end) for
// tests of the s3 storage back-end. gofakes3 does not check signatures; this server checks the
// AWS Signature V4 of presigned URLs (expiry and signature), as S3 does, so tests can see a
// link refused after its expiry or when tampered with.
package s3fake

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
)

// Credentials of the fake server.
const (
	AccessKey = "chargeops-test"
	SecretKey = "chargeops-test-secret"
	Region    = "oss-cn-hongkong"
)

// Server is a running fake S3.
type Server struct {
	URL  string // http://127.0.0.1:port
	Host string // 127.0.0.1:port
}

// Start runs a fake S3 until the test ends.
func Start(t testing.TB) *Server {
	t.Helper()
	fake := gofakes3.New(s3mem.New(), gofakes3.WithAutoBucket(true))
	h := fake.Server()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Has("X-Amz-Signature") && !presignedValid(r, SecretKey) {
			w.Header().Set("Content-Type", "application/xml")
			w.WriteHeader(http.StatusForbidden)
			_, _ = w.Write([]byte(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code><Message>Request has expired or the signature does not match</Message></Error>`))
			return
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return &Server{URL: srv.URL, Host: strings.TrimPrefix(srv.URL, "http://")}
}

// presignedValid checks a presigned request (query-string SigV4, unsigned payload).
func presignedValid(r *http.Request, secret string) bool {
	q := r.URL.Query()
	sig := q.Get("X-Amz-Signature")
	at, err := time.Parse("20060102T150405Z", q.Get("X-Amz-Date"))
	if err != nil {
		return false
	}
	exp, err := strconv.Atoi(q.Get("X-Amz-Expires"))
	if err != nil || time.Now().After(at.Add(time.Duration(exp)*time.Second)) {
		return false
	}
	cred := strings.Split(q.Get("X-Amz-Credential"), "/") // key/date/region/service/aws4_request
	if len(cred) != 5 {
		return false
	}
	q.Del("X-Amz-Signature")
	signed := q.Get("X-Amz-SignedHeaders")
	var headers strings.Builder
	for _, name := range strings.Split(signed, ";") {
		v := r.Header.Get(name)
		if name == "host" {
			v = r.Host
		}
		headers.WriteString(name + ":" + strings.Join(strings.Fields(v), " ") + "\n")
	}
	canonical := strings.Join([]string{r.Method, r.URL.EscapedPath(), strings.ReplaceAll(q.Encode(), "+", "%20"),
		headers.String(), signed, "UNSIGNED-PAYLOAD"}, "\n")
	sum := sha256.Sum256([]byte(canonical))
	toSign := "AWS4-HMAC-SHA256\n" + q.Get("X-Amz-Date") + "\n" + strings.Join(cred[1:], "/") + "\n" + hex.EncodeToString(sum[:])
	key := []byte("AWS4" + secret)
	for _, part := range []string{cred[1], cred[2], cred[3], "aws4_request", toSign} {
		m := hmac.New(sha256.New, key)
		m.Write([]byte(part))
		key = m.Sum(nil)
	}
	return hmac.Equal([]byte(hex.EncodeToString(key)), []byte(sig))
}
