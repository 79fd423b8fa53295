package httpapi

// siteRoutes are the sites (internal/site) and their figures (internal/stats): BySite, each
// call limited to the caller's customer and site scope in SQL; a site-limited caller adds no
// site.
func (s *Server) siteRoutes() []Route {
	detail := []string{"auth_site_detail"}
	edit := []string{"auth_site_edit"}
	sys := "/api/auth/sys/site/"
	return []Route{
		{Method: "POST", Path: sys + "list", Objects: BySite, Access: Keys, Keys: []string{"auth_site_list"}, Tag: "site", Summary: "List sites in scope", Handler: H(s.siteList)},
		{Method: "GET", Path: sys + "detail", Objects: BySite, Access: Keys, Keys: []string{"auth_site_detail", "auth_site_edit"}, Tag: "site", Summary: "Site detail", Handler: H(s.siteDetail)},
		{Method: "GET", Path: sys + "overview", Objects: BySite, Access: Keys, Keys: detail, Tag: "site", Summary: "Site figures: devices by status, alarms", Handler: H(s.siteOverview)},
		{Method: "POST", Path: sys + "stats", Objects: BySite, Access: Keys, Keys: detail, Reads: true, Tag: "site", Summary: "Site statistics: status, availability, traffic and cumulative figures over a range", Handler: H(s.siteStats)},
		{Method: "POST", Path: sys + "admins", Objects: BySite, Access: Keys, Keys: detail, Reads: true, Tag: "site", Summary: "Users who administer a site, with the notification-receiver flag", Handler: H(s.siteAdmins)},
		{Method: "POST", Path: sys + "add", Objects: BySite, Access: Keys, Keys: []string{"auth_site_add"}, Tag: "site", Summary: "Add a site", Handler: H(s.siteAdd)},
		{Method: "POST", Path: sys + "update", Objects: BySite, Access: Keys, Keys: edit, Tag: "site", Summary: "Change a site", Handler: H(s.siteUpdate)},
		{Method: "POST", Path: sys + "status", Objects: BySite, Access: Keys, Keys: edit, Tag: "site", Summary: "Enable or disable sites", Handler: H(s.siteStatus)},
		{Method: "POST", Path: sys + "delete", Objects: BySite, Access: Keys, Keys: edit, Tag: "site", Summary: "Delete sites without devices", Handler: H(s.siteDelete)},
		{Method: "GET", Path: sys + "options", Objects: BySite, Access: Session, Tag: "site", Summary: "Sites in scope for selects", Handler: H(s.siteOptions)},
	}
}
