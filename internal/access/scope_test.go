package access

import (
	"reflect"
	"testing"
)

func TestScopeConditions(t *testing.T) {
	cases := []struct {
		name      string
		s         Scope
		cond      string
		args      []any
		customer7 bool
		site3of7  bool
	}{
		{"everything", FullScope(), "1 = 1", nil, true, true},
		{"customers", Scope{CustomerIDs: []int64{7, 9}, AllSites: true}, "d.customer_id IN (?,?)", []any{int64(7), int64(9)}, true, true},
		{"sites", Scope{CustomerIDs: []int64{7}, SiteIDs: []int64{4}}, "(d.customer_id IN (?) AND d.site_id IN (?))", []any{int64(7), int64(4)}, true, false},
		{"nothing", Scope{}, "(1 = 0 AND 1 = 0)", nil, false, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cond, args := c.s.SiteCond("d.customer_id", "d.site_id")
			if cond != c.cond || !reflect.DeepEqual(args, c.args) {
				t.Errorf("SiteCond: %q %v, want %q %v", cond, args, c.cond, c.args)
			}
			if c.s.HasCustomer(7) != c.customer7 || c.s.HasSite(7, 3) != c.site3of7 {
				t.Errorf("HasCustomer/HasSite disagree with the SQL")
			}
		})
	}
}

func TestLevelsAndKeys(t *testing.T) {
	t.Run("a user at level L uses items at L or numerically higher", func(t *testing.T) {
		if !CanReadLevel(2, 2) || !CanReadLevel(2, 5) || CanReadLevel(2, 1) {
			t.Fatal("CanReadLevel")
		}
	})
	t.Run("HasAny needs one of the keys, root has them all", func(t *testing.T) {
		p := &Principal{Keys: map[string]bool{"auth_site": true}}
		if !p.HasAny("auth_device", "auth_site") || p.HasAny("auth_device") || !(&Principal{Root: true}).HasAny("anything") {
			t.Fatal("HasAny")
		}
	})
	t.Run("root's key list is the catalogue", func(t *testing.T) {
		if len((&Principal{Root: true}).KeyList()) != len(Catalogue()) {
			t.Fatal("root does not hold every key")
		}
	})
	t.Run("menu keys leave out actions", func(t *testing.T) {
		if got := MenuKeys([]string{"auth_site", "auth_site_list", "auth_home"}); !reflect.DeepEqual(got, []string{"auth_site", "auth_home"}) {
			t.Fatalf("menu keys %v", got)
		}
	})
}
