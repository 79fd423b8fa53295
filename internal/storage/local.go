package storage

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"chargeops/internal/apperr"
)

// ObjectPath is where the local back-end's signed URLs point: PUT uploads, GET downloads
// (routes in internal/httpapi/routes_storage.go).
const ObjectPath = "/api/unauth/oss/object/"

// Local keeps objects as files under a folder and signs URLs of chargeops itself.
type Local struct {
	dir    string
	secret []byte
	base   string
	region string
}

// NewLocal keeps objects under dir (made on the first write); base is the URL the signed links
// start with ("": relative links).
func NewLocal(dir string, secret []byte, base, region string) *Local {
	return &Local{dir: dir, secret: secret, base: strings.TrimRight(base, "/"), region: region}
}

func (l *Local) Region() string { return l.region }
func (l *Local) Bucket() string { return "local" }

func (l *Local) path(key string) (string, error) {
	if !ValidKey(key) {
		return "", ErrNotFound
	}
	return filepath.Join(l.dir, filepath.FromSlash(key)), nil
}

// Put writes into a temporary file beside the target and renames it into place.
func (l *Local) Put(ctx context.Context, r io.Reader, spec PutSpec) (Info, error) {
	p, err := l.path(spec.Key)
	if err != nil {
		return Info{}, fmt.Errorf("storage: invalid key %q", spec.Key)
	}
	n, err := l.write(p, r, func(string, int64, []byte) error { return nil })
	if err != nil {
		return Info{}, err
	}
	return Info{Key: spec.Key, Size: n, ContentType: spec.ContentType, ModTime: time.Now()}, nil
}

// write streams r into a temporary file, lets check look at the name, size and first bytes,
// and only then renames it to p. A failed write or check leaves nothing.
func (l *Local) write(p string, r io.Reader, check func(name string, size int64, head []byte) error) (int64, error) {
	if err := os.MkdirAll(filepath.Dir(p), 0o750); err != nil {
		return 0, fmt.Errorf("storage: %w", err)
	}
	f, err := os.CreateTemp(filepath.Dir(p), ".upload-*")
	if err != nil {
		return 0, fmt.Errorf("storage: %w", err)
	}
	tmp := f.Name()
	defer os.Remove(tmp) // after the rename: a no-op
	head := &headWriter{n: HeadBytes}
	n, err := io.Copy(io.MultiWriter(f, head), r)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return n, err
	}
	if err := check(p, n, head.b); err != nil {
		return n, err
	}
	if err := os.Rename(tmp, p); err != nil {
		return n, fmt.Errorf("storage: %w", err)
	}
	return n, nil
}

type headWriter struct {
	b []byte
	n int
}

func (h *headWriter) Write(p []byte) (int, error) {
	if rest := h.n - len(h.b); rest > 0 {
		h.b = append(h.b, p[:min(rest, len(p))]...)
	}
	return len(p), nil
}

func (l *Local) Open(ctx context.Context, key string) (io.ReadCloser, Info, error) {
	p, err := l.path(key)
	if err != nil {
		return nil, Info{}, err
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, Info{}, notFound(err)
	}
	st, err := f.Stat()
	if err != nil || st.IsDir() {
		f.Close()
		return nil, Info{}, ErrNotFound
	}
	return f, Info{Key: key, Size: st.Size(), ContentType: ContentTypeOf(key), ModTime: st.ModTime()}, nil
}

func (l *Local) Stat(ctx context.Context, key string) (Info, error) {
	p, err := l.path(key)
	if err != nil {
		return Info{}, err
	}
	st, err := os.Stat(p)
	if err != nil || st.IsDir() {
		return Info{}, notFound(err)
	}
	return Info{Key: key, Size: st.Size(), ContentType: ContentTypeOf(key), ModTime: st.ModTime()}, nil
}

func (l *Local) Delete(ctx context.Context, key string) error {
	p, err := l.path(key)
	if err != nil {
		return nil
	}
	if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("storage: delete: %w", err)
	}
	return nil
}

// Promote renames from to to: one atomic step, so a second Promote of the same from finds
// nothing.
func (l *Local) Promote(ctx context.Context, from, to string) error {
	src, err := l.path(from)
	if err != nil {
		return err
	}
	dst, err := l.path(to)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o750); err != nil {
		return fmt.Errorf("storage: promote: %w", err)
	}
	if err := os.Rename(src, dst); err != nil {
		return notFound(err)
	}
	return nil
}

// List walks the files under prefix (the temporary files of writes in progress left out).
func (l *Local) List(ctx context.Context, prefix string, max int) ([]Info, error) {
	root := filepath.Join(l.dir, filepath.FromSlash(prefix))
	var out []Info
	err := filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		if e.IsDir() || strings.HasPrefix(e.Name(), ".upload-") {
			return nil
		}
		if len(out) >= max {
			return fs.SkipAll
		}
		st, err := e.Info()
		if err != nil {
			return nil // removed meanwhile
		}
		rel, err := filepath.Rel(l.dir, p)
		if err != nil {
			return err
		}
		out = append(out, Info{Key: filepath.ToSlash(rel), Size: st.Size(), ContentType: ContentTypeOf(rel), ModTime: st.ModTime()})
		return nil
	})
	if err != nil {
		return out, fmt.Errorf("storage: list %s: %w", prefix, err)
	}
	return out, nil
}

func (l *Local) ReadHead(ctx context.Context, key string, n int) ([]byte, error) {
	rc, _, err := l.Open(ctx, key)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	b, err := io.ReadAll(io.LimitReader(rc, int64(n)))
	return b, err
}

func notFound(err error) error {
	if err == nil || errors.Is(err, fs.ErrNotExist) {
		return ErrNotFound
	}
	return fmt.Errorf("storage: %w", err)
}

// Grant is what a verified signed local URL allows.
type Grant struct {
	Key          string
	ContentType  string
	DownloadName string
	Kind         string
	MaxBytes     int64
}

// Signed query parameters of a local URL.
const (
	qExp  = "exp"
	qSig  = "sig"
	qName = "dn"
	qType = "ct"
	qKind = "kind"
	qMax  = "max"
)

func (l *Local) sign(method string, g Grant, exp int64) string {
	m := hmac.New(sha256.New, l.secret)
	for _, v := range []string{method, g.Key, strconv.FormatInt(exp, 10), g.ContentType, g.DownloadName, g.Kind, strconv.FormatInt(g.MaxBytes, 10)} {
		m.Write([]byte(v))
		m.Write([]byte{0})
	}
	return hex.EncodeToString(m.Sum(nil))
}

func (l *Local) signedURL(method string, g Grant, ttl time.Duration) (string, time.Time) {
	expires := time.Now().Add(ttl)
	exp := expires.Unix()
	q := url.Values{qExp: {strconv.FormatInt(exp, 10)}, qSig: {l.sign(method, g, exp)}}
	if g.DownloadName != "" {
		q.Set(qName, g.DownloadName)
	}
	if g.ContentType != "" {
		q.Set(qType, g.ContentType)
	}
	if g.Kind != "" {
		q.Set(qKind, g.Kind)
	}
	if g.MaxBytes > 0 {
		q.Set(qMax, strconv.FormatInt(g.MaxBytes, 10))
	}
	return l.base + ObjectPath + g.Key + "?" + q.Encode(), expires
}

func (l *Local) SignedGetURL(ctx context.Context, key string, ttl time.Duration, downloadName string) (string, error) {
	if !ValidKey(key) {
		return "", ErrNotFound
	}
	u, _ := l.signedURL("GET", Grant{Key: key, DownloadName: downloadName}, ttl)
	return u, nil
}

func (l *Local) UploadTarget(ctx context.Context, spec UploadSpec) (Target, error) {
	if !ValidKey(spec.Key) {
		return Target{}, fmt.Errorf("storage: invalid key %q", spec.Key)
	}
	g := Grant{Key: spec.Key, ContentType: spec.ContentType, DownloadName: spec.DownloadName, Kind: spec.Kind, MaxBytes: spec.MaxBytes}
	u, expires := l.signedURL("PUT", g, spec.TTL)
	h := map[string]string{}
	if spec.ContentType != "" {
		h["Content-Type"] = spec.ContentType
	}
	if spec.DownloadName != "" {
		h["Content-Disposition"] = Disposition("attachment", spec.DownloadName)
	}
	return Target{Method: "PUT", URL: u, Headers: h, Fields: map[string]string{}, Expires: expires}, nil
}

// Verify checks a signed local URL for method ("GET" or "PUT") and key; a refusal is
// apperr.ErrNoPermission (expired, tampered, or made for another method or key).
func (l *Local) Verify(method, key string, q url.Values) (Grant, error) {
	g := Grant{Key: key, ContentType: q.Get(qType), DownloadName: q.Get(qName), Kind: q.Get(qKind)}
	exp, err := strconv.ParseInt(q.Get(qExp), 10, 64)
	if err != nil || time.Now().Unix() > exp || !ValidKey(key) {
		return g, apperr.ErrNoPermission
	}
	if m := q.Get(qMax); m != "" {
		if g.MaxBytes, err = strconv.ParseInt(m, 10, 64); err != nil {
			return g, apperr.ErrNoPermission
		}
	}
	if !hmac.Equal([]byte(l.sign(method, g, exp)), []byte(q.Get(qSig))) {
		return g, apperr.ErrNoPermission
	}
	return g, nil
}

// Receive stores a browser's upload granted by g: at most g.MaxBytes, and content that passes
// the rule of g.Kind; otherwise nothing is kept and the rule's message is the error.
func (l *Local) Receive(ctx context.Context, g Grant, body io.Reader) (Info, error) {
	rule, ok := RuleOf(g.Kind)
	if !ok {
		return Info{}, apperr.ErrNoPermission
	}
	limit := g.MaxBytes
	if limit <= 0 || limit > rule.MaxBytes {
		limit = rule.MaxBytes
	}
	p, err := l.path(g.Key)
	if err != nil {
		return Info{}, err
	}
	n, err := l.write(p, io.LimitReader(body, limit+1), func(_ string, size int64, head []byte) error {
		if size > limit {
			return rule.TooBig()
		}
		return rule.Check(g.Key, size, head)
	})
	if err != nil {
		return Info{}, err
	}
	return Info{Key: g.Key, Size: n, ContentType: ContentTypeOf(g.Key), ModTime: time.Now()}, nil
}
