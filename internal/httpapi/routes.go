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
	return slices.Concat(s.authRoutes(), s.userRoutes(), s.roleRoutes(), []Route{
		// Customers
		{Method: "POST", Path: "/api/auth/sys/customer/list", Objects: ByCustomer, Access: Keys, Keys: []string{"auth_customer_list"}, Tag: "customer", Summary: "List customers in scope", Handler: H(s.customerList)},
		{Method: "GET", Path: "/api/auth/sys/customer/detail", Objects: ByCustomer, Access: Keys, Keys: []string{"auth_customer_detail", "auth_customer_list"}, Tag: "customer", Summary: "Customer detail", Handler: H(s.customerDetail)},
		{Method: "POST", Path: "/api/auth/sys/customer/add", Objects: ByCustomer, Access: Keys, Keys: []string{"auth_customer_list"}, Tag: "customer", Summary: "Add a customer", Handler: H(s.customerAdd)},
		{Method: "POST", Path: "/api/auth/sys/customer/update", Objects: ByCustomer, Access: Keys, Keys: []string{"auth_customer_list"}, Tag: "customer", Summary: "Change a customer", Handler: H(s.customerUpdate)},
		{Method: "POST", Path: "/api/auth/sys/customer/delete", Objects: ByCustomer, Access: Keys, Keys: []string{"auth_customer_list"}, Tag: "customer", Summary: "Delete customers without sites or users", Handler: H(s.customerDelete)},
		{Method: "GET", Path: "/api/auth/sys/customer/options", Objects: ByCustomer, Access: Session, Tag: "customer", Summary: "Customers in scope for selects", Handler: H(s.customerOptions)},

		// Sites
		{Method: "POST", Path: "/api/auth/sys/site/list", Objects: BySite, Access: Keys, Keys: []string{"auth_site_list"}, Tag: "site", Summary: "List sites in scope", Handler: H(s.siteList)},
		{Method: "GET", Path: "/api/auth/sys/site/detail", Objects: BySite, Access: Keys, Keys: []string{"auth_site_detail", "auth_site_edit"}, Tag: "site", Summary: "Site detail", Handler: H(s.siteDetail)},
		{Method: "GET", Path: "/api/auth/sys/site/overview", Objects: BySite, Access: Keys, Keys: []string{"auth_site_detail"}, Tag: "site", Summary: "Site figures: devices by status, alarms", Handler: H(s.siteOverview)},
		{Method: "POST", Path: "/api/auth/sys/site/stats", Objects: BySite, Access: Keys, Keys: []string{"auth_site_detail"}, Reads: true, Tag: "site", Summary: "Site statistics: status, availability, traffic and cumulative figures over a range", Handler: H(s.siteStats)},
		{Method: "POST", Path: "/api/auth/sys/site/admins", Objects: BySite, Access: Keys, Keys: []string{"auth_site_detail"}, Reads: true, Tag: "site", Summary: "Users who administer a site, with the notification-receiver flag", Handler: H(s.siteAdmins)},
		{Method: "POST", Path: "/api/auth/sys/site/add", Objects: BySite, Access: Keys, Keys: []string{"auth_site_add"}, Tag: "site", Summary: "Add a site", Handler: H(s.siteAdd)},
		{Method: "POST", Path: "/api/auth/sys/site/update", Objects: BySite, Access: Keys, Keys: []string{"auth_site_edit"}, Tag: "site", Summary: "Change a site", Handler: H(s.siteUpdate)},
		{Method: "POST", Path: "/api/auth/sys/site/status", Objects: BySite, Access: Keys, Keys: []string{"auth_site_edit"}, Tag: "site", Summary: "Enable or disable sites", Handler: H(s.siteStatus)},
		{Method: "POST", Path: "/api/auth/sys/site/delete", Objects: BySite, Access: Keys, Keys: []string{"auth_site_edit"}, Tag: "site", Summary: "Delete sites without devices", Handler: H(s.siteDelete)},
		{Method: "GET", Path: "/api/auth/sys/site/options", Objects: BySite, Access: Session, Tag: "site", Summary: "Sites in scope for selects", Handler: H(s.siteOptions)},

		// Data model catalogue
		{Method: "POST", Path: "/api/auth/sys/dict/group/list", Objects: NoObjects, Why: "the data catalogue is shared by every customer; only platform roles change it", Access: Keys, Keys: []string{"auth_dict", "auth_dict_group", "auth_deviceModel"}, Tag: "catalogue", Summary: "List data groups", Handler: H(s.dataGroupList)},
		{Method: "POST", Path: "/api/auth/sys/dict/group/add", Objects: PlatformOnly, Access: Keys, Keys: []string{"auth_dict_group"}, Tag: "catalogue", Summary: "Add a data group", Handler: H(s.dataGroupAdd)},
		{Method: "POST", Path: "/api/auth/sys/dict/group/update", Objects: PlatformOnly, Access: Keys, Keys: []string{"auth_dict_group"}, Tag: "catalogue", Summary: "Change a data group", Handler: H(s.dataGroupUpdate)},
		{Method: "POST", Path: "/api/auth/sys/dict/group/delete", Objects: PlatformOnly, Access: Keys, Keys: []string{"auth_dict_group"}, Tag: "catalogue", Summary: "Delete empty data groups", Handler: H(s.dataGroupDelete)},
		{Method: "POST", Path: "/api/auth/sys/dict/item/list", Objects: NoObjects, Why: "the data catalogue is shared by every customer; only platform roles change it", Access: Keys, Keys: []string{"auth_dict", "auth_deviceModel", "auth_device_detail"}, Tag: "catalogue", Summary: "List data items", Handler: H(s.dataItemList)},
		{Method: "POST", Path: "/api/auth/sys/dict/item/add", Objects: PlatformOnly, Access: Keys, Keys: []string{"auth_dict"}, Tag: "catalogue", Summary: "Add a data item", Handler: H(s.dataItemAdd)},
		{Method: "POST", Path: "/api/auth/sys/dict/item/update", Objects: PlatformOnly, Access: Keys, Keys: []string{"auth_dict"}, Tag: "catalogue", Summary: "Change a data item", Handler: H(s.dataItemUpdate)},
		{Method: "POST", Path: "/api/auth/sys/dict/item/delete", Objects: PlatformOnly, Access: Keys, Keys: []string{"auth_dict"}, Tag: "catalogue", Summary: "Delete data items", Handler: H(s.dataItemDelete)},
	},
		// One group per domain, each in its routes_<domain>.go.
		s.dashboardRoutes(), s.modelRoutes(), s.regionRoutes(), s.deviceRoutes(), s.menuRoutes(),
		s.fleetRoutes(), s.storageRoutes(), s.messageRoutes(), s.attachRoutes(), s.docsRoutes(), s.ticketRoutes(), s.logsRoutes(),
		s.applicationRoutes(), s.openapiRoutes(), s.openapiConsoleRoutes(), s.remoteRoutes(), s.webhookRoutes(), s.opsRoutes(), s.tokenRoutes(),
		s.sessionRoutes(),
	)
}
