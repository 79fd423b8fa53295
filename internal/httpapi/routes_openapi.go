package httpapi

// openapiRoutes are the OpenAPI v1 for third-party applications (docs/openapi.md): signed
// calls under /openapi/v1/, each acting as the application's bound user with the keys the
// same screen of the console needs, and scoped by the same services.
func (s *Server) openapiRoutes() []Route {
	const v1 = "/openapi/v1/"
	read := []string{"auth_device_detail", "auth_device_info", "auth_device_edit"}
	return []Route{
		{Method: "GET", Path: v1 + "devices", Signed: true, Objects: ByDevice, Access: Keys, Keys: []string{"auth_device_list"}, Tag: "openapi-v1",
			Summary: "Devices in scope (status, site, model, customer, keyword; paged, bounded total)", Handler: H(s.deviceList)},
		{Method: "GET", Path: v1 + "devices/detail", Signed: true, Objects: ByDevice, Access: Keys, Keys: []string{"auth_device_detail", "auth_device_edit", "auth_device_info"}, Tag: "openapi-v1",
			Summary: "One device", Handler: H(s.deviceDetail)},
		{Method: "GET", Path: v1 + "devices/status", Signed: true, Objects: ByDevice, Access: Keys, Keys: read, Tag: "openapi-v1",
			Summary: "A device's live status: online, status, connectors and latest values", Handler: H(s.runtimeDetail)},
		{Method: "GET", Path: v1 + "devices/series", Signed: true, Objects: ByDevice, Access: Keys, Keys: read, Tag: "openapi-v1",
			Summary: "Meter series of a device over a time range (names comma-separated; step in minutes)", Handler: H(s.v1Series)},
		{Method: "GET", Path: v1 + "sites", Signed: true, Objects: BySite, Access: Keys, Keys: []string{"auth_site_list"}, Tag: "openapi-v1",
			Summary: "Sites in scope (name, customer, status; paged)", Handler: H(s.siteList)},
		{Method: "GET", Path: v1 + "events", Signed: true, Objects: ByDevice, Access: Keys, Keys: append(read, "auth_site_detail"), Tag: "openapi-v1",
			Summary: "Alarms, faults and offline/unavailable events (device, site, kind, status, level, time; paged)", Handler: H(s.v1Events)},
		{Method: "POST", Path: v1 + "commands", Signed: true, Objects: ByDevice, Access: Keys, Keys: []string{"auth_device_edit"}, Tag: "openapi-v1",
			Summary: "Send a remote operation (control type 1-28; docs/gateway.md, \"Commands\") to one or more devices; answers the command ids", Handler: H(s.controlSend)},
		{Method: "GET", Path: v1 + "commands", Signed: true, Objects: ByDevice, Access: Keys, Keys: read, Tag: "openapi-v1",
			Summary: "Command history of a device or a batch (newest first; paged)", Handler: H(s.controlList)},
		{Method: "GET", Path: v1 + "commands/detail", Signed: true, Objects: ByDevice, Access: Keys, Keys: read, Tag: "openapi-v1",
			Summary: "A command and its result (1 waiting, 2 success, 3 failed, 4 timeout, 5 offline)", Handler: H(s.controlDetail)},
		{Method: "GET", Path: v1 + "protocol-logs", Signed: true, Objects: ByDevice, Access: Keys, Keys: []string{"auth_logs_protocol"}, Tag: "openapi-v1",
			Summary: "Protocol log frames (SN, type 0 open, 1 close, 2 received, 3 sent; time range; keyset cursor)", Handler: H(s.protocolLogList)},
		{Method: "GET", Path: v1 + "sessions", Signed: true, Objects: ByDevice, Access: Keys, Keys: read, Tag: "openapi-v1",
			Summary: "Charging sessions (device, site, start-time range, open; newest first; keyset cursor)", Handler: H(s.v1Sessions)},
	}
}
