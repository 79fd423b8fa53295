package httpapi

// customerRoutes are the customers (internal/customer): ByCustomer, each call limited to the
// caller's customer scope in SQL; only a caller who sees every customer adds one.
func (s *Server) customerRoutes() []Route {
	list := []string{"auth_customer_list"}
	sys := "/api/auth/sys/customer/"
	return []Route{
		{Method: "POST", Path: sys + "list", Objects: ByCustomer, Access: Keys, Keys: list, Tag: "customer", Summary: "List customers in scope", Handler: H(s.customerList)},
		{Method: "GET", Path: sys + "detail", Objects: ByCustomer, Access: Keys, Keys: []string{"auth_customer_detail", "auth_customer_list"}, Tag: "customer", Summary: "Customer detail", Handler: H(s.customerDetail)},
		{Method: "POST", Path: sys + "add", Objects: ByCustomer, Access: Keys, Keys: list, Tag: "customer", Summary: "Add a customer", Handler: H(s.customerAdd)},
		{Method: "POST", Path: sys + "update", Objects: ByCustomer, Access: Keys, Keys: list, Tag: "customer", Summary: "Change a customer", Handler: H(s.customerUpdate)},
		{Method: "POST", Path: sys + "delete", Objects: ByCustomer, Access: Keys, Keys: list, Tag: "customer", Summary: "Delete customers without sites or users", Handler: H(s.customerDelete)},
		{Method: "GET", Path: sys + "options", Objects: ByCustomer, Access: Session, Tag: "customer", Summary: "Customers in scope for selects", Handler: H(s.customerOptions)},
	}
}
