package demo_test

import (
	"context"
	"testing"

	"chargeops/internal/access"
	"chargeops/internal/app"
	"chargeops/internal/config"
	"chargeops/internal/db"
	"chargeops/internal/demo"
	"chargeops/internal/device"
	"chargeops/internal/testutil"
)

func TestSeedBuildsTheDemoOrganisationOnce(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		cfg := config.Default()
		cfg.MQTTAddr = "127.0.0.1:0" // the embedded broker on a free port, beside any broker on 1883
		cfg.DataDir = t.TempDir()    // the demo's uploads and files
		a, err := app.New(ctx, cfg, d, nil)
		if err != nil {
			t.Fatal(err)
		}
		accounts, sns, err := demo.Seed(ctx, a)
		if err != nil {
			t.Fatal(err)
		}
		if len(accounts) != 5 || len(sns) < 45 || len(sns) > 60 {
			t.Fatalf("%d accounts, %d devices", len(accounts), len(sns))
		}
		// the chargers it returns, and its storage units (storage.go), which are no OCPP chargers
		list, err := a.Devices.List(ctx, &access.Principal{Scope: access.FullScope()}, device.ListFilter{})
		storage := testutil.Count(t, d, `SELECT COUNT(*) FROM device d JOIN device_model m ON m.id = d.model_id WHERE m.device_type IN (4, 5)`)
		if err != nil || storage != 5 || list.Total != int64(len(sns)+storage) {
			t.Fatalf("devices %d (%d storage units), %v", list.Total, storage, err)
		}
		t.Run("the storage units have keys and a day of readings", func(t *testing.T) {
			if n := testutil.Count(t, d, `SELECT COUNT(*) FROM device d JOIN device_model m ON m.id = d.model_id WHERE m.device_type IN (4, 5) AND d.auth_key_hash <> ''`); n != 5 {
				t.Fatalf("%d storage units with a key", n)
			}
			if n := testutil.Count(t, d, `SELECT COUNT(*) FROM device_series s JOIN device d ON d.id = s.device_id WHERE d.sn = 'SZ-NS-ESS1' AND s.name = 'Battery.SoC'`); n < 280 {
				t.Fatalf("%d SoC points in a day of 5-minute readings", n)
			}
			var charged, discharged int
			_ = d.QueryRow(ctx, `SELECT COUNT(*) FROM device_series s JOIN device d ON d.id = s.device_id WHERE d.sn = 'SZ-NS-ESS1' AND s.name = 'Battery.Power' AND s.value < 0`).Scan(&charged)
			_ = d.QueryRow(ctx, `SELECT COUNT(*) FROM device_series s JOIN device d ON d.id = s.device_id WHERE d.sn = 'SZ-NS-ESS1' AND s.name = 'Battery.Power' AND s.value > 0`).Scan(&discharged)
			if charged == 0 || discharged == 0 {
				t.Fatalf("a day of a battery: %d readings charging, %d discharging", charged, discharged)
			}
		})
		t.Run("the simulated fleet reports its models and a mix of loads", func(t *testing.T) {
			o, err := demo.SimOptions(ctx, a, "ws://127.0.0.1:1/ocpp")
			if err != nil {
				t.Fatal(err)
			}
			if len(o.SNs) != len(sns) || o.FaultChance <= 0 || o.OfflineChance <= 0 {
				t.Fatalf("%d chargers of %d, fault chance %v, offline chance %v", len(o.SNs), len(sns), o.FaultChance, o.OfflineChance)
			}
			busy := map[float64]bool{}
			for _, sn := range o.SNs {
				p := o.Profiles[sn]
				var model string
				if err := d.QueryRow(ctx, `SELECT m.name FROM device d JOIN device_model m ON m.id = d.model_id WHERE d.sn = ?`, sn).Scan(&model); err != nil {
					t.Fatal(err)
				}
				if p.Model != model || p.Vendor == "" {
					t.Errorf("%s of model %s reports %q by %q", sn, model, p.Model, p.Vendor)
				}
				if dc := model == "DC-120kW"; dc && (!p.DC || p.MaxPowerW != 120000) {
					t.Errorf("%s: a DC-120kW charger meters %+v", sn, p)
				}
				if model == "AC-7kW" && p.DC {
					t.Errorf("%s: an AC charger meters DC", sn)
				}
				if p.Busy <= 0 || p.Busy >= 1 {
					t.Errorf("%s: busy %v", sn, p.Busy)
				}
				busy[p.Busy] = true
			}
			if len(busy) < 4 {
				t.Errorf("loads %v: every charger as busy as the next", busy)
			}
		})
		again, more, err := demo.Seed(ctx, a)
		if err != nil || again != nil || more != nil {
			t.Fatalf("second seed did something: %v %v %v", again, more, err)
		}
	})
}

func TestSeedNamesModelItemsInTheConsoleLanguage(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ locale, param, group, control, enum string }{
		{"en-US", "Heartbeat interval (s)", "Core", "Soft reboot", "Yes|true|boolean\nNo|false|boolean"},
		{"zh-CN", "心跳间隔（秒）", "基本参数", "软重启", "是|true|boolean\n否|false|boolean"},
	} {
		t.Run(tc.locale, func(t *testing.T) {
			testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
				ctx := context.Background()
				cfg := config.Default()
				cfg.MQTTAddr = "127.0.0.1:0" // the embedded broker on a free port, beside any broker on 1883
				cfg.DataDir = t.TempDir()
				cfg.DefaultLocale = tc.locale
				a, err := app.New(ctx, cfg, d, nil)
				if err != nil {
					t.Fatal(err)
				}
				if _, _, err := demo.Seed(ctx, a); err != nil {
					t.Fatal(err)
				}
				var group, param, control, enum string
				row := d.QueryRow(ctx, `SELECT
					(SELECT config_group FROM model_item WHERE protocol_key = 'HeartbeatInterval' LIMIT 1),
					(SELECT config_item FROM model_item WHERE protocol_key = 'HeartbeatInterval' LIMIT 1),
					(SELECT control_name FROM model_item WHERE control_type_code = 1 LIMIT 1),
					(SELECT data_range FROM model_item WHERE protocol_key = 'LocalAuthorizeOffline' LIMIT 1)`)
				if err := row.Scan(&group, &param, &control, &enum); err != nil {
					t.Fatal(err)
				}
				if group != tc.group || param != tc.param || control != tc.control || enum != tc.enum {
					t.Fatalf("seeded %q / %q / %q / %q", group, param, control, enum)
				}
			})
		})
	}
}
