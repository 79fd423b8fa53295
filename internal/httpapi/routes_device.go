package httpapi

// deviceRoutes are the device register (internal/device): the list and detail, changes,
// enabling, maintenance and the xlsx import and export. A device is scoped by its site's
// customer and site; what it reports and is told is fleetRoutes'.
func (s *Server) deviceRoutes() []Route {
	base := "/api/auth/sys/dev/basic/"
	list := []string{"auth_device_list"}
	add := []string{"auth_device_add"}
	edit := []string{"auth_device_edit"}
	return []Route{
		{Method: "POST", Path: base + "list", Objects: ByDevice, Access: Keys, Keys: list, Tag: "device", Summary: "List devices in scope (bounded count, see docs)", Handler: H(s.deviceList)},
		{Method: "GET", Path: base + "detail", Objects: ByDevice, Access: Keys, Keys: []string{"auth_device_detail", "auth_device_edit", "auth_device_info"}, Tag: "device", Summary: "Device detail (status as a number)", Handler: H(s.deviceDetail)},
		{Method: "GET", Path: base + "status/count", Objects: ByDevice, Access: Keys, Keys: []string{"auth_device_list", "auth_home"}, Tag: "device", Summary: "Devices in scope by status", Handler: H(s.deviceStatusCounts)},
		{Method: "POST", Path: base + "add", Objects: ByDevice, Access: Keys, Keys: add, Tag: "device", Summary: "Add a device", Handler: H(s.deviceAdd)},
		{Method: "POST", Path: base + "update", Objects: ByDevice, Access: Keys, Keys: edit, Tag: "device", Summary: "Change a device (the SN never changes)", Handler: H(s.deviceUpdate)},
		{Method: "POST", Path: base + "delete", Objects: ByDevice, Access: Keys, Keys: []string{"auth_device_delete"}, Tag: "device", Summary: "Delete devices", Handler: H(s.deviceDelete)},
		{Method: "POST", Path: base + "enable", Objects: ByDevice, Access: Keys, Keys: edit, Tag: "device", Summary: "Enable or disable devices", Handler: H(s.deviceEnable)},
		{Method: "POST", Path: base + "maintain", Objects: ByDevice, Access: Keys, Keys: edit, Tag: "device", Summary: "Put devices into or out of maintenance mode", Handler: H(s.deviceMaintain)},
		{Method: "POST", Path: base + "security", Objects: ByDevice, Access: Keys, Keys: edit, Tag: "device", Summary: "Set a device's security profile (0-3; a charger only raises its own, an operator may lower it)", Handler: H(s.deviceSecurity)},
		{Method: "POST", Path: base + "key", Objects: ByDevice, Access: Keys, Keys: edit, Tag: "device", Summary: "Set a device's key (the password a charger or a storage unit signs in with; empty: one is made and answered once)", Handler: H(s.deviceKey)},
		{Method: "POST", Path: base + "protocol", Objects: ByDevice, Access: Keys, Keys: edit, Tag: "device", Summary: "Set the OCPP protocol a device's charger is admitted with (\"\" auto, ocpp1.6, ocpp2.0.1; from its next connection)", Handler: H(s.deviceProtocol)},
		{Method: "POST", Path: base + "maintained", Objects: ByDevice, Access: Keys, Keys: edit, Tag: "device", Summary: "Record a maintenance (resets the unmaintained period)", Handler: H(s.deviceMaintained)},
		{Method: "POST", Path: base + "import", Objects: ByDevice, Access: Keys, Keys: add, MaxBody: 8 << 20, Tag: "device", Summary: "Import devices from xlsx (base64); all rows or none", Handler: H(s.deviceImport)},
		{Method: "GET", Path: base + "import/template", Objects: NoObjects, Why: "an empty spreadsheet", Access: Keys, Keys: add, Tag: "device", Summary: "The xlsx import template", Handler: H(s.deviceTemplate)},
		{Method: "POST", Path: base + "export", Objects: ByDevice, Access: Keys, Keys: list, Tag: "device", Summary: "Export the filtered devices to xlsx", Handler: H(s.deviceExport)},
	}
}
