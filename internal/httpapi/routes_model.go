package httpapi

// modelRoutes are device models with their config, param and control items and their aliases
// (internal/devmodel): platform models and the models of the customers in scope; who may
// change a model is docs/decisions.md#device-models.
func (s *Server) modelRoutes() []Route {
	base := "/api/auth/sys/dev/model/"
	model := []string{"auth_deviceModel"}
	alias := []string{"auth_deviceModel_alias"}
	return []Route{
		{Method: "POST", Path: base + "list", Objects: ByCustomer, Access: Keys, Keys: []string{"auth_deviceModel", "auth_device_add", "auth_device_edit", "auth_device_list"}, Tag: "model", Summary: "List device models", Handler: H(s.modelList)},
		{Method: "GET", Path: base + "detail", Objects: ByCustomer, Access: Keys, Keys: []string{"auth_deviceModel", "auth_device_detail"}, Tag: "model", Summary: "Device model detail", Handler: H(s.modelDetail)},
		{Method: "POST", Path: base + "add", Objects: ByCustomer, Access: Keys, Keys: model, Tag: "model", Summary: "Add a device model", Handler: H(s.modelAdd)},
		{Method: "POST", Path: base + "update", Objects: ByCustomer, Access: Keys, Keys: model, Tag: "model", Summary: "Change a device model", Handler: H(s.modelUpdate)},
		{Method: "POST", Path: base + "delete", Objects: ByCustomer, Access: Keys, Keys: model, Tag: "model", Summary: "Delete unused device models", Handler: H(s.modelDelete)},
		{Method: "POST", Path: base + "item/list", Objects: ByCustomer, Access: Keys, Keys: []string{"auth_deviceModel", "auth_device_detail"}, Tag: "model", Summary: "Config, param and control items of a model", Handler: H(s.modelItems)},
		{Method: "POST", Path: base + "item/add", Objects: ByCustomer, Access: Keys, Keys: model, Tag: "model", Summary: "Add a model item", Handler: H(s.modelItemAdd)},
		{Method: "POST", Path: base + "item/storage", Objects: ByCustomer, Access: Keys, Keys: model, Tag: "model", Summary: "Add the storage template's items a storage unit's model lacks (docs/mqtt.md); answers how many were added", Handler: H(s.modelStorageItems)},
		{Method: "POST", Path: base + "item/update", Objects: ByCustomer, Access: Keys, Keys: model, Tag: "model", Summary: "Change a model item", Handler: H(s.modelItemUpdate)},
		{Method: "POST", Path: base + "item/delete", Objects: ByCustomer, Access: Keys, Keys: model, Tag: "model", Summary: "Delete model items", Handler: H(s.modelItemDelete)},
		{Method: "POST", Path: base + "alias/list", Objects: ByCustomer, Access: Keys, Keys: alias, Tag: "model", Summary: "List model aliases", Handler: H(s.aliasList)},
		{Method: "POST", Path: base + "alias/add", Objects: ByCustomer, Access: Keys, Keys: alias, Tag: "model", Summary: "Add a model alias", Handler: H(s.aliasAdd)},
		{Method: "POST", Path: base + "alias/delete", Objects: ByCustomer, Access: Keys, Keys: alias, Tag: "model", Summary: "Delete model aliases", Handler: H(s.aliasDelete)},
	}
}
