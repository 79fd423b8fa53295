package db

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"time"
)

// checkpointEvery is how often the SQLite checkpointer copies the write-ahead log into the
// database file.
const checkpointEvery = time.Second

// WALTruncateAbove is the size of the write-ahead log past which the checkpointer truncates it
// (a TRUNCATE checkpoint) instead of only copying it: a log that grew during a burst, or while
// the disk was full, gives its space back (docs/operations.md, "Disk full (SQLite)"). A database
// takes the value in force when it is opened.
var WALTruncateAbove int64 = 64 << 20

// startCheckpointer runs SQLite's WAL checkpoints on a connection of their own, once a second,
// instead of on the committing writer whenever the log passes 1,000 pages (SQLite's default):
// the ingest pipeline's commits then do not stop to copy pages, and the copying uses the other
// core. A PASSIVE checkpoint never waits for readers or the writer; the automatic checkpoint,
// raised to 20,000 pages (about 80 MiB of log), remains as a bound should this one fall behind.
// A PASSIVE checkpoint never shrinks the log file, so once it is larger than WALTruncateAbove
// the checkpoint is a TRUNCATE one. It returns the function that stops it.
func startCheckpointer(d *DB) (stop func()) {
	limit := WALTruncateAbove
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
			if d.WALSize() > limit {
				if err := d.TruncateWAL(ctx); err != nil && ctx.Err() == nil {
					slog.Warn("wal truncate", "err", err)
				}
				continue
			}
			if _, err := d.pool.ExecContext(ctx, `PRAGMA wal_checkpoint(PASSIVE)`); err != nil && ctx.Err() == nil {
				slog.Debug("wal checkpoint", "err", err)
			}
		}
	}()
	return func() { cancel(); <-done }
}

// errWALBusy: readers kept the checkpoint from copying the whole log, so it was not truncated.
var errWALBusy = errors.New("db: wal checkpoint: the log is still in use, not truncated")

// TruncateWAL copies the whole write-ahead log into the database file and truncates the log to
// zero bytes (SQLite's wal_checkpoint(TRUNCATE), which waits up to the busy timeout for readers
// and the writer). Nothing on PostgreSQL.
func (d *DB) TruncateWAL(ctx context.Context) error {
	if d.dialect != SQLite {
		return nil
	}
	before := d.WALSize()
	var busy, logPages, copied int
	err := d.pool.QueryRowContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`).Scan(&busy, &logPages, &copied)
	if err == nil && busy != 0 {
		err = errWALBusy
	}
	if err != nil {
		return fmt.Errorf("db: truncate wal of %d bytes: %w", before, err)
	}
	slog.Info("wal truncated", "bytes", before)
	return nil
}

// WALSize is the size in bytes of SQLite's write-ahead log file (0 on PostgreSQL or when there
// is none).
func (d *DB) WALSize() int64 {
	if d.walPath == "" {
		return 0
	}
	fi, err := os.Stat(d.walPath)
	if err != nil {
		return 0
	}
	return fi.Size()
}
