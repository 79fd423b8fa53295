package app_test

import (
	"context"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"chargeops/internal/config"
	"chargeops/internal/fleet/fleettest"
)

// fillDisk writes a file until the filesystem holding dir has no space left and returns its
// path.
func fillDisk(t *testing.T, dir string) string {
	t.Helper()
	path := filepath.Join(dir, "filler")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	chunk := make([]byte, 64<<10)
	for {
		if _, err := f.Write(chunk); err != nil {
			if errors.Is(err, syscall.ENOSPC) {
				return path
			}
			t.Fatalf("fill the disk: %v", err)
		}
	}
}

// A full disk under SQLite: the batches that cannot be written are held, not dropped after three
// tries; /healthz answers 503 "ingest held" / "disk full"; nothing sent while the disk is full is
// acknowledged; once space is freed the node recovers by itself (200 again), every acknowledged
// frame is stored, and the write-ahead log, grown before the disk filled, is truncated. The disk
// is a real small filesystem (a 64 MiB tmpfs mounted by the test: it needs root).
func TestDiskFullHoldsIngestAndRecovers(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size=64m"); err != nil {
		t.Skipf("mounting a small tmpfs needs root: %v", err)
	}
	t.Cleanup(func() { _ = syscall.Unmount(dir, syscall.MNT_DETACH) }) // after the node has stopped
	cfg := config.Default()
	cfg.MQTTAddr = "127.0.0.1:0"  // the embedded broker on a free port, beside any broker on 1883
	cfg.RequireDeviceKeys = false // keyless test chargers
	cfg.DataDir, cfg.IngestRetryMax = dir, 200*time.Millisecond
	n := startNode(t, cfg)
	d := n.app.DB
	o := fleettest.Seed(t, d)
	sns := fleettest.Devices(t, d, o, "FULL-", 8)
	load := drive(t, n.addr, sns)

	// a reader that keeps its snapshot makes the log grow past what checkpoints can copy, as
	// during a burst; a PASSIVE checkpoint never gives that space back
	ctx := context.Background()
	reader, err := d.Pool().Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := reader.ExecContext(ctx, `BEGIN`); err != nil {
		t.Fatal(err)
	}
	var rows int
	if err := reader.QueryRowContext(ctx, `SELECT COUNT(*) FROM protocol_log`).Scan(&rows); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(20 * time.Second); d.WALSize() < 4<<20; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the write-ahead log grew to only %d bytes", d.WALSize())
		}
	}
	if _, err := reader.ExecContext(ctx, `ROLLBACK`); err != nil {
		t.Fatal(err)
	}
	reader.Close()

	walBefore := d.WALSize()
	filler := fillDisk(t, dir)
	fullAt := time.Now()
	body := n.waitHealth(t, http.StatusServiceUnavailable, 30*time.Second)
	heldAt := time.Now()
	if body["status"] != "ingest held" || body["reason"] != "disk full" {
		t.Fatalf("/healthz with the disk full: %v, want status \"ingest held\", reason \"disk full\"", body)
	}
	time.Sleep(3 * time.Second) // more than three tries at the held batch
	if v := n.metric(t, "chargeops_ingest_held"); v != "1" {
		t.Fatalf("chargeops_ingest_held with the disk full: %s", v)
	}
	// the chargers send nothing new: the log written after the recovery is the held batches'
	load.halt()
	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	freeAt := time.Now()
	n.waitHealth(t, http.StatusOK, 20*time.Second)
	recovered := time.Since(freeAt)
	load.stop()

	frames := load.snapshot()
	held := 0
	for _, f := range frames {
		if f.answered.IsZero() {
			continue
		}
		if f.sent.After(heldAt) && f.answered.Before(freeAt) {
			t.Fatalf("%s: a frame sent at %s, with the ingest held, was acknowledged at %s before space was freed",
				f.sn, f.sent.Format(time.StampMilli), f.answered.Format(time.StampMilli))
		}
		if f.sent.Before(freeAt) && f.answered.After(freeAt) {
			held++
		}
	}
	acked := checkStored(t, n.app.DB, frames)
	if held < len(sns) {
		t.Fatalf("only %d frames were held through the full disk", held)
	}
	var walAfter int64
	for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if walAfter = d.WALSize(); walAfter < walBefore/2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the write-ahead log was not truncated: %d bytes before the disk filled, %d after the recovery", walBefore, walAfter)
		}
	}
	t.Logf("disk full after %s of filling; held %s; %d frames held and stored after the recovery, %d acknowledged in all, all stored; healthy %s after space was freed; WAL %d → %d bytes",
		heldAt.Sub(fullAt).Round(time.Millisecond), freeAt.Sub(heldAt).Round(time.Millisecond), held, acked, recovered.Round(time.Millisecond), walBefore, walAfter)
}
