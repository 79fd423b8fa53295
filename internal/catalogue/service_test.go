package catalogue

import (
	"context"
	"strings"
	"testing"

	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/testutil"
)

// root changes the catalogue; limited is a customer's administrator, who only reads it.
var root, limited = testutil.Root(), testutil.Customers(7)

func TestGroupValidationNamesItsField(t *testing.T) {
	long := func(n int) string { return strings.Repeat("a", n) }
	for _, c := range []struct {
		name, field, key string
		in               GroupInput
	}{
		{"an empty name", "name", "err.required", GroupInput{Name: "  "}},
		{"a name over 64 characters", "name", "err.required", GroupInput{Name: long(65)}},
		{"a Chinese name over 64 characters", "nameZh", "err.invalid", GroupInput{Name: "G", NameZh: strings.Repeat("组", 65)}},
		{"a description over 500 bytes", "description", "err.invalid", GroupInput{Name: "G", Description: long(501)}},
		{"a Chinese description over 500 bytes", "descriptionZh", "err.invalid", GroupInput{Name: "G", DescriptionZh: long(501)}},
	} {
		t.Run(c.name, func(t *testing.T) { testutil.WantField(t, c.in.validate(), c.field, c.key) })
	}
}

func TestItemValidationNamesItsField(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		s, ctx := NewService(d), context.Background()
		for _, c := range []struct {
			name, field, key string
			in               ItemInput
		}{
			{"an empty name", "name", "err.required", ItemInput{DataType: "int"}},
			{"an English label over 100 characters", "labelEn", "err.invalid", ItemInput{Name: "X", LabelEn: strings.Repeat("a", 101), DataType: "int"}},
			{"a Chinese label over 100 characters", "labelZh", "err.invalid", ItemInput{Name: "X", LabelZh: strings.Repeat("字", 101), DataType: "int"}},
			{"a category over 64 characters", "category", "err.invalid", ItemInput{Name: "X", Category: strings.Repeat("c", 65), DataType: "int"}},
			{"a unit over 16 characters", "unit", "err.invalid", ItemInput{Name: "X", Unit: strings.Repeat("u", 17), DataType: "int"}},
			{"a group that does not exist", "groupId", "err.invalid", ItemInput{Name: "X", GroupID: 999999, DataType: "int"}},
		} {
			t.Run(c.name, func(t *testing.T) {
				_, err := s.AddItem(ctx, root, c.in)
				testutil.WantField(t, err, c.field, c.key)
			})
		}
	})
}

func TestCatalogueChanges(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		s, ctx := NewService(d), context.Background()
		gid, err := s.AddGroup(ctx, root, GroupInput{Name: "Test group"})
		if err != nil {
			t.Fatal(err)
		}
		empty, err := s.AddGroup(ctx, root, GroupInput{Name: "Empty group"})
		if err != nil {
			t.Fatal(err)
		}
		a, err := s.AddItem(ctx, root, ItemInput{GroupID: gid, Name: "Test.A", DataType: "int"})
		if err != nil {
			t.Fatal(err)
		}
		b, err := s.AddItem(ctx, root, ItemInput{GroupID: gid, Name: "Test.B", DataType: "int"})
		if err != nil {
			t.Fatal(err)
		}
		items := func() int64 {
			l, err := s.Items(ctx, limited, ItemFilter{Page: db.Page{Page: 1, PageSize: 10}, Name: "Test."})
			if err != nil {
				t.Fatal(err)
			}
			return l.Total
		}

		t.Run("a customer's caller reads the catalogue but changes nothing", func(t *testing.T) {
			if items() != 2 {
				t.Fatal("the items are not listed to a customer's caller")
			}
			_, err := s.AddGroup(ctx, limited, GroupInput{Name: "Mine"})
			testutil.WantCode(t, err, apperr.NoPermission, "")
			testutil.WantCode(t, s.DeleteItems(ctx, limited, []int64{a}), apperr.NoPermission, "")
		})
		t.Run("a taken group name is a conflict", func(t *testing.T) {
			_, err := s.AddGroup(ctx, root, GroupInput{Name: "Test group"})
			testutil.WantCode(t, err, apperr.Conflict, "err.name_taken")
			testutil.WantCode(t, s.UpdateGroup(ctx, root, GroupInput{ID: empty, Name: "Test group"}), apperr.Conflict, "err.name_taken")
		})
		t.Run("a taken item name is a conflict", func(t *testing.T) {
			_, err := s.AddItem(ctx, root, ItemInput{Name: "Test.A", DataType: "int"})
			testutil.WantCode(t, err, apperr.Conflict, "err.name_taken")
		})
		t.Run("a group with items is not deleted, nor the empty one beside it", func(t *testing.T) {
			testutil.WantCode(t, s.DeleteGroups(ctx, root, []int64{empty, gid}), apperr.Conflict, "err.in_use")
			g, err := s.Groups(ctx, root, GroupFilter{Page: db.Page{Page: 1, PageSize: 10}, Name: "Empty group"})
			if err != nil || g.Total != 1 {
				t.Fatalf("the empty group went: %+v %v", g, err)
			}
		})
		t.Run("deleting items is all or nothing: one missing deletes none", func(t *testing.T) {
			testutil.WantCode(t, s.DeleteItems(ctx, root, []int64{a, 999999}), apperr.NotFound, "")
			if items() != 2 {
				t.Fatal("an item was deleted")
			}
		})
		t.Run("deleting items deletes every one named", func(t *testing.T) {
			if err := s.DeleteItems(ctx, root, []int64{a, b, b}); err != nil {
				t.Fatal(err)
			}
			if items() != 0 {
				t.Fatal("an item is left")
			}
		})
		t.Run("empty groups are deleted", func(t *testing.T) {
			if err := s.DeleteGroups(ctx, root, []int64{empty, gid}); err != nil {
				t.Fatal(err)
			}
		})
	})
}
