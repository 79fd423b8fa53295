package kit

import (
	"testing"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
)

func TestOwnership(t *testing.T) {
	errShared := apperr.New(apperr.NoPermission, "err.test_shared")
	root := &access.Principal{Root: true}
	all := &access.Principal{Scope: access.FullScope()}
	cust := &access.Principal{CustomerID: 7, Scope: access.Scope{CustomerIDs: []int64{7}, AllSites: true}}
	someSites := &access.Principal{CustomerID: 7, Scope: access.Scope{CustomerIDs: []int64{7}, SiteIDs: []int64{1}}}
	readOnly := &access.Principal{CustomerID: 7, ReadOnly: true, Scope: access.Scope{CustomerIDs: []int64{7}, AllSites: true}}
	models := Ownership{Platform: errShared, WholeCustomer: true}
	docs := Ownership{Platform: errShared, ReadOnly: true}
	for _, c := range []struct {
		name  string
		o     Ownership
		p     *access.Principal
		owner int64
		want  error
	}{
		{"root changes a platform row", models, root, PlatformOwner, nil},
		{"the unlimited scope changes a platform row", models, all, PlatformOwner, nil},
		{"a customer-limited caller may not change a platform row", models, cust, PlatformOwner, errShared},
		{"a customer changes its own row", models, cust, 7, nil},
		{"another customer's row is not found", models, cust, 8, apperr.ErrNotFound},
		{"a model needs all of its customer's sites", models, someSites, 7, errShared},
		{"a document does not need all sites", docs, someSites, 7, nil},
		{"a read-only customer changes no document", docs, readOnly, 7, apperr.ErrNoPermission},
		{"read-only is not a rule of models", models, readOnly, 7, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := c.o.MayChange(c.p, c.owner); got != c.want {
				t.Fatalf("got %v, want %v", got, c.want)
			}
		})
	}
	t.Run("Visible lets a limited caller read platform rows and its customers'", func(t *testing.T) {
		cond, args := Visible(cust, "m.customer_id")
		if cond != "(m.customer_id = ? OR m.customer_id IN (?))" || len(args) != 2 || args[0] != PlatformOwner {
			t.Fatalf("%s %v", cond, args)
		}
		if cond, _ := Visible(all, "m.customer_id"); cond != "1 = 1" {
			t.Fatalf("%s", cond)
		}
	})
	t.Run("MayChangeAll is not found when a row is missing or another customer's", func(t *testing.T) {
		if err := models.MayChangeAll(cust, []int64{7}, 2); err != apperr.ErrNotFound {
			t.Fatalf("missing: %v", err)
		}
		if err := models.MayChangeAll(cust, []int64{7, 8}, 2); err != apperr.ErrNotFound {
			t.Fatalf("other customer: %v", err)
		}
		if err := models.MayChangeAll(cust, []int64{7, PlatformOwner}, 2); err != errShared {
			t.Fatalf("platform: %v", err)
		}
	})
	t.Run("OwnerFor gives a limited caller's platform row to its customer", func(t *testing.T) {
		if owner, err := docs.OwnerFor(cust, PlatformOwner); owner != 7 || err != nil {
			t.Fatalf("%d %v", owner, err)
		}
		if _, err := docs.OwnerFor(cust, 8); err != apperr.ErrNotFound {
			t.Fatalf("%v", err)
		}
	})
}
