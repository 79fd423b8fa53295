package httpapi

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"testing/fstest"
)

func gzipped(t *testing.T, s string) []byte {
	t.Helper()
	var b bytes.Buffer
	z, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
	if _, err := z.Write([]byte(s)); err != nil {
		t.Fatal(err)
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// The console's assets go out precompressed: brotli, then gzip, as the request accepts them
// (q-values honoured, q=0 refused), with the original type, Vary and the cache headers kept.
func TestSPAServesPrecompressedAssets(t *testing.T) {
	t.Parallel()
	const js = "console.log('chargeops');console.log('chargeops');console.log('chargeops');"
	const css = "body{margin:0}"
	// Brotli's bytes are not decoded here (no brotli reader in the standard library): a marker
	// stands in for them, so the test sees which file was chosen.
	brMarker := []byte("brotli bytes of app.js")
	ui := fstest.MapFS{
		"index.html":             {Data: []byte("<!doctype html><div id=root></div>")},
		"assets/app-1a2b.js":     {Data: []byte(js)},
		"assets/app-1a2b.js.gz":  {Data: gzipped(t, js)},
		"assets/app-1a2b.js.br":  {Data: brMarker},
		"assets/only-gz.css":     {Data: []byte(css)},
		"assets/only-gz.css.gz":  {Data: gzipped(t, css)},
		"assets/plain.svg":       {Data: []byte("<svg/>")},
		".vite/manifest.json":    {Data: []byte(`{"index.html":{}}`)},
		"favicon.ico":            {Data: []byte{0, 0, 1, 0}},
		"assets/nested/deep.txt": {Data: []byte("x")},
	}
	h := spaHandler(ui)

	tests := []struct {
		name, path, accept string
		wantEncoding       string // "" = the plain file
		wantType           string
		wantVary           bool
	}{
		{"brotli preferred when both accepted", "/assets/app-1a2b.js", "gzip, deflate, br, zstd", "br", "text/javascript; charset=utf-8", true},
		{"gzip when brotli is not accepted", "/assets/app-1a2b.js", "gzip, deflate", "gzip", "text/javascript; charset=utf-8", true},
		{"q=0 refuses brotli", "/assets/app-1a2b.js", "br;q=0, gzip", "gzip", "text/javascript; charset=utf-8", true},
		{"higher q wins", "/assets/app-1a2b.js", "br;q=0.5, gzip;q=0.8", "gzip", "text/javascript; charset=utf-8", true},
		{"q parameter spelled with spaces and upper case", "/assets/app-1a2b.js", "BR ; Q=0.9 , gzip;q=0.1", "br", "text/javascript; charset=utf-8", true},
		{"wildcard accepts brotli", "/assets/app-1a2b.js", "*", "br", "text/javascript; charset=utf-8", true},
		{"wildcard does not undo an explicit q=0", "/assets/app-1a2b.js", "br;q=0, *;q=0.5", "gzip", "text/javascript; charset=utf-8", true},
		{"everything refused: the plain file", "/assets/app-1a2b.js", "br;q=0, gzip;q=0", "", "text/javascript; charset=utf-8", true},
		{"no header: the plain file", "/assets/app-1a2b.js", "", "", "text/javascript; charset=utf-8", true},
		{"identity only: the plain file", "/assets/app-1a2b.js", "identity", "", "text/javascript; charset=utf-8", true},
		{"only gzip was written", "/assets/only-gz.css", "br, gzip", "gzip", "text/css; charset=utf-8", true},
		{"x-gzip is gzip", "/assets/only-gz.css", "x-gzip", "gzip", "text/css; charset=utf-8", true},
		{"nothing precompressed: plain, no Vary", "/assets/plain.svg", "br, gzip", "", "image/svg+xml", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest("GET", tc.path, nil)
			if tc.accept != "" {
				req.Header.Set("Accept-Encoding", tc.accept)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			res := rec.Result()
			if res.StatusCode != http.StatusOK {
				t.Fatalf("status %d", res.StatusCode)
			}
			if got := res.Header.Get("Content-Encoding"); got != tc.wantEncoding {
				t.Errorf("Content-Encoding = %q, want %q", got, tc.wantEncoding)
			}
			if got := res.Header.Get("Content-Type"); got != tc.wantType {
				t.Errorf("Content-Type = %q, want %q", got, tc.wantType)
			}
			if got := res.Header.Get("Vary") == "Accept-Encoding"; got != tc.wantVary {
				t.Errorf("Vary = %q, want Accept-Encoding: %v", res.Header.Get("Vary"), tc.wantVary)
			}
			if got := res.Header.Get("Cache-Control"); got != "public, max-age=31536000, immutable" {
				t.Errorf("Cache-Control = %q", got)
			}
			body, _ := io.ReadAll(res.Body)
			if res.Header.Get("Content-Length") != "" && res.Header.Get("Content-Length") != strconv.Itoa(len(body)) {
				t.Errorf("Content-Length %s for %d bytes", res.Header.Get("Content-Length"), len(body))
			}
			want := ui[tc.path[1:]].Data
			switch tc.wantEncoding {
			case "br":
				want = brMarker
			case "gzip":
				z, err := gzip.NewReader(bytes.NewReader(body))
				if err != nil {
					t.Fatalf("not gzip: %v", err)
				}
				if body, err = io.ReadAll(z); err != nil {
					t.Fatal(err)
				}
			}
			if !bytes.Equal(body, want) {
				t.Errorf("body %q, want %q", body, want)
			}
		})
	}

	t.Run("HEAD answers the headers of the compressed file", func(t *testing.T) {
		req := httptest.NewRequest("HEAD", "/assets/app-1a2b.js", nil)
		req.Header.Set("Accept-Encoding", "gzip")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Header().Get("Content-Encoding") != "gzip" || rec.Header().Get("Content-Length") != strconv.Itoa(len(ui["assets/app-1a2b.js.gz"].Data)) {
			t.Errorf("headers %v", rec.Header())
		}
		if rec.Body.Len() != 0 {
			t.Errorf("HEAD sent a body")
		}
	})

	t.Run("client routes and the build manifest answer index.html", func(t *testing.T) {
		for _, p := range []string{"/manage/device/list", "/.vite/manifest.json", "/"} {
			req := httptest.NewRequest("GET", p, nil)
			req.Header.Set("Accept-Encoding", "br, gzip")
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Body.String() != string(ui["index.html"].Data) || rec.Header().Get("Cache-Control") != "no-cache" || rec.Header().Get("Content-Encoding") != "" {
				t.Errorf("%s: %q %v", p, rec.Body.String(), rec.Header())
			}
		}
	})

	t.Run("files outside assets keep the short cache", func(t *testing.T) {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", "/favicon.ico", nil))
		if rec.Code != http.StatusOK || rec.Header().Get("Cache-Control") != "public, max-age=3600" {
			t.Errorf("%d %v", rec.Code, rec.Header())
		}
	})
}
