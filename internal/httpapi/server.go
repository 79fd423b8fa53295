package httpapi

import (
	"context"
	"crypto/subtle"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"runtime/debug"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"chargeops/internal/access"
	"chargeops/internal/actionlog"
	"chargeops/internal/apperr"
	"chargeops/internal/application"
	"chargeops/internal/attach"
	"chargeops/internal/auth"
	"chargeops/internal/catalogue"
	"chargeops/internal/clientaddr"
	"chargeops/internal/cpca"
	"chargeops/internal/customer"
	"chargeops/internal/db"
	"chargeops/internal/device"
	"chargeops/internal/devmodel"
	"chargeops/internal/docs"
	"chargeops/internal/fleet"
	"chargeops/internal/fleet/read"
	"chargeops/internal/i18n"
	"chargeops/internal/loadmgmt"
	"chargeops/internal/mail"
	"chargeops/internal/memstat"
	"chargeops/internal/menu"
	"chargeops/internal/notify"
	"chargeops/internal/openapi"
	"chargeops/internal/openapi/webhook"
	"chargeops/internal/remote"
	"chargeops/internal/role"
	"chargeops/internal/secret"
	"chargeops/internal/site"
	"chargeops/internal/stats"
	"chargeops/internal/storage"
	"chargeops/internal/ticket"
	"chargeops/internal/token"
	"chargeops/internal/user"
)

// Cookie names (docs/api.md).
const (
	TokenCookie = "chargeops_token"
	CSRFCookie  = "chargeops_csrf"
	CSRFHeader  = "X-CSRF-Token"
)

// Deps are the services behind the API.
type Deps struct {
	DB        *db.DB
	Auth      *auth.Service
	Users     *user.Service
	Roles     *role.Service
	ActionLog *actionlog.Store
	Mailer    *mail.Mailer
	Registry  *access.Registry
	Customers *customer.Service
	Sites     *site.Service
	Models    *devmodel.Service
	Catalogue *catalogue.Service
	Devices   *device.Service
	Menus     *menu.Service
	Fleet     *fleet.Service // live fleet: commands, logs, events (nil in the openapi command)
	Reads     *read.Service  // the fleet's read models: latest values, events, logs, sessions
	Stats     *stats.Service // dashboards' figures
	Gateway   http.Handler   // the OCPP gateway mounted at /ocpp/
	// Uploads: object storage, upload targets and signed links (nil in the openapi command).
	Uploads *storage.Service
	// Notify: the message centre and reception settings (nil in the openapi command).
	Notify *notify.Service
	// Attach: attachments, folders and shares (nil in the openapi command).
	Attach *attach.Service
	// Docs: the docs wiki (nil in the openapi command).
	Docs *docs.Service
	// Tickets: tickets and their anonymous shares (nil in the openapi command).
	Tickets *ticket.Service
	// Apps: applications, their appId and encrypted secrets (nil in the openapi command).
	Apps *application.Service
	// Signatures checks the OpenAPI's signed calls; RequestLog keeps them (the request
	// log). Both nil in the openapi command.
	Signatures *openapi.Guard
	RequestLog *openapi.Log
	// RequestReader reads the request log and access statistics for the console's OpenAPI
	// screens (nil in the openapi command).
	RequestReader *openapi.Reader
	// Remote: remote links, the charger's web page and terminal (nil in the openapi command).
	Remote *remote.Service
	// Webhooks: the applications' webhooks and deliveries (nil in the openapi command).
	Webhooks *webhook.Service
	// CA: the charge-point CA, shown on the device-access page (nil in the openapi command).
	CA *cpca.CA
	// Tokens: idTags, the unknown-token policy and the local lists (nil in the openapi command).
	Tokens *token.Service
	// LoadMgmt: sites' grid limits and their load management (nil in the openapi command).
	LoadMgmt *loadmgmt.Service
}

// Options shape the HTTP behaviour.
type Options struct {
	Captcha        bool
	DefaultLocale  string
	TimeZone       string
	LanguageSwitch bool
	PublicURL      string
	TrustProxy     bool
	MetricsToken   string // GET /metrics needs "Authorization: Bearer <token>"; empty: loopback peers only
	MaxBodyBytes   int
	SessionMax     time.Duration
	Version        string
	UI             fs.FS // the built console; nil serves a note that the UI is not built in
}

// Server is the HTTP handler of chargeops.
type Server struct {
	Deps
	opt     Options
	mux     *http.ServeMux
	routes  []Route
	metrics *httpMetrics
	started time.Time
	inbound rateMeter // messages from chargers per second (system dashboard)
}

// New builds the server and registers every route of the table.
func New(d Deps, o Options, reg prometheus.Registerer) *Server {
	if reg == nil {
		reg = prometheus.NewRegistry()
	}
	s := &Server{Deps: d, opt: o, mux: http.NewServeMux(), metrics: newHTTPMetrics(reg), started: time.Now()}
	s.routes = s.routeTable()
	for _, rt := range s.routes {
		s.mux.Handle(rt.Method+" "+rt.Path, s.api(rt))
	}
	s.mux.HandleFunc("GET /api/openapi.json", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(s.OpenAPI())
	})
	s.mux.HandleFunc("GET /openapi/v1/openapi.json", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(s.OpenAPIV1())
	})
	s.mux.HandleFunc("/openapi/", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusNotFound, Envelope{Code: apperr.NotFound, Message: i18n.T(s.locale(r), "err.api_not_found", nil)})
	})
	s.mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusNotFound, Envelope{Code: apperr.NotFound, Message: i18n.T(s.locale(r), "err.api_not_found", nil)})
	})
	if d.Gateway != nil {
		s.mux.Handle("/ocpp/", d.Gateway)
	}
	if d.Fleet != nil {
		s.mux.Handle(fleet.FilesPrefix, FilesHandler(d.Fleet))
	}
	if d.Remote != nil {
		s.mux.Handle("/remote/", d.Remote.Handler()) // the chargers' tunnels, their web pages, node-to-node streams
	}
	s.mux.HandleFunc("GET /healthz", s.health)
	s.mux.Handle("GET /metrics", s.metricsGuard(promhttp.HandlerFor(prometheusGatherer(reg), promhttp.HandlerOpts{})))
	registerFleetMetrics(reg, d)
	s.mux.Handle("POST /debug/gc", s.metricsGuard(memstat.Handler())) // memory after a full GC (chargeops bench)
	s.mux.Handle("/", spaHandler(o.UI))
	return s
}

// Routes returns the route table (for the OpenAPI document, the interface registry and tests).
func (s *Server) Routes() []Route { return s.routes }

// InterfaceSpecs turns the route table into the interface rows the registry seeds.
func (s *Server) InterfaceSpecs() []access.InterfaceSpec {
	var out []access.InterfaceSpec
	for _, rt := range s.routes {
		if rt.Access == Public {
			continue
		}
		out = append(out, access.InterfaceSpec{Method: rt.Method, Path: rt.Path, Name: rt.Summary, Keys: rt.Keys, Common: rt.Access == Session, Locked: rt.locked()})
	}
	return out
}

// ServeHTTP recovers from panics so one bad request never takes the process down.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	defer func() {
		if v := recover(); v != nil {
			if v == http.ErrAbortHandler {
				panic(v)
			}
			slog.Error("panic", "method", r.Method, "path", r.URL.Path, "panic", v, "stack", string(debug.Stack()))
			writeJSON(w, http.StatusOK, Envelope{Code: apperr.Internal, Message: i18n.T(s.locale(r), "err.internal", nil)})
		}
	}()
	w.Header().Set("Content-Security-Policy", contentSecurityPolicy)
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("X-Frame-Options", "DENY")
	w.Header().Set("Referrer-Policy", "same-origin")
	s.mux.ServeHTTP(w, r)
}

// contentSecurityPolicy: scripts only from chargeops itself (the built console has no inline
// script); inline styles are allowed because antd writes its CSS-in-JS at run time; images may be
// data: or blob: URLs (logos, previews); nothing may frame the console.
const contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; " +
	"font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"

// metricsGuard lets a scraper read /metrics with the configured bearer token; without a token
// configured, only a loopback peer (the connection's own address, never X-Forwarded-For) may.
func (s *Server) metricsGuard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		allowed := false
		if s.opt.MetricsToken != "" {
			got := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
			allowed = subtle.ConstantTimeCompare([]byte(got), []byte(s.opt.MetricsToken)) == 1
		} else if host, _, err := net.SplitHostPort(r.RemoteAddr); err == nil {
			ip, err := netip.ParseAddr(host)
			allowed = err == nil && ip.Unmap().IsLoopback()
		}
		if !allowed {
			w.Header().Set("WWW-Authenticate", `Bearer realm="metrics"`)
			http.Error(w, "metrics need a token", http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
}

func (s *Server) locale(r *http.Request) string {
	if l := i18n.Normalize(r.Header.Get("Accept-Language")); l != "" {
		return l
	}
	return s.opt.DefaultLocale
}

func (s *Server) clientIP(r *http.Request) string { return clientaddr.IP(r, s.opt.TrustProxy) }

// api wraps one route: body limit, session, CSRF, permission keys, the handler, the action log.
func (s *Server) api(rt Route) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		c := &Ctx{Context: r.Context(), W: w, R: r, Locale: s.locale(r),
			Client: auth.Client{IP: s.clientIP(r), UserAgent: r.UserAgent()}}
		code := s.serveAPI(c, rt)
		s.metrics.observe(rt.Method+" "+rt.Path, code, time.Since(start))
		if rt.Signed {
			s.logSigned(c, rt, code, time.Since(start))
		}
	})
}

func (s *Server) serveAPI(c *Ctx, rt Route) int {
	w, r := c.W, c.R
	fail := func(err error) int {
		if rt.Signed {
			if e, ok := apperr.As(err); ok && openapi.HTTPStatus(e.Code) == http.StatusTooManyRequests {
				w.Header().Set("Retry-After", "60")
			}
			return writeErrorStatus(w, r, c.Locale, err, openapi.HTTPStatus)
		}
		// Cookies are headers: clear them before the answer is written.
		if e, ok := apperr.As(err); ok && e.Code >= apperr.NotLoggedIn && e.Code <= apperr.AccountDisabled {
			s.clearCookies(w, r)
		}
		return writeError(w, r, c.Locale, err)
	}
	if r.Method != http.MethodGet && !rt.RawBody {
		// A JSON content type cannot be sent cross-site without a CORS preflight, which this
		// server never grants: together with SameSite cookies and the CSRF header it closes
		// cross-site form posts, including to the login.
		if ct := r.Header.Get("Content-Type"); r.ContentLength != 0 && !strings.HasPrefix(ct, "application/json") {
			return fail(apperr.InvalidField("Content-Type", "err.invalid"))
		}
		limit := s.opt.MaxBodyBytes
		if rt.MaxBody > 0 {
			limit = rt.MaxBody
		}
		body, err := readBody(r, limit)
		if err != nil {
			return fail(err)
		}
		c.body = body
	}
	if rt.Signed {
		if err := s.signedCaller(c); err != nil {
			return fail(err)
		}
	} else if rt.Access != Public || rt.OptionalSession {
		cookie, _ := r.Cookie(TokenCookie)
		token := ""
		if cookie != nil {
			token = cookie.Value
		}
		p, err := s.Auth.Principal(r.Context(), token) // not c: c.Context is replaced below, while a driver may still watch it
		switch {
		case err == nil:
			c.P = p
			c.Context = access.WithPrincipal(c.Context, p)
		case rt.Access != Public:
			return fail(err)
		default:
			c.sessionErr = err
		}
	}
	if c.P != nil && !rt.Signed && r.Method != http.MethodGet && r.Header.Get(CSRFHeader) != c.P.CSRFToken {
		return fail(apperr.ErrCSRF)
	}
	readOnlyRefusal := c.P != nil && c.P.ReadOnly && rt.Access == Keys && !rt.reads()
	platformRefusal := c.P != nil && rt.Objects == PlatformOnly && !c.P.Root && !c.P.Scope.AllCustomers
	if rt.Access != Public && (readOnlyRefusal || platformRefusal || !s.Registry.Allowed(c.P, r.Method, rt.Path)) {
		slog.Warn("permission denied", "user", c.P.UserName, "method", r.Method, "path", rt.Path)
		s.logOperation(c, rt, apperr.NoPermission)
		return fail(apperr.ErrNoPermission)
	}
	// After the keys: a caller without them still gets (and logs) 20013. Public routes (info,
	// sign-out) and signed OpenAPI calls, made by no person at a console, are not held.
	if c.P != nil && c.P.PrivacyPending && rt.Access != Public && !rt.Signed && !rt.BeforePrivacy {
		if !rt.reads() {
			s.logOperation(c, rt, apperr.PrivacyPending)
		}
		return fail(apperr.ErrPrivacyPending)
	}
	data, err := rt.Handler.serve(c)
	code := apperr.OK
	if err != nil {
		code = fail(err)
	} else if f, ok := data.(*File); ok {
		f.write(w)
	} else if !rt.Handler.raw {
		writeOK(w, data)
	}
	// Every change is logged, and so is every read refused for scope or keys (probing ids).
	refused := code == apperr.NotFound || code == apperr.NoPermission
	if c.P != nil && !rt.SelfLogged && (!rt.reads() || refused) {
		s.logOperation(c, rt, code)
	}
	return code
}

// logOperation writes the action-log row of a call. Secrets never reach it, at any depth of
// the body or in the query (internal/secret).
func (s *Server) logOperation(c *Ctx, rt Route, code int) {
	data := secret.MaskString(string(c.body))
	if c.R.Method == http.MethodGet {
		data = maskQuery(c.R.URL.Query())
	}
	e := actionlog.Entry{UserID: c.P.UserID, UserName: c.P.UserName, Type: actionlog.TypeOperation,
		Action: fmt.Sprintf("%s %s", rt.Method, rt.Path), Data: data, Code: code, IP: c.Client.IP}
	// written whatever became of the request: a caller that hung up after its change was made
	// (a command already sent) still leaves the change's row
	if err := s.ActionLog.Write(context.WithoutCancel(c), e); err != nil {
		slog.Error("action log not written", "err", err, "action", e.Action)
	}
}

// maskQuery is a query string with the values of secret parameters masked.
func maskQuery(q url.Values) string {
	for k := range q {
		if secret.IsSecretField(k) {
			q[k] = []string{secret.Mask}
		}
	}
	return q.Encode()
}

func (s *Server) secure(r *http.Request) bool {
	return r.TLS != nil || strings.HasPrefix(s.opt.PublicURL, "https://")
}

func (s *Server) setSessionCookies(w http.ResponseWriter, r *http.Request, token, csrf string) {
	maxAge := int(s.opt.SessionMax.Seconds())
	http.SetCookie(w, &http.Cookie{Name: TokenCookie, Value: token, Path: "/", HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: s.secure(r), MaxAge: maxAge})
	http.SetCookie(w, &http.Cookie{Name: CSRFCookie, Value: csrf, Path: "/", SameSite: http.SameSiteLaxMode, Secure: s.secure(r), MaxAge: maxAge})
}

func (s *Server) clearCookies(w http.ResponseWriter, r *http.Request) {
	for _, name := range []string{TokenCookie, CSRFCookie} {
		http.SetCookie(w, &http.Cookie{Name: name, Value: "", Path: "/", MaxAge: -1, HttpOnly: name == TokenCookie, SameSite: http.SameSiteLaxMode, Secure: s.secure(r)})
	}
}
