package storage

import (
	"context"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
)

// Owned is a confirmed upload of the caller, for services that register it (attachments).
type Owned struct {
	ObjectKey   string
	Size        int64
	ContentType string
	CustomerID  int64
}

// OwnedUpload returns the caller's own complete upload of key; any other key (someone else's,
// unconfirmed, unknown) is not found.
func (s *Service) OwnedUpload(ctx context.Context, p *access.Principal, key string) (Owned, error) {
	r, err := s.record(ctx, key)
	if err != nil {
		return Owned{}, err
	}
	if r.createdBy != p.UserID || !r.complete {
		return Owned{}, apperr.ErrNotFound
	}
	var o Owned
	err = s.db.QueryRow(ctx, `SELECT object_key, size, content_type, customer_id FROM upload WHERE id = ?`, r.id).Scan(&o.ObjectKey, &o.Size, &o.ContentType, &o.CustomerID)
	return o, err
}

// Hold marks a confirmed upload as guarded by the service that registered it (attachments
// check levels and shares): from then on URL and Read answer not found for it, whoever asks.
func (s *Service) Hold(ctx context.Context, key string) error {
	_, err := s.db.Exec(ctx, `UPDATE upload SET held = 1 WHERE object_key = ?`, key)
	return err
}

// Forget deletes an upload's object and its record (the attachment that held it was deleted);
// a key without an upload record (a diagnostics file of the fleet) is left alone.
func (s *Service) Forget(ctx context.Context, key string) error {
	r, err := s.record(ctx, key)
	if apperr.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	s.discard(ctx, r.id, key)
	return nil
}

// SignedURL is a signed link to key with the service's link TTL, "" when none can be made, for
// an object whose reading the caller already decided (an image of a rich text the reader may
// open). A nil service signs nothing.
func (s *Service) SignedURL(ctx context.Context, key string) string {
	if s == nil {
		return ""
	}
	u, err := s.Store.SignedGetURL(ctx, key, s.linkTTL, "")
	if err != nil {
		return ""
	}
	return u
}

// AllReadable reports whether p may read every key through URL (the images an author puts into
// a rich text). A nil service reads nothing.
func (s *Service) AllReadable(ctx context.Context, p *access.Principal, keys []string) bool {
	for _, key := range keys {
		if s == nil {
			return false
		}
		if _, err := s.URL(ctx, p, key); err != nil {
			return false
		}
	}
	return true
}
