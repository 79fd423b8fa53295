package access

import (
	"strings"

	"chargeops/internal/db"
)

// Scope is the data a principal may see: all customers or a list, all sites (of those
// customers) or a list. Every list, detail and change of customer-owned data filters by it in
// SQL, so an object outside the scope is simply not found.
type Scope struct {
	AllCustomers bool
	CustomerIDs  []int64
	AllSites     bool
	SiteIDs      []int64
}

// FullScope sees everything (root, or a role with customer access 0 and site access 0).
func FullScope() Scope { return Scope{AllCustomers: true, AllSites: true} }

// Everything reports whether the scope has no limit.
func (s Scope) Everything() bool { return s.AllCustomers && s.AllSites }

// CustomerCond limits rows by their customer column (e.g. "d.customer_id", or "c.id" on the
// customer table). It returns an SQL condition and its arguments.
func (s Scope) CustomerCond(col string) (string, []any) {
	if s.AllCustomers {
		return "1 = 1", nil
	}
	return inList(col, s.CustomerIDs)
}

// SiteCond limits rows that belong to a site: by customer and, for site-limited roles, by site.
func (s Scope) SiteCond(customerCol, siteCol string) (string, []any) {
	cond, args := s.CustomerCond(customerCol)
	if s.AllSites {
		return cond, args
	}
	siteCond, siteArgs := inList(siteCol, s.SiteIDs)
	return "(" + cond + " AND " + siteCond + ")", append(args, siteArgs...)
}

// HasCustomer reports whether customer id is in scope.
func (s Scope) HasCustomer(id int64) bool { return s.AllCustomers || contains(s.CustomerIDs, id) }

// HasSite reports whether a site (of customer) is in scope.
func (s Scope) HasSite(customerID, siteID int64) bool {
	return s.HasCustomer(customerID) && (s.AllSites || contains(s.SiteIDs, siteID))
}

func inList(col string, ids []int64) (string, []any) {
	if len(ids) == 0 {
		return "1 = 0", nil
	}
	return col + " IN (" + db.Placeholders(len(ids)) + ")", db.Args(ids)
}

func contains(ids []int64, id int64) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}

// Where joins conditions with AND.
func Where(conds ...string) string { return " WHERE " + strings.Join(conds, " AND ") }
