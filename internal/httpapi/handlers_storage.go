package httpapi

import (
	"context"
	"errors"
	"io"
	"net/http"
	"reflect"
	"time"

	"chargeops/internal/apperr"
	"chargeops/internal/attach"
	"chargeops/internal/i18n"
	"chargeops/internal/storage"
)

// Object storage: upload credentials, confirmation, signed links (docs/storage.md).

func (s *Server) ossWrite(c *Ctx, in storage.WriteInput) (storage.WriteGrant, error) {
	return s.Uploads.Write(c, c.P, in)
}

// OSSKeyInput names one object.
type OSSKeyInput struct {
	ObjectKey string `json:"objectKey"`
}

func (s *Server) ossConfirm(c *Ctx, in OSSKeyInput) (storage.Uploaded, error) {
	if in.ObjectKey == "" {
		return storage.Uploaded{}, apperr.InvalidField("objectKey", "err.required")
	}
	return s.Uploads.Confirm(c, c.P, in.ObjectKey)
}

// ossRead takes every objectKey of the query (the typed input names one for the document).
func (s *Server) ossRead(c *Ctx, _ OSSKeyInput) (storage.ReadGrant, error) {
	return s.Uploads.Read(c, c.P, c.R.URL.Query()["objectKey"])
}

// OSSURLAnswer is a display URL ("" when the key is no path with a dot).
type OSSURLAnswer struct {
	URL string `json:"url"`
}

func (s *Server) ossURL(c *Ctx, in OSSKeyInput) (OSSURLAnswer, error) {
	u, err := s.Uploads.URL(c, c.P, in.ObjectKey)
	return OSSURLAnswer{URL: u}, err
}

// SignedOutReadGrant is the signed-out read credential (docs/storage.md, "Signed out"): the
// credential shape of the signed link to a share's file, and the link itself.
type SignedOutReadGrant struct {
	storage.Credential
	URL       string `json:"url"`
	ExpiresAt int64  `json:"expiresAt"` // unix ms, as expiration
}

// ossPublicRead is the signed-out read credential: a share's file for {token, code}, with the
// same checks, lock and access log as share/download.
func (s *Server) ossPublicRead(c *Ctx, in ShareTokenInput) (SignedOutReadGrant, error) {
	l, err := s.Attach.Download(c, in.Token, in.Code, c.Client.IP)
	if err != nil {
		return SignedOutReadGrant{}, err
	}
	return SignedOutReadGrant{Credential: s.Uploads.CredentialOf(l.URL, time.UnixMilli(l.ExpiresAt)), URL: l.URL, ExpiresAt: l.ExpiresAt}, nil
}

// ossPublicWrite is the signed-out write credential: always refused, no signed-out page
// uploads anything (docs/storage.md, "Signed out").
func (s *Server) ossPublicWrite(_ *Ctx, _ Empty) (Empty, error) {
	return Empty{}, attach.ErrPublicUpload
}

// localGrant verifies the signed local URL of the request; refused signatures are counted per
// client address, and past the limit answered as rate-limited.
func (s *Server) localGrant(c *Ctx) (*storage.Local, storage.Grant, error) {
	local, ok := s.Uploads.Store.(*storage.Local)
	if !ok {
		return nil, storage.Grant{}, apperr.ErrNotFound
	}
	method := c.R.Method
	if method == http.MethodHead {
		method = http.MethodGet
	}
	g, err := local.Verify(method, c.R.PathValue("key"), c.R.URL.Query())
	if err != nil {
		if !s.Uploads.SignatureFailed(c, c.Client.IP) {
			return nil, g, apperr.ErrRateLimited
		}
		return nil, g, err
	}
	return local, g, nil
}

// ossObjectPut receives a browser's upload to the local store: only into the staging key of a
// pending upload (a target replayed after its confirm or its upload's deletion is refused), and
// the signed size limit and the kind's content rule are checked before the object is kept.
func (s *Server) ossObjectPut() Handler {
	return Handler{in: reflect.TypeFor[Empty](), out: reflect.TypeFor[Empty](), raw: true, serve: func(c *Ctx) (any, error) {
		local, g, err := s.localGrant(c)
		if err != nil {
			return objectError(c, err)
		}
		if err := s.Uploads.AcceptsUpload(c, g.Key); err != nil {
			return objectError(c, err)
		}
		if g.MaxBytes > 0 && c.R.ContentLength > g.MaxBytes {
			rule, _ := storage.RuleOf(g.Kind)
			return objectError(c, rule.TooBig())
		}
		if _, err := local.Receive(c, g, c.R.Body); err != nil {
			return objectError(c, err)
		}
		// Confirmed (or deleted) while the body was arriving: the staging object would never
		// be served; drop it now rather than at the next sweep.
		if err := s.Uploads.AcceptsUpload(c, g.Key); err != nil {
			_ = local.Delete(context.WithoutCancel(c), g.Key)
			return objectError(c, err)
		}
		c.W.WriteHeader(http.StatusCreated)
		return nil, nil
	}}
}

// ossObjectGet serves an object of the local store: never sniffed by the browser, inline only
// for JPEG and PNG, else an attachment (with the signed download name when there is one).
func (s *Server) ossObjectGet() Handler {
	return Handler{in: reflect.TypeFor[Empty](), out: reflect.TypeFor[Empty](), raw: true, serve: func(c *Ctx) (any, error) {
		local, g, err := s.localGrant(c)
		if err != nil {
			return objectError(c, err)
		}
		if _, staging := storage.UploadKeyOf(g.Key); staging {
			return objectError(c, apperr.ErrNotFound) // never served: only confirm moves it to its key
		}
		rc, info, err := local.Open(c, g.Key)
		if errors.Is(err, storage.ErrNotFound) {
			return objectError(c, apperr.ErrNotFound)
		}
		if err != nil {
			return objectError(c, err)
		}
		defer rc.Close()
		h := c.W.Header()
		h.Set("Content-Type", info.ContentType)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Content-Disposition", storage.ServedDisposition(g.Key, g.DownloadName))
		h.Set("Cache-Control", "private, max-age=300")
		if rs, ok := rc.(io.ReadSeeker); ok {
			http.ServeContent(c.W, c.R, "", info.ModTime, rs)
		} else {
			_, _ = io.Copy(c.W, rc)
		}
		return nil, nil
	}}
}

// objectError answers a refused object request with the envelope and an HTTP status a browser
// or an upload library understands (403, 404, 413, 400, 429), as S3 answers with a status.
func objectError(c *Ctx, err error) (any, error) {
	e, ok := apperr.As(err)
	if !ok {
		return nil, err // logged and answered as an internal error
	}
	status := http.StatusBadRequest
	switch {
	case e.Code == apperr.NoPermission:
		status = http.StatusForbidden
	case e.Code == apperr.NotFound:
		status = http.StatusNotFound
	case e.Code == apperr.RateLimited:
		status = http.StatusTooManyRequests
	case e.Key == "err.upload_too_big":
		status = http.StatusRequestEntityTooLarge
	}
	writeJSON(c.W, status, Envelope{Code: e.Code, Message: i18n.T(c.Locale, e.Key, e.Args), Data: e.Data})
	return nil, nil
}
