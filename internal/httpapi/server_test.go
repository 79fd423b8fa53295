package httpapi

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"testing/fstest"

	"chargeops/internal/apperr"
)

func TestOpenAPIDescribesEveryRoute(t *testing.T) {
	t.Parallel()
	s := New(Deps{}, Options{}, nil)
	var doc struct {
		Paths map[string]map[string]struct {
			Summary        string   `json:"summary"`
			PermissionKeys []string `json:"x-permission-keys"`
			RequestBody    any      `json:"requestBody"`
		} `json:"paths"`
	}
	served := httptest.NewRecorder()
	s.ServeHTTP(served, httptest.NewRequest("GET", "/api/openapi.json", nil))
	if err := json.Unmarshal(served.Body.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	t.Run("every route is in the served document with its summary and keys", func(t *testing.T) {
		for _, rt := range s.Routes() {
			op, ok := doc.Paths[rt.Path][strings.ToLower(rt.Method)]
			if !ok {
				t.Errorf("%s %s is registered but missing from /api/openapi.json", rt.Method, rt.Path)
				continue
			}
			if op.Summary == "" || (rt.Access == Keys && len(op.PermissionKeys) == 0) {
				t.Errorf("%s %s lacks a summary or its permission keys in the document", rt.Method, rt.Path)
			}
		}
	})
	t.Run("the committed api/openapi.json is the one served", func(t *testing.T) {
		committed, err := os.ReadFile("../../api/openapi.json")
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(committed, s.OpenAPI()) {
			t.Error("api/openapi.json is stale: run `make openapi` and commit it")
		}
	})
}

func TestEveryAuthRouteNamesKnownKeys(t *testing.T) {
	t.Parallel()
	s := New(Deps{}, Options{}, nil)
	isV1 := func(rt Route) bool { return strings.HasPrefix(rt.Path, "/openapi/v1/") }
	// Each rule over every route, so a failure names the rule and the route that breaks it.
	for _, rule := range []struct {
		name  string
		holds func(rt Route) bool
	}{
		{"/openapi/v1 routes and only they are signed", func(rt Route) bool { return isV1(rt) == rt.Signed }},
		{"/api/auth routes need a session, /api/unauth routes none", func(rt Route) bool {
			return isV1(rt) || strings.HasPrefix(rt.Path, "/api/auth/") != (rt.Access == Public)
		}},
		{"an OpenAPI route needs a signature", func(rt Route) bool { return !isV1(rt) || rt.Access != Public }},
		{"key access names its keys", func(rt Route) bool { return rt.Access != Keys || len(rt.Keys) > 0 }},
	} {
		t.Run(rule.name, func(t *testing.T) {
			for _, rt := range s.Routes() {
				if !rule.holds(rt) {
					t.Errorf("%s %s", rt.Method, rt.Path)
				}
			}
		})
	}
}

func TestPanicBecomesAnErrorAnswer(t *testing.T) {
	t.Parallel()
	s := New(Deps{}, Options{DefaultLocale: "en-US"}, nil)
	s.mux.HandleFunc("GET /api/unauth/test-panic", func(http.ResponseWriter, *http.Request) { panic("boom") })
	rec := httptest.NewRecorder()
	req := httptest.NewRequest("GET", "/api/unauth/test-panic", nil)
	req.Header.Set("Accept-Language", "zh-CN,zh;q=0.9")
	s.ServeHTTP(rec, req)
	var env Envelope
	if err := json.Unmarshal(rec.Body.Bytes(), &env); err != nil {
		t.Fatal(err)
	}
	if env.Code != apperr.Internal || env.Message != "系统错误，请稍后再试" {
		t.Fatalf("%+v", env)
	}
}

func TestBadBodiesAreRefused(t *testing.T) {
	t.Parallel()
	s := New(Deps{}, Options{DefaultLocale: "en-US", MaxBodyBytes: 1024}, nil)
	for name, req := range map[string]*http.Request{
		"too large":  httptest.NewRequest("POST", "/api/unauth/login", strings.NewReader(`{"userName":"`+strings.Repeat("a", 2000)+`"}`)),
		"not json":   httptest.NewRequest("POST", "/api/unauth/login", strings.NewReader(`{"userName":`)),
		"form post":  httptest.NewRequest("POST", "/api/unauth/login", strings.NewReader(`userName=a`)),
		"wrong type": httptest.NewRequest("POST", "/api/unauth/password/valid", strings.NewReader(`{"token": 5}`)),
	} {
		t.Run(name, func(t *testing.T) {
			if name != "form post" {
				req.Header.Set("Content-Type", "application/json")
			} else {
				req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			}
			rec := httptest.NewRecorder()
			s.ServeHTTP(rec, req)
			var env Envelope
			if err := json.Unmarshal(rec.Body.Bytes(), &env); err != nil {
				t.Fatal(err)
			}
			if env.Code != apperr.Invalid || env.Message == "" {
				t.Errorf("%s: %+v", name, env)
			}
		})
	}
}

func TestConsoleIsServedForEveryNonAPIPath(t *testing.T) {
	t.Parallel()
	ui := fstest.MapFS{
		"index.html":         {Data: []byte("<html>console</html>")},
		"assets/app-1a2b.js": {Data: []byte("console.log(1)")},
		"faviconEN.svg":      {Data: []byte("<svg/>")},
	}
	s := New(Deps{}, Options{UI: ui}, nil)
	get := func(path string) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
		return rec
	}
	for _, p := range []string{"/", "/login", "/manage/site/detail/42", "/no/such/page"} {
		t.Run("the console answers "+p+" uncached", func(t *testing.T) {
			rec := get(p)
			if rec.Code != 200 || !strings.Contains(rec.Body.String(), "console") || rec.Header().Get("Cache-Control") != "no-cache" {
				t.Errorf("%s: %d %q %q", p, rec.Code, rec.Body.String(), rec.Header().Get("Cache-Control"))
			}
		})
	}
	t.Run("a hashed asset is cached for good", func(t *testing.T) {
		if rec := get("/assets/app-1a2b.js"); !strings.Contains(rec.Header().Get("Cache-Control"), "immutable") {
			t.Errorf("hashed asset not cached: %q", rec.Header().Get("Cache-Control"))
		}
	})
	t.Run("an unknown API path answers 404 with code 10002", func(t *testing.T) {
		if rec := get("/api/no/such"); rec.Code != 404 || !strings.Contains(rec.Body.String(), `"code":10002`) {
			t.Errorf("unknown API path: %d %s", rec.Code, rec.Body.String())
		}
	})
}
