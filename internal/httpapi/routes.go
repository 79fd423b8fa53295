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
// who may call what, assembled from one list per domain (routes_<domain>.go); `chargeops
// openapi` prints it whole. The keys are those of api/permissions.json (docs/architecture.md#permissions); the interface
// rows that an administrator can edit are seeded from this table.
func (s *Server) routeTable() []Route {
	return slices.Concat(
		s.authRoutes(), s.userRoutes(), s.roleRoutes(), s.customerRoutes(), s.siteRoutes(), s.dashboardRoutes(), s.modelRoutes(),
		s.regionRoutes(), s.catalogueRoutes(), s.deviceRoutes(), s.menuRoutes(),
		s.fleetRoutes(), s.storageRoutes(), s.messageRoutes(), s.attachRoutes(), s.docsRoutes(), s.ticketRoutes(), s.logsRoutes(),
		s.applicationRoutes(), s.openapiRoutes(), s.openapiConsoleRoutes(), s.remoteRoutes(), s.webhookRoutes(), s.opsRoutes(), s.tokenRoutes(),
		s.sessionRoutes(), s.caRoutes(),
		s.securityEventRoutes(), s.smartChargingRoutes(),
	)
}
