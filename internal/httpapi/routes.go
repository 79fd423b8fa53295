package httpapi

// Access says who may call a route.
type Access int

const (
	Public  Access = iota // no session needed (/api/unauth)
	Session               // any signed-in user: a "common" interface
	Keys                  // a user holding any one of the route's keys
	Root                  // the super admin only
)

// Route is one API endpoint with its permission keys.
type Route struct {
	Method, Path string
	Access       Access
	Keys         []string
	// OptionalSession resolves the session on a public route when there is one.
	OptionalSession bool
	// SelfLogged routes write their own action-log rows (login, logout).
	SelfLogged bool
	Tag        string
	Summary    string
	Handler    Handler
}

// routeTable is every API route of chargeops with its permission keys: the one place to read
// who may call what. The keys are those of api/permissions.json (spec §6); the interface rows
// that an administrator can edit are seeded from this table.
func (s *Server) routeTable() []Route {
	return []Route{
		// Sign-in (no session)
		{Method: "GET", Path: "/api/unauth/config", Access: Public, Tag: "auth", Summary: "Console settings before sign-in", Handler: H(s.publicConfig)},
		{Method: "GET", Path: "/api/unauth/login/key", Access: Public, Tag: "auth", Summary: "Login public key and one-time nonce", Handler: H(s.loginKey)},
		{Method: "GET", Path: "/api/unauth/captcha", Access: Public, Tag: "auth", Summary: "New image captcha", Handler: H(s.captcha)},
		{Method: "POST", Path: "/api/unauth/login", Access: Public, SelfLogged: true, Tag: "auth", Summary: "Sign in", Handler: H(s.login)},
		{Method: "POST", Path: "/api/unauth/logout", Access: Public, OptionalSession: true, SelfLogged: true, Tag: "auth", Summary: "Sign out", Handler: H(s.logout)},
		{Method: "POST", Path: "/api/unauth/info", Access: Public, OptionalSession: true, Tag: "auth", Summary: "Current user, keys, CSRF token and privacy state", Handler: H(s.info)},
		{Method: "POST", Path: "/api/unauth/password/email", Access: Public, Tag: "auth", Summary: "Mail a password-reset link", Handler: H(s.resetMail)},
		{Method: "POST", Path: "/api/unauth/password/valid", Access: Public, Tag: "auth", Summary: "Check a password-reset link", Handler: H(s.resetValid)},
		{Method: "POST", Path: "/api/unauth/password/reset", Access: Public, Tag: "auth", Summary: "Set a new password through a reset link", Handler: H(s.resetPassword)},

		// Personal page (every signed-in user)
		{Method: "POST", Path: "/api/auth/sys/user/owner/privacy", Access: Session, Tag: "my", Summary: "Accept the privacy policy", Handler: H(s.acceptPrivacy)},
		{Method: "GET", Path: "/api/auth/sys/user/owner/detail", Access: Session, Tag: "my", Summary: "My profile", Handler: H(s.ownerDetail)},
		{Method: "POST", Path: "/api/auth/sys/user/owner/update", Access: Session, Tag: "my", Summary: "Change my profile", Handler: H(s.ownerUpdate)},
		{Method: "POST", Path: "/api/auth/sys/user/owner/password", Access: Session, Tag: "my", Summary: "Change my password", Handler: H(s.ownerPassword)},
		{Method: "POST", Path: "/api/auth/sys/user/owner/email", Access: Session, Tag: "my", Summary: "Change my email (password verified)", Handler: H(s.ownerEmail)},

		// Permission catalogue (for menu authorisation and the menu screen)
		{Method: "GET", Path: "/api/auth/sys/permission/tree", Access: Keys, Keys: []string{"auth_role_authMenu", "auth_menu"}, Tag: "role", Summary: "Permission keys as a tree", Handler: H(s.permissionTree)},

		// Roles
		{Method: "POST", Path: "/api/auth/sys/role/list", Access: Keys, Keys: []string{"auth_role_list", "auth_user_add", "auth_user_edit"}, Tag: "role", Summary: "List roles", Handler: H(s.roleList)},
		{Method: "GET", Path: "/api/auth/sys/role/detail", Access: Keys, Keys: []string{"auth_role_list"}, Tag: "role", Summary: "Role with its keys and settings", Handler: H(s.roleDetail)},
		{Method: "POST", Path: "/api/auth/sys/role/add", Access: Keys, Keys: []string{"auth_role_list"}, Tag: "role", Summary: "Add a role", Handler: H(s.roleAdd)},
		{Method: "POST", Path: "/api/auth/sys/role/update", Access: Keys, Keys: []string{"auth_role_list"}, Tag: "role", Summary: "Rename a role", Handler: H(s.roleUpdate)},
		{Method: "POST", Path: "/api/auth/sys/role/delete", Access: Keys, Keys: []string{"auth_role_list"}, Tag: "role", Summary: "Delete roles no user holds", Handler: H(s.roleDelete)},
		{Method: "POST", Path: "/api/auth/sys/role/auth/menu", Access: Keys, Keys: []string{"auth_role_authMenu"}, Tag: "role", Summary: "Set a role's permission keys", Handler: H(s.roleSetKeys)},
		{Method: "POST", Path: "/api/auth/sys/role/auth/data", Access: Keys, Keys: []string{"auth_role_authData"}, Tag: "role", Summary: "Set a role's data authorisation", Handler: H(s.roleSetData)},

		// Users
		{Method: "POST", Path: "/api/auth/sys/user/list", Access: Keys, Keys: []string{"auth_user_list"}, Tag: "user", Summary: "List users", Handler: H(s.userList)},
		{Method: "GET", Path: "/api/auth/sys/user/detail", Access: Keys, Keys: []string{"auth_user_detail", "auth_user_edit"}, Tag: "user", Summary: "User detail", Handler: H(s.userDetail)},
		{Method: "POST", Path: "/api/auth/sys/user/add", Access: Keys, Keys: []string{"auth_user_add"}, Tag: "user", Summary: "Add a user", Handler: H(s.userAdd)},
		{Method: "POST", Path: "/api/auth/sys/user/update", Access: Keys, Keys: []string{"auth_user_edit"}, Tag: "user", Summary: "Change a user (the user name never changes)", Handler: H(s.userUpdate)},
		{Method: "POST", Path: "/api/auth/sys/user/status", Access: Keys, Keys: []string{"auth_user_edit"}, Tag: "user", Summary: "Enable or disable users", Handler: H(s.userStatus)},
		{Method: "POST", Path: "/api/auth/sys/user/password", Access: Keys, Keys: []string{"auth_user_edit"}, Tag: "user", Summary: "Set a user's password", Handler: H(s.userPassword)},
		{Method: "POST", Path: "/api/auth/sys/user/lock/list", Access: Root, Tag: "user", Summary: "Locked accounts", Handler: H(s.lockList)},
		{Method: "POST", Path: "/api/auth/sys/user/lock/unlock", Access: Root, Tag: "user", Summary: "Unlock accounts", Handler: H(s.unlock)},

		// Mail outbox and logs
		{Method: "POST", Path: "/api/auth/sys/mail/outbox/list", Access: Root, Tag: "system", Summary: "Mails kept in the outbox (no SMTP configured)", Handler: H(s.outboxList)},
		{Method: "POST", Path: "/api/auth/sys/logs/action/list", Access: Keys, Keys: []string{"auth_logs_action"}, Tag: "logs", Summary: "Action log", Handler: H(s.actionLogList)},
	}
}
