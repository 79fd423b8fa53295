package demo_test

import (
	"context"
	"reflect"
	"testing"

	"chargeops/internal/app"
	"chargeops/internal/config"
	"chargeops/internal/db"
	"chargeops/internal/demo"
	"chargeops/internal/testutil"
)

// A restarted demo lists the sign-ins that still exist (the seed prints them only once).
func TestSignInsListTheSeededAccounts(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		cfg := config.Default()
		cfg.DataDir = t.TempDir() // the demo's uploads and files
		a, err := app.New(ctx, cfg, d, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := a.Users.UpsertRoot(ctx, "admin_root", "Admin@12345"); err != nil {
			t.Fatal(err)
		}
		seeded, _, err := demo.Seed(ctx, a)
		if err != nil {
			t.Fatal(err)
		}
		t.Run("after a restart: the same accounts as the seed made", func(t *testing.T) {
			root, accounts, err := demo.SignIns(ctx, a, "admin_root")
			if err != nil || !root || !reflect.DeepEqual(accounts, seeded) {
				t.Fatalf("root %v, accounts %v, want %v (%v)", root, accounts, seeded, err)
			}
		})
		t.Run("deleted or disabled accounts are not listed", func(t *testing.T) {
			if _, err := d.Exec(ctx, `DELETE FROM app_user WHERE user_name = ?`, "sz_staff"); err != nil {
				t.Fatal(err)
			}
			if _, err := d.Exec(ctx, `UPDATE app_user SET status = 0 WHERE user_name IN (?, ?)`, "hk_engineer", "admin_root"); err != nil {
				t.Fatal(err)
			}
			root, accounts, err := demo.SignIns(ctx, a, "admin_root")
			var names []string
			for _, acc := range accounts {
				names = append(names, acc.UserName)
			}
			if err != nil || root || !reflect.DeepEqual(names, []string{"platform_admin", "hk_staff", "futian_admin"}) {
				t.Fatalf("root %v, accounts %v (%v)", root, names, err)
			}
		})
	})
}
