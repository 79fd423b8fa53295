package ingest

import (
	"context"

	"chargeops/internal/db"
)

// One runtime count written through (WriteSeen).
const (
	sqlSeenRefresh   = `UPDATE device SET last_refresh_at = ? WHERE id = ?`
	sqlSeenState     = `UPDATE device_state SET last_seen_at = ?, runtime_counted_at = ? WHERE device_id = ? AND conn_id = ?`
	sqlRuntimeTotal  = `UPDATE device SET total_runtime = total_runtime + ?, last_refresh_at = ? WHERE id = ?`
	sqlSeenStateOnly = `UPDATE device_state SET last_seen_at = ? WHERE device_id = ? AND online = 1`
)

// Seen is one runtime count of a connection: seen at At, Secs more seconds of runtime,
// counted up to CountedAt.
type Seen struct {
	DeviceID  int64
	ConnID    string
	At        int64
	Secs      int64
	CountedAt int64
}

// WriteSeen writes a runtime count through: last seen, the counted mark and the total (the
// same as updateSeen, for one count inside a step).
func WriteSeen(ctx context.Context, tx *db.Tx, c Seen) error {
	if c.Secs <= 0 {
		if _, err := tx.Exec(ctx, sqlSeenStateOnly, c.At, c.DeviceID); err != nil {
			return err
		}
		return MarkRefreshed(ctx, tx, c.DeviceID, c.At)
	}
	if _, err := tx.Exec(ctx, sqlSeenState, c.At, c.CountedAt, c.DeviceID, c.ConnID); err != nil {
		return err
	}
	_, err := tx.Exec(ctx, sqlRuntimeTotal, c.Secs, c.At, c.DeviceID)
	return err
}

// MarkRefreshed records that device id was heard from at `at` (the device list's "last
// refresh"): a connection, a message, a runtime count.
func MarkRefreshed(ctx context.Context, tx *db.Tx, id, at int64) error {
	_, err := tx.Exec(ctx, sqlSeenRefresh, at, id)
	return err
}
