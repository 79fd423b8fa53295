package storage

import (
	"context"
	"errors"
	"fmt"
	"time"

	"chargeops/internal/apperr"
)

// AbandonAfter is how long an upload may stay unconfirmed: a browser that got a write grant
// and never confirmed (closed tab, failed check, a form left unsaved before its confirm) leaves
// an object nobody refers to.
const AbandonAfter = 24 * time.Hour

// StagingGrace is how old a staging object with no pending upload must be before it is swept:
// longer than any confirm takes to move it.
const StagingGrace = 15 * time.Minute

// purgeBatch bounds one housekeeping pass (the next one goes on).
const purgeBatch = 500

// PurgeAbandoned deletes uploads left unconfirmed (or in a confirm that never ended) for
// AbandonAfter, their objects and staging objects first, then sweeps orphaned staging objects
// (PurgeStaging). Confirmed uploads are left alone: image fields and rich text refer to them
// by key.
func (s *Service) PurgeAbandoned(ctx context.Context) (int, error) {
	cut := time.Now().Add(-AbandonAfter).UnixMilli()
	rows, err := s.db.Query(ctx, `SELECT id, object_key FROM upload WHERE complete <> ? AND created_at < ? ORDER BY id LIMIT ?`, stateComplete, cut, purgeBatch)
	if err != nil {
		return 0, fmt.Errorf("storage: abandoned uploads: %w", err)
	}
	type abandoned struct {
		id  int64
		key string
	}
	var list []abandoned
	for rows.Next() {
		var a abandoned
		if err := rows.Scan(&a.id, &a.key); err != nil {
			rows.Close()
			return 0, fmt.Errorf("storage: abandoned uploads: %w", err)
		}
		list = append(list, a)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, fmt.Errorf("storage: abandoned uploads: %w", err)
	}
	n := 0
	for _, a := range list {
		for _, k := range []string{a.key, StagingKey(a.key)} {
			if err := s.Store.Delete(ctx, k); err != nil && !errors.Is(err, apperr.ErrNotFound) && !errors.Is(err, ErrNotFound) {
				return n, fmt.Errorf("storage: delete abandoned %s: %w", k, err)
			}
		}
		if _, err := s.db.Exec(ctx, `DELETE FROM upload WHERE id = ? AND complete <> ?`, a.id, stateComplete); err != nil {
			return n, fmt.Errorf("storage: delete abandoned %s: %w", a.key, err)
		}
		n++
	}
	swept, err := s.PurgeStaging(ctx, time.Now().Add(-StagingGrace))
	return n + swept, err
}

// PurgeStaging deletes staging objects last written before cut whose upload is not pending:
// a target replayed after its confirm (S3 cannot refuse it) or after the upload was deleted.
// Such an object is never served; this only frees its space. At most purgeBatch per call.
func (s *Service) PurgeStaging(ctx context.Context, cut time.Time) (int, error) {
	objs, err := s.Store.List(ctx, StagingPrefix, purgeBatch)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, o := range objs {
		if !o.ModTime.Before(cut) {
			continue
		}
		if pending, err := s.pending(ctx, o.Key); err != nil {
			return n, err
		} else if pending {
			continue
		}
		if err := s.Store.Delete(ctx, o.Key); err != nil && !errors.Is(err, ErrNotFound) {
			return n, fmt.Errorf("storage: delete staging %s: %w", o.Key, err)
		}
		n++
	}
	return n, nil
}
