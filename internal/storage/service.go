package storage

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/ratelimit"
)

// Service hands out upload targets and signed links for the console and keeps the record of
// every uploaded object (the upload table).
type Service struct {
	db      *db.DB
	Store   Store
	limiter *ratelimit.Limiter
	linkTTL time.Duration
}

// DefaultLinkTTL is how long a signed link or upload target is valid (spec: 3600 s).
const DefaultLinkTTL = time.Hour

// NewService serves uploads from store; linkTTL 0 is DefaultLinkTTL.
func NewService(d *db.DB, store Store, limiter *ratelimit.Limiter, linkTTL time.Duration) *Service {
	if linkTTL <= 0 {
		linkTTL = DefaultLinkTTL
	}
	return &Service{db: d, Store: store, limiter: limiter, linkTTL: linkTTL}
}

// LinkTTL is the validity of signed links.
func (s *Service) LinkTTL() time.Duration { return s.linkTTL }

// WriteInput asks for one upload.
type WriteInput struct {
	Kind             string `json:"kind"`             // image (default), file, video, legacy, icon
	FileName         string `json:"fileName"`         // the original name; a folder prefix picks the folder ("docs/a.pdf")
	DownloadFileName string `json:"downloadFileName"` // optional: downloads get this name (Content-Disposition)
}

// Credential is the spec's storage-credential shape. No real storage secret is handed out:
// for both back-ends the credential is the signed upload target (docs/api.md, "Uploads").
type Credential struct {
	AccessKeyID     string `json:"accessKeyId"`
	AccessKeySecret string `json:"accessKeySecret"` // always empty
	SecurityToken   string `json:"securityToken"`   // the signature (local) or the presigned query (s3)
	Expiration      string `json:"expiration"`      // RFC 3339, when the target ends
	Region          string `json:"region"`
	Bucket          string `json:"bucket"`
}

// WriteGrant is a credential with the object's key and where to send it.
type WriteGrant struct {
	Credential
	ObjectKey string `json:"objectKey"`
	MaxBytes  int64  `json:"maxBytes"`
	Upload    Target `json:"upload"`
}

// Write names a new object for the caller's upload, records it (incomplete) and returns the
// signed upload target, which names the object's staging key (confirm.go).
func (s *Service) Write(ctx context.Context, p *access.Principal, in WriteInput) (WriteGrant, error) {
	rule, ok := RuleOf(in.Kind)
	if !ok {
		return WriteGrant{}, apperr.InvalidField("kind", "err.invalid")
	}
	name := strings.TrimSpace(in.FileName)
	if name == "" {
		return WriteGrant{}, apperr.InvalidField("fileName", "err.required")
	}
	if err := rule.CheckName(name); err != nil {
		return WriteGrant{}, err
	}
	folder, err := FolderOf(name)
	if err != nil {
		return WriteGrant{}, err
	}
	download := CleanDownloadName(in.DownloadFileName)
	ext := Ext(name)
	key, err := s.reserve(ctx, KeyBase(folder, time.Now()), ext, func(key string) error {
		_, err := s.db.Exec(ctx, `INSERT INTO upload (object_key, kind, download_name, customer_id, created_by, created_at, complete) VALUES (?, ?, ?, ?, ?, ?, ?)`,
			key, rule.Kind, download, p.CustomerID, p.UserID, db.NowMS(), statePending)
		return err
	})
	if err != nil {
		return WriteGrant{}, err
	}
	t, err := s.Store.UploadTarget(ctx, UploadSpec{Key: StagingKey(key), TTL: s.linkTTL, ContentType: ContentTypeOf(key), DownloadName: download, Kind: rule.Kind, MaxBytes: rule.MaxBytes})
	if err != nil {
		return WriteGrant{}, err
	}
	return WriteGrant{Credential: s.CredentialOf(t.URL, t.Expires), ObjectKey: key, MaxBytes: rule.MaxBytes, Upload: t}, nil
}

// CredentialID is the accessKeyId of every credential: a signed URL, no storage account.
const CredentialID = "chargeops-signed-url"

// CredentialOf is the credential shape of one signed URL valid until expires.
func (s *Service) CredentialOf(signedURL string, expires time.Time) Credential {
	return Credential{AccessKeyID: CredentialID, SecurityToken: PresignedQuery(signedURL), Expiration: expires.UTC().Format(time.RFC3339),
		Region: s.Store.Region(), Bucket: s.Store.Bucket()}
}

// reserve finds the first free key base, base-1, base-2, ... (taken: recorded or stored) and
// claims it with claim (an insert the unique index guards).
func (s *Service) reserve(ctx context.Context, base, ext string, claim func(key string) error) (string, error) {
	for n := 0; n < 100; n++ {
		key := KeyWithCounter(base, ext, n)
		if s.taken(ctx, key) {
			continue
		}
		if _, err := s.Store.Stat(ctx, key); err == nil {
			continue
		} else if !errors.Is(err, ErrNotFound) {
			return "", err
		}
		if err := claim(key); err != nil {
			if s.taken(ctx, key) {
				continue
			}
			return "", fmt.Errorf("storage: record upload: %w", err)
		}
		return key, nil
	}
	return "", fmt.Errorf("storage: no free key for %s", base)
}

func (s *Service) taken(ctx context.Context, key string) bool {
	var n int
	err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM upload WHERE object_key = ?`, key).Scan(&n)
	return err == nil && n > 0
}

// NextFreeKey is the key reserve would choose for base and ext without claiming it (tests).
func (s *Service) NextFreeKey(ctx context.Context, base, ext string) (string, error) {
	return s.reserve(ctx, base, ext, func(string) error { return nil })
}

// Uploaded is a confirmed upload.
type Uploaded struct {
	ObjectKey        string `json:"objectKey"`
	URL              string `json:"url"`
	Size             int64  `json:"size"`
	ContentType      string `json:"contentType"`
	DownloadFileName string `json:"downloadFileName"`
}

// URL is the display or download URL of an objectKey: http(s) and data: URLs are answered as
// they are; a key without a dot gets no link (""); otherwise a signed link to a confirmed
// upload the caller may read (its uploader's customer is in the caller's scope).
func (s *Service) URL(ctx context.Context, p *access.Principal, key string) (string, error) {
	key = strings.TrimSpace(key)
	lower := strings.ToLower(key)
	switch {
	case key == "":
		return "", apperr.InvalidField("objectKey", "err.required")
	case strings.HasPrefix(lower, "http://") || strings.HasPrefix(lower, "https://") || strings.HasPrefix(lower, "data:"):
		return key, nil
	case !strings.Contains(key, "."):
		return "", nil
	}
	key = strings.TrimPrefix(key, "/")
	r, err := s.record(ctx, key)
	if err != nil {
		return "", err
	}
	if !r.complete || r.held || !(p.Root || p.Scope.HasCustomer(r.customerID) || r.createdBy == p.UserID) {
		return "", apperr.ErrNotFound
	}
	return s.Store.SignedGetURL(ctx, key, s.linkTTL, r.download)
}

// ReadGrant is the answer of sts/read: a signed URL per key.
type ReadGrant struct {
	Expiration string            `json:"expiration"`
	Region     string            `json:"region"`
	Bucket     string            `json:"bucket"`
	URLs       map[string]string `json:"urls"`
}

// MaxReadKeys bounds one sts/read call.
const MaxReadKeys = 100

// Read signs each key the caller may read; any other key is not found (the whole call fails,
// so the answer never tells which of the keys exist).
func (s *Service) Read(ctx context.Context, p *access.Principal, keys []string) (ReadGrant, error) {
	if len(keys) == 0 || len(keys) > MaxReadKeys {
		return ReadGrant{}, apperr.InvalidField("objectKey", "err.invalid")
	}
	g := ReadGrant{Expiration: time.Now().Add(s.linkTTL).UTC().Format(time.RFC3339), Region: s.Store.Region(), Bucket: s.Store.Bucket(), URLs: map[string]string{}}
	for _, k := range keys {
		u, err := s.URL(ctx, p, k)
		if err != nil {
			return ReadGrant{}, err
		}
		g.URLs[k] = u
	}
	return g, nil
}

// SignatureFailed counts a refused signature from a client address and reports whether the
// address is still within the limit (30 per 5 minutes).
func (s *Service) SignatureFailed(ctx context.Context, ip string) bool {
	if s.limiter == nil {
		return true
	}
	ok, err := s.limiter.Allow(ctx, "oss-sig:"+ip, 30, 5*time.Minute)
	return err != nil || ok
}

// SignatureBlocked reports whether an address has used up its refused signatures, without
// counting a hit.
func (s *Service) SignatureBlocked(ctx context.Context, ip string) bool {
	if s.limiter == nil {
		return false
	}
	var hits int
	now := db.NowMS()
	start := now - now%(5*time.Minute).Milliseconds()
	err := s.db.QueryRow(ctx, `SELECT hits FROM rate_counter WHERE key = ? AND window_start = ?`, "oss-sig:"+ip, start).Scan(&hits)
	return err == nil && hits > 30
}
