package catalogue

import (
	"context"
	"strings"
	"testing"

	"chargeops/internal/db"
	"chargeops/internal/testutil"
)

// Every seeded group and data item has a name in both languages, and units are display units
// ("°C", not OCPP's "Celsius"): the console shows "label (unit)" in the user's language.
func TestSeededCatalogueIsNamedInBothLanguages(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		s, ctx := NewService(d), context.Background()
		groups, err := s.Groups(ctx, root, GroupFilter{Page: db.Page{Page: 1, PageSize: 100}})
		if err != nil || groups.Total == 0 {
			t.Fatalf("groups %+v, %v", groups, err)
		}
		items, err := s.Items(ctx, root, ItemFilter{Page: db.Page{Page: 1, PageSize: 100}})
		if err != nil || items.Total == 0 {
			t.Fatalf("items %+v, %v", items, err)
		}
		t.Run("every group has its Chinese name and description", func(t *testing.T) {
			for _, g := range groups.List {
				if g.NameZh == "" || g.DescriptionZh == "" {
					t.Errorf("group %s lacks its Chinese name or description", g.Name)
				}
			}
		})
		t.Run("every item has both labels and its group's Chinese name", func(t *testing.T) {
			for _, it := range items.List {
				if it.LabelEn == "" || it.LabelZh == "" || it.GroupNameZh == "" {
					t.Errorf("item %s: labels %q / %q, group %q", it.Name, it.LabelEn, it.LabelZh, it.GroupNameZh)
				}
			}
		})
		t.Run("units are display units", func(t *testing.T) {
			for _, it := range items.List {
				if it.Unit == "Celsius" {
					t.Errorf("item %s: unit Celsius, want °C", it.Name)
				}
			}
		})
	})
}

func TestItemLabelsRoundTripAndFindByLabel(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		s, ctx := NewService(d), context.Background()
		gid, err := s.AddGroup(ctx, root, GroupInput{Name: "Cabinet", NameZh: "机柜", Description: "Cabinet sensors", DescriptionZh: "机柜传感器"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.AddItem(ctx, root, ItemInput{GroupID: gid, Name: "Cabinet.Humidity", LabelEn: "Cabinet humidity", LabelZh: "机柜湿度", DataType: "int", Unit: "%"}); err != nil {
			t.Fatal(err)
		}
		t.Run("an item is found by its Chinese label with both labels and its group's name", func(t *testing.T) {
			got, err := s.Items(ctx, root, ItemFilter{Page: db.Page{Page: 1, PageSize: 10}, Name: "湿度"})
			if err != nil || got.Total != 1 {
				t.Fatalf("find by Chinese label: %+v, %v", got, err)
			}
			if it := got.List[0]; it.LabelEn != "Cabinet humidity" || it.LabelZh != "机柜湿度" || it.GroupNameZh != "机柜" {
				t.Fatalf("item %+v", it)
			}
		})
		t.Run("a label over 100 characters is refused", func(t *testing.T) {
			long := strings.Repeat("字", 101)
			if _, err := s.AddItem(ctx, root, ItemInput{Name: "Too.Long", LabelZh: long, DataType: "int"}); err == nil {
				t.Fatal("a 101-character label was accepted")
			}
		})
	})
}
