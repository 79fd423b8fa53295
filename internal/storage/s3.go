package storage

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"
)

// S3 keeps objects in an S3-compatible bucket (MinIO, AWS S3, Aliyun OSS in S3 mode). Browsers
// upload with presigned PUTs and download with presigned GETs; the secret key never leaves
// the node.
type S3 struct {
	c              *minio.Client
	bucket, region string
}

// NewS3 connects to the bucket and makes it when it does not exist.
func NewS3(ctx context.Context, cfg Config) (*S3, error) {
	endpoint := cfg.Endpoint
	secure := !cfg.Insecure
	if u, err := url.Parse(endpoint); err == nil && u.Host != "" {
		endpoint, secure = u.Host, u.Scheme == "https"
	}
	lookup := minio.BucketLookupAuto
	if cfg.PathStyle {
		lookup = minio.BucketLookupPath
	}
	c, err := minio.New(endpoint, &minio.Options{Creds: credentials.NewStaticV4(cfg.AccessKey, cfg.SecretKey, ""),
		Secure: secure, Region: cfg.Region, BucketLookup: lookup})
	if err != nil {
		return nil, fmt.Errorf("storage: s3 client: %w", err)
	}
	s := &S3{c: c, bucket: cfg.Bucket, region: cfg.Region}
	ok, err := c.BucketExists(ctx, cfg.Bucket)
	if err != nil {
		return nil, fmt.Errorf("storage: s3 bucket %q: %w", cfg.Bucket, err)
	}
	if !ok {
		if err := c.MakeBucket(ctx, cfg.Bucket, minio.MakeBucketOptions{Region: cfg.Region}); err != nil {
			return nil, fmt.Errorf("storage: make s3 bucket %q: %w", cfg.Bucket, err)
		}
	}
	return s, nil
}

func (s *S3) Region() string { return s.region }
func (s *S3) Bucket() string { return s.bucket }

func s3Err(err error) error {
	if err == nil {
		return nil
	}
	var r minio.ErrorResponse
	if errors.As(err, &r) && (r.Code == "NoSuchKey" || r.StatusCode == http.StatusNotFound) {
		return ErrNotFound
	}
	return fmt.Errorf("storage: s3: %w", err)
}

func (s *S3) Put(ctx context.Context, r io.Reader, spec PutSpec) (Info, error) {
	if !ValidKey(spec.Key) {
		return Info{}, fmt.Errorf("storage: invalid key %q", spec.Key)
	}
	// A plain signed body, not the aws-chunked streaming signature minio-go uses over http,
	// which not every S3-compatible server decodes (TLS keeps the body intact over https).
	opt := minio.PutObjectOptions{ContentType: spec.ContentType, DisableContentSha256: true}
	if spec.DownloadName != "" {
		opt.ContentDisposition = Disposition("attachment", spec.DownloadName)
	}
	up, err := s.c.PutObject(ctx, s.bucket, spec.Key, r, spec.Size, opt)
	if err != nil {
		_ = s.c.RemoveObject(context.WithoutCancel(ctx), s.bucket, spec.Key, minio.RemoveObjectOptions{})
		return Info{}, s3Err(err)
	}
	return Info{Key: spec.Key, Size: up.Size, ContentType: spec.ContentType, ModTime: time.Now()}, nil
}

func (s *S3) Open(ctx context.Context, key string) (io.ReadCloser, Info, error) {
	info, err := s.Stat(ctx, key)
	if err != nil {
		return nil, Info{}, err
	}
	o, err := s.c.GetObject(ctx, s.bucket, key, minio.GetObjectOptions{})
	if err != nil {
		return nil, Info{}, s3Err(err)
	}
	return o, info, nil
}

func (s *S3) Stat(ctx context.Context, key string) (Info, error) {
	if !ValidKey(key) {
		return Info{}, ErrNotFound
	}
	st, err := s.c.StatObject(ctx, s.bucket, key, minio.StatObjectOptions{})
	if err != nil {
		return Info{}, s3Err(err)
	}
	return Info{Key: key, Size: st.Size, ContentType: st.ContentType, ModTime: st.LastModified}, nil
}

func (s *S3) Delete(ctx context.Context, key string) error {
	if !ValidKey(key) {
		return nil
	}
	return s3Err(s.c.RemoveObject(ctx, s.bucket, key, minio.RemoveObjectOptions{}))
}

// Promote copies from to to on the server side (the headers signed at upload come along) and
// deletes from.
func (s *S3) Promote(ctx context.Context, from, to string) error {
	if !ValidKey(from) || !ValidKey(to) {
		return ErrNotFound
	}
	_, err := s.c.CopyObject(ctx, minio.CopyDestOptions{Bucket: s.bucket, Object: to}, minio.CopySrcOptions{Bucket: s.bucket, Object: from})
	if err != nil {
		return s3Err(err)
	}
	return s3Err(s.c.RemoveObject(ctx, s.bucket, from, minio.RemoveObjectOptions{}))
}

func (s *S3) List(ctx context.Context, prefix string, max int) ([]Info, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var out []Info
	for o := range s.c.ListObjects(ctx, s.bucket, minio.ListObjectsOptions{Prefix: prefix, Recursive: true}) {
		if o.Err != nil {
			return out, s3Err(o.Err)
		}
		if len(out) >= max {
			break
		}
		out = append(out, Info{Key: o.Key, Size: o.Size, ContentType: o.ContentType, ModTime: o.LastModified})
	}
	return out, nil
}

func (s *S3) ReadHead(ctx context.Context, key string, n int) ([]byte, error) {
	if !ValidKey(key) {
		return nil, ErrNotFound
	}
	opt := minio.GetObjectOptions{}
	if err := opt.SetRange(0, int64(n)-1); err != nil {
		return nil, err
	}
	o, err := s.c.GetObject(ctx, s.bucket, key, opt)
	if err != nil {
		return nil, s3Err(err)
	}
	defer o.Close()
	b, err := io.ReadAll(io.LimitReader(o, int64(n)))
	if err != nil {
		return nil, s3Err(err)
	}
	return b, nil
}

func (s *S3) SignedGetURL(ctx context.Context, key string, ttl time.Duration, downloadName string) (string, error) {
	if !ValidKey(key) {
		return "", ErrNotFound
	}
	q := url.Values{"response-content-disposition": {ServedDisposition(key, downloadName)}}
	u, err := s.c.PresignedGetObject(ctx, s.bucket, key, ttl, q)
	if err != nil {
		return "", s3Err(err)
	}
	return u.String(), nil
}

// UploadTarget is a presigned PUT that signs the Content-Type and Content-Disposition headers
// the browser must send. S3 cannot bound a presigned PUT's size; the confirm call checks the
// stored object's size and content and deletes it when it breaks the rule.
func (s *S3) UploadTarget(ctx context.Context, spec UploadSpec) (Target, error) {
	if !ValidKey(spec.Key) {
		return Target{}, fmt.Errorf("storage: invalid key %q", spec.Key)
	}
	h := http.Header{}
	if spec.ContentType != "" {
		h.Set("Content-Type", spec.ContentType)
	}
	if spec.DownloadName != "" {
		h.Set("Content-Disposition", Disposition("attachment", spec.DownloadName))
	}
	expires := time.Now().Add(spec.TTL)
	u, err := s.c.PresignHeader(ctx, http.MethodPut, s.bucket, spec.Key, spec.TTL, nil, h)
	if err != nil {
		return Target{}, s3Err(err)
	}
	headers := map[string]string{}
	for k := range h {
		headers[k] = h.Get(k)
	}
	return Target{Method: http.MethodPut, URL: u.String(), Headers: headers, Fields: map[string]string{}, Expires: expires}, nil
}

// PresignedQuery is the signature part of a presigned URL (the "security token" of the
// credential answer).
func PresignedQuery(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return ""
	}
	return strings.TrimPrefix(u.RawQuery, "?")
}
