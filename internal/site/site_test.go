package site

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
	valid := func(change func(*Input)) Input {
		in := Input{CustomerID: 7, Name: "Depot", Code: "D1"}
		change(&in)
		return in
	}
	long := func(n int) string { return strings.Repeat("x", n) }
	for _, c := range []struct {
		name, field, key string
		in               Input
	}{
		{"an empty name", "name", "err.required", valid(func(in *Input) { in.Name = " " })},
		{"a name over 100 characters", "name", "err.required", valid(func(in *Input) { in.Name = long(101) })},
		{"a code with a blank", "code", "err.invalid", valid(func(in *Input) { in.Code = "D 1" })},
		{"a code over 32 bytes", "code", "err.invalid", valid(func(in *Input) { in.Code = long(33) })},
		{"no customer", "customerId", "err.required", valid(func(in *Input) { in.CustomerID = 0 })},
		{"a build date in another format", "buildDate", "err.invalid", valid(func(in *Input) { in.BuildDate = "2024/01/31" })},
		{"a build date that does not exist", "buildDate", "err.invalid", valid(func(in *Input) { in.BuildDate = "2024-02-30" })},
		{"a contact person over 64 bytes", "contactPerson", "err.invalid", valid(func(in *Input) { in.ContactPerson = long(65) })},
		{"a contact phone over 32 bytes", "contactPhone", "err.invalid", valid(func(in *Input) { in.ContactPhone = long(33) })},
		{"an address over 255 bytes", "address", "err.invalid", valid(func(in *Input) { in.Address = long(256) })},
		{"an image over 512 bytes", "image", "err.invalid", valid(func(in *Input) { in.Image = long(513) })},
		{"more than 200 receivers", "receivers", "err.invalid", valid(func(in *Input) { in.Receivers = make([]int64, 201) })},
	} {
		t.Run(c.name, func(t *testing.T) { testutil.WantField(t, c.in.validate(root), c.field, c.key) })
	}
	t.Run("a customer out of scope is not found", func(t *testing.T) {
		in := valid(func(*Input) {})
		testutil.WantCode(t, in.validate(testutil.Customers(8)), apperr.NotFound, "")
	})
	t.Run("a full input passes", func(t *testing.T) {
		in := valid(func(in *Input) { in.BuildDate, in.ContactPerson, in.Address = "2024-02-29", long(64), long(255) })
		if err := in.validate(root); err != nil {
			t.Fatal(err)
		}
	})
}

func TestSites(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		s, ctx := NewService(d), context.Background()
		insert := func(q string, args ...any) int64 {
			t.Helper()
			id, err := db.InsertID(ctx, d, q, args...)
			if err != nil {
				t.Fatal(err)
			}
			return id
		}
		c1 := insert(`INSERT INTO customer (name, code, created_at, updated_at) VALUES ('C1', 'C1', 1, 1)`)
		c2 := insert(`INSERT INTO customer (name, code, created_at, updated_at) VALUES ('C2', 'C2', 1, 1)`)
		user1 := insert(`INSERT INTO app_user (user_name, password_hash, customer_id, created_at, updated_at) VALUES ('u1', '-', ?, 1, 1)`, c1)
		user2 := insert(`INSERT INTO app_user (user_name, password_hash, customer_id, created_at, updated_at) VALUES ('u2', '-', ?, 1, 1)`, c2)
		add := func(customer int64, name, code string) int64 {
			t.Helper()
			id, err := s.Add(ctx, root, Input{CustomerID: customer, Name: name, Code: code})
			if err != nil {
				t.Fatal(err)
			}
			return id
		}
		a, b, other := add(c1, "A", "S-A"), add(c1, "B", "S-B"), add(c2, "O", "S-O")
		busy := add(c1, "Busy", "S-BUSY")
		model := insert(`INSERT INTO device_model (name, created_at, updated_at) VALUES ('M', 1, 1)`)
		insert(`INSERT INTO device (sn, name, model_id, site_id, customer_id, created_at, updated_at) VALUES ('SN1', 'D1', ?, ?, ?, 1, 1)`, model, busy, c1)
		status := func(id int64) int {
			t.Helper()
			st, err := s.Get(ctx, root, id)
			if err != nil {
				t.Fatal(err)
			}
			return st.Status
		}
		exists := func(id int64) bool {
			_, err := s.Get(ctx, root, id)
			return testutil.Found(t, err)
		}

		t.Run("a site-limited caller adds no site", func(t *testing.T) {
			_, err := s.Add(ctx, testutil.Sites(c1, a), Input{CustomerID: c1, Name: "New", Code: "S-NEW"})
			testutil.WantCode(t, err, apperr.NoPermission, "")
		})
		t.Run("a taken code is a conflict", func(t *testing.T) {
			_, err := s.Add(ctx, root, Input{CustomerID: c2, Name: "Other name", Code: "S-A"})
			testutil.WantCode(t, err, apperr.Conflict, "err.name_taken")
		})
		t.Run("a name taken within the customer is a conflict, not in another customer", func(t *testing.T) {
			_, err := s.Add(ctx, root, Input{CustomerID: c1, Name: "A", Code: "S-A2"})
			testutil.WantCode(t, err, apperr.Conflict, "err.name_taken")
			if _, err := s.Add(ctx, root, Input{CustomerID: c2, Name: "A", Code: "S-A3"}); err != nil {
				t.Fatal(err)
			}
		})
		t.Run("receivers are the customer's users, set in one statement", func(t *testing.T) {
			in := Input{ID: a, CustomerID: c1, Name: "A", Code: "S-A", Receivers: []int64{user1, user1}}
			if err := s.Update(ctx, root, in); err != nil {
				t.Fatal(err)
			}
			if st, _ := s.Get(ctx, root, a); len(st.Receivers) != 1 || st.Receivers[0] != user1 {
				t.Fatalf("receivers %v", st.Receivers)
			}
			in.Receivers, in.ContactPerson = []int64{user1, user2}, "changed"
			testutil.WantField(t, s.Update(ctx, root, in), "receivers", "err.invalid")
			if st, _ := s.Get(ctx, root, a); len(st.Receivers) != 1 || st.ContactPerson == "changed" {
				t.Fatalf("a refused update changed the site: %+v", st)
			}
		})
		t.Run("a site with devices keeps its customer", func(t *testing.T) {
			testutil.WantCode(t, s.Update(ctx, root, Input{ID: busy, CustomerID: c2, Name: "Busy", Code: "S-BUSY"}), apperr.Conflict, "err.in_use")
		})
		t.Run("a site-limited caller sees only its sites", func(t *testing.T) {
			l, err := s.List(ctx, testutil.Sites(c1, a), ListFilter{Page: db.Page{Page: 1, PageSize: 10}})
			if err != nil || l.Total != 1 || l.List[0].ID != a {
				t.Fatalf("%+v %v", l, err)
			}
			_, err = s.Get(ctx, testutil.Sites(c1, a), b)
			testutil.WantCode(t, err, apperr.NotFound, "")
			o, err := s.Options(ctx, testutil.Sites(c1, a), 0)
			if err != nil || len(o) != 1 {
				t.Fatalf("%+v %v", o, err)
			}
		})
		t.Run("a status change with one site out of scope changes none", func(t *testing.T) {
			testutil.WantCode(t, s.SetStatus(ctx, testutil.Customers(c1), []int64{a, other}, Disabled), apperr.NotFound, "")
			if status(a) != Enabled {
				t.Fatal("the batch was half-applied")
			}
		})
		t.Run("a status change by a site-limited caller stops at its sites", func(t *testing.T) {
			testutil.WantCode(t, s.SetStatus(ctx, testutil.Sites(c1, a), []int64{a, b}, Disabled), apperr.NotFound, "")
			if status(a) != Enabled {
				t.Fatal("the batch was half-applied")
			}
		})
		t.Run("an unknown status names the status field", func(t *testing.T) {
			testutil.WantField(t, s.SetStatus(ctx, root, []int64{a}, 5), "status", "err.invalid")
		})
		t.Run("a status change in scope changes every site", func(t *testing.T) {
			if err := s.SetStatus(ctx, testutil.Customers(c1), []int64{a, b, b}, Disabled); err != nil {
				t.Fatal(err)
			}
			if status(a) != Disabled || status(b) != Disabled {
				t.Fatal("a site kept its status")
			}
		})
		t.Run("deleting with one site out of scope deletes none", func(t *testing.T) {
			testutil.WantCode(t, s.Delete(ctx, testutil.Customers(c1), []int64{b, other}), apperr.NotFound, "")
			if !exists(b) {
				t.Fatal("the batch was half-applied")
			}
		})
		t.Run("deleting with one site with devices deletes none", func(t *testing.T) {
			testutil.WantCode(t, s.Delete(ctx, testutil.Customers(c1), []int64{b, busy}), apperr.Conflict, "err.site_has_devices")
			if !exists(b) {
				t.Fatal("the batch was half-applied")
			}
		})
		t.Run("another customer's devices do not answer has devices", func(t *testing.T) {
			testutil.WantCode(t, s.Delete(ctx, testutil.Customers(c2), []int64{busy}), apperr.NotFound, "")
		})
		t.Run("deleting sites in scope deletes every one", func(t *testing.T) {
			if err := s.Delete(ctx, testutil.Customers(c1), []int64{a, b}); err != nil {
				t.Fatal(err)
			}
			if exists(a) || exists(b) {
				t.Fatal("a site is left")
			}
		})
	})
}
