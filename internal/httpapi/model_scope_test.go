package httpapi_test

import (
	"bytes"
	"encoding/base64"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/device"
	"chargeops/internal/testutil"
	"chargeops/internal/testutil/apitest"
)

// modelItem is a model's item as the item list answers it.
type modelItem struct {
	ID              int64
	ControlTypeCode int
	ControlLevel    int
}

func modelItems(t *testing.T, c *apitest.Client, model int64) []modelItem {
	t.Helper()
	var items []modelItem
	apitest.Must(t, c.Call("POST", "/api/auth/sys/dev/model/item/list", map[string]any{"modelId": model})).Into(t, &items)
	return items
}

// importFile is the import template with rows filled in, base64 as the import call takes it.
func importFile(t *testing.T, rows ...[]any) string {
	t.Helper()
	tpl, err := device.Template("en-US")
	if err != nil {
		t.Fatal(err)
	}
	f, err := excelize.OpenReader(bytes.NewReader(tpl))
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range rows {
		cell, _ := excelize.CoordinatesToCellName(1, i+2)
		if err := f.SetSheetRow("Devices", cell, &r); err != nil {
			t.Fatal(err)
		}
	}
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		t.Fatal(err)
	}
	return base64.StdEncoding.EncodeToString(buf.Bytes())
}

// TestDeviceModelOwnership: platform models change only with the unlimited scope, a
// customer's models stay within that customer, and devices use only the models of their own
// customer or the platform's (docs/decisions.md#device-models).
func TestDeviceModelOwnership(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		o := newOrg(t, d)
		// The shared model of newOrg is a platform model; root gives it a firmware control at level 3.
		firmware := id(t, o.root.Call("POST", "/api/auth/sys/dev/model/item/add", map[string]any{"modelId": o.model, "kind": "control",
			"controlName": "Firmware upgrade", "controlTypeCode": 5, "controlLevel": 3}))
		platformAlias := id(t, o.root.Call("POST", "/api/auth/sys/dev/model/alias/add", map[string]any{"modelId": o.model, "alias": "GW-AC7"}))

		t.Run("a customer admin reads a platform model but cannot change it, its items or its aliases", func(t *testing.T) {
			apitest.Must(t, o.b.Call("GET", "/api/auth/sys/dev/model/detail", map[string]any{"id": o.model}))
			if items := modelItems(t, o.b, o.model); len(items) != 1 {
				t.Fatalf("B reads the platform model's items as %+v", items)
			}
			for _, call := range []struct {
				path string
				body map[string]any
			}{
				{"/api/auth/sys/dev/model/item/update", map[string]any{"id": firmware, "controlName": "Firmware upgrade", "controlTypeCode": 5, "controlLevel": 5}},
				{"/api/auth/sys/dev/model/item/add", map[string]any{"modelId": o.model, "kind": "control", "controlName": "Soft reboot", "controlTypeCode": 1, "controlLevel": 5}},
				{"/api/auth/sys/dev/model/item/delete", map[string]any{"ids": []int64{firmware}}},
				{"/api/auth/sys/dev/model/update", map[string]any{"id": o.model, "name": "AC-7kW", "deviceType": 1}},
				{"/api/auth/sys/dev/model/delete", map[string]any{"ids": []int64{o.model}}},
				{"/api/auth/sys/dev/model/alias/add", map[string]any{"modelId": o.model, "alias": "B-ALIAS"}},
				{"/api/auth/sys/dev/model/alias/delete", map[string]any{"ids": []int64{platformAlias}}},
			} {
				if a := o.b.Call("POST", call.path, call.body); a.Code != apperr.NoPermission {
					t.Errorf("B %s %v: %d %q, want %d", call.path, call.body, a.Code, a.Message, apperr.NoPermission)
				}
			}
			if items := modelItems(t, o.root, o.model); len(items) != 1 || items[0].ControlLevel != 3 {
				t.Fatalf("the platform model's firmware control changed: %+v", items)
			}
		})

		var modelA, modelB int64
		t.Run("a customer's model is invisible and unchangeable to another customer", func(t *testing.T) {
			// A names no owner: the model is A's.
			modelA = id(t, o.a.Call("POST", "/api/auth/sys/dev/model/add", map[string]any{"name": "Alpha AC", "deviceType": 2}))
			var m struct{ CustomerID int64 }
			apitest.Must(t, o.a.Call("GET", "/api/auth/sys/dev/model/detail", map[string]any{"id": modelA})).Into(t, &m)
			if m.CustomerID != o.custA {
				t.Fatalf("A's model belongs to customer %d, want %d", m.CustomerID, o.custA)
			}
			itemA := id(t, o.a.Call("POST", "/api/auth/sys/dev/model/item/add", map[string]any{"modelId": modelA, "kind": "control",
				"controlName": "Firmware upgrade", "controlTypeCode": 5, "controlLevel": 3}))
			aliasA := id(t, o.a.Call("POST", "/api/auth/sys/dev/model/alias/add", map[string]any{"modelId": modelA, "alias": "ALPHA-AC"}))
			for _, id := range listIDs(t, o.b, "/api/auth/sys/dev/model/list", map[string]any{}) {
				if id == modelA {
					t.Fatal("B lists A's model")
				}
			}
			for _, id := range listIDs(t, o.b, "/api/auth/sys/dev/model/alias/list", map[string]any{}) {
				if id == aliasA {
					t.Fatal("B lists A's alias")
				}
			}
			for _, call := range []struct {
				method, path string
				body         map[string]any
			}{
				{"GET", "/api/auth/sys/dev/model/detail", map[string]any{"id": modelA}},
				{"POST", "/api/auth/sys/dev/model/item/list", map[string]any{"modelId": modelA}},
				{"POST", "/api/auth/sys/dev/model/update", map[string]any{"id": modelA, "name": "Hijacked", "deviceType": 2}},
				{"POST", "/api/auth/sys/dev/model/delete", map[string]any{"ids": []int64{modelA}}},
				{"POST", "/api/auth/sys/dev/model/item/add", map[string]any{"modelId": modelA, "kind": "control", "controlName": "Soft reboot", "controlTypeCode": 1, "controlLevel": 1}},
				{"POST", "/api/auth/sys/dev/model/item/update", map[string]any{"id": itemA, "controlName": "Firmware upgrade", "controlTypeCode": 5, "controlLevel": 5}},
				{"POST", "/api/auth/sys/dev/model/item/delete", map[string]any{"ids": []int64{itemA}}},
				{"POST", "/api/auth/sys/dev/model/alias/add", map[string]any{"modelId": modelA, "alias": "B-ALIAS"}},
				{"POST", "/api/auth/sys/dev/model/alias/delete", map[string]any{"ids": []int64{aliasA}}},
				{"POST", "/api/auth/sys/dev/model/add", map[string]any{"name": "Planted", "deviceType": 2, "customerId": o.custA}},
			} {
				if a := o.b.Call(call.method, call.path, call.body); a.Code != apperr.NotFound {
					t.Errorf("B %s %s %v: %d %q, want %d", call.method, call.path, call.body, a.Code, a.Message, apperr.NotFound)
				}
			}
			if items := modelItems(t, o.a, modelA); len(items) != 1 || items[0].ControlLevel != 3 {
				t.Fatalf("A's firmware control changed: %+v", items)
			}
			// A batch with one id of A's among B's own is refused whole.
			modelB = id(t, o.b.Call("POST", "/api/auth/sys/dev/model/add", map[string]any{"name": "Beta AC", "deviceType": 2}))
			own := id(t, o.b.Call("POST", "/api/auth/sys/dev/model/alias/add", map[string]any{"modelId": modelB, "alias": "BETA-AC"}))
			apitest.WantCode(t, o.b.Call("POST", "/api/auth/sys/dev/model/alias/delete", map[string]any{"ids": []int64{own, aliasA}}), apperr.NotFound)
			if ids := listIDs(t, o.b, "/api/auth/sys/dev/model/alias/list", map[string]any{"alias": "BETA-AC"}); len(ids) != 1 {
				t.Fatalf("a refused batch deleted B's own alias: %v", ids)
			}
		})

		t.Run("a device uses a platform model or one of its own customer", func(t *testing.T) {
			apitest.Must(t, o.a.Call("POST", "/api/auth/sys/dev/basic/add", map[string]any{"sn": "ALPHA-0002", "name": "Alpha 2", "modelId": modelA, "siteId": o.siteA}))
			apitest.WantCode(t, o.root.Call("POST", "/api/auth/sys/dev/basic/add", map[string]any{"sn": "BETA-0002", "name": "Beta 2", "modelId": modelA, "siteId": o.siteB}), apperr.Invalid)
			apitest.WantCode(t, o.root.Call("POST", "/api/auth/sys/dev/basic/update", map[string]any{"id": o.devB, "sn": "BETA-0001", "name": "Beta 1", "modelId": modelA, "siteId": o.siteB}), apperr.Invalid)
			a := o.b.Call("POST", "/api/auth/sys/dev/basic/import", map[string]any{"fileName": "d.xlsx", "content": importFile(t, []any{"BETA-0003", "Beta 3", "Alpha AC", "B-KL"})})
			if a.Code != apperr.Invalid || !strings.Contains(a.Message, "row 2") {
				t.Fatalf("B imports a device of A's model: %d %q", a.Code, a.Message)
			}
			// Nor may a customer's model descend from another customer's.
			apitest.WantCode(t, o.root.Call("POST", "/api/auth/sys/dev/model/add", map[string]any{"name": "Beta child", "deviceType": 2, "customerId": o.custB, "parentId": modelA}), apperr.Invalid)
			var dev struct{ ModelID int64 }
			apitest.Must(t, o.root.Call("GET", "/api/auth/sys/dev/basic/detail", map[string]any{"id": o.devB})).Into(t, &dev)
			if dev.ModelID != o.model {
				t.Fatalf("B's device now uses model %d", dev.ModelID)
			}
		})

		t.Run("a model name does not reveal another customer's model", func(t *testing.T) {
			clash := o.b.Call("POST", "/api/auth/sys/dev/model/add", map[string]any{"name": "Alpha AC", "deviceType": 2})
			aliasClash := o.b.Call("POST", "/api/auth/sys/dev/model/alias/add", map[string]any{"modelId": modelB, "alias": "ALPHA-AC"})
			for _, a := range []apitest.Answer{clash, aliasClash} {
				if a.Code != apperr.Invalid || strings.Contains(a.Message, "exists") {
					t.Errorf("a clash with A's model answers B %d %q", a.Code, a.Message)
				}
			}
			apitest.WantCode(t, o.a.Call("POST", "/api/auth/sys/dev/model/add", map[string]any{"name": "Alpha AC", "deviceType": 2}), apperr.Conflict)
		})
	})
}

// TestDeviceSNClashAcrossCustomers: SNs and names stay unique across the platform, but a clash
// with another customer's device does not say that it exists, and the attempt is logged.
func TestDeviceSNClashAcrossCustomers(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		o := newOrg(t, d)
		neutral := func(t *testing.T, a apitest.Answer) {
			t.Helper()
			if a.Code != apperr.Invalid || strings.Contains(a.Message, "exist") || strings.Contains(a.Message, "Alpha") {
				t.Fatalf("the clash answers %d %q, want a neutral %d", a.Code, a.Message, apperr.Invalid)
			}
		}
		t.Run("another customer's SN or name gets a neutral refusal", func(t *testing.T) {
			neutral(t, o.b.Call("POST", "/api/auth/sys/dev/basic/add", map[string]any{"sn": "ALPHA-0001", "name": "Beta 2", "modelId": o.model, "siteId": o.siteB}))
			neutral(t, o.b.Call("POST", "/api/auth/sys/dev/basic/add", map[string]any{"sn": "BETA-0002", "name": "Alpha 1", "modelId": o.model, "siteId": o.siteB}))
			neutral(t, o.b.Call("POST", "/api/auth/sys/dev/basic/update", map[string]any{"id": o.devB, "sn": "BETA-0001", "name": "Alpha 1", "modelId": o.model, "siteId": o.siteB}))
			a := o.b.Call("POST", "/api/auth/sys/dev/basic/import", map[string]any{"fileName": "d.xlsx", "content": importFile(t, []any{"ALPHA-0001", "Beta 9", "AC-7kW", "B-KL"})})
			neutral(t, a)
			if !strings.Contains(a.Message, "row 2") {
				t.Fatalf("the import does not name the row: %q", a.Message)
			}
		})
		t.Run("a clash within the caller's scope still says it exists", func(t *testing.T) {
			a := o.a.Call("POST", "/api/auth/sys/dev/basic/add", map[string]any{"sn": "ALPHA-0001", "name": "Alpha 2", "modelId": o.model, "siteId": o.siteA})
			if a.Code != apperr.Conflict || !strings.Contains(a.Message, "already exists") {
				t.Fatalf("A's own clash answers %d %q", a.Code, a.Message)
			}
			apitest.WantCode(t, o.a.Call("POST", "/api/auth/sys/dev/basic/add", map[string]any{"sn": "ALPHA-0002", "name": "Alpha 1", "modelId": o.model, "siteId": o.siteA}), apperr.Conflict)
		})
		t.Run("the refused attempt is in the action log", func(t *testing.T) {
			logs := actionRows(t, o.root, map[string]any{"userName": "beta_admin"})
			for _, l := range logs {
				if l.Action == "POST /api/auth/sys/dev/basic/add" && l.Code == apperr.Invalid && strings.Contains(l.Data, "ALPHA-0001") {
					return
				}
			}
			t.Fatalf("B's attempt with A's SN is not in the action log: %+v", logs)
		})
	})
}
