package httpapi

// userRoutes are the personal page of every signed-in user ("my": only the caller's own
// account) and the user screen: accounts of the customers in the caller's scope, their
// assigned customers and sites, and the locked accounts root unlocks. The rules (scope,
// grantable roles, no take-over of a stronger user, not oneself) live in internal/user.
func (s *Server) userRoutes() []Route {
	owner := "/api/auth/sys/user/owner/"
	base := "/api/auth/sys/user/"
	edit := []string{"auth_user_edit"}
	return []Route{
		// Personal page (every signed-in user)
		{Method: "POST", Path: owner + "privacy", Objects: OwnUser, Access: Session, BeforePrivacy: true, Tag: "my", Summary: "Accept the privacy policy", Handler: H(s.acceptPrivacy)},
		{Method: "GET", Path: owner + "detail", Objects: OwnUser, Access: Session, Tag: "my", Summary: "My profile", Handler: H(s.ownerDetail)},
		{Method: "POST", Path: owner + "update", Objects: OwnUser, Access: Session, Tag: "my", Summary: "Change my profile", Handler: H(s.ownerUpdate)},
		{Method: "POST", Path: owner + "password", Objects: OwnUser, Access: Session, Tag: "my", Summary: "Change my password", Handler: H(s.ownerPassword)},
		{Method: "POST", Path: owner + "email", Objects: OwnUser, Access: Session, Tag: "my", Summary: "Change my email (password verified)", Handler: H(s.ownerEmail)},

		// Users
		{Method: "POST", Path: base + "list", Objects: ByCustomer, Access: Keys, Keys: []string{"auth_user_list"}, Tag: "user", Summary: "List users", Handler: H(s.userList)},
		{Method: "GET", Path: base + "detail", Objects: ByCustomer, Access: Keys, Keys: []string{"auth_user_detail", "auth_user_edit"}, Tag: "user", Summary: "User detail", Handler: H(s.userDetail)},
		{Method: "POST", Path: base + "add", Objects: ByCustomer, Access: Keys, Keys: []string{"auth_user_add"}, Tag: "user", Summary: "Add a user", Handler: H(s.userAdd)},
		{Method: "POST", Path: base + "update", Objects: ByCustomer, Access: Keys, Keys: edit, Tag: "user", Summary: "Change a user (the user name never changes)", Handler: H(s.userUpdate)},
		{Method: "POST", Path: base + "status", Objects: ByCustomer, Access: Keys, Keys: edit, Tag: "user", Summary: "Enable or disable users", Handler: H(s.userStatus)},
		{Method: "POST", Path: base + "password", Objects: ByCustomer, Access: Keys, Keys: edit, Tag: "user", Summary: "Set a user's password", Handler: H(s.userPassword)},
		{Method: "POST", Path: base + "lock/list", Objects: PlatformOnly, Access: Root, Tag: "user", Summary: "Locked accounts", Handler: H(s.lockList)},
		{Method: "POST", Path: base + "lock/unlock", Objects: PlatformOnly, Access: Root, Tag: "user", Summary: "Unlock accounts", Handler: H(s.unlock)},

		// Users: assigned customers and sites
		{Method: "POST", Path: base + "assign", Objects: ByCustomer, Access: Keys, Keys: []string{"auth_user_customerStationList", "auth_user_authData"}, Tag: "user", Summary: "Set the customers and sites assigned to a user", Handler: H(s.userAssign)},
	}
}
