package httpapi

// catalogueRoutes are the data model catalogue (internal/catalogue): groups and data items,
// shared by every customer (NoObjects to read), changed only by platform callers
// (PlatformOnly, checked before the handler and again in the service).
func (s *Server) catalogueRoutes() []Route {
	shared := "the data catalogue is shared by every customer; only platform roles change it"
	groups := []string{"auth_dict_group"}
	items := []string{"auth_dict"}
	sys := "/api/auth/sys/dict/"
	return []Route{
		{Method: "POST", Path: sys + "group/list", Objects: NoObjects, Why: shared, Access: Keys, Keys: []string{"auth_dict", "auth_dict_group", "auth_deviceModel"}, Tag: "catalogue", Summary: "List data groups", Handler: H(s.dataGroupList)},
		{Method: "POST", Path: sys + "group/add", Objects: PlatformOnly, Access: Keys, Keys: groups, Tag: "catalogue", Summary: "Add a data group", Handler: H(s.dataGroupAdd)},
		{Method: "POST", Path: sys + "group/update", Objects: PlatformOnly, Access: Keys, Keys: groups, Tag: "catalogue", Summary: "Change a data group", Handler: H(s.dataGroupUpdate)},
		{Method: "POST", Path: sys + "group/delete", Objects: PlatformOnly, Access: Keys, Keys: groups, Tag: "catalogue", Summary: "Delete empty data groups", Handler: H(s.dataGroupDelete)},
		{Method: "POST", Path: sys + "item/list", Objects: NoObjects, Why: shared, Access: Keys, Keys: []string{"auth_dict", "auth_deviceModel", "auth_device_detail"}, Tag: "catalogue", Summary: "List data items", Handler: H(s.dataItemList)},
		{Method: "POST", Path: sys + "item/add", Objects: PlatformOnly, Access: Keys, Keys: items, Tag: "catalogue", Summary: "Add a data item", Handler: H(s.dataItemAdd)},
		{Method: "POST", Path: sys + "item/update", Objects: PlatformOnly, Access: Keys, Keys: items, Tag: "catalogue", Summary: "Change a data item", Handler: H(s.dataItemUpdate)},
		{Method: "POST", Path: sys + "item/delete", Objects: PlatformOnly, Access: Keys, Keys: items, Tag: "catalogue", Summary: "Delete data items", Handler: H(s.dataItemDelete)},
	}
}
