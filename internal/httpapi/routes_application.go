package httpapi

// applicationRoutes are the applications screen (docs/applications.md). An application belongs
// to its bound user's customer (ByCustomer); its secret is answered only by add and rotate.
func (s *Server) applicationRoutes() []Route {
	list := []string{"auth_application_list"}
	detail := []string{"auth_application_detail", "auth_application_edit"}
	add := []string{"auth_application_add"}
	edit := []string{"auth_application_edit"}
	form := []string{"auth_application_add", "auth_application_edit"}
	base := "/api/auth/sys/application/"
	return []Route{
		{Method: "POST", Path: base + "list", Objects: ByCustomer, Access: Keys, Keys: list, Tag: "application", Summary: "Applications in scope (name, status; paged); never a secret", Handler: H(s.appList)},
		{Method: "GET", Path: base + "detail", Objects: ByCustomer, Access: Keys, Keys: detail, Tag: "application", Summary: "One application without its secret", Handler: H(s.appDetail)},
		{Method: "POST", Path: base + "add", Objects: ByCustomer, Access: Keys, Keys: add, Tag: "application", Summary: "Add an application bound to a user: answers appId and appSecret, shown this once", Handler: H(s.appAdd)},
		{Method: "POST", Path: base + "update", Objects: ByCustomer, Access: Keys, Keys: edit, Tag: "application", Summary: "Change an application (name, description, icon, status, bound user)", Handler: H(s.appUpdate)},
		{Method: "POST", Path: base + "status", Objects: ByCustomer, Access: Keys, Keys: edit, Tag: "application", Summary: "Enable or disable applications", Handler: H(s.appStatus)},
		{Method: "POST", Path: base + "delete", Objects: ByCustomer, Access: Keys, Keys: edit, Tag: "application", Summary: "Delete applications (their secrets stop working)", Handler: H(s.appDelete)},
		{Method: "POST", Path: base + "secret/rotate", Objects: ByCustomer, Access: Keys, Keys: edit, Tag: "application", Summary: "New secret, shown this once; the previous one stays valid for the grace period (24 h)", Handler: H(s.appRotate)},
		{Method: "POST", Path: base + "user/options", Objects: ByCustomer, Access: Keys, Keys: form, Reads: true, Tag: "application", Summary: "Users an application may be bound to (name part; at most 100)", Handler: H(s.appUserOptions)},
	}
}
