package user_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/fleet/fleettest"
	"chargeops/internal/kit"
	"chargeops/internal/session"
	"chargeops/internal/testutil"
	"chargeops/internal/user"
)

// grantAll lets a caller hand out any role (internal/role decides that in the node).
type grantAll struct{}

func (grantAll) CheckGrantable(context.Context, *access.Principal, int64) error { return nil }

const goodPassword = "Good-pass1"

// org is two customers (fleettest.Seed), a role and one user of each customer.
type org struct {
	fleettest.Org
	svc    *user.Service
	roleID int64
	a1, b1 int64
}

func seed(t *testing.T, d *db.DB) org {
	t.Helper()
	ctx := context.Background()
	o := org{Org: fleettest.Seed(t, d), svc: user.NewService(d, session.NewStore(d, time.Hour, time.Hour), grantAll{})}
	now := db.NowMS()
	var err error
	if o.roleID, err = db.InsertID(ctx, d, `INSERT INTO role (name, created_at, updated_at) VALUES (?, ?, ?)`, "Operator", now, now); err != nil {
		t.Fatal(err)
	}
	add := func(name string, customerID int64) int64 {
		t.Helper()
		id, err := o.svc.Create(ctx, user.CreateInput{UserName: name, Password: goodPassword, RoleID: o.roleID, CustomerID: customerID})
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	o.a1, o.b1 = add("user_a_one", o.CustomerA), add("user_b_one", o.CustomerB)
	return o
}

var root = testutil.Root()

func status(t *testing.T, d *db.DB, id int64) int {
	t.Helper()
	var st int
	if err := d.QueryRow(context.Background(), `SELECT status FROM app_user WHERE id = ?`, id).Scan(&st); err != nil {
		t.Fatal(err)
	}
	return st
}

func TestBatchActions(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		o := seed(t, d)
		a2, err := o.svc.Create(ctx, user.CreateInput{UserName: "user_a_two", Password: goodPassword, RoleID: o.roleID, CustomerID: o.CustomerA})
		if err != nil {
			t.Fatal(err)
		}
		admin := testutil.Customers(o.CustomerA)

		t.Run("disabling users of another customer too disables none", func(t *testing.T) {
			if err := o.svc.SetStatusBy(ctx, admin, kit.IDs{o.a1, o.b1}, user.Disabled); !apperr.IsNotFound(err) {
				t.Fatalf("got %v, want not found", err)
			}
			if status(t, d, o.a1) != user.Enabled || status(t, d, o.b1) != user.Enabled {
				t.Fatal("a user was disabled by a refused batch")
			}
		})
		t.Run("disabling users in scope disables them all", func(t *testing.T) {
			if err := o.svc.SetStatusBy(ctx, admin, kit.IDs{o.a1, a2, a2}, user.Disabled); err != nil {
				t.Fatal(err)
			}
			if status(t, d, o.a1) != user.Disabled || status(t, d, a2) != user.Disabled {
				t.Fatal("not every user was disabled")
			}
		})
		t.Run("a status other than enabled or disabled names status", func(t *testing.T) {
			err := o.svc.SetStatusBy(ctx, admin, kit.IDs{o.a1}, 7)
			if e, ok := apperr.As(err); !ok || e.Args["field"] != "status" {
				t.Fatalf("got %v", err)
			}
		})
		t.Run("nobody disables themself", func(t *testing.T) {
			self := testutil.Customers(o.CustomerA)
			self.UserID = o.a1
			if err := o.svc.SetStatusBy(ctx, self, kit.IDs{o.a1}, user.Disabled); err == nil {
				t.Fatal("a user disabled themself")
			}
		})

		lock := func(t *testing.T, ids ...int64) {
			t.Helper()
			for _, id := range ids {
				if _, err := d.Exec(ctx, `UPDATE app_user SET locked_until = ?, failed_logins = 5 WHERE id = ?`, db.NowMS()+3600_000, id); err != nil {
					t.Fatal(err)
				}
			}
		}
		locked := func(t *testing.T, id int64) bool {
			t.Helper()
			var until int64
			if err := d.QueryRow(ctx, `SELECT locked_until FROM app_user WHERE id = ?`, id).Scan(&until); err != nil {
				t.Fatal(err)
			}
			return until > 0
		}
		t.Run("unlocking with an unknown id unlocks none", func(t *testing.T) {
			lock(t, o.a1, o.b1)
			if err := o.svc.Unlock(ctx, root, kit.IDs{o.a1, 999999}); !apperr.IsNotFound(err) {
				t.Fatalf("got %v, want not found", err)
			}
			if !locked(t, o.a1) {
				t.Fatal("unlocked by a refused batch")
			}
		})
		t.Run("unlocking accounts unlocks them all", func(t *testing.T) {
			if err := o.svc.Unlock(ctx, root, kit.IDs{o.a1, o.b1}); err != nil {
				t.Fatal(err)
			}
			if locked(t, o.a1) || locked(t, o.b1) {
				t.Fatal("still locked")
			}
		})
		t.Run("a caller of one customer does not unlock another's user", func(t *testing.T) {
			lock(t, o.b1)
			if err := o.svc.Unlock(ctx, admin, kit.IDs{o.b1}); !apperr.IsNotFound(err) {
				t.Fatalf("got %v, want not found", err)
			}
			if !locked(t, o.b1) {
				t.Fatal("unlocked across customers")
			}
		})
	})
}

func TestScope(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		o := seed(t, d)
		admin := testutil.Customers(o.CustomerA)

		t.Run("a caller of another customer does not find the user", func(t *testing.T) {
			if _, err := o.svc.GetScoped(ctx, admin, o.b1); !apperr.IsNotFound(err) {
				t.Fatalf("got %v, want not found", err)
			}
		})
		t.Run("nor changes, nor sets the password of, nor assigns them", func(t *testing.T) {
			if err := o.svc.UpdateBy(ctx, admin, user.UpdateInput{ID: o.b1, RoleID: o.roleID, CustomerID: o.CustomerA}); !apperr.IsNotFound(err) {
				t.Fatalf("update: %v", err)
			}
			if err := o.svc.SetPasswordBy(ctx, admin, o.b1, "Other-pass2"); !apperr.IsNotFound(err) {
				t.Fatalf("password: %v", err)
			}
			if err := o.svc.Assign(ctx, admin, user.Assignment{ID: o.b1}); !apperr.IsNotFound(err) {
				t.Fatalf("assign: %v", err)
			}
		})
		t.Run("nor adds a user to it", func(t *testing.T) {
			_, err := o.svc.AddBy(ctx, admin, user.CreateInput{UserName: "sneaky_user", Password: goodPassword, RoleID: o.roleID, CustomerID: o.CustomerB})
			if !apperr.IsNotFound(err) {
				t.Fatalf("got %v, want not found", err)
			}
		})
		t.Run("the list holds only the caller's customer's users", func(t *testing.T) {
			l, err := o.svc.List(ctx, admin, user.ListFilter{})
			if err != nil {
				t.Fatal(err)
			}
			for _, u := range l.List {
				if u.CustomerID != o.CustomerA {
					t.Fatalf("listed %s of customer %d", u.UserName, u.CustomerID)
				}
			}
			if l.Total != 1 {
				t.Fatalf("%d users listed, want 1", l.Total)
			}
		})
	})
}

func TestValidationNamesItsField(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		o := seed(t, d)
		valid := func() user.CreateInput {
			return user.CreateInput{UserName: "valid_user", Password: goodPassword, RoleID: o.roleID, CustomerID: o.CustomerA}
		}
		for _, c := range []struct {
			name, field, key string
			change           func(in *user.CreateInput)
		}{
			{"a short user name", "userName", "err.username_rule", func(in *user.CreateInput) { in.UserName = "abc" }},
			{"a user name with a dot", "userName", "err.username_rule", func(in *user.CreateInput) { in.UserName = "first.last" }},
			{"a password without a digit", "password", "err.password_rule", func(in *user.CreateInput) { in.Password = "Only-letters" }},
			{"an email that is no address", "email", "err.invalid", func(in *user.CreateInput) { in.Email = "not an address" }},
			{"no role", "roleId", "err.required", func(in *user.CreateInput) { in.RoleID = 0 }},
			{"a negative site limit", "maxSites", "err.invalid", func(in *user.CreateInput) { in.MaxSites = -1 }},
			{"a long nickname", "nickName", "err.invalid", func(in *user.CreateInput) { in.NickName = strings.Repeat("n", user.MaxText+1) }},
			{"a long contact", "contact", "err.invalid", func(in *user.CreateInput) { in.Contact = strings.Repeat("c", user.MaxText+1) }},
			{"a role that does not exist", "roleId", "err.invalid", func(in *user.CreateInput) { in.RoleID = 999999 }},
		} {
			t.Run(c.name, func(t *testing.T) {
				in := valid()
				c.change(&in)
				_, err := o.svc.AddBy(ctx, root, in)
				if e, ok := apperr.As(err); !ok || e.Key != c.key || e.Args["field"] != c.field {
					t.Fatalf("got %v, want %s naming %q", err, c.key, c.field)
				}
			})
		}
		t.Run("a user name taken is a conflict (by the key's name)", func(t *testing.T) {
			in := valid()
			in.UserName = "user_a_one"
			_, err := o.svc.AddBy(ctx, root, in)
			if e, ok := apperr.As(err); !ok || e.Key != "err.username_taken" {
				t.Fatalf("got %v, want err.username_taken", err)
			}
		})
		for _, c := range []struct {
			name, field string
			in          user.ProfileInput
		}{
			{"a long nickname on the personal page", "nickName", user.ProfileInput{NickName: strings.Repeat("n", user.MaxText+1)}},
			{"a long contact on the personal page", "contact", user.ProfileInput{Contact: strings.Repeat("c", user.MaxText+1)}},
			{"a long avatar address", "avatar", user.ProfileInput{Avatar: strings.Repeat("a", user.MaxAvatar+1)}},
			{"a language the console has not", "locale", user.ProfileInput{Locale: "fr-FR"}},
		} {
			t.Run(c.name, func(t *testing.T) {
				err := o.svc.UpdateProfile(ctx, &access.Principal{UserID: o.a1}, c.in)
				if e, ok := apperr.As(err); !ok || e.Args["field"] != c.field {
					t.Fatalf("got %v, want %q named", err, c.field)
				}
			})
		}
	})
}
