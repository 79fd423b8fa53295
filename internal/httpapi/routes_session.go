package httpapi

// sessionRoutes are the charging sessions of the console (docs/sessions.md): the list (the
// sessions screen, and the device and site pages' tabs), one session with its meter timeline
// and signed values, the signed values as a file, and the xlsx export. A session is what a
// device reported, so each is scoped by the device's customer and site.
func (s *Server) sessionRoutes() []Route {
	base := "/api/auth/sys/session/"
	read := []string{"auth_session_list", "auth_device_detail", "auth_site_detail"}
	return []Route{
		{Method: "POST", Path: base + "list", Objects: ByDevice, Access: Keys, Keys: read, Tag: "session",
			Summary: "Charging sessions (customer, site, device or SN, start-time range, idTag, charging/ended, stop reason; newest first; keyset cursor)", Handler: H(s.sessionList)},
		{Method: "GET", Path: base + "detail", Objects: ByDevice, Access: Keys, Keys: read, Tag: "session",
			Summary: "A charging session with its flags, its connector's meter timeline (Wh, W) and its signed meter values", Handler: H(s.sessionDetail)},
		{Method: "GET", Path: base + "signed/download", Objects: ByDevice, Access: Keys, Keys: read, Tag: "session",
			Summary: "The signed meter values of a session as received, as a JSON file", Handler: H(s.sessionSignedDownload)},
		{Method: "POST", Path: base + "export", Objects: ByDevice, Access: Keys, Keys: []string{"auth_session_export"}, Tag: "session",
			Summary: "Export the filtered charging sessions to xlsx (at most 50,000 rows)", Handler: H(s.sessionExport)},
	}
}
