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

// PurgeAbandoned deletes unconfirmed uploads older than AbandonAfter, their objects first, at
// most 500 per call (the next housekeeping goes on). Confirmed uploads are left alone: image
// fields and rich text refer to them by key.
func (s *Service) PurgeAbandoned(ctx context.Context) (int, error) {
	cut := time.Now().Add(-AbandonAfter).UnixMilli()
	rows, err := s.db.Query(ctx, `SELECT id, object_key FROM upload WHERE complete = 0 AND created_at < ? ORDER BY id LIMIT 500`, cut)
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
			return 0, err
		}
		list = append(list, a)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, err
	}
	n := 0
	for _, a := range list {
		if err := s.Store.Delete(ctx, a.key); err != nil && !errors.Is(err, apperr.ErrNotFound) && !errors.Is(err, ErrNotFound) {
			return n, fmt.Errorf("storage: delete abandoned %s: %w", a.key, err)
		}
		if _, err := s.db.Exec(ctx, `DELETE FROM upload WHERE id = ? AND complete = 0`, a.id); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}
