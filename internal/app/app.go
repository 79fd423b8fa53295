// Package app wires chargeops together: configuration → database → services → HTTP server,
// and owns start-up and shutdown order.
package app

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"chargeops/internal/access"
	"chargeops/internal/actionlog"
	"chargeops/internal/application"
	"chargeops/internal/attach"
	"chargeops/internal/auth"
	"chargeops/internal/catalogue"
	"chargeops/internal/config"
	"chargeops/internal/cpca"
	"chargeops/internal/customer"
	"chargeops/internal/db"
	"chargeops/internal/device"
	"chargeops/internal/devmodel"
	"chargeops/internal/docs"
	"chargeops/internal/fleet"
	"chargeops/internal/fleet/natsreg"
	"chargeops/internal/fleet/read"
	"chargeops/internal/gateway/mqtt"
	"chargeops/internal/gateway/ocpp16"
	"chargeops/internal/gateway/ocpp201"
	"chargeops/internal/gateway/ocppj"
	"chargeops/internal/httpapi"
	"chargeops/internal/loadmgmt"
	"chargeops/internal/mail"
	"chargeops/internal/menu"
	"chargeops/internal/notify"
	"chargeops/internal/openapi"
	"chargeops/internal/openapi/webhook"
	"chargeops/internal/ratelimit"
	"chargeops/internal/remote"
	"chargeops/internal/role"
	"chargeops/internal/session"
	"chargeops/internal/setting"
	"chargeops/internal/site"
	"chargeops/internal/stats"
	"chargeops/internal/storage"
	"chargeops/internal/ticket"
	"chargeops/internal/tlsconf"
	"chargeops/internal/token"
	"chargeops/internal/user"
)

// Version is set at build time (-ldflags "-X chargeops/internal/app.Version=...").
var Version = "dev"

// App is a running chargeops node.
type App struct {
	Cfg       config.Config
	DB        *db.DB
	Users     *user.Service
	Roles     *role.Service
	Auth      *auth.Service
	Sessions  *session.Store
	Limiter   *ratelimit.Limiter
	Server    *httpapi.Server
	Metrics   *prometheus.Registry
	Fleet     *fleet.Service
	Devices   *device.Service
	Customers *customer.Service
	Sites     *site.Service
	Models    *devmodel.Service
	Gateway   *ocpp16.Gateway
	// MQTT is the storage units' adapter, MQTTBroker the embedded broker (nil with
	// --mqtt-broker); both set by Serve (docs/mqtt.md).
	MQTT       *mqtt.Adapter
	MQTTBroker *mqtt.Broker
	Mailer     *mail.Mailer    // the outbox and its SMTP worker
	Notify     *notify.Service // messages and alarm mail from device events
	Uploads    *storage.Service
	Attach     *attach.Service
	Remote     *remote.Service // remote links, the chargers' web pages and terminals
	// RequestLog is the OpenAPI's request log writer (docs/openapi.md).
	RequestLog *openapi.Log
	// Webhooks: the applications' webhooks and their delivery worker (docs/webhooks.md).
	Webhooks *webhook.Service
	// Tokens: the customers' idTags, the authority the gateway asks and the chargers' local
	// lists (docs/tokens.md).
	Tokens *token.Service
	// LoadMgmt: the sites' grid limits and their load management (docs/smart-charging.md).
	LoadMgmt *loadmgmt.Service
	// linkBaseErr refuses Serve: no public URL and a listen address that is not loopback.
	linkBaseErr error
	// clientCAs are the CAs whose client certificates prove security profile 3: the
	// charge-point CA and those of --ocpp-client-ca
	clientCAs *x509.CertPool
	stopMQTT  func()        // ends the MQTT adapter and broker (startMQTT)
	mqttUp    chan struct{} // closed once startMQTT has run
	// CA is the charge-point CA (internal/cpca)
	CA *cpca.CA
}

// OpenDB opens the configured database and applies the migrations and the catalogue.
func OpenDB(ctx context.Context, cfg config.Config) (*db.DB, error) {
	d, err := db.Open(ctx, cfg.DB, cfg.DataDir)
	if err != nil {
		return nil, err
	}
	n, err := d.Migrate(ctx)
	if err != nil {
		d.Close()
		return nil, fmt.Errorf("migrate: %w", err)
	}
	if n > 0 {
		slog.Info("migrations applied", "count", n, "db", d.Dialect().String())
	}
	if err := access.SyncCatalogue(ctx, d); err != nil {
		d.Close()
		return nil, err
	}
	return d, nil
}

// New builds a node on an open, migrated database. ui is the built console (nil: none).
func New(ctx context.Context, cfg config.Config, d *db.DB, ui fs.FS) (*App, error) {
	loc, err := time.LoadLocation(cfg.TimeZone)
	if err != nil {
		return nil, err
	}
	a := &App{Cfg: cfg, DB: d, Metrics: prometheus.NewRegistry(), mqttUp: make(chan struct{})}
	a.Metrics.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	a.Sessions = session.NewStore(d, cfg.SessionIdle, cfg.SessionMax)
	a.Roles = role.NewService(d, a.Sessions)
	a.Users = user.NewService(d, a.Sessions, a.Roles)
	a.Limiter = ratelimit.New(d)
	actions := actionlog.NewStore(d)
	mailer := mail.New(d, mail.SMTPConfig{Host: cfg.SMTPHost, Port: cfg.SMTPPort, User: cfg.SMTPUser, Password: cfg.SMTPPassword, From: cfg.SMTPFrom, TLS: cfg.SMTPTLS})
	linkBase, linkBaseErr := cfg.LinkBase()
	a.linkBaseErr = linkBaseErr
	a.Auth, err = auth.New(ctx, auth.Deps{DB: d, Settings: setting.NewStore(d), Users: a.Users, Roles: a.Roles, Sessions: a.Sessions,
		Limiter: a.Limiter, Mailer: mailer, ActionLog: actions}, auth.Config{Captcha: cfg.Captcha, LockAfter: cfg.LoginLockAfter, LockFor: cfg.LoginLockFor, Location: loc, PublicURL: linkBase})
	if err != nil {
		return nil, err
	}
	a.Sessions.OnEnded = a.Auth.OnSessionEnded
	files, err := storage.Open(ctx, storage.Config{Backend: cfg.Storage, DataDir: cfg.DataDir, BaseURL: linkBase, Endpoint: cfg.S3Endpoint,
		Region: cfg.S3Region, Bucket: cfg.S3Bucket, AccessKey: cfg.S3AccessKey, SecretKey: cfg.S3SecretKey, Insecure: cfg.S3Insecure, PathStyle: cfg.S3PathStyle}, setting.NewStore(d))
	if err != nil {
		return nil, err
	}
	var fleetRegistry fleet.Registry
	if cfg.NATSURL != "" {
		if fleetRegistry, err = natsRegistry(cfg); err != nil {
			return nil, err
		}
	}
	// the charge-point CA (security profile 3: it signs chargers' CSRs) and the CAs whose
	// client certificates the gateway trusts, read before anything starts
	if a.CA, err = cpca.Open(ctx, setting.NewStore(d), cpca.Options{CertFile: cfg.CPCACert, KeyFile: cfg.CPCAKey,
		KEKFile: cfg.CPCAKEKPath(), Validity: time.Duration(cfg.CPCertDays) * 24 * time.Hour}); err != nil {
		return nil, err
	}
	if !a.CA.CanSign() {
		slog.Warn("this node cannot sign chargers' certificates: the charge-point CA's key is sealed under another --cp-ca-kek-file", "file", cfg.CPCAKEKPath())
	}
	extraCAs, err := tlsconf.LoadCerts(cfg.OCPPClientCAs())
	if err != nil {
		return nil, fmt.Errorf("ocpp-client-ca: %w", err)
	}
	a.CA.Trust(extraCAs)
	a.clientCAs = a.CA.Pool()
	a.Fleet, err = fleet.New(ctx, d, setting.NewStore(d), fleet.Options{CommandTimeout: cfg.CommandTimeout, RetentionDays: cfg.ProtocolLogDays,
		HeartbeatInterval: cfg.OCPPHeartbeat, DataDir: cfg.DataDir, LogQueue: cfg.ProtocolLogQueue, IngestRetryMax: cfg.IngestRetryMax, Node: cfg.NodeName, Registry: fleetRegistry,
		Location: loc, Files: files, RestartGrace: cfg.RestartGrace})
	if err != nil {
		return nil, err
	}
	if cluster, ok := fleetRegistry.(*natsreg.Registry); ok {
		if err := cluster.ShareStatus(a.Fleet.Hub); err != nil {
			return nil, fmt.Errorf("nats status events: %w", err)
		}
	}
	a.Tokens = token.New(d)
	a.Tokens.AttachFleet(a.Fleet)
	a.Fleet.SetTokenAuthority(a.Tokens)
	a.Fleet.OnCommandResults(a.Tokens.OnCommandResult)
	certProxies, err := cfg.OCPPCertProxies()
	if err != nil {
		return nil, err
	}
	a.Gateway = ocpp16.New(a.Fleet, ocpp16.Options{AllowUnknown: cfg.OCPPAllowUnknown, RequireKeys: cfg.RequireDeviceKeys, PingInterval: cfg.OCPPPingInterval,
		TrustProxy: cfg.TrustProxy, PublicURL: cfg.PublicURL, LocalLists: a.Tokens, KeyBackoff: cfg.OCPPKeyBackoff, ClientCAs: a.clientCAs, Signer: a.CA,
		CertHeader: cfg.OCPPClientCertHeader, CertProxies: certProxies,
		// OCPP 2.0.1 on the same connection layer (internal/gateway/ocpp201)
		Dialects: []ocppj.Dialect{ocpp201.New(a.Fleet, ocpp201.Options{Signer: a.CA, LocalLists: a.Tokens})}})
	registry := access.NewRegistry(d)
	a.Devices = device.NewService(d)
	a.Devices.SetNotifier(fleetNotifier{a.Fleet})
	a.Devices.SetKeyHasher(a.Fleet.HashAuthKey) // the device key a charger or storage unit signs in with
	a.Mailer = mailer
	a.Notify = notify.New(d, mailer, notify.Options{OfflineDebounce: cfg.AlarmOfflineDebounce, RepeatWindow: cfg.AlarmRepeatWindow,
		MailsPerHour: cfg.AlarmMailsPerHour, Location: loc})
	a.Fleet.OnEvents(a.Notify.Announce)
	a.Customers, a.Sites, a.Models = customer.NewService(d), site.NewService(d), devmodel.NewService(d)
	uploads := storage.NewService(d, files, a.Limiter, cfg.LinkTTL)
	attachments := attach.New(d, uploads, a.Limiter)
	a.Uploads, a.Attach = uploads, attachments
	a.Fleet.OnDiagnostics(func(ctx context.Context, u fleet.DiagnosticsUpload) {
		if _, err := attachments.RegisterDiagnostics(ctx, attach.Diagnostics{CustomerID: u.CustomerID, SN: u.SN, Name: u.Name, ObjectKey: u.ObjectKey, Size: u.Size,
			SecurityLog: u.SecurityLog}); err != nil {
			slog.Warn("diagnostics attachment", "sn", u.SN, "err", err)
		}
	})
	apps := application.New(d, setting.NewStore(d), a.Users, uploads)
	if a.Remote, err = remote.New(ctx, d, setting.NewStore(d), a.Fleet, actions, remote.Options{Node: a.Fleet.Options().Node,
		NodeURL: cfg.NodeBase(), PublicURL: linkBase, IdleTimeout: cfg.RemoteIdle, Sessions: a.Sessions}); err != nil {
		return nil, err
	}
	a.RequestLog = openapi.NewLog(d, loc)
	cidrs, err := webhook.ParseCIDRs(cfg.WebhookAllowCIDRs)
	if err != nil {
		return nil, fmt.Errorf("webhook-allow-cidrs: %w", err)
	}
	a.Webhooks = webhook.New(d, apps, a.Auth, webhook.Options{Destinations: webhook.Destinations{AllowPrivate: cfg.WebhookAllowPrivate, Allow: cidrs}})
	a.Fleet.OnEvents(a.Webhooks.OnEvent)
	a.Fleet.OnStatus(a.Webhooks.OnStatus)
	a.Fleet.OnCommandResults(a.Webhooks.OnCommandResult)
	a.LoadMgmt = loadmgmt.New(d, a.Fleet, loadmgmt.Options{Node: a.Fleet.Options().Node, Location: loc,
		ProfileTTL: cfg.LoadProfileTTL, LeaseTTL: cfg.LoadLeaseTTL, Extra: loadmgmt.StorageExtra{DB: d}}) // a site's storage units in peak shaving add to its limit (docs/mqtt.md)
	a.LoadMgmt.OnAllocations(allocationWebhooks(a.Webhooks))
	a.Server = httpapi.New(httpapi.Deps{DB: d, Auth: a.Auth, Users: a.Users, Roles: a.Roles, ActionLog: actions, Mailer: mailer, Registry: registry,
		Customers: a.Customers, Sites: a.Sites, Models: a.Models, Catalogue: catalogue.NewService(d),
		Devices: a.Devices, Menus: menu.NewService(d, registry), Fleet: a.Fleet, Reads: read.New(d, read.Options{StopReasons: stopReasons()}), Gateway: a.Gateway,
		Stats: stats.New(d, loc), Uploads: uploads, Notify: a.Notify, Attach: attachments, Docs: docs.New(d, uploads),
		Tickets: ticket.New(d, uploads, a.Limiter), Apps: apps, Signatures: openapi.NewGuard(d, apps, a.Auth, openapi.Options{RatePerMinute: cfg.OpenAPIRate}),
		RequestLog: a.RequestLog, RequestReader: openapi.NewReader(d, apps, loc), Remote: a.Remote, Webhooks: a.Webhooks, Tokens: a.Tokens, CA: a.CA,
		LoadMgmt: a.LoadMgmt},
		httpapi.Options{Captcha: cfg.Captcha, DefaultLocale: cfg.DefaultLocale, TimeZone: cfg.TimeZone, LanguageSwitch: cfg.LanguageSwitch,
			PublicURL: cfg.PublicURL, TrustProxy: cfg.TrustProxy, MetricsToken: cfg.MetricsToken, MaxBodyBytes: cfg.MaxBodyBytes, SessionMax: cfg.SessionMax, Version: Version, UI: ui},
		a.Metrics)
	if err := registry.Sync(ctx, a.Server.InterfaceSpecs()); err != nil {
		return nil, fmt.Errorf("seed interfaces: %w", err)
	}
	return a, nil
}

// Serve listens until ctx ends, then shuts down gracefully (shutdown): live streams
// (server-sent events) end at once, ordinary in-flight requests get --shutdown-grace (20 s).
func (a *App) Serve(ctx context.Context, ln net.Listener) error {
	if a.linkBaseErr != nil {
		return a.linkBaseErr
	}
	streams, endStreams := context.WithCancel(context.Background())
	defer endStreams()
	srv := a.httpServer(endOnShutdown(streams, a.Server))
	srv.RegisterOnShutdown(endStreams)
	a.endInterrupted(ctx)
	go a.housekeeping(ctx)
	go a.Fleet.Run(ctx)
	go a.Fleet.RunLiveness(ctx, fleet.LivenessOptions{}) // node beats; a lapsed node's chargers go offline (docs/gateway.md, "Scale-out")
	go a.Fleet.RunCertificateExpiry(ctx)                 // certificates ending within 30 days raise an alarm (docs/security-profiles.md, "Security events")
	go a.Remote.Run(ctx)
	a.LoadMgmt.Start(ctx) // plans the sites this node holds the lease of (docs/smart-charging.md)
	defer a.LoadMgmt.Stop()
	defer a.StartWorkers(ctx)() // stopped after the fleet's last commit (deferred: runs last)
	stopMQTT, err := a.startMQTT(ctx)
	if err != nil {
		return err
	}
	a.stopMQTT = stopMQTT
	if a.Cfg.OCPPAddr != "" {
		if err := a.serveOCPP(ctx, endOnShutdown(streams, a.Server)); err != nil {
			return err
		}
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	a.shutdown(srv)
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// shutdown stops the node on SIGTERM: the chargers' sockets close with a close frame, the
// ingest pipeline commits every queued frame, and only then do the running requests get
// --shutdown-grace to finish; those still running after it are cut, which is not an error: the
// node exits 0 after a clean flush (docs/operations.md, "SIGTERM").
func (a *App) shutdown(srv *http.Server) {
	slog.Info("shutting down")
	a.Gateway.Close()      // hijacked WebSockets are not closed by Shutdown
	a.stopMQTT()           // the embedded broker's devices: their last wills are stored before the pipeline closes
	a.Fleet.Ingest.Close() // queued frames first: later units are written one by one
	a.Remote.Shutdown()
	ctx, cancel := context.WithTimeout(context.Background(), a.Cfg.ShutdownGrace)
	defer cancel()
	if err := srv.Shutdown(ctx); err != nil {
		slog.Warn("requests still running after the shutdown grace are cut", "grace", a.Cfg.ShutdownGrace, "err", err)
		_ = srv.Close()
	}
	a.Fleet.Close()
	a.RequestLog.Close()
}

// endInterrupted ends the commands this node had in flight when it last stopped, before it
// serves a request (docs/operations.md, "Commands in flight at a crash"): their devices are not
// left busy. A database that does not answer within interruptedWait does not hold the start up;
// the ending is then committed when the database returns.
func (a *App) endInterrupted(ctx context.Context) {
	ctx, cancel := context.WithTimeout(ctx, interruptedWait)
	defer cancel()
	if _, err := a.Fleet.EndInterrupted(ctx); err != nil {
		slog.Warn("commands interrupted by the last stop not ended", "err", err)
	}
}

// interruptedWait bounds endInterrupted.
const interruptedWait = 30 * time.Second

// endOnShutdown gives long-lived streams (a request that accepts text/event-stream, as every
// EventSource does) a context that also ends when streams does, so Shutdown does not wait for
// them: their handlers return when the request context is done.
func endOnShutdown(streams context.Context, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.Contains(r.Header.Get("Accept"), "text/event-stream") {
			h.ServeHTTP(w, r)
			return
		}
		ctx, cancel := context.WithCancel(r.Context())
		defer cancel()
		stop := context.AfterFunc(streams, cancel)
		defer stop()
		h.ServeHTTP(w, r.WithContext(ctx))
	})
}

// housekeeping purges expired sign-in helpers every ten minutes, and once an hour the rows
// and objects past their retention (docs/configuration.md, "Retention").
func (a *App) housekeeping(ctx context.Context) {
	t := time.NewTicker(10 * time.Minute)
	defer t.Stop()
	for tick := 1; ; tick++ {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if tick%6 == 1 {
			a.purgeRetained(ctx)
		}
		now := db.NowMS()
		for _, q := range []string{`DELETE FROM login_nonce WHERE expires_at < ?`, `DELETE FROM captcha WHERE expires_at < ?`, `DELETE FROM password_reset WHERE expires_at < ?`} {
			if _, err := a.DB.Exec(ctx, q, now); err != nil {
				slog.Warn("housekeeping", "err", err)
			}
		}
		if err := a.Sessions.Purge(ctx, 7*24*time.Hour); err != nil {
			slog.Warn("housekeeping", "err", err)
		}
		if err := a.Limiter.Purge(ctx, 24*time.Hour); err != nil {
			slog.Warn("housekeeping", "err", err)
		}
		if err := a.Server.Signatures.PurgeNonces(ctx); err != nil {
			slog.Warn("housekeeping: openapi nonces", "err", err)
		}
	}
}

// OutboxKeep is how long mail stays in the outbox after it was queued.
const OutboxKeep = 30 * 24 * time.Hour

// WebhookKeep is how long delivered and failed webhook deliveries are kept.
const WebhookKeep = 30 * 24 * time.Hour

// purgeRetained deletes what outlived its retention: unconfirmed uploads and their objects,
// old messages, sent alarm-mail and handled notifier rows, old outbox mail and share access logs,
// old action-log rows, long-ended device events (the error log) and webhook deliveries.
func (a *App) purgeRetained(ctx context.Context) {
	if _, err := a.Uploads.PurgeAbandoned(ctx); err != nil {
		slog.Warn("housekeeping: uploads", "err", err)
	}
	if _, err := a.Notify.Purge(ctx, time.Duration(a.Cfg.MessageDays)*24*time.Hour); err != nil {
		slog.Warn("housekeeping: messages", "err", err)
	}
	if _, err := a.Mailer.Purge(ctx, OutboxKeep); err != nil {
		slog.Warn("housekeeping: outbox", "err", err)
	}
	if _, err := a.Attach.PurgeAccessLog(ctx); err != nil {
		slog.Warn("housekeeping: share log", "err", err)
	}
	if _, err := a.Server.ActionLog.Purge(ctx, a.Cfg.ActionLogDays); err != nil {
		slog.Warn("housekeeping: action log", "err", err)
	}
	if _, err := a.Remote.Purge(ctx, a.Cfg.ActionLogDays); err != nil {
		slog.Warn("housekeeping: remote access audit", "err", err)
	}
	if _, err := fleet.PurgeEndedEvents(ctx, a.DB, a.Cfg.ErrorLogDays); err != nil {
		slog.Warn("housekeeping: error log", "err", err)
	}
	if _, err := fleet.PurgeSecurityEvents(ctx, a.DB, a.Cfg.ErrorLogDays); err != nil {
		slog.Warn("housekeeping: security events", "err", err)
	}
	if _, err := a.Webhooks.Purge(ctx, WebhookKeep); err != nil {
		slog.Warn("housekeeping: webhook deliveries", "err", err)
	}
	if a.Cfg.OpenAPILogDays > 0 {
		if _, err := a.RequestLog.Purge(ctx, time.Now().AddDate(0, 0, -a.Cfg.OpenAPILogDays)); err != nil {
			slog.Warn("housekeeping: openapi request log", "err", err)
		}
	}
}

// serveOCPP runs the optional separate gateway listener (TLS when a certificate is configured:
// security profiles 2 and 3) until ctx ends: the gateway and the chargers' file links, and
// with --ocpp-addr-console the whole console (console, the handler --addr serves) as well.
func (a *App) serveOCPP(ctx context.Context, console http.Handler) error {
	ln, err := net.Listen("tcp", a.Cfg.OCPPAddr)
	if err != nil {
		return fmt.Errorf("ocpp-addr: %w", err)
	}
	var h http.Handler = console // it mounts the gateway and the file links too (httpapi.New)
	if !a.Cfg.OCPPConsole {
		mux := http.NewServeMux()
		mux.Handle(ocpp16.Path, a.Gateway)
		mux.Handle(fleet.FilesPrefix, httpapi.FilesHandler(a.Fleet))
		h = mux
	}
	srv := a.httpServer(h)
	go func() {
		<-ctx.Done()
		_ = srv.Close()
	}()
	pairs := a.Cfg.OCPPTLSPairs()
	if len(pairs) > 0 {
		certs, err := tlsconf.Load(tlsconf.Options{Pairs: pairs, RSAKeyExchange: a.Cfg.OCPPTLSRSAKeyExchange})
		if err != nil {
			ln.Close()
			return fmt.Errorf("ocpp-tls-cert: %w", err)
		}
		srv.TLSConfig = certs.Config()
		// A client certificate is asked for, not required: chargers at profile 2 show none; the
		// gateway verifies one that is shown against the charge-point CAs and refuses it with a
		// reason. The request names the CAs, so a charger holding several certificates shows
		// the right one.
		srv.TLSConfig.ClientAuth = tls.RequestClientCert
		srv.TLSConfig.ClientCAs = a.clientCAs
		// OCPP-J is a WebSocket over HTTP/1.1: no HTTP/2 offered in ALPN
		srv.TLSNextProto = map[string]func(*http.Server, *tls.Conn, http.Handler){}
	}
	go func() {
		var err error
		if srv.TLSConfig != nil {
			err = srv.ServeTLS(ln, "", "")
		} else {
			err = srv.Serve(ln)
		}
		if err != nil && !errors.Is(err, http.ErrServerClosed) {
			slog.Error("ocpp listener", "err", err)
		}
	}()
	slog.Info("ocpp gateway listening", "addr", ln.Addr().String(), "tls", srv.TLSConfig != nil, "certificates", len(pairs), "rsaKeyExchange", a.Cfg.OCPPTLSRSAKeyExchange)
	return nil
}

// natsRegistry joins the cluster over NATS (commands reach the node holding the socket).
func natsRegistry(cfg config.Config) (fleet.Registry, error) {
	node := cfg.NodeName
	if node == "" {
		h, _ := os.Hostname()
		node = fmt.Sprintf("%s-%d", h, os.Getpid())
	}
	// a silent partition is noticed within about 15 s (3 unanswered pings 5 s apart)
	nc, err := nats.Connect(cfg.NATSURL, nats.Name("chargeops "+node), nats.MaxReconnects(-1),
		nats.PingInterval(5*time.Second), nats.MaxPingsOutstanding(3))
	if err != nil {
		return nil, fmt.Errorf("nats-url: %w", err)
	}
	return natsreg.New(nc, node)
}

// fleetNotifier lets the device register tell the live fleet of administrative changes.
type fleetNotifier struct{ f *fleet.Service }

func (n fleetNotifier) DeviceChanged(ctx context.Context, id int64) {
	if err := n.f.DeviceChanged(ctx, id); err != nil {
		slog.Warn("device change not applied to the live fleet", "device", id, "err", err)
	}
}

func (n fleetNotifier) DeviceGone(sn string) { n.f.Drop(sn, "disabled or deleted") }

// StartWorkers starts the notifier (device events → messages and alarm mail), the outbox's
// SMTP worker, the webhooks' delivery worker and the tokens' worker (last-used times, the
// local-list sweep). They outlive ctx's end until the returned
// function is called, so what the fleet commits while shutting down is still recorded; the
// function stops and waits for them.
func (a *App) StartWorkers(ctx context.Context) (stop func()) {
	wctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	var wg sync.WaitGroup
	wg.Add(4)
	go func() { defer wg.Done(); a.Tokens.Run(wctx, 30*time.Second) }()
	go func() { defer wg.Done(); a.Notify.Run(wctx) }()
	go func() { defer wg.Done(); a.Mailer.Run(wctx) }()
	go func() { defer wg.Done(); a.Webhooks.Run(wctx) }()
	return func() {
		cancel()
		wg.Wait()
	}
}

// stopReasons are the session stop reasons the adapters' chargers may give (1.6 and 2.0.1 share
// most), each once.
func stopReasons() []string {
	out := slices.Clone(ocpp16.StopReasons)
	for _, r := range ocpp201.StopReasons {
		if !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	return out
}
