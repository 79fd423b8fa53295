package storage

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
)

// An upload's life (docs/storage.md, "Staging"): sts/write records it pending and hands out a
// target for its staging key; the browser sends the bytes there (as often as it likes while the
// record is pending: the local back-end refuses any other PUT, S3 cannot, so nothing there is
// ever served); confirm claims the record once (checking), moves the staging object to the
// object key, checks what now lies at the key, and completes the record. Only complete
// records are ever signed for reading, so what a reader gets is what confirm checked.
// upload.complete holds the state.
const (
	statePending  = 0
	stateComplete = 1
	stateChecking = 2 // claimed by a confirm that is moving and checking the object
)

// errUploadClosed: the upload target is no longer accepted (confirmed, abandoned or deleted).
var errUploadClosed = apperr.New(apperr.NoPermission, "err.upload_closed")

type record struct {
	id, customerID, createdBy int64
	kind, download            string
	state                     int
	complete, held            bool
}

func (s *Service) record(ctx context.Context, key string) (record, error) {
	var r record
	var held int
	err := s.db.QueryRow(ctx, `SELECT id, kind, download_name, customer_id, created_by, complete, held FROM upload WHERE object_key = ?`, key).
		Scan(&r.id, &r.kind, &r.download, &r.customerID, &r.createdBy, &r.state, &held)
	if db.NotFound(err) {
		return r, apperr.ErrNotFound
	}
	if err != nil {
		return r, fmt.Errorf("storage: upload record: %w", err)
	}
	r.complete, r.held = r.state == stateComplete, held == 1
	return r, nil
}

// AcceptsUpload reports whether a browser may still send bytes to stagingKey: only while the
// upload it stands for is recorded and pending. Anything else is errUploadClosed ("This upload
// link has already been used"), so a replayed target changes nothing.
func (s *Service) AcceptsUpload(ctx context.Context, stagingKey string) error {
	ok, err := s.pending(ctx, stagingKey)
	if err != nil {
		return err
	}
	if !ok {
		return errUploadClosed
	}
	return nil
}

// pending reports whether stagingKey stands for a recorded upload that is still pending.
func (s *Service) pending(ctx context.Context, stagingKey string) (bool, error) {
	key, ok := UploadKeyOf(stagingKey)
	if !ok {
		return false, nil
	}
	r, err := s.record(ctx, key)
	if apperr.IsNotFound(err) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return r.state == statePending, nil
}

// Confirm checks the object the caller uploaded (size and first bytes against its kind's
// rule) and completes its record; an object that breaks the rule is deleted, with its record.
// It works once, on a pending upload of the caller: a confirmed, held (attachment) or someone
// else's upload is not found, so confirm never re-signs a held object.
func (s *Service) Confirm(ctx context.Context, p *access.Principal, key string) (Uploaded, error) {
	r, err := s.record(ctx, key)
	if err != nil {
		return Uploaded{}, err
	}
	if r.createdBy != p.UserID || r.state != statePending || r.held {
		return Uploaded{}, apperr.ErrNotFound
	}
	claimed, err := s.setState(ctx, r.id, statePending, stateChecking)
	if err != nil {
		return Uploaded{}, err
	}
	if !claimed {
		return Uploaded{}, apperr.ErrNotFound // a concurrent confirm has it
	}
	info, err := s.promoteAndCheck(ctx, r, key)
	if err != nil {
		return Uploaded{}, err
	}
	res, err := s.db.Exec(ctx, `UPDATE upload SET size = ?, content_type = ?, complete = ? WHERE id = ? AND complete = ?`,
		info.Size, ContentTypeOf(key), stateComplete, r.id, stateChecking)
	if err != nil {
		return Uploaded{}, fmt.Errorf("storage: confirm: %w", err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return Uploaded{}, apperr.ErrNotFound // purged meanwhile
	}
	u, err := s.Store.SignedGetURL(ctx, key, s.linkTTL, r.download)
	if err != nil {
		return Uploaded{}, err
	}
	return Uploaded{ObjectKey: key, URL: u, Size: info.Size, ContentType: ContentTypeOf(key), DownloadFileName: r.download}, nil
}

// promoteAndCheck moves the staging object of a claimed upload to its key and checks the object
// at the key. Nothing uploaded yet gives the claim back (not found; the browser may still
// send); a refused object is discarded with its record. An object already at its key without a
// staging object is one the server stored itself (Store.Put): it is checked where it is.
func (s *Service) promoteAndCheck(ctx context.Context, r record, key string) (Info, error) {
	err := s.Store.Promote(ctx, StagingKey(key), key)
	if errors.Is(err, ErrNotFound) {
		if _, serr := s.Store.Stat(ctx, key); serr != nil {
			s.release(ctx, r.id)
			if errors.Is(serr, ErrNotFound) {
				return Info{}, apperr.ErrNotFound
			}
			return Info{}, serr
		}
	} else if err != nil {
		s.release(ctx, r.id)
		return Info{}, fmt.Errorf("storage: promote %s: %w", key, err)
	}
	info, err := s.Store.Stat(ctx, key)
	if err != nil {
		s.release(ctx, r.id)
		return Info{}, err
	}
	rule, _ := RuleOf(r.kind)
	if cerr := rule.CheckSize(info.Size); cerr != nil {
		s.discard(ctx, r.id, key)
		return Info{}, cerr
	}
	head, err := s.Store.ReadHead(ctx, key, HeadBytes)
	if err != nil {
		s.release(ctx, r.id)
		return Info{}, err
	}
	if cerr := rule.Check(key, info.Size, head); cerr != nil {
		s.discard(ctx, r.id, key)
		return Info{}, cerr
	}
	return info, nil
}

// setState moves an upload from one state to another; false when it was not in from.
func (s *Service) setState(ctx context.Context, id int64, from, to int) (bool, error) {
	res, err := s.db.Exec(ctx, `UPDATE upload SET complete = ? WHERE id = ? AND complete = ?`, to, id, from)
	if err != nil {
		return false, fmt.Errorf("storage: upload state: %w", err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// release hands a claim back after a storage fault, so the uploader may confirm again.
func (s *Service) release(ctx context.Context, id int64) {
	if _, err := s.setState(context.WithoutCancel(ctx), id, stateChecking, statePending); err != nil {
		slog.Warn("storage: release confirm claim", "id", id, "err", err)
	}
}

// discard deletes an upload's object, its staging object and its record.
func (s *Service) discard(ctx context.Context, id int64, key string) {
	ctx = context.WithoutCancel(ctx)
	for _, k := range []string{key, StagingKey(key)} {
		if err := s.Store.Delete(ctx, k); err != nil && !errors.Is(err, ErrNotFound) {
			slog.Warn("storage: delete upload object", "key", k, "err", err)
		}
	}
	if _, err := s.db.Exec(ctx, `DELETE FROM upload WHERE id = ?`, id); err != nil {
		slog.Warn("storage: delete upload record", "key", key, "err", err)
	}
}
