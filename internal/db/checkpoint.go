package db

import (
	"context"
	"database/sql"
	"log/slog"
	"time"
)

// checkpointEvery is how often the SQLite checkpointer copies the write-ahead log into the
// database file.
const checkpointEvery = time.Second

// startCheckpointer runs SQLite's WAL checkpoints on a connection of their own, once a second,
// instead of on the committing writer whenever the log passes 1,000 pages (SQLite's default):
// the ingest pipeline's commits then do not stop to copy pages, and the copying uses the other
// core. A PASSIVE checkpoint never waits for readers or the writer; the automatic checkpoint,
// raised to 20,000 pages (about 80 MiB of log), remains as a bound should this one fall behind.
// It returns the function that stops it.
func startCheckpointer(pool *sql.DB) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(checkpointEvery)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			if _, err := pool.ExecContext(ctx, `PRAGMA wal_checkpoint(PASSIVE)`); err != nil && ctx.Err() == nil {
				slog.Debug("wal checkpoint", "err", err)
			}
		}
	}()
	return func() { cancel(); <-done }
}
