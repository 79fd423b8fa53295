package customer

import (
	"context"
	"strings"
	"testing"

	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/testutil"
)

var root = testutil.Root()

func TestValidationNamesItsField(t *testing.T) {
	ok := func(in Input) Input {
		if in.Name == "" {
			in.Name = "Acme"
		}
		if in.Code == "" {
			in.Code = "ACME"
		}
		return in
	}
	long := func(n int) string { return strings.Repeat("x", n) }
	for _, c := range []struct {
		name, field, key string
		in               Input
	}{
		{"an empty name", "name", "err.required", Input{Name: " ", Code: "ACME"}},
		{"a name over 100 characters", "name", "err.required", Input{Name: long(101), Code: "ACME"}},
		{"an empty code", "code", "err.invalid", Input{Name: "Acme", Code: " "}},
		{"a code with a slash", "code", "err.invalid", Input{Name: "Acme", Code: "A/B"}},
		{"a code over 32 bytes", "code", "err.invalid", Input{Name: "Acme", Code: long(33)}},
		{"a contact over 64 bytes", "contact", "err.invalid", ok(Input{Contact: long(65)})},
		{"a telephone over 32 bytes", "telephone", "err.invalid", ok(Input{Telephone: long(33)})},
		{"an address over 255 bytes", "address", "err.invalid", ok(Input{Address: long(256)})},
		{"a logo over 512 bytes", "logo", "err.invalid", ok(Input{Logo: long(513)})},
	} {
		t.Run(c.name, func(t *testing.T) { testutil.WantField(t, c.in.validate(), c.field, c.key) })
	}
	t.Run("a full input passes", func(t *testing.T) {
		in := ok(Input{Contact: long(64), Telephone: long(32), Address: long(255), Logo: long(512)})
		if err := in.validate(); err != nil {
			t.Fatal(err)
		}
	})
}

func TestCustomers(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		s, ctx := NewService(d), context.Background()
		add := func(name, code string) int64 {
			t.Helper()
			id, err := s.Add(ctx, root, Input{Name: name, Code: code})
			if err != nil {
				t.Fatal(err)
			}
			return id
		}
		a, b, c := add("Alpha", "A"), add("Beta", "B"), add("Gamma", "G")
		used := add("Used", "U")
		if _, err := d.Exec(ctx, `INSERT INTO site (customer_id, name, code, created_at, updated_at) VALUES (?, 'S', 'S-U', 1, 1)`, used); err != nil {
			t.Fatal(err)
		}
		exists := func(id int64) bool {
			_, err := s.Get(ctx, root, id)
			return testutil.Found(t, err)
		}

		t.Run("a caller limited to some customers adds none", func(t *testing.T) {
			_, err := s.Add(ctx, testutil.Customers(a), Input{Name: "New", Code: "N"})
			testutil.WantCode(t, err, apperr.NoPermission, "")
		})
		t.Run("a taken name is a conflict", func(t *testing.T) {
			_, err := s.Add(ctx, root, Input{Name: "Alpha", Code: "A2"})
			testutil.WantCode(t, err, apperr.Conflict, "err.name_taken")
		})
		t.Run("a taken code is a conflict", func(t *testing.T) {
			_, err := s.Add(ctx, root, Input{Name: "Alpha 2", Code: "A"})
			testutil.WantCode(t, err, apperr.Conflict, "err.name_taken")
			testutil.WantCode(t, s.Update(ctx, root, Input{ID: b, Name: "Beta", Code: "A"}), apperr.Conflict, "err.name_taken")
		})
		t.Run("another customer is not found to a limited caller", func(t *testing.T) {
			_, err := s.Get(ctx, testutil.Customers(a), b)
			testutil.WantCode(t, err, apperr.NotFound, "")
			testutil.WantCode(t, s.Update(ctx, testutil.Customers(a), Input{ID: b, Name: "Mine now", Code: "B"}), apperr.NotFound, "")
			if got, err := s.Get(ctx, root, b); err != nil || got.Name != "Beta" {
				t.Fatalf("%+v %v: changed out of scope", got, err)
			}
		})
		t.Run("a limited caller changes its own customer", func(t *testing.T) {
			if err := s.Update(ctx, testutil.Customers(a), Input{ID: a, Name: "Alpha", Code: "A", Contact: "Ann"}); err != nil {
				t.Fatal(err)
			}
			if got, _ := s.Get(ctx, root, a); got.Contact != "Ann" {
				t.Fatalf("contact %q", got.Contact)
			}
		})
		t.Run("the list and the options hold only the customers in scope", func(t *testing.T) {
			l, err := s.List(ctx, testutil.Customers(a, c), ListFilter{Page: db.Page{Page: 1, PageSize: 10}})
			if err != nil || l.Total != 2 {
				t.Fatalf("%+v %v", l, err)
			}
			o, err := s.Options(ctx, testutil.Customers(a, c))
			if err != nil || len(o) != 2 {
				t.Fatalf("%+v %v", o, err)
			}
		})
		t.Run("deleting with one customer out of scope deletes none", func(t *testing.T) {
			testutil.WantCode(t, s.Delete(ctx, testutil.Customers(a, c), []int64{a, b}), apperr.NotFound, "")
			if !exists(a) || !exists(b) {
				t.Fatal("the batch was half-applied")
			}
		})
		t.Run("deleting with one customer in use deletes none", func(t *testing.T) {
			testutil.WantCode(t, s.Delete(ctx, root, []int64{c, used}), apperr.Conflict, "err.in_use")
			if !exists(c) {
				t.Fatal("the batch was half-applied")
			}
		})
		t.Run("another customer's sites do not answer in use", func(t *testing.T) {
			testutil.WantCode(t, s.Delete(ctx, testutil.Customers(a), []int64{used}), apperr.NotFound, "")
		})
		t.Run("deleting customers in scope deletes every one, an id named twice once", func(t *testing.T) {
			if err := s.Delete(ctx, testutil.Customers(a, c), []int64{a, c, c}); err != nil {
				t.Fatal(err)
			}
			if exists(a) || exists(c) {
				t.Fatal("a customer is left")
			}
		})
	})
}
