package httpapi

// roleRoutes are the permission catalogue (for menu authorisation and the menu screen) and the
// roles: platform roles and the roles of the customers in the caller's scope, their keys and
// their data authorisation. No escalation: internal/role.
func (s *Server) roleRoutes() []Route {
	base := "/api/auth/sys/role/"
	list := []string{"auth_role_list"}
	return []Route{
		{Method: "GET", Path: "/api/auth/sys/permission/tree", Objects: NoObjects, Why: "the permission catalogue is the same for every customer", Access: Keys, Keys: []string{"auth_role_authMenu", "auth_menu"}, Tag: "role", Summary: "Permission keys as a tree", Handler: H(s.permissionTree)},

		{Method: "POST", Path: base + "list", Objects: ByCustomer, Access: Keys, Keys: []string{"auth_role_list", "auth_user_add", "auth_user_edit"}, Tag: "role", Summary: "List roles", Handler: H(s.roleList)},
		{Method: "GET", Path: base + "detail", Objects: ByCustomer, Access: Keys, Keys: list, Tag: "role", Summary: "Role with its keys and settings", Handler: H(s.roleDetail)},
		{Method: "POST", Path: base + "add", Objects: ByCustomer, Access: Keys, Keys: list, Tag: "role", Summary: "Add a role", Handler: H(s.roleAdd)},
		{Method: "POST", Path: base + "update", Objects: ByCustomer, Access: Keys, Keys: list, Tag: "role", Summary: "Rename a role", Handler: H(s.roleUpdate)},
		{Method: "POST", Path: base + "delete", Objects: ByCustomer, Access: Keys, Keys: list, Tag: "role", Summary: "Delete roles no user holds", Handler: H(s.roleDelete)},
		{Method: "POST", Path: base + "auth/menu", Objects: ByCustomer, Access: Keys, Keys: []string{"auth_role_authMenu"}, Tag: "role", Summary: "Set a role's permission keys", Handler: H(s.roleSetKeys)},
		{Method: "POST", Path: base + "auth/data", Objects: ByCustomer, Access: Keys, Keys: []string{"auth_role_authData"}, Tag: "role", Summary: "Set a role's data authorisation", Handler: H(s.roleSetData)},
	}
}
