package httpapi

// dashboardRoutes are the home and system dashboards (docs/dashboards.md): figures over the
// devices of the sites in the caller's scope, read as POSTs with a body (Reads).
func (s *Server) dashboardRoutes() []Route {
	home := []string{"auth_home"}
	return []Route{
		{Method: "POST", Path: "/api/auth/sys/home/overview", Objects: BySite, Access: Keys, Keys: home, Reads: true, Tag: "dashboard", Summary: "Home dashboard: devices by health, activity and model; open alarms and faults", Handler: H(s.homeOverview)},
		{Method: "POST", Path: "/api/auth/sys/home/faults", Objects: BySite, Access: Keys, Keys: home, Reads: true, Tag: "dashboard", Summary: "Faults started in a range, per bucket and kind, with the sites and devices ranked", Handler: H(s.homeFaults)},
		{Method: "POST", Path: "/api/auth/sys/home/events", Objects: BySite, Access: Keys, Keys: []string{"auth_home", "auth_system_dashboard"}, Reads: true, Tag: "dashboard", Summary: "The newest events, without a total", Handler: H(s.homeEvents)},
		{Method: "POST", Path: "/api/auth/sys/system/overview", Objects: BySite, Access: Keys, Keys: []string{"auth_system_dashboard"}, Reads: true, Tag: "dashboard", Summary: "System dashboard: users, customers, models, devices and, for platform callers, the node", Handler: H(s.systemOverview)},
	}
}
