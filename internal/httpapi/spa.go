package httpapi

import (
	"io"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"
)

// spaHandler serves the built console. Files under assets/ carry content hashes in their names
// and are cached for a year; every other path that is not a file gets index.html (client-side
// routing), never cached so a new release is picked up at once. Paths starting with a dot
// (.vite/manifest.json, the build's chunk graph) are not served.
//
// The build writes name.br and name.gz next to each script and style sheet
// (web/scripts/compress.mjs); a request that accepts one of them gets it (see serveAsset).
func spaHandler(ui fs.FS) http.Handler {
	if ui == nil {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			_, _ = w.Write([]byte("chargeops was built without the console (build tag noui); the API is at /api/.\n"))
		})
	}
	files := http.FileServerFS(ui)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := strings.TrimPrefix(path.Clean(r.URL.Path), "/")
		if name != "" && name != "index.html" && !strings.HasPrefix(name, ".") {
			if st, err := fs.Stat(ui, name); err == nil && !st.IsDir() {
				if strings.HasPrefix(name, "assets/") {
					w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
				} else {
					w.Header().Set("Cache-Control", "public, max-age=3600")
				}
				if !serveAsset(w, r, ui, name) {
					files.ServeHTTP(w, r)
				}
				return
			}
		}
		index, err := fs.ReadFile(ui, "index.html")
		if err != nil {
			http.Error(w, "console not built", http.StatusNotFound)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-cache")
		_, _ = w.Write(index)
	})
}

// precompressed are the encodings the build writes, in the order preferred when the client
// accepts both equally.
var precompressed = []variant{{"br", ".br"}, {"gzip", ".gz"}}

type variant struct{ encoding, suffix string }

// serveAsset answers with a precompressed copy of name when one exists and the request accepts
// its encoding; it reports false when the plain file should be served instead.
func serveAsset(w http.ResponseWriter, r *http.Request, ui fs.FS, name string) bool {
	var variants bool
	accepted := acceptedEncodings(r.Header.Get("Accept-Encoding"))
	var best *variant
	bestQ := 0.0
	for i, p := range precompressed {
		if _, err := fs.Stat(ui, name+p.suffix); err != nil {
			continue
		}
		variants = true
		if q := accepted.q(p.encoding); q > bestQ {
			best, bestQ = &precompressed[i], q
		}
	}
	if variants {
		w.Header().Add("Vary", "Accept-Encoding")
	}
	if best == nil {
		return false
	}
	f, err := ui.Open(name + best.suffix)
	if err != nil {
		return false
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return false
	}
	ctype := mime.TypeByExtension(path.Ext(name))
	if ctype == "" {
		ctype = "application/octet-stream"
	}
	h := w.Header()
	h.Set("Content-Type", ctype)
	h.Set("Content-Encoding", best.encoding)
	h.Set("Content-Length", strconv.FormatInt(st.Size(), 10))
	// Hashed, immutable names: no validators or ranges; a partial request gets the whole file.
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = io.Copy(w, f)
	}
	return true
}

// acceptEncoding maps a coding (lower case) to its quality; "*" covers the codings not named.
type acceptEncoding map[string]float64

// acceptedEncodings parses an Accept-Encoding header (RFC 9110 §12.5.3). A coding without a
// q parameter has quality 1; q=0 means "not acceptable".
func acceptedEncodings(header string) acceptEncoding {
	out := acceptEncoding{}
	for _, part := range strings.Split(header, ",") {
		coding, params, _ := strings.Cut(part, ";")
		coding = strings.ToLower(strings.TrimSpace(coding))
		if coding == "" {
			continue
		}
		q := 1.0
		for _, p := range strings.Split(params, ";") {
			k, v, ok := strings.Cut(strings.TrimSpace(p), "=")
			if !ok || !strings.EqualFold(strings.TrimSpace(k), "q") {
				continue
			}
			f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err != nil || f < 0 || f > 1 {
				f = 0 // a malformed weight accepts nothing rather than guessing
			}
			q = f
		}
		out[coding] = q
	}
	return out
}

// q is the quality the client gives coding: its own entry, else the "*" entry, else 0.
func (a acceptEncoding) q(coding string) float64 {
	if q, ok := a[coding]; ok {
		return q
	}
	if coding == "gzip" {
		if q, ok := a["x-gzip"]; ok {
			return q
		}
	}
	return a["*"]
}
