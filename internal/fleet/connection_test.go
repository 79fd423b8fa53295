package fleet_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"chargeops/internal/db"
	"chargeops/internal/fleet"
	"chargeops/internal/fleet/fleettest"
	"chargeops/internal/fleet/ingest"
	"chargeops/internal/setting"
	"chargeops/internal/testutil"
)

// A connected charger's last-seen time and runtime are written through the ingest pipeline's
// batch rows (one statement per table for a whole batch), merged per device within a batch.
// The core's clock is stepped by the test, so the counts do not wait on wall time.
func TestSeenWritesLastSeenAndRuntimeThrough(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		o := fleettest.Seed(t, d)
		var clock atomic.Int64
		clock.Store(time.Now().UnixMilli())
		s, err := fleet.New(ctx, d, setting.NewStore(d), fleet.Options{DataDir: t.TempDir(), Location: time.UTC, Now: clock.Load})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		fleettest.Device(t, d, o, o.CustomerA, o.SiteA, "SEEN-1")
		fleettest.Device(t, d, o, o.CustomerA, o.SiteA, "SEEN-2")
		dev, err := s.DeviceBySN(ctx, "SEEN-1")
		if err != nil {
			t.Fatal(err)
		}
		other, err := s.DeviceBySN(ctx, "SEEN-2")
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Connected(ctx, dev, "conn-1", "127.0.0.1:1", "ocpp1.6"); err != nil {
			t.Fatal(err)
		}
		if err := s.Connected(ctx, other, "conn-2", "127.0.0.1:2", "ocpp1.6"); err != nil {
			t.Fatal(err)
		}
		// everything queued for a charger before this is committed once it returns
		flush := func(t *testing.T, dev *fleet.Device) {
			t.Helper()
			if err := s.Ingest.Commit(ctx, &ingest.Unit{Key: ingest.KeyOf(dev.SN)}); err != nil {
				t.Fatal(err)
			}
		}
		state := func(t *testing.T, dev *fleet.Device) (seen, counted, total int64) {
			t.Helper()
			if err := d.QueryRow(ctx, `SELECT s.last_seen_at, s.runtime_counted_at, dv.total_runtime FROM device_state s
				JOIN device dv ON dv.id = s.device_id WHERE s.device_id = ?`, dev.ID).Scan(&seen, &counted, &total); err != nil {
				t.Fatal(err)
			}
			return
		}

		t.Run("a count under a second moves only the last-seen time", func(t *testing.T) {
			_, _, total0 := state(t, dev)
			before := clock.Add(400)
			s.Seen(dev, "conn-1")
			flush(t, dev)
			seen, _, total := state(t, dev)
			if seen < before || total != total0 {
				t.Fatalf("last seen %d (want ≥ %d), total runtime %d (want %d)", seen, before, total, total0)
			}
		})
		t.Run("runtime counts add up and the newest time wins", func(t *testing.T) {
			_, _, total0 := state(t, dev)
			_, _, otherTotal0 := state(t, other)
			clock.Add(2100)
			s.Seen(dev, "conn-1")
			s.Seen(other, "conn-2")
			before := clock.Add(1100)
			s.Seen(dev, "conn-1")
			flush(t, dev)
			flush(t, other)
			seen, counted, total := state(t, dev)
			if total-total0 != 3 {
				t.Fatalf("runtime added %d s, want 3", total-total0)
			}
			if seen < before || counted < before-1000 {
				t.Fatalf("last seen %d counted to %d, want both near %d", seen, counted, before)
			}
			if _, _, otherTotal := state(t, other); otherTotal-otherTotal0 != 2 {
				t.Fatalf("the other charger's runtime added %d s, want 2", otherTotal-otherTotal0)
			}
		})
		t.Run("a replaced connection's count changes nothing", func(t *testing.T) {
			seen0, _, total0 := state(t, dev)
			s.Seen(dev, "conn-old")
			flush(t, dev)
			if seen, _, total := state(t, dev); seen != seen0 || total != total0 {
				t.Fatalf("a stale connection moved last seen %d → %d, runtime %d → %d", seen0, seen, total0, total)
			}
		})
	})
}

// The newest admission wins in device_state (docs/gateway.md, "Connections"): a connection is
// recorded only when it is not older than the one recorded, whatever order the commits come in,
// and the end of an older one changes nothing.
func TestConnectedKeepsTheNewestConnection(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		o := fleettest.Seed(t, d)
		s, err := fleet.New(ctx, d, setting.NewStore(d), fleet.Options{DataDir: t.TempDir(), Location: time.UTC})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		fleettest.Device(t, d, o, o.CustomerA, o.SiteA, "ORDER-1")
		dev, err := s.DeviceBySN(ctx, "ORDER-1")
		if err != nil {
			t.Fatal(err)
		}
		older, newer := fleet.NewConnID(), fleet.NewConnID()
		state := func(t *testing.T) (online bool, conn string) {
			t.Helper()
			var on int
			if err := d.QueryRow(ctx, `SELECT online, conn_id FROM device_state WHERE device_id = ?`, dev.ID).Scan(&on, &conn); err != nil {
				t.Fatal(err)
			}
			return on == 1, conn
		}

		t.Run("ids order by admission", func(t *testing.T) {
			if !fleet.Older(older, newer) || fleet.Older(newer, older) || fleet.ConnOrder("conn-1") != 0 {
				t.Fatalf("order of %s, %s: %d %d", older, newer, fleet.ConnOrder(older), fleet.ConnOrder(newer))
			}
		})
		t.Run("an older connection committed later is refused", func(t *testing.T) {
			if err := s.Connected(ctx, dev, newer, "127.0.0.1:2", "ocpp1.6"); err != nil {
				t.Fatal(err)
			}
			if err := s.Connected(ctx, dev, older, "127.0.0.1:1", "ocpp1.6"); !errors.Is(err, fleet.ErrNewerConnection) {
				t.Fatalf("older connection recorded after the newer one: %v", err)
			}
			if online, conn := state(t); !online || conn != newer {
				t.Fatalf("device_state online %v conn %q, want the newer %q", online, conn, newer)
			}
		})
		t.Run("the older one's end changes nothing", func(t *testing.T) {
			s.Disconnected(ctx, dev, older)
			if online, conn := state(t); !online || conn != newer {
				t.Fatalf("after the older connection ended: online %v conn %q", online, conn)
			}
		})
		t.Run("after the newer one ended the older one is still refused", func(t *testing.T) {
			s.Disconnected(ctx, dev, newer)
			if online, _ := state(t); online {
				t.Fatal("still online after the newer connection ended")
			}
			if err := s.Connected(ctx, dev, older, "127.0.0.1:1", "ocpp1.6"); !errors.Is(err, fleet.ErrNewerConnection) {
				t.Fatalf("older connection recorded after the newer one ended: %v", err)
			}
			if online, conn := state(t); online || conn != newer {
				t.Fatalf("device_state online %v conn %q, want offline under %q", online, conn, newer)
			}
		})
		t.Run("a newer connection is recorded", func(t *testing.T) {
			newest := fleet.NewConnID()
			if err := s.Connected(ctx, dev, newest, "127.0.0.1:3", "ocpp1.6"); err != nil {
				t.Fatal(err)
			}
			if online, conn := state(t); !online || conn != newest {
				t.Fatalf("device_state online %v conn %q, want %q", online, conn, newest)
			}
		})
	})
}
