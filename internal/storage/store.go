// Package storage keeps uploaded objects (images, documents, firmware, diagnostics) in one
// Store with two back-ends: local disk under <data-dir>/objects (URLs of chargeops itself,
// signed with HMAC-SHA256) and S3-compatible object storage (presigned URLs). The upload rules
// and object naming are in rules.go and keys.go; the upload records in service.go
// (docs/storage.md).
package storage

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"chargeops/internal/setting"
)

// ErrNotFound: no object under the key.
var ErrNotFound = errors.New("storage: object not found")

// Info describes a stored object.
type Info struct {
	Key         string
	Size        int64
	ContentType string
	ModTime     time.Time
}

// Target is where and how a browser uploads one object: send Method to URL with Headers (and,
// for a form upload, Fields).
type Target struct {
	Method  string            `json:"method"`
	URL     string            `json:"url"`
	Headers map[string]string `json:"headers"`
	Fields  map[string]string `json:"fields"`
	Expires time.Time         `json:"-"`
}

// UploadSpec is what an upload target allows.
type UploadSpec struct {
	Key          string
	TTL          time.Duration
	ContentType  string
	DownloadName string // sent as Content-Disposition: attachment; filename=...
	Kind         string // the upload rule the content must pass (local back-end: checked on PUT)
	MaxBytes     int64
}

// PutSpec describes an object the server stores itself (firmware, diagnostics).
type PutSpec struct {
	Key          string
	Size         int64 // -1: unknown
	ContentType  string
	DownloadName string
}

// Store is one object store.
type Store interface {
	// Put stores r under spec.Key, replacing nothing half-written: a failed Put leaves no object.
	Put(ctx context.Context, r io.Reader, spec PutSpec) (Info, error)
	// Open returns the object's bytes (the caller closes them) and its info.
	Open(ctx context.Context, key string) (io.ReadCloser, Info, error)
	Stat(ctx context.Context, key string) (Info, error)
	Delete(ctx context.Context, key string) error
	// ReadHead returns at most the first n bytes of the object.
	ReadHead(ctx context.Context, key string, n int) ([]byte, error)
	// SignedGetURL is a download link valid for ttl; with downloadName it downloads as
	// an attachment of that name.
	SignedGetURL(ctx context.Context, key string, ttl time.Duration, downloadName string) (string, error)
	// UploadTarget is a signed upload for one object.
	UploadTarget(ctx context.Context, spec UploadSpec) (Target, error)
	// Promote moves the object at from to to (replacing it); ErrNotFound when from is absent.
	Promote(ctx context.Context, from, to string) error
	// List returns at most max objects whose keys start with prefix.
	List(ctx context.Context, prefix string, max int) ([]Info, error)
	// Region and Bucket name the storage in the credential answers.
	Region() string
	Bucket() string
}

// Config chooses and configures the back-end.
type Config struct {
	Backend string // "local" (default) or "s3"
	DataDir string // local: objects live under DataDir/objects
	BaseURL string // local: the node's public URL the signed links start with ("": relative links)
	// S3-compatible storage.
	Endpoint, Region, Bucket, AccessKey, SecretKey string
	Insecure, PathStyle                            bool
}

// SecretSetting is the setting that holds the local back-end's URL-signing key, so that every
// node signs alike.
const SecretSetting = "storage.url_secret"

// Open builds the configured store.
func Open(ctx context.Context, cfg Config, settings *setting.Store) (Store, error) {
	switch cfg.Backend {
	case "", "local":
		secret, err := settings.Secret(ctx, SecretSetting)
		if err != nil {
			return nil, fmt.Errorf("storage: secret: %w", err)
		}
		return NewLocal(filepath.Join(cfg.DataDir, "objects"), secret, cfg.BaseURL, cfg.Region), nil
	case "s3":
		return NewS3(ctx, cfg)
	}
	return nil, fmt.Errorf("storage: unknown back-end %q (local or s3)", cfg.Backend)
}

// StagingPrefix is where browsers' uploads land (docs/storage.md, "Staging"): an upload target
// names StagingKey(objectKey), never the object itself, and only oss/confirm moves a checked
// object to its key. Upload folders cannot start with a dot, so no upload is ever named so.
const StagingPrefix = ".staging/"

// StagingKey is the key an upload of objectKey is sent to.
func StagingKey(objectKey string) string { return StagingPrefix + objectKey }

// UploadKeyOf is the object key a staging key stands for; ok is false for any other key.
func UploadKeyOf(stagingKey string) (string, bool) {
	k, ok := strings.CutPrefix(stagingKey, StagingPrefix)
	return k, ok && k != ""
}

var keySegment = regexp.MustCompile(`^[A-Za-z0-9._-]+$`)

// ValidKey reports whether key is a safe object key: slash-separated segments of letters,
// digits, '.', '_' and '-', none of them "." or "..", at most 512 bytes.
func ValidKey(key string) bool {
	if key == "" || len(key) > 512 {
		return false
	}
	for _, seg := range strings.Split(key, "/") {
		if seg == "." || seg == ".." || !keySegment.MatchString(seg) {
			return false
		}
	}
	return true
}

// Disposition is a Content-Disposition value ("attachment" or "inline") naming the file.
func Disposition(typ, name string) string {
	if name == "" {
		return typ
	}
	if v := mime.FormatMediaType(typ, map[string]string{"filename": name}); v != "" {
		return v
	}
	return typ
}

// ServedDisposition is how a download is served: an attachment with the download name when
// one is set; inline only for JPEG and PNG; any other type as an attachment named after the key.
func ServedDisposition(key, downloadName string) string {
	if downloadName != "" {
		return Disposition("attachment", downloadName)
	}
	switch Ext(key) {
	case "jpg", "jpeg", "png":
		return "inline"
	}
	return Disposition("attachment", path.Base(key))
}

// CleanDownloadName drops path parts and control characters from a download name and bounds
// its length (200 bytes).
func CleanDownloadName(name string) string {
	name = strings.ReplaceAll(name, "\\", "/")
	name = name[strings.LastIndex(name, "/")+1:]
	name = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || r == '"' {
			return -1
		}
		return r
	}, name)
	name = strings.TrimSpace(name)
	for len(name) > 200 {
		_, size := utf8.DecodeLastRuneInString(name)
		name = name[:len(name)-size]
	}
	return name
}
