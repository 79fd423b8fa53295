package httpapi_test

import (
	"testing"

	"chargeops/internal/db"
	"chargeops/internal/devmodel"
	"chargeops/internal/testutil"
	"chargeops/internal/testutil/apitest"
)

// TestStorageTemplateAddsWhatAModelLacks: the storage template's items go to a model in one
// call, named in the caller's language; a second call adds nothing, and an item the model
// already lists (the power setpoint at another level) is kept as it is.
func TestStorageTemplateAddsWhatAModelLacks(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		env := apitest.New(t, d, nil)
		root := env.Root()
		var m struct{ ID int64 }
		apitest.Must(t, root.Call("POST", "/api/auth/sys/dev/model/add", map[string]any{"name": "BESS template", "deviceType": devmodel.TypePower})).Into(t, &m)
		apitest.Must(t, root.Call("POST", "/api/auth/sys/dev/model/item/add", map[string]any{"modelId": m.ID, "kind": "control",
			"controlName": "Setpoint", "controlTypeCode": 29, "controlLevel": 1}))
		var got struct{ Added int }
		zh := env.Root()
		zh.Locale = "zh-CN"
		apitest.Must(t, zh.Call("POST", "/api/auth/sys/dev/model/item/storage", map[string]any{"modelId": m.ID})).Into(t, &got)
		if want := len(devmodel.StorageItems(false)) - 1; got.Added != want {
			t.Fatalf("added %d items, want %d", got.Added, want)
		}
		apitest.Must(t, root.Call("POST", "/api/auth/sys/dev/model/item/storage", map[string]any{"modelId": m.ID})).Into(t, &got)
		if got.Added != 0 {
			t.Fatalf("a second call added %d", got.Added)
		}
		levels := map[int]int{}
		for _, it := range modelItems(t, root, m.ID) {
			levels[it.ControlTypeCode] = it.ControlLevel
		}
		for _, code := range []int{9, 11, 29, 30, 31, 32} {
			if _, ok := levels[code]; !ok {
				t.Errorf("control type %d missing", code)
			}
		}
		if levels[29] != 1 {
			t.Fatalf("the model's own setpoint item became level %d", levels[29])
		}
		if n := testutil.Count(t, d, `SELECT COUNT(*) FROM model_item WHERE model_id = ? AND kind = 'param' AND protocol_key = 'PeakLimitW' AND config_item = ?`,
			m.ID, "削峰限值 (W)"); n != 1 {
			t.Fatal("the items are not named in the caller's language")
		}
	})
}
