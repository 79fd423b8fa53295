package httpapi

// securityEventRoutes are the security events chargers send (docs/security-profiles.md,
// "Security events"): the list and export of a device's or of every device in scope, and the
// acknowledgement that ends the alarms critical ones opened. An event is what a device
// reported, so each is scoped by the device's customer and site.
func (s *Server) securityEventRoutes() []Route {
	base := "/api/auth/sys/dev/security/event/"
	read := []string{"auth_device_detail", "auth_device_info", "auth_device_edit"}
	return []Route{
		{Method: "POST", Path: base + "list", Objects: ByDevice, Access: Keys, Keys: read, Tag: "fleet",
			Summary: "Security events of a device or of the devices in scope (type, critical, charger-time range; newest first), each with whether its alarm is open", Handler: H(s.securityEventList)},
		{Method: "POST", Path: base + "export", Objects: ByDevice, Access: Keys, Keys: read, Tag: "fleet",
			Summary: "Export the filtered security events to xlsx (at most 50,000 rows)", Handler: H(s.securityEventExport)},
		{Method: "POST", Path: base + "ack", Objects: ByDevice, Access: Keys, Keys: []string{"auth_device_edit"}, Tag: "fleet",
			Summary: "Acknowledge security events: end the alarms they opened", Handler: H(s.securityEventAck)},
	}
}
