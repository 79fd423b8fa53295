package httpapi

// remoteRoutes are remote access to a device (docs/remote-access.md): its link (VPN start and
// stop through the fleet's command path), the charger's own web page and the SSH terminal. The
// keys let a caller reach the call; the service checks the rest: the device in the caller's
// scope, the model's SSH/WEB support, the role's WEB/SSH access and level.
func (s *Server) remoteRoutes() []Route {
	read := []string{"auth_device_detail", "auth_device_info", "auth_device_edit"}
	operate := []string{"auth_device_edit"}
	sys := "/api/auth/sys/dev/"
	return []Route{
		{Method: "GET", Path: sys + "link/status", Objects: ByDevice, Access: Keys, Keys: read, Tag: "remote", Summary: "A device's newest remote link and what the caller may open on it", Handler: H(s.linkStatus)},
		{Method: "POST", Path: sys + "link/open", Objects: ByDevice, Access: Keys, Keys: operate, Tag: "remote", Summary: "Open a remote link (VPN start, control type 7); answers once the charger's tunnel arrived", Handler: H(s.linkOpen)},
		{Method: "POST", Path: sys + "link/close", Objects: ByDevice, Access: Keys, Keys: operate, Tag: "remote", Summary: "Close a device's remote link (VPN stop, control type 8) and destroy it", Handler: H(s.linkClose)},
		{Method: "POST", Path: sys + "basic/vpn/restart", Objects: ByDevice, Access: Keys, Keys: operate, Tag: "remote", Summary: "Restart a device's remote link: destroy it and open it again", Handler: H(s.linkRestart)},
		{Method: "POST", Path: sys + "link/web", Objects: ByDevice, Access: Keys, Keys: operate, Tag: "remote", Summary: "A short-lived URL of the charger's own web page through its link", Handler: H(s.linkWeb)},
		{Method: "GET", Path: sys + "link/terminal", Objects: ByDevice, Access: Keys, Keys: operate, Tag: "remote", Summary: "WebSocket: an SSH terminal to the charger through its link", Handler: s.linkTerminal()},
		{Method: "POST", Path: sys + "link/session/list", Objects: ByDevice, Access: Keys, Keys: append(read, "auth_logs_action"), Tag: "remote", Summary: "Remote link, web and terminal sessions (terminal input for auth_logs_action holders)", Handler: H(s.linkSessions)},
	}
}
