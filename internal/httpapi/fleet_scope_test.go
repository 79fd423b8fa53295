package httpapi_test

import (
	"bytes"
	"context"
	"net/http"
	"slices"
	"testing"

	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/fleet"
	"chargeops/internal/testutil"
	"chargeops/internal/testutil/apitest"
)

// grantOrg gives the customer admins of newOrg more keys; changing the role ends their
// sessions, so both log in again.
func grantOrg(t *testing.T, o *org, keys ...string) {
	t.Helper()
	var roleID int64
	if err := o.env.DB.QueryRow(context.Background(), `SELECT role_id FROM app_user WHERE id = ?`, o.userA).Scan(&roleID); err != nil {
		t.Fatal(err)
	}
	apitest.Must(t, o.root.Call("POST", "/api/auth/sys/role/auth/menu", map[string]any{"id": roleID, "keys": append(slices.Clone(orgKeys), keys...)}))
	o.a = o.env.Client().MustLogin("alpha_admin", "Scope#Pass123")
	o.b = o.env.Client().MustLogin("beta_admin", "Scope#Pass123")
}

// uploadFirmware registers a firmware file as c (customerID 0: the default owner) and PUTs its
// bytes.
func uploadFirmware(t *testing.T, o *org, c *apitest.Client, name string, customerID int64) int64 {
	t.Helper()
	var fw struct {
		ID        int64
		UploadURL string
	}
	apitest.Must(t, c.Call("POST", "/api/auth/sys/dev/firmware/add", map[string]any{"name": name, "customerId": customerID})).Into(t, &fw)
	req, err := http.NewRequest("PUT", o.env.URL+fw.UploadURL, bytes.NewReader([]byte("firmware "+name)))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("upload %s: HTTP %d", name, resp.StatusCode)
	}
	return fw.ID
}

func sameIDs(got []int64, want ...int64) bool {
	slices.Sort(got)
	slices.Sort(want)
	return slices.Equal(got, want)
}

// A customer's firmware is its own: another customer neither lists, downloads nor installs it.
func TestFirmwareFilesAreScoped(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		o := newOrg(t, d)
		fwA := uploadFirmware(t, o, o.a, "alpha.bin", 0)
		fwB := uploadFirmware(t, o, o.b, "beta.bin", 0)
		fwPlatform := uploadFirmware(t, o, o.root, "platform.bin", 0)
		fwForB := uploadFirmware(t, o, o.root, "beta-by-root.bin", o.custB)
		const list = "/api/auth/sys/dev/firmware/list"

		t.Run("lists hold platform files and the caller's customers' files", func(t *testing.T) {
			if got := listIDs(t, o.a, list, nil); !sameIDs(got, fwA, fwPlatform) {
				t.Errorf("A lists %v, want [%d %d]", got, fwA, fwPlatform)
			}
			if got := listIDs(t, o.b, list, nil); !sameIDs(got, fwB, fwPlatform, fwForB) {
				t.Errorf("B lists %v, want [%d %d %d]", got, fwB, fwPlatform, fwForB)
			}
			if got := listIDs(t, o.root, list, nil); len(got) != 4 {
				t.Errorf("root lists %v, want all 4", got)
			}
		})
		t.Run("another customer's file has no download link", func(t *testing.T) {
			apitest.WantCode(t, o.a.Call("GET", "/api/auth/sys/dev/file/url", map[string]any{"id": fwB}), apperr.NotFound)
			apitest.WantCode(t, o.a.Call("GET", "/api/auth/sys/dev/file/url", map[string]any{"id": fwForB}), apperr.NotFound)
			apitest.Must(t, o.a.Call("GET", "/api/auth/sys/dev/file/url", map[string]any{"id": fwA}))
			apitest.Must(t, o.a.Call("GET", "/api/auth/sys/dev/file/url", map[string]any{"id": fwPlatform}))
		})
		t.Run("a firmware is installed only on devices of its customer, a platform file on any", func(t *testing.T) {
			send := func(c *apitest.Client, device, firmware int64) apitest.Answer {
				return c.Call("POST", "/api/auth/sys/dev/control/send", map[string]any{"deviceIds": []int64{device}, "controlType": fleet.CtlUpdateFirmware,
					"params": map[string]any{"firmwareId": firmware}})
			}
			apitest.WantCode(t, send(o.a, o.devA, fwB), apperr.Invalid)
			apitest.WantCode(t, send(o.root, o.devA, fwB), apperr.Invalid)
			apitest.WantCode(t, send(o.root, o.devB, fwA), apperr.Invalid)
			apitest.Must(t, send(o.a, o.devA, fwA))
			apitest.Must(t, send(o.b, o.devB, fwPlatform))
		})
		t.Run("a customer-limited caller cannot upload for another customer", func(t *testing.T) {
			apitest.WantCode(t, o.a.Call("POST", "/api/auth/sys/dev/firmware/add", map[string]any{"name": "intruder.bin", "customerId": o.custB}), apperr.NotFound)
		})
		t.Run("a diagnostics file belongs to its device's customer", func(t *testing.T) {
			diag, err := db.InsertID(context.Background(), d, `INSERT INTO fleet_file (kind, customer_id, device_id, name, path, complete, created_by, created_at) VALUES (?, ?, ?, ?, ?, 1, ?, ?)`,
				fleet.FileDiagnostics, o.custB, o.devB, "diag.log", "/nonexistent", "BETA-0001", db.NowMS())
			if err != nil {
				t.Fatal(err)
			}
			apitest.WantCode(t, o.a.Call("POST", "/api/auth/sys/dev/diagnostics/list", map[string]any{"deviceId": o.devB}), apperr.NotFound)
			apitest.WantCode(t, o.a.Call("GET", "/api/auth/sys/dev/file/url", map[string]any{"id": diag}), apperr.NotFound)
			if got := listIDs(t, o.b, "/api/auth/sys/dev/diagnostics/list", map[string]any{"deviceId": o.devB}); !sameIDs(got, diag) {
				t.Errorf("B lists diagnostics %v, want [%d]", got, diag)
			}
			apitest.Must(t, o.b.Call("GET", "/api/auth/sys/dev/file/url", map[string]any{"id": diag}))
		})
	})
}

// Blacklist, refusals and pending devices: known SNs follow their device's customer, unknown
// SNs are the platform's.
func TestBlacklistRefusalsAndPendingAreScoped(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		o := newOrg(t, d)
		grantOrg(t, o, "auth_black_device", "auth_logs_protocol")
		ctx := context.Background()
		f := o.env.App.Fleet
		f.RecordRefusal(ctx, fleet.Attempt{SN: "ALPHA-0001", Addr: "10.0.0.1", Protocol: "ocpp1.6"}, fleet.RefuseWrongKey)
		f.RecordRefusal(ctx, fleet.Attempt{SN: "BETA-0001", Addr: "10.0.0.2", Protocol: "ocpp1.6"}, fleet.RefuseWrongKey)
		f.RecordRefusal(ctx, fleet.Attempt{SN: "STRANGER-01", Addr: "10.0.0.3", Protocol: "ocpp1.6"}, fleet.RefuseUnknown)
		const add, list, del = "/api/auth/sys/dev/blacklist/add", "/api/auth/sys/dev/blacklist/list", "/api/auth/sys/dev/blacklist/delete"

		t.Run("a customer cannot blacklist another customer's charger or an unknown SN", func(t *testing.T) {
			apitest.WantCode(t, o.a.Call("POST", add, map[string]any{"sn": "BETA-0001"}), apperr.NotFound)
			apitest.WantCode(t, o.a.Call("POST", add, map[string]any{"sn": "STRANGER-01"}), apperr.NotFound)
			if got := listIDs(t, o.root, list, nil); len(got) != 0 {
				t.Fatalf("blacklist after refused adds: %v", got)
			}
		})
		own := id(t, o.a.Call("POST", add, map[string]any{"sn": "ALPHA-0001"}))
		beta := id(t, o.root.Call("POST", add, map[string]any{"sn": "BETA-0001"}))
		stranger := id(t, o.root.Call("POST", add, map[string]any{"sn": "STRANGER-02"}))

		t.Run("blacklists hold only the caller's chargers", func(t *testing.T) {
			if got := listIDs(t, o.a, list, nil); !sameIDs(got, own) {
				t.Errorf("A lists %v, want [%d]", got, own)
			}
			if got := listIDs(t, o.b, list, nil); !sameIDs(got, beta) {
				t.Errorf("B lists %v, want [%d]", got, beta)
			}
			if got := listIDs(t, o.root, list, nil); !sameIDs(got, own, beta, stranger) {
				t.Errorf("root lists %v", got)
			}
		})
		t.Run("deleting others' entries is not found and removes nothing", func(t *testing.T) {
			apitest.WantCode(t, o.a.Call("POST", del, map[string]any{"ids": []int64{beta}}), apperr.NotFound)
			apitest.WantCode(t, o.a.Call("POST", del, map[string]any{"ids": []int64{stranger}}), apperr.NotFound)
			apitest.WantCode(t, o.a.Call("POST", del, map[string]any{"ids": []int64{own, beta}}), apperr.NotFound)
			if got := listIDs(t, o.root, list, nil); !sameIDs(got, own, beta, stranger) {
				t.Fatalf("after refused deletes root lists %v", got)
			}
			apitest.Must(t, o.a.Call("POST", del, map[string]any{"ids": []int64{own}}))
		})
		t.Run("refusals show only the caller's chargers", func(t *testing.T) {
			var out struct{ List []fleet.Refusal }
			apitest.Must(t, o.a.Call("POST", "/api/auth/sys/dev/refusal/list", map[string]any{})).Into(t, &out)
			if len(out.List) != 1 || out.List[0].SN != "ALPHA-0001" {
				t.Errorf("A sees refusals %+v", out.List)
			}
			apitest.Must(t, o.root.Call("POST", "/api/auth/sys/dev/refusal/list", map[string]any{})).Into(t, &out)
			if len(out.List) != 3 {
				t.Errorf("root sees refusals %+v", out.List)
			}
		})
		t.Run("unknown SNs pending are the platform's", func(t *testing.T) {
			var out struct{ List []fleet.PendingDevice }
			apitest.WantCode(t, o.a.Call("POST", "/api/auth/sys/dev/pending/list", map[string]any{}), apperr.NoPermission)
			apitest.Must(t, o.root.Call("POST", "/api/auth/sys/dev/pending/list", map[string]any{})).Into(t, &out)
			if len(out.List) != 1 || out.List[0].SN != "STRANGER-01" {
				t.Errorf("root sees pending devices %+v", out.List)
			}
		})
	})
}

// The gateway's counters are node-wide: only platform callers read them.
func TestGatewayStatsArePlatformOnly(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		o := newOrg(t, d)
		grantOrg(t, o, "auth_system_dashboard")
		const stats = "/api/auth/sys/dev/gateway/stats"
		t.Run("a customer-limited caller is refused", func(t *testing.T) {
			apitest.WantCode(t, o.a.Call("GET", stats, nil), apperr.NoPermission)
		})
		t.Run("a platform caller with the full scope reads them", func(t *testing.T) {
			_, roleID := o.env.CreateUser(o.root, "platform_ops", "Plat#Pass123", "auth_system_dashboard")
			apitest.Must(t, o.root.Call("POST", "/api/auth/sys/role/auth/data", map[string]any{"id": roleID, "customerAccess": 0, "siteAccess": 0,
				"webSshLevel": 5, "cfgReadLevel": 5, "cfgWriteLevel": 5, "cfgDownloadLevel": 5, "paramLevel": 5, "docLevel": 5, "attachLevel": 5}))
			ops := o.env.Client().MustLogin("platform_ops", "Plat#Pass123")
			apitest.Must(t, ops.Call("GET", stats, nil))
			apitest.Must(t, o.root.Call("GET", stats, nil))
		})
	})
}
