package httpapi

// fleetRoutes are the live-fleet endpoints: remote operations, runtime data, alarms and
// events, protocol logs, blacklist, pending devices, firmware and diagnostics files, and the
// server-push stream of device status changes. Keys are those of api/permissions.json.
func (s *Server) fleetRoutes() []Route {
	read := []string{"auth_device_detail", "auth_device_info", "auth_device_edit"}
	operate := []string{"auth_device_edit"}
	return []Route{
		// Remote operations
		{Method: "POST", Path: "/api/auth/sys/dev/control/send", Objects: ByDevice, Access: Keys, Keys: operate, Tag: "fleet", Summary: "Send a remote operation (control type 1-21; docs/gateway.md, \"Commands\") to one or more devices", Handler: H(s.controlSend)},
		{Method: "GET", Path: "/api/auth/sys/dev/control/detail", Objects: ByDevice, Access: Keys, Keys: read, Tag: "fleet", Summary: "A command with its result (1 waiting, 2 success, 3 failed, 4 timeout, 5 offline)", Handler: H(s.controlDetail)},
		{Method: "POST", Path: "/api/auth/sys/dev/control/list", Objects: ByDevice, Access: Keys, Keys: read, Tag: "fleet", Summary: "Command history of a device or a batch", Handler: H(s.controlList)},

		// Runtime data, alarms, events, configuration
		{Method: "GET", Path: "/api/auth/sys/dev/runtime/detail", Objects: ByDevice, Access: Keys, Keys: read, Tag: "fleet", Summary: "Device runtime info: status, connectors, latest values", Handler: H(s.runtimeDetail)},
		{Method: "POST", Path: "/api/auth/sys/dev/alarm/list", Objects: ByDevice, Access: Keys, Keys: append(read, "auth_site_detail"), Tag: "fleet", Summary: "Alarms, faults and offline/unavailable events of a device or a site", Handler: H(s.alarmList)},
		{Method: "POST", Path: "/api/auth/sys/dev/data/series", Objects: ByDevice, Access: Keys, Keys: read, Tag: "fleet", Summary: "Data-chart series over a time range (step in minutes; 43200 = monthly)", Handler: H(s.dataSeries)},
		{Method: "GET", Path: "/api/auth/sys/dev/certificate/list", Objects: ByDevice, Access: Keys, Keys: read, Tag: "fleet", Summary: "Client certificates the charge-point CA signed for a device, newest first (state 0 sent, 1 installed, 2 rejected, 3 not delivered)", Handler: H(s.deviceCertificates)},
		{Method: "GET", Path: "/api/auth/sys/dev/certificate/installed", Objects: ByDevice, Access: Keys, Keys: read, Tag: "fleet", Summary: "Certificates installed on a device as its last GetInstalledCertificateIds (control type 23) named them, by type; subject and notAfter known when chargeops installed it (control type 22)", Handler: H(s.installedCertificates)},
		{Method: "GET", Path: "/api/auth/sys/dev/config/values", Objects: ByDevice, Access: Keys, Keys: read, Tag: "fleet", Summary: "Configuration values read from the device (per config read level)", Handler: H(s.configValues)},
		{Method: "POST", Path: "/api/auth/sys/dev/config/import", Objects: ByDevice, Access: Keys, Keys: operate, MaxBody: 8 << 20, Reads: true, Tag: "fleet", Summary: "Read a parameter file (JSON, at most 5 MB, base64) into the device's items to set; changes nothing", Handler: H(s.configImport)},
		{Method: "GET", Path: "/api/auth/sys/dev/events/stream", Objects: ByDevice, Access: Keys, Keys: []string{"auth_device_list", "auth_device_detail", "auth_device_info", "auth_site_detail", "auth_home"}, Tag: "fleet", Summary: "Server-sent events: device status changes within the caller's scope", Handler: s.statusStream()},

		// Files
		{Method: "POST", Path: "/api/auth/sys/dev/firmware/add", Objects: ByCustomer, Access: Keys, Keys: operate, Tag: "fleet", Summary: "Register a firmware file; PUT its bytes to the returned uploadUrl", Handler: H(s.firmwareAdd)},
		{Method: "POST", Path: "/api/auth/sys/dev/firmware/list", Objects: ByCustomer, Access: Keys, Keys: operate, Tag: "fleet", Summary: "Firmware files", Handler: H(s.firmwareList)},
		{Method: "POST", Path: "/api/auth/sys/dev/diagnostics/list", Objects: ByDevice, Access: Keys, Keys: read, Tag: "fleet", Summary: "Diagnostics files a device uploaded", Handler: H(s.diagnosticsList)},
		{Method: "GET", Path: "/api/auth/sys/dev/file/url", Objects: ByCustomer, Access: Keys, Keys: read, Tag: "fleet", Summary: "Signed download URL of a firmware or diagnostics file (valid 3600 s)", Handler: H(s.fileURL)},

		// Blacklist, pending devices, refusals
		{Method: "POST", Path: "/api/auth/sys/dev/blacklist/add", Objects: ByDevice, Access: Keys, Keys: []string{"auth_black_device"}, Tag: "fleet", Summary: "Blacklist an SN (its connection is dropped; the gateway answers 401)", Handler: H(s.blacklistAdd)},
		{Method: "POST", Path: "/api/auth/sys/dev/blacklist/list", Objects: ByDevice, Access: Keys, Keys: []string{"auth_black_device"}, Tag: "fleet", Summary: "Blacklisted SNs", Handler: H(s.blacklistList)},
		{Method: "POST", Path: "/api/auth/sys/dev/blacklist/delete", Objects: ByDevice, Access: Keys, Keys: []string{"auth_black_device"}, Tag: "fleet", Summary: "Remove SNs from the blacklist", Handler: H(s.blacklistDelete)},
		{Method: "POST", Path: "/api/auth/sys/dev/pending/list", Objects: PlatformOnly, Access: Keys, Keys: []string{"auth_device_add", "auth_black_device"}, Tag: "fleet", Summary: "Unknown SNs that tried to connect (to add or blacklist)", Handler: H(s.pendingList)},
		{Method: "POST", Path: "/api/auth/sys/dev/refusal/list", Objects: ByDevice, Access: Keys, Keys: []string{"auth_black_device", "auth_logs_protocol"}, Tag: "fleet", Summary: "Refused connections (SN, reason, address, count, first/last seen)", Handler: H(s.refusalList)},

		// Protocol logs
		{Method: "POST", Path: "/api/auth/sys/logs/protocol/list", Objects: ByDevice, Access: Keys, Keys: []string{"auth_logs_protocol"}, Tag: "logs", Summary: "Protocol log (type 0 open, 1 close, 2 received, 3 sent)", Handler: H(s.protocolLogList)},
		{Method: "GET", Path: "/api/auth/sys/dev/gateway/stats", Objects: PlatformOnly, Access: Keys, Keys: []string{"auth_logs_protocol", "auth_system_dashboard"}, Tag: "fleet", Summary: "Gateway counters of this node", Handler: H(s.gatewayStats)},
	}
}
