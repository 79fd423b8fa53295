package httpapi

// menuRoutes are the menu and interface screen (internal/menu): the console's structure, the
// same for every customer, read by holders of the keys and changed only by platform callers.
func (s *Server) menuRoutes() []Route {
	menu := []string{"auth_menu"}
	structure := "menus and interfaces are the console's structure, the same for every customer"
	return []Route{
		{Method: "GET", Path: "/api/auth/sys/menu/tree", Objects: NoObjects, Why: structure, Access: Keys, Keys: menu, Tag: "menu", Summary: "Menu tree with interface counts", Handler: H(s.menuTree)},
		{Method: "POST", Path: "/api/auth/sys/menu/add", Objects: PlatformOnly, Access: Keys, Keys: menu, Tag: "menu", Summary: "Add a menu", Handler: H(s.menuAdd)},
		{Method: "POST", Path: "/api/auth/sys/menu/update", Objects: PlatformOnly, Access: Keys, Keys: menu, Tag: "menu", Summary: "Change a menu's name, parent, sort or URL", Handler: H(s.menuUpdate)},
		{Method: "POST", Path: "/api/auth/sys/menu/delete", Objects: PlatformOnly, Access: Keys, Keys: menu, Tag: "menu", Summary: "Delete a menu without interfaces", Handler: H(s.menuDelete)},
		{Method: "POST", Path: "/api/auth/sys/interface/list", Objects: NoObjects, Why: structure, Access: Keys, Keys: []string{"auth_menu", "auth_role_authMenu"}, Tag: "menu", Summary: "List interfaces", Handler: H(s.interfaceList)},
		{Method: "POST", Path: "/api/auth/sys/interface/save", Objects: PlatformOnly, Access: Keys, Keys: menu, Tag: "menu", Summary: "Add (id 0) or change an interface", Handler: H(s.interfaceSave)},
		{Method: "POST", Path: "/api/auth/sys/interface/delete", Objects: PlatformOnly, Access: Keys, Keys: menu, Tag: "menu", Summary: "Delete interfaces", Handler: H(s.interfaceDelete)},
	}
}
