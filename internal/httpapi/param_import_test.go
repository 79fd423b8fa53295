package httpapi_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"testing"

	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/fleet"
	"chargeops/internal/fleet/fleettest"
	"chargeops/internal/testutil"
	"chargeops/internal/testutil/apitest"
)

// TestParamImportOnlyJSON: the device parameter import reads a JSON file of at most 5 MB, by its
// content and its name, into the device's writable items with the file's values; anything else
// is "Upload file format error, only JSON" (localised) or names what is wrong, and nothing is
// changed.
func TestParamImportOnlyJSON(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		env := apitest.New(t, d, nil)
		root := env.Root()
		org := fleettest.Seed(t, d)
		dev := fleettest.Device(t, d, org, org.CustomerA, org.SiteA, "SN-PARAMS")
		ctx := context.Background()
		for _, row := range []struct {
			key, value string
			readonly   int
		}{{"HeartbeatInterval", "60", 0}, {"MeterValueSampleInterval", "30", 0}, {"NumberOfConnectors", "2", 1}} {
			if _, err := d.Exec(ctx, `INSERT INTO device_config (device_id, key, value, readonly, updated_at) VALUES (?, ?, ?, ?, ?)`, dev, row.key, row.value, row.readonly, db.NowMS()); err != nil {
				t.Fatal(err)
			}
		}
		send := func(c *apitest.Client, name string, content []byte) apitest.Answer {
			return c.Call("POST", "/api/auth/sys/dev/config/import", map[string]any{"deviceId": dev, "fileName": name, "content": base64.StdEncoding.EncodeToString(content)})
		}
		wantMsg := func(t *testing.T, a apitest.Answer, code int, msg string) {
			t.Helper()
			if a.Code != code || a.Message != msg {
				t.Fatalf("got %d %q, want %d %q", a.Code, a.Message, code, msg)
			}
		}
		t.Run("an object and a list are read in file order, numbers as text", func(t *testing.T) {
			for name, body := range map[string]string{
				"object": "\xef\xbb\xbf{\"meterValueSampleInterval\": 15, \"HeartbeatInterval\": \"120\"}",
				"list":   `[{"key": "meterValueSampleInterval", "value": 15}, {"key": "HeartbeatInterval", "value": "120"}]`,
			} {
				var items []fleet.ConfigItem
				apitest.Must(t, send(root, "params.JSON", []byte(body))).Into(t, &items)
				if len(items) != 2 || items[0].Key != "MeterValueSampleInterval" || items[0].Value != "15" || items[1].Value != "120" || !items[1].Writable {
					t.Fatalf("%s: %+v", name, items)
				}
			}
			var v string
			if err := d.QueryRow(ctx, `SELECT value FROM device_config WHERE device_id = ? AND key = ?`, dev, "HeartbeatInterval").Scan(&v); err != nil || v != "60" {
				t.Fatalf("the import changed the stored value: %q %v", v, err)
			}
		})
		t.Run("not JSON: by name or by content, in both languages", func(t *testing.T) {
			const en, zh = "Upload file format error, only JSON", "上传文件格式错误，仅支持 JSON"
			wantMsg(t, send(root, "params.txt", []byte(`{"HeartbeatInterval": "120"}`)), apperr.Invalid, en)
			wantMsg(t, send(root, "params.json", []byte("PK\x03\x04 an xlsx")), apperr.Invalid, en)
			wantMsg(t, send(root, "params.json", []byte(`{"HeartbeatInterval": "120"`)), apperr.Invalid, en)
			wantMsg(t, send(root, "params.json", []byte(`"just a string"`)), apperr.Invalid, en)
			wantMsg(t, send(root, "params.json", []byte(`{"HeartbeatInterval": {"nested": 1}}`)), apperr.Invalid, en)
			wantMsg(t, send(root, "params.json", []byte(`{"HeartbeatInterval": "1", "heartbeatinterval": "2"}`)), apperr.Invalid, en)
			a := root.Call("POST", "/api/auth/sys/dev/config/import", map[string]any{"deviceId": dev, "fileName": "p.json", "content": "%%% not base64"})
			wantMsg(t, a, apperr.Invalid, en)
			root.Locale = "zh-CN"
			defer func() { root.Locale = "en-US" }()
			wantMsg(t, send(root, "params.xlsx", []byte(`{}`)), apperr.Invalid, zh)
		})
		t.Run("over 5 MB", func(t *testing.T) {
			big := append([]byte(`{"HeartbeatInterval": "`), bytes.Repeat([]byte("9"), fleet.MaxParamFile)...)
			big = append(big, `"}`...)
			wantMsg(t, send(root, "params.json", big), apperr.Invalid, "File size cannot exceed 5MB")
		})
		t.Run("empty, and keys the device cannot take, are named", func(t *testing.T) {
			wantMsg(t, send(root, "params.json", []byte(`{}`)), apperr.Invalid, "The imported data is empty")
			wantMsg(t, send(root, "params.json", []byte(`{"HeartbeatInterval": "120", "NumberOfConnectors": "4", "NoSuchKey": "1"}`)),
				apperr.Invalid, "These parameters cannot be set on this device: NumberOfConnectors, NoSuchKey")
		})
		t.Run("another customer's device is not found; a level below the item's names it", func(t *testing.T) {
			other := fleettest.Device(t, d, org, org.CustomerB, org.SiteB, "SN-PARAMS-B")
			uid, roleID := env.CreateUser(root, "params_a", "Para#Pass123", "auth_device", "auth_device_edit")
			if _, err := d.Exec(ctx, `UPDATE role SET customer_access = 1, site_access = 0 WHERE id = ?`, roleID); err != nil {
				t.Fatal(err)
			}
			if _, err := d.Exec(ctx, `UPDATE app_user SET customer_id = ? WHERE id = ?`, org.CustomerA, uid); err != nil {
				t.Fatal(err)
			}
			c := env.Client().MustLogin("params_a", "Para#Pass123")
			// its own customer's device: found, but the role's parameter level does not reach the item
			wantMsg(t, send(c, "p.json", []byte(`{"HeartbeatInterval": "1"}`)), apperr.Invalid, "These parameters cannot be set on this device: HeartbeatInterval")
			a := c.Call("POST", "/api/auth/sys/dev/config/import", map[string]any{"deviceId": other, "fileName": "p.json", "content": base64.StdEncoding.EncodeToString([]byte(`{"HeartbeatInterval": "1"}`))})
			apitest.WantCode(t, a, apperr.NotFound)
		})
	})
}
