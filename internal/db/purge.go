package db

import (
	"context"
	"fmt"
)

// PurgeBatch is how many rows one DELETE of Purge removes, so a purge never holds a long lock
// or a huge transaction on a busy table.
const PurgeBatch = 1000

// Purge deletes the rows of table matching where, PurgeBatch at a time by its key column, and
// stops after maxBatches (the next run goes on); it answers how many rows went. table, key and
// where are trusted SQL of the caller (where with ? placeholders).
func Purge(ctx context.Context, d *DB, table, key, where string, maxBatches int, args ...any) (int64, error) {
	q := fmt.Sprintf(`DELETE FROM %s WHERE %s IN (SELECT %s FROM %s WHERE %s ORDER BY %s LIMIT %d)`, table, key, key, table, where, key, PurgeBatch)
	var total int64
	for range maxBatches {
		res, err := d.Exec(ctx, q, args...)
		if err != nil {
			return total, fmt.Errorf("purge %s: %w", table, err)
		}
		n, _ := res.RowsAffected()
		total += n
		if n < PurgeBatch {
			break
		}
	}
	return total, nil
}
