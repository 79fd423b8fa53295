package fleet_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/fleet"
	"chargeops/internal/setting"
	"chargeops/internal/testutil"
)

// TestBlacklistAddTwice: an SN is blacklisted once; adding it again is a conflict found by the
// key's name (device_blacklist_sn_key, kit.IsClash) on both databases, and leaves one row.
func TestBlacklistAddTwice(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		s, err := fleet.New(ctx, d, setting.NewStore(d), fleet.Options{DataDir: t.TempDir(), Location: time.UTC})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		root := &access.Principal{Root: true, Scope: access.FullScope()}

		t.Run("the first add is stored", func(t *testing.T) {
			if _, err := s.BlacklistAdd(ctx, root, "BL-TWICE-01", "", ""); err != nil {
				t.Fatal(err)
			}
		})
		t.Run("the second is a conflict naming the blacklist", func(t *testing.T) {
			_, err := s.BlacklistAdd(ctx, root, "BL-TWICE-01", "", "")
			var ae *apperr.Error
			if !errors.As(err, &ae) || ae.Code != apperr.Conflict || ae.Key != "err.blacklist_exists" {
				t.Fatalf("second add: %v, want the err.blacklist_exists conflict", err)
			}
			if n := testutil.Count(t, d, `SELECT COUNT(*) FROM device_blacklist WHERE sn = ?`, "BL-TWICE-01"); n != 1 {
				t.Fatalf("%d rows for the SN, want 1", n)
			}
		})
	})
}
