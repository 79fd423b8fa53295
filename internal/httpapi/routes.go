package httpapi

import (
	"slices"
	"strings"
)

// Access says who may call a route.
type Access int

const (
	Public  Access = iota // no session needed (/api/unauth)
	Session               // any signed-in user: a "common" interface
	Keys                  // a user holding any one of the route's keys
	Root                  // the super admin only
)

// Objects says how the objects a route reads or changes are limited to the caller. Every route
// declares one (a test walks the table as another customer's user, a lower-level user and an
// anonymous caller: internal/httpapi/isolation_test.go).
type Objects int

const (
	ObjectsUndeclared Objects = iota // a route without a declaration fails the isolation test
	ByCustomer                       // objects of a customer (customers, users, roles, models, files): the caller's customer scope
	BySite                           // objects of a site: the caller's customer and site scope
	ByDevice                         // a device and what it reports or is told: the scope of the device's site
	OwnUser                          // only the caller's own account
	PlatformOnly                     // platform data: root or a caller who sees every customer (checked before the handler)
	NoObjects                        // nothing stored per customer; Why says why
)

var objectsNames = map[Objects]string{ByCustomer: "customer", BySite: "site", ByDevice: "device", OwnUser: "own-user",
	PlatformOnly: "platform", NoObjects: "none"}

func (o Objects) String() string { return objectsNames[o] }

// Route is one API endpoint with its permission keys.
type Route struct {
	Method, Path string
	Access       Access
	Keys         []string
	Objects      Objects
	Why          string // with NoObjects: why the route has nothing to limit
	// OptionalSession resolves the session on a public route when there is one.
	OptionalSession bool
	// SelfLogged routes write their own action-log rows (login, logout).
	SelfLogged bool
	// Reads marks a POST that only reads although its path does not say so (session info).
	Reads bool
	// BeforePrivacy: a session may call it before accepting the current privacy policy (the
	// acceptance itself); every other session route answers 20014 until then (docs/api.md).
	BeforePrivacy bool
	// MaxBody overrides the body limit (file imports).
	MaxBody int
	// RawBody: the handler reads the body itself, of any type (signed object uploads).
	RawBody bool
	// Signed routes are the OpenAPI's (docs/openapi.md): the caller is an application proven
	// by its request signature, acting as its bound user (no session, no CSRF token); keys,
	// scope and the action log then work as for a console session.
	Signed  bool
	Tag     string
	Summary string
	Handler Handler
}

// reads reports whether a route only reads: GET, or by the API's convention (decisions §3) a
// POST list or export. Reads are not action-logged and stay open to read-only customers.
func (rt Route) reads() bool {
	return rt.Reads || rt.Method == "GET" || strings.HasSuffix(rt.Path, "/list") || strings.HasSuffix(rt.Path, "/export")
}

// securityKeys grant who may do what: roles, users and their data access, menus and interfaces,
// the blacklist. An interface that needs one of them is locked (access.InterfaceSpec.Locked).
var securityKeys = map[string]bool{"auth_role": true, "auth_role_list": true, "auth_role_authMenu": true, "auth_role_authData": true,
	"auth_user_add": true, "auth_user_edit": true, "auth_user_authData": true, "auth_user_customerStationList": true,
	"auth_menu": true, "auth_black_device": true, "auth_logs_action": true}

// locked reports whether the console may not change who calls the route: root-only routes,
// every user's own (common by design) and security-relevant ones follow the code.
func (rt Route) locked() bool {
	if rt.Access == Root || rt.Access == Session {
		return true
	}
	for _, k := range rt.Keys {
		if securityKeys[k] {
			return true
		}
	}
	return false
}

// routeTable is every API route of chargeops with its permission keys: the one place to read
// who may call what. The keys are those of api/permissions.json (spec §6); the interface rows
// that an administrator can edit are seeded from this table.
func (s *Server) routeTable() []Route {
	return slices.Concat([]Route{
		// Sign-in (no session)
		{Method: "GET", Path: "/api/unauth/config", Objects: NoObjects, Why: "settings and one-time values a sign-in needs; no stored object", Access: Public, Tag: "auth", Summary: "Console settings before sign-in", Handler: H(s.publicConfig)},
		{Method: "GET", Path: "/api/unauth/login/key", Objects: NoObjects, Why: "settings and one-time values a sign-in needs; no stored object", Access: Public, Tag: "auth", Summary: "Login public key and one-time nonce", Handler: H(s.loginKey)},
		{Method: "GET", Path: "/api/unauth/captcha", Objects: NoObjects, Why: "settings and one-time values a sign-in needs; no stored object", Access: Public, Tag: "auth", Summary: "New image captcha", Handler: H(s.captcha)},
		{Method: "POST", Path: "/api/unauth/login", Objects: NoObjects, Why: "signs in; answers the same for unknown names and wrong passwords", Access: Public, SelfLogged: true, Tag: "auth", Summary: "Sign in", Handler: H(s.login)},
		{Method: "POST", Path: "/api/unauth/logout", Objects: OwnUser, Access: Public, OptionalSession: true, SelfLogged: true, Tag: "auth", Summary: "Sign out", Handler: H(s.logout)},
		{Method: "POST", Path: "/api/unauth/info", Objects: OwnUser, Access: Public, OptionalSession: true, Reads: true, Tag: "auth", Summary: "Current user, keys, CSRF token and privacy state", Handler: H(s.info)},
		{Method: "POST", Path: "/api/unauth/password/email", Objects: NoObjects, Why: "acts only through a mailed one-time token; answers the same for unknown addresses", Access: Public, Tag: "auth", Summary: "Mail a password-reset link", Handler: H(s.resetMail)},
		{Method: "POST", Path: "/api/unauth/password/valid", Objects: NoObjects, Why: "acts only through a mailed one-time token; answers the same for unknown addresses", Access: Public, Tag: "auth", Summary: "Check a password-reset link", Handler: H(s.resetValid)},
		{Method: "POST", Path: "/api/unauth/password/reset", Objects: NoObjects, Why: "acts only through a mailed one-time token; answers the same for unknown addresses", Access: Public, Tag: "auth", Summary: "Set a new password through a reset link", Handler: H(s.resetPassword)},

		// Personal page (every signed-in user)
		{Method: "POST", Path: "/api/auth/sys/user/owner/privacy", Objects: OwnUser, Access: Session, BeforePrivacy: true, Tag: "my", Summary: "Accept the privacy policy", Handler: H(s.acceptPrivacy)},
		{Method: "GET", Path: "/api/auth/sys/user/owner/detail", Objects: OwnUser, Access: Session, Tag: "my", Summary: "My profile", Handler: H(s.ownerDetail)},
		{Method: "POST", Path: "/api/auth/sys/user/owner/update", Objects: OwnUser, Access: Session, Tag: "my", Summary: "Change my profile", Handler: H(s.ownerUpdate)},
		{Method: "POST", Path: "/api/auth/sys/user/owner/password", Objects: OwnUser, Access: Session, Tag: "my", Summary: "Change my password", Handler: H(s.ownerPassword)},
		{Method: "POST", Path: "/api/auth/sys/user/owner/email", Objects: OwnUser, Access: Session, Tag: "my", Summary: "Change my email (password verified)", Handler: H(s.ownerEmail)},

		// Permission catalogue (for menu authorisation and the menu screen)
		{Method: "GET", Path: "/api/auth/sys/permission/tree", Objects: NoObjects, Why: "the permission catalogue is the same for every customer", Access: Keys, Keys: []string{"auth_role_authMenu", "auth_menu"}, Tag: "role", Summary: "Permission keys as a tree", Handler: H(s.permissionTree)},

		// Roles
		{Method: "POST", Path: "/api/auth/sys/role/list", Objects: ByCustomer, Access: Keys, Keys: []string{"auth_role_list", "auth_user_add", "auth_user_edit"}, Tag: "role", Summary: "List roles", Handler: H(s.roleList)},
		{Method: "GET", Path: "/api/auth/sys/role/detail", Objects: ByCustomer, Access: Keys, Keys: []string{"auth_role_list"}, Tag: "role", Summary: "Role with its keys and settings", Handler: H(s.roleDetail)},
		{Method: "POST", Path: "/api/auth/sys/role/add", Objects: ByCustomer, Access: Keys, Keys: []string{"auth_role_list"}, Tag: "role", Summary: "Add a role", Handler: H(s.roleAdd)},
		{Method: "POST", Path: "/api/auth/sys/role/update", Objects: ByCustomer, Access: Keys, Keys: []string{"auth_role_list"}, Tag: "role", Summary: "Rename a role", Handler: H(s.roleUpdate)},
		{Method: "POST", Path: "/api/auth/sys/role/delete", Objects: ByCustomer, Access: Keys, Keys: []string{"auth_role_list"}, Tag: "role", Summary: "Delete roles no user holds", Handler: H(s.roleDelete)},
		{Method: "POST", Path: "/api/auth/sys/role/auth/menu", Objects: ByCustomer, Access: Keys, Keys: []string{"auth_role_authMenu"}, Tag: "role", Summary: "Set a role's permission keys", Handler: H(s.roleSetKeys)},
		{Method: "POST", Path: "/api/auth/sys/role/auth/data", Objects: ByCustomer, Access: Keys, Keys: []string{"auth_role_authData"}, Tag: "role", Summary: "Set a role's data authorisation", Handler: H(s.roleSetData)},

		// Users
		{Method: "POST", Path: "/api/auth/sys/user/list", Objects: ByCustomer, Access: Keys, Keys: []string{"auth_user_list"}, Tag: "user", Summary: "List users", Handler: H(s.userList)},
		{Method: "GET", Path: "/api/auth/sys/user/detail", Objects: ByCustomer, Access: Keys, Keys: []string{"auth_user_detail", "auth_user_edit"}, Tag: "user", Summary: "User detail", Handler: H(s.userDetail)},
		{Method: "POST", Path: "/api/auth/sys/user/add", Objects: ByCustomer, Access: Keys, Keys: []string{"auth_user_add"}, Tag: "user", Summary: "Add a user", Handler: H(s.userAdd)},
		{Method: "POST", Path: "/api/auth/sys/user/update", Objects: ByCustomer, Access: Keys, Keys: []string{"auth_user_edit"}, Tag: "user", Summary: "Change a user (the user name never changes)", Handler: H(s.userUpdate)},
		{Method: "POST", Path: "/api/auth/sys/user/status", Objects: ByCustomer, Access: Keys, Keys: []string{"auth_user_edit"}, Tag: "user", Summary: "Enable or disable users", Handler: H(s.userStatus)},
		{Method: "POST", Path: "/api/auth/sys/user/password", Objects: ByCustomer, Access: Keys, Keys: []string{"auth_user_edit"}, Tag: "user", Summary: "Set a user's password", Handler: H(s.userPassword)},
		{Method: "POST", Path: "/api/auth/sys/user/lock/list", Objects: PlatformOnly, Access: Root, Tag: "user", Summary: "Locked accounts", Handler: H(s.lockList)},
		{Method: "POST", Path: "/api/auth/sys/user/lock/unlock", Objects: PlatformOnly, Access: Root, Tag: "user", Summary: "Unlock accounts", Handler: H(s.unlock)},

		// Users: assigned customers and sites
		{Method: "POST", Path: "/api/auth/sys/user/assign", Objects: ByCustomer, Access: Keys, Keys: []string{"auth_user_customerStationList", "auth_user_authData"}, Tag: "user", Summary: "Set the customers and sites assigned to a user", Handler: H(s.userAssign)},

		// Dashboards (docs/dashboards.md)
		{Method: "POST", Path: "/api/auth/sys/home/overview", Objects: BySite, Access: Keys, Keys: []string{"auth_home"}, Reads: true, Tag: "dashboard", Summary: "Home dashboard: devices by health, activity and model; open alarms and faults", Handler: H(s.homeOverview)},
		{Method: "POST", Path: "/api/auth/sys/home/faults", Objects: BySite, Access: Keys, Keys: []string{"auth_home"}, Reads: true, Tag: "dashboard", Summary: "Faults started in a range, per bucket and kind, with the sites and devices ranked", Handler: H(s.homeFaults)},
		{Method: "POST", Path: "/api/auth/sys/home/events", Objects: BySite, Access: Keys, Keys: []string{"auth_home", "auth_system_dashboard"}, Reads: true, Tag: "dashboard", Summary: "The newest events, without a total", Handler: H(s.homeEvents)},
		{Method: "POST", Path: "/api/auth/sys/system/overview", Objects: BySite, Access: Keys, Keys: []string{"auth_system_dashboard"}, Reads: true, Tag: "dashboard", Summary: "System dashboard: users, customers, models, devices and, for platform callers, the node", Handler: H(s.systemOverview)},

		// Device models, items and aliases
		{Method: "POST", Path: "/api/auth/sys/dev/model/list", Objects: ByCustomer, Access: Keys, Keys: []string{"auth_deviceModel", "auth_device_add", "auth_device_edit", "auth_device_list"}, Tag: "model", Summary: "List device models", Handler: H(s.modelList)},
		{Method: "GET", Path: "/api/auth/sys/dev/model/detail", Objects: ByCustomer, Access: Keys, Keys: []string{"auth_deviceModel", "auth_device_detail"}, Tag: "model", Summary: "Device model detail", Handler: H(s.modelDetail)},
		{Method: "POST", Path: "/api/auth/sys/dev/model/add", Objects: ByCustomer, Access: Keys, Keys: []string{"auth_deviceModel"}, Tag: "model", Summary: "Add a device model", Handler: H(s.modelAdd)},
		{Method: "POST", Path: "/api/auth/sys/dev/model/update", Objects: ByCustomer, Access: Keys, Keys: []string{"auth_deviceModel"}, Tag: "model", Summary: "Change a device model", Handler: H(s.modelUpdate)},
		{Method: "POST", Path: "/api/auth/sys/dev/model/delete", Objects: ByCustomer, Access: Keys, Keys: []string{"auth_deviceModel"}, Tag: "model", Summary: "Delete unused device models", Handler: H(s.modelDelete)},
		{Method: "POST", Path: "/api/auth/sys/dev/model/item/list", Objects: ByCustomer, Access: Keys, Keys: []string{"auth_deviceModel", "auth_device_detail"}, Tag: "model", Summary: "Config, param and control items of a model", Handler: H(s.modelItems)},
		{Method: "POST", Path: "/api/auth/sys/dev/model/item/add", Objects: ByCustomer, Access: Keys, Keys: []string{"auth_deviceModel"}, Tag: "model", Summary: "Add a model item", Handler: H(s.modelItemAdd)},
		{Method: "POST", Path: "/api/auth/sys/dev/model/item/update", Objects: ByCustomer, Access: Keys, Keys: []string{"auth_deviceModel"}, Tag: "model", Summary: "Change a model item", Handler: H(s.modelItemUpdate)},
		{Method: "POST", Path: "/api/auth/sys/dev/model/item/delete", Objects: ByCustomer, Access: Keys, Keys: []string{"auth_deviceModel"}, Tag: "model", Summary: "Delete model items", Handler: H(s.modelItemDelete)},
		{Method: "POST", Path: "/api/auth/sys/dev/model/alias/list", Objects: ByCustomer, Access: Keys, Keys: []string{"auth_deviceModel_alias"}, Tag: "model", Summary: "List model aliases", Handler: H(s.aliasList)},
		{Method: "POST", Path: "/api/auth/sys/dev/model/alias/add", Objects: ByCustomer, Access: Keys, Keys: []string{"auth_deviceModel_alias"}, Tag: "model", Summary: "Add a model alias", Handler: H(s.aliasAdd)},
		{Method: "POST", Path: "/api/auth/sys/dev/model/alias/delete", Objects: ByCustomer, Access: Keys, Keys: []string{"auth_deviceModel_alias"}, Tag: "model", Summary: "Delete model aliases", Handler: H(s.aliasDelete)},

		// Regions for addresses (docs/logs.md, "Location")
		{Method: "GET", Path: "/api/auth/sys/dict/region/all", Objects: NoObjects, Why: "a fixed list of regions compiled into the binary, the same for everyone", Access: Session, Tag: "catalogue", Summary: "Every region (countries; China's provinces and, for some, cities) in the caller's language", Handler: H(s.regionAll)},

		// Devices
		{Method: "POST", Path: "/api/auth/sys/dev/basic/list", Objects: ByDevice, Access: Keys, Keys: []string{"auth_device_list"}, Tag: "device", Summary: "List devices in scope (bounded count, see docs)", Handler: H(s.deviceList)},
		{Method: "GET", Path: "/api/auth/sys/dev/basic/detail", Objects: ByDevice, Access: Keys, Keys: []string{"auth_device_detail", "auth_device_edit", "auth_device_info"}, Tag: "device", Summary: "Device detail (status as a number)", Handler: H(s.deviceDetail)},
		{Method: "GET", Path: "/api/auth/sys/dev/basic/status/count", Objects: ByDevice, Access: Keys, Keys: []string{"auth_device_list", "auth_home"}, Tag: "device", Summary: "Devices in scope by status", Handler: H(s.deviceStatusCounts)},
		{Method: "POST", Path: "/api/auth/sys/dev/basic/add", Objects: ByDevice, Access: Keys, Keys: []string{"auth_device_add"}, Tag: "device", Summary: "Add a device", Handler: H(s.deviceAdd)},
		{Method: "POST", Path: "/api/auth/sys/dev/basic/update", Objects: ByDevice, Access: Keys, Keys: []string{"auth_device_edit"}, Tag: "device", Summary: "Change a device (the SN never changes)", Handler: H(s.deviceUpdate)},
		{Method: "POST", Path: "/api/auth/sys/dev/basic/delete", Objects: ByDevice, Access: Keys, Keys: []string{"auth_device_delete"}, Tag: "device", Summary: "Delete devices", Handler: H(s.deviceDelete)},
		{Method: "POST", Path: "/api/auth/sys/dev/basic/enable", Objects: ByDevice, Access: Keys, Keys: []string{"auth_device_edit"}, Tag: "device", Summary: "Enable or disable devices", Handler: H(s.deviceEnable)},
		{Method: "POST", Path: "/api/auth/sys/dev/basic/maintain", Objects: ByDevice, Access: Keys, Keys: []string{"auth_device_edit"}, Tag: "device", Summary: "Put devices into or out of maintenance mode", Handler: H(s.deviceMaintain)},
		{Method: "POST", Path: "/api/auth/sys/dev/basic/maintained", Objects: ByDevice, Access: Keys, Keys: []string{"auth_device_edit"}, Tag: "device", Summary: "Record a maintenance (resets the unmaintained period)", Handler: H(s.deviceMaintained)},
		{Method: "POST", Path: "/api/auth/sys/dev/basic/import", Objects: ByDevice, Access: Keys, Keys: []string{"auth_device_add"}, MaxBody: 8 << 20, Tag: "device", Summary: "Import devices from xlsx (base64); all rows or none", Handler: H(s.deviceImport)},
		{Method: "GET", Path: "/api/auth/sys/dev/basic/import/template", Objects: NoObjects, Why: "an empty spreadsheet", Access: Keys, Keys: []string{"auth_device_add"}, Tag: "device", Summary: "The xlsx import template", Handler: H(s.deviceTemplate)},
		{Method: "POST", Path: "/api/auth/sys/dev/basic/export", Objects: ByDevice, Access: Keys, Keys: []string{"auth_device_list"}, Tag: "device", Summary: "Export the filtered devices to xlsx", Handler: H(s.deviceExport)},

		// Menus and interfaces
		{Method: "GET", Path: "/api/auth/sys/menu/tree", Objects: NoObjects, Why: "menus and interfaces are the console's structure, the same for every customer", Access: Keys, Keys: []string{"auth_menu"}, Tag: "menu", Summary: "Menu tree with interface counts", Handler: H(s.menuTree)},
		{Method: "POST", Path: "/api/auth/sys/menu/add", Objects: PlatformOnly, Access: Keys, Keys: []string{"auth_menu"}, Tag: "menu", Summary: "Add a menu", Handler: H(s.menuAdd)},
		{Method: "POST", Path: "/api/auth/sys/menu/update", Objects: PlatformOnly, Access: Keys, Keys: []string{"auth_menu"}, Tag: "menu", Summary: "Change a menu's name, parent, sort or URL", Handler: H(s.menuUpdate)},
		{Method: "POST", Path: "/api/auth/sys/menu/delete", Objects: PlatformOnly, Access: Keys, Keys: []string{"auth_menu"}, Tag: "menu", Summary: "Delete a menu without interfaces", Handler: H(s.menuDelete)},
		{Method: "POST", Path: "/api/auth/sys/interface/list", Objects: NoObjects, Why: "menus and interfaces are the console's structure, the same for every customer", Access: Keys, Keys: []string{"auth_menu", "auth_role_authMenu"}, Tag: "menu", Summary: "List interfaces", Handler: H(s.interfaceList)},
		{Method: "POST", Path: "/api/auth/sys/interface/save", Objects: PlatformOnly, Access: Keys, Keys: []string{"auth_menu"}, Tag: "menu", Summary: "Add (id 0) or change an interface", Handler: H(s.interfaceSave)},
		{Method: "POST", Path: "/api/auth/sys/interface/delete", Objects: PlatformOnly, Access: Keys, Keys: []string{"auth_menu"}, Tag: "menu", Summary: "Delete interfaces", Handler: H(s.interfaceDelete)},

		// Mail outbox and logs
		{Method: "POST", Path: "/api/auth/sys/mail/outbox/list", Objects: PlatformOnly, Access: Root, Tag: "system", Summary: "Mails kept in the outbox (no SMTP configured)", Handler: H(s.outboxList)},
		{Method: "POST", Path: "/api/auth/sys/logs/action/list", Objects: ByCustomer, Access: Keys, Keys: []string{"auth_logs_action"}, Tag: "logs", Summary: "Action log", Handler: H(s.actionLogList)},
	},
		// One group per domain, each in its routes_<domain>.go.
		s.customerRoutes(), s.siteRoutes(), s.catalogueRoutes(),
		s.fleetRoutes(), s.storageRoutes(), s.messageRoutes(), s.attachRoutes(), s.docsRoutes(), s.ticketRoutes(), s.logsRoutes(),
		s.applicationRoutes(), s.openapiRoutes(), s.openapiConsoleRoutes(), s.remoteRoutes(), s.webhookRoutes(), s.opsRoutes(), s.tokenRoutes(),
		s.sessionRoutes(),
	)
}
