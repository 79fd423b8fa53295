package testutil

import "chargeops/internal/access"

// Callers of service tests.

// Root is the super admin: every customer and site.
func Root() *access.Principal { return &access.Principal{Root: true, Scope: access.FullScope()} }

// Customers is a caller who sees every site of the customers ids (the first its own).
func Customers(ids ...int64) *access.Principal {
	return &access.Principal{CustomerID: ids[0], Scope: access.Scope{CustomerIDs: ids, AllSites: true}}
}

// Sites is a caller of customer limited to the sites given.
func Sites(customer int64, sites ...int64) *access.Principal {
	return &access.Principal{CustomerID: customer, Scope: access.Scope{CustomerIDs: []int64{customer}, SiteIDs: sites}}
}
