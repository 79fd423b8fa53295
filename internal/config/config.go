// Package config holds every option of chargeops in one struct. Values come from defaults, then
// a JSON file (--config), then CHARGEOPS_* environment variables, then flags; later wins.
// docs/configuration.md documents each option (a test checks none is missing).
package config

import (
	"encoding/json"
	"flag"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"time"

	"chargeops/internal/tlsconf"
)

// Config is the whole configuration. Tag `name` is the flag, the JSON key and (upper-cased,
// '-' → '_', prefixed CHARGEOPS_) the environment variable.
type Config struct {
	Addr           string        `name:"addr" help:"listen address of the console, API and gateway"`
	DataDir        string        `name:"data-dir" help:"folder for the SQLite database and local files"`
	DB             string        `name:"db" help:"database: empty for SQLite in the data folder, or a postgres:// URL"`
	Captcha        bool          `name:"captcha" help:"require the image captcha on login and password reset"`
	SessionIdle    time.Duration `name:"session-idle" help:"a session ends after this long without a request"`
	SessionMax     time.Duration `name:"session-max" help:"a session ends this long after login, whatever its use"`
	DefaultLocale  string        `name:"default-locale" help:"console and mail language when the user has not chosen one (en-US or zh-CN)"`
	TimeZone       string        `name:"time-zone" help:"time zone in which times are shown"`
	LanguageSwitch bool          `name:"language-switch" help:"show the language switch in the console"`
	PublicURL      string        `name:"public-url" help:"the console's external URL, used in mailed links; required unless --addr is a loopback address (empty: http://<addr>)"`
	TrustProxy     bool          `name:"trust-proxy" help:"take the client address from X-Forwarded-For (only behind a trusted load balancer)"`
	MetricsToken   string        `name:"metrics-token" help:"bearer token that GET /metrics requires (empty: /metrics answers loopback clients only)"`
	LoginLockAfter int           `name:"login-lock-after" help:"failed logins in a row that lock an account"`
	LoginLockFor   time.Duration `name:"login-lock-for" help:"how long a locked account stays locked"`
	MaxBodyBytes   int           `name:"max-body-bytes" help:"largest JSON request body accepted"`
	SMTPHost       string        `name:"smtp-host" help:"SMTP server; empty keeps mail in the outbox that root reads in the console"`
	SMTPPort       int           `name:"smtp-port" help:"SMTP port"`
	SMTPUser       string        `name:"smtp-user" help:"SMTP user name (empty: no authentication)"`
	SMTPPassword   string        `name:"smtp-password" help:"SMTP password"`
	SMTPFrom       string        `name:"smtp-from" help:"sender address of mails"`
	SMTPTLS        string        `name:"smtp-tls" help:"SMTP transport security: starttls, tls or none"`
	LogLevel       string        `name:"log-level" help:"debug, info, warn or error"`
	LogFormat      string        `name:"log-format" help:"text or json"`

	// Alarm messages and mail (docs/messages.md).
	AlarmOfflineDebounce time.Duration `name:"alarm-offline-debounce" help:"an offline event is messaged and mailed only once it lasted this long (a charger back sooner produces nothing)"`
	AlarmRepeatWindow    time.Duration `name:"alarm-repeat-window" help:"a repeat of the same device, kind and code within this window counts on the open message instead of a new message or mail"`
	AlarmMailsPerHour    int           `name:"alarm-mails-per-hour" help:"alarm mails per user and hour; the rest go out together in the next digest"`

	// Live fleet: OCPP gateway, commands, protocol logs.
	OCPPAddr              string        `name:"ocpp-addr" help:"optional separate listen address for the OCPP gateway (chargers always reach /ocpp/{SN} on --addr too)"`
	OCPPAllowUnknown      bool          `name:"ocpp-allow-unknown" help:"let unknown SNs connect and boot as Pending (else HTTP 404) so their vendor, model and firmware are captured"`
	OCPPHeartbeat         time.Duration `name:"ocpp-heartbeat-interval" help:"heartbeat interval given to chargers; nothing received for two intervals means offline"`
	OCPPPingInterval      time.Duration `name:"ocpp-ping-interval" help:"how often the gateway pings each charger's WebSocket"`
	OCPPTLSCert           string        `name:"ocpp-tls-cert" help:"PEM certificate chain files for TLS on --ocpp-addr (security profiles 2 and 3), comma-separated (e.g. an ECDSA and an RSA one: each client gets the first it supports); read again within 10 s of a change, without a restart; empty serves plain ws"`
	OCPPTLSKey            string        `name:"ocpp-tls-key" help:"PEM private key files, comma-separated, one for each --ocpp-tls-cert file in the same order"`
	OCPPConsole           bool          `name:"ocpp-addr-console" help:"serve the console and the API on --ocpp-addr too (over its TLS when --ocpp-tls-cert is set), not only the gateway and the chargers' file links"`
	OCPPTLSRSAKeyExchange bool          `name:"ocpp-tls-rsa-key-exchange" help:"also offer TLS_RSA_WITH_AES_128_GCM_SHA256 and TLS_RSA_WITH_AES_256_GCM_SHA384 on --ocpp-addr, for chargers that have no ECDHE suite; these have no forward secrecy (see docs/security-profiles.md)"`
	OCPPClientCertHeader  string        `name:"ocpp-client-cert-header" help:"behind a TLS-terminating proxy: the header in which it passes on the charger's client certificate (URL-escaped PEM, e.g. nginx $ssl_client_escaped_cert, or base64 DER); read only on connections from --ocpp-trusted-proxies"`
	OCPPTrustedProxies    string        `name:"ocpp-trusted-proxies" help:"addresses or CIDR ranges of the proxies allowed to set --ocpp-client-cert-header, comma-separated (the TCP peer's address; the header from any other address is ignored)"`
	OCPPClientCA          string        `name:"ocpp-client-ca" help:"PEM files of the charge-point CA (comma-separated): --ocpp-addr asks chargers for a TLS client certificate, and one this CA issued to the charger's SN proves security profile 3 (see docs/security-profiles.md); needs --ocpp-tls-cert; read at start"`
	// Storage units over MQTT (docs/mqtt.md).
	MQTTAddr         string        `name:"mqtt-addr" help:"listen address of the embedded MQTT broker that storage units and site agents connect to (docs/mqtt.md); empty: no plain listener"`
	MQTTTLSAddr      string        `name:"mqtt-tls-addr" help:"TLS listener of the embedded MQTT broker, with the --ocpp-tls-cert certificates; a client certificate the charge-point CA issued to the device's SN stands in for its key (empty: none)"`
	MQTTBroker       string        `name:"mqtt-broker" help:"URL of an external MQTT broker shared by several nodes (mqtt://host:1883, mqtts://host:8883) instead of the embedded one; the broker checks the devices' credentials and topics (docs/mqtt.md)"`
	MQTTUsername     string        `name:"mqtt-username" help:"user name chargeops signs in to --mqtt-broker with"`
	MQTTPassword     string        `name:"mqtt-password" help:"password chargeops signs in to --mqtt-broker with"`
	CPCACert         string        `name:"cp-ca-cert" help:"the operator's charge-point CA certificate (PEM) that signs chargers' client certificates (security profile 3, SignCertificate); with --cp-ca-key; empty: the built-in CA, made once and kept in the database"`
	CPCAKey          string        `name:"cp-ca-key" help:"the private key (PEM) of --cp-ca-cert"`
	CPCAKEKFile      string        `name:"cp-ca-kek-file" help:"file of the key that seals the built-in charge-point CA's private key in the database (64 hex digits; made, mode 0600, when absent); every node that signs needs the same file; default <data-dir>/cp-ca.kek"`
	CPCertDays       int           `name:"cp-cert-days" help:"validity in days of the client certificates the charge-point CA signs"`
	CommandTimeout   time.Duration `name:"command-timeout" help:"how long a remote operation waits for the device before its result is timeout (4)"`
	RestartGrace     time.Duration `name:"restart-grace" help:"how long a charger that accepted a Reset from the console may stay away before it counts as offline (an Offline event from its disconnect)"`
	ProtocolLogDays  int           `name:"protocol-log-retention-days" help:"protocol-log rows older than this many days are purged (0 keeps them)"`
	MessageDays      int           `name:"message-retention-days" help:"console messages older than this many days are purged (0 keeps them)"`
	ActionLogDays    int           `name:"action-log-retention-days" help:"action-log rows (logins, logouts, operations) older than this many days are purged (0 keeps them)"`
	ErrorLogDays     int           `name:"error-log-retention-days" help:"device alarms, faults and events that ended more than this many days ago are purged; open ones stay (0 keeps them)"`
	OpenAPILogDays   int           `name:"openapi-log-retention-days" help:"OpenAPI request-log rows older than this many days are purged; the daily access statistics stay (0 keeps them)"`
	OpenAPIRate      int           `name:"openapi-rate-per-minute" help:"signed OpenAPI calls one application may make per minute, across nodes (HTTP 429, code 40007, beyond)"`
	ProtocolLogQueue int           `name:"protocol-log-queue" help:"charger messages (their protocol-log rows and data) queued for the database before the gateway stops reading from chargers (backpressure)"`
	IngestRetryMax   time.Duration `name:"ingest-retry-max" help:"longest wait between attempts at a batch of charger data the database cannot take now; the batch is held and retried without a deadline (docs/operations.md)"`
	NATSURL          string        `name:"nats-url" help:"NATS server joining several nodes (commands reach the node holding a charger's socket); empty: one node"`
	NodeName         string        `name:"node-name" help:"this node's name in a cluster (empty: host name and process id)"`

	// Charger identity (docs/gateway.md, "Admission").
	RequireDeviceKeys bool          `name:"require-device-keys" help:"refuse every charger whose device has no authorization key and is below security profile 3 (HTTP 401, reason no_key), so no charger connects with its SN alone; on by default for serve, off for chargeops demo (its simulated chargers have no keys; it says so at start); --require-device-keys=false admits keyless chargers by their SN"`
	OCPPKeyBackoff    time.Duration `name:"ocpp-key-backoff" help:"first back-off after 10 wrong charger keys for one SN or 20 from one address within 15 minutes (HTTP 429 with Retry-After, key not checked); each further wrong key doubles it, up to 16 times"`

	// Object storage (docs/storage.md).
	Storage     string        `name:"storage" help:"where uploads, firmware and diagnostics files are kept: local (files under the data folder, links signed by chargeops) or s3 (S3-compatible storage: MinIO, AWS S3, Aliyun OSS)"`
	S3Endpoint  string        `name:"s3-endpoint" help:"S3 endpoint host[:port] or URL (with --storage s3)"`
	S3Region    string        `name:"s3-region" help:"storage region named in credentials and S3 requests"`
	S3Bucket    string        `name:"s3-bucket" help:"S3 bucket (made when missing)"`
	S3AccessKey string        `name:"s3-access-key" help:"S3 access key (stays on the server; browsers get presigned URLs)"`
	S3SecretKey string        `name:"s3-secret-key" help:"S3 secret key"`
	S3Insecure  bool          `name:"s3-insecure" help:"reach the S3 endpoint over plain http"`
	S3PathStyle bool          `name:"s3-path-style" help:"address the bucket in the path (MinIO) instead of the host name"`
	LinkTTL     time.Duration `name:"link-ttl" help:"validity of signed upload targets and download links"`

	// Remote access: links, the charger's web page, the SSH terminal (docs/remote-access.md).
	RemoteIdle time.Duration `name:"remote-idle-timeout" help:"a terminal session without input for this long is closed"`
	NodeURL    string        `name:"node-url" help:"the URL other nodes of a cluster reach this node at, for remote-access streams held here (empty: http://<addr>, with the host name when addr has no host)"`

	// Site load management (docs/smart-charging.md).
	LoadProfileTTL time.Duration `name:"load-profile-ttl" help:"validity of the Tx profile that carries a session's share of its site's limit; refreshed at half of it, a charger that loses its connection falls back to its safe share when it ends"`
	LoadLeaseTTL   time.Duration `name:"load-lease-ttl" help:"life of a node's lease on planning a site (several nodes: a lost node's sites move after it)"`

	// Webhooks of the OpenAPI (docs/webhooks.md): where deliveries may go.
	WebhookAllowPrivate bool   `name:"webhook-allow-private" help:"let webhooks reach loopback, private (RFC 1918, fc00::/7), shared (100.64.0.0/10) and link-local addresses; cloud metadata addresses stay refused"`
	WebhookAllowCIDRs   string `name:"webhook-allow-cidrs" help:"comma-separated networks (e.g. 10.20.0.0/16,192.168.5.7) webhooks may reach whatever their kind"`

	// Slow clients (docs/operations.md, "Slow clients"): every listener cuts them.
	ReadHeaderTimeout time.Duration `name:"read-header-timeout" help:"a request's headers must arrive within this time, on every listener"`
	ReadTimeout       time.Duration `name:"read-timeout" help:"a request's body must arrive within this time plus one second per 8 KiB it declares, on every listener (WebSockets and streams are not cut once upgraded)"`
	ShutdownGrace     time.Duration `name:"shutdown-grace" help:"on SIGTERM, after the chargers' queued data is committed, how long running requests may finish before they are cut"`
}

// Default returns the built-in defaults.
func Default() Config {
	return Config{
		Addr:    ":8080",
		DataDir: "./data",
		Captcha: true,
		// a charger proves itself with a key or a client certificate unless an operator allows
		// otherwise (decisions §6; the demo does, config.DemoRequireDeviceKeys)
		RequireDeviceKeys: true,
		CPCertDays:        365,
		SessionIdle:       2 * time.Hour,
		SessionMax:        24 * time.Hour,
		DefaultLocale:     "en-US",
		TimeZone:          "Asia/Hong_Kong",
		LoginLockAfter:    5,
		LoginLockFor:      15 * time.Minute,
		MaxBodyBytes:      1 << 20,
		SMTPPort:          587,
		SMTPFrom:          "chargeops@localhost",
		SMTPTLS:           "starttls",
		LogLevel:          "info",
		LogFormat:         "text",

		AlarmOfflineDebounce: 2 * time.Minute,
		AlarmRepeatWindow:    10 * time.Minute,
		AlarmMailsPerHour:    10,

		OCPPHeartbeat:    60 * time.Second,
		OCPPPingInterval: 30 * time.Second,
		OCPPKeyBackoff:   time.Minute,
		MQTTAddr:         ":1883",
		CommandTimeout:   30 * time.Second,
		RestartGrace:     10 * time.Minute,
		ProtocolLogDays:  30,
		MessageDays:      180,
		ActionLogDays:    365,
		ErrorLogDays:     365,
		OpenAPILogDays:   90,
		OpenAPIRate:      600,
		ProtocolLogQueue: 10000,
		IngestRetryMax:   2 * time.Second,

		Storage:  "local",
		S3Region: "oss-cn-hongkong",
		LinkTTL:  time.Hour,

		RemoteIdle: 10 * time.Minute,

		LoadProfileTTL: time.Hour,
		LoadLeaseTTL:   6 * time.Second,

		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		ShutdownGrace:     20 * time.Second,
	}
}

// Option describes one option for help texts and docs.
type Option struct{ Name, Env, Help, Default string }

// Options lists every option with its default.
func Options() []Option {
	def := Default()
	v := reflect.ValueOf(def)
	t := v.Type()
	out := make([]Option, 0, t.NumField())
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name := f.Tag.Get("name")
		out = append(out, Option{Name: name, Env: EnvName(name), Help: f.Tag.Get("help"), Default: fmt.Sprint(v.Field(i).Interface())})
	}
	return out
}

// EnvName is the environment variable of an option.
func EnvName(name string) string {
	return "CHARGEOPS_" + strings.ToUpper(strings.ReplaceAll(name, "-", "_"))
}

// DemoRequireDeviceKeys is the demo's choice for --require-device-keys (docs/configuration.md):
// its simulated chargers have no keys, so keyless chargers are admitted; serve refuses them
// by default.
const DemoRequireDeviceKeys = false

// DemoMQTTAddr is the demo's --mqtt-addr: loopback, a free port (logged at start).
const DemoMQTTAddr = "127.0.0.1:0"

// DemoDefault returns the defaults of `chargeops demo`: serve's, with the demo's own choices
// stated (a flag, the environment or the --config file still override them).
func DemoDefault() Config {
	c := Default()
	c.RequireDeviceKeys = DemoRequireDeviceKeys
	// the demo's storage units are simulated in process: its broker listens on loopback, on a
	// port of its own unless one is given, so it starts beside a broker already on 1883
	c.MQTTAddr = DemoMQTTAddr
	return c
}

// Load builds a Config for a sub-command: defaults, --config file, environment, then args.
func Load(fs *flag.FlagSet, args []string, env func(string) (string, bool)) (Config, error) {
	return LoadFrom(Default(), fs, args, env)
}

// LoadFrom is Load over other defaults (DemoDefault).
func LoadFrom(def Config, fs *flag.FlagSet, args []string, env func(string) (string, bool)) (Config, error) {
	cfg := def
	file := fs.String("config", "", "JSON configuration file")
	flagVals := map[string]*string{}
	for _, o := range Options() {
		flagVals[o.Name] = new(string)
		fs.Func(o.Name, o.Help+" (default "+o.Default+", env "+o.Env+")", func(s string) error { *flagVals[o.Name] = s; return nil })
	}
	// Boolean flags must accept "--captcha" with no value, so mark them as bool flags.
	for _, o := range Options() {
		if f := fs.Lookup(o.Name); f != nil && isBool(o.Name) {
			f.Value = boolFlag{f.Value}
		}
	}
	if err := fs.Parse(args); err != nil {
		return cfg, err
	}
	if *file == "" {
		if p, ok := env("CHARGEOPS_CONFIG"); ok {
			*file = p
		}
	}
	if *file != "" {
		raw, err := os.ReadFile(*file)
		if err != nil {
			return cfg, fmt.Errorf("read config: %w", err)
		}
		var m map[string]any
		if err := json.Unmarshal(raw, &m); err != nil {
			return cfg, fmt.Errorf("config %s: %w", *file, err)
		}
		for k, val := range m {
			if err := cfg.set(k, fmt.Sprint(val)); err != nil {
				return cfg, fmt.Errorf("config %s: %w", *file, err)
			}
		}
	}
	for _, o := range Options() {
		if s, ok := env(o.Env); ok {
			if err := cfg.set(o.Name, s); err != nil {
				return cfg, fmt.Errorf("%s: %w", o.Env, err)
			}
		}
	}
	var ferr error
	fs.Visit(func(f *flag.Flag) {
		if p, ok := flagVals[f.Name]; ok && ferr == nil {
			if err := cfg.set(f.Name, *p); err != nil {
				ferr = fmt.Errorf("--%s: %w", f.Name, err)
			}
		}
	})
	if ferr != nil {
		return cfg, ferr
	}
	return cfg, cfg.Validate()
}

// Validate checks values that would otherwise fail later and less clearly.
func (c Config) Validate() error {
	if c.DefaultLocale != "en-US" && c.DefaultLocale != "zh-CN" {
		return fmt.Errorf("default-locale must be en-US or zh-CN, not %q", c.DefaultLocale)
	}
	if _, err := time.LoadLocation(c.TimeZone); err != nil {
		return fmt.Errorf("time-zone %q: %w", c.TimeZone, err)
	}
	if c.SessionIdle <= 0 || c.SessionMax <= 0 || c.LoginLockAfter < 1 || c.MaxBodyBytes < 1024 {
		return fmt.Errorf("session-idle, session-max, login-lock-after and max-body-bytes must be positive (max-body-bytes at least 1024)")
	}
	if c.AlarmOfflineDebounce < 0 || c.AlarmRepeatWindow <= 0 || c.AlarmMailsPerHour < 1 {
		return fmt.Errorf("alarm-offline-debounce must not be negative, alarm-repeat-window and alarm-mails-per-hour must be positive")
	}
	if c.OCPPHeartbeat < time.Second || c.OCPPPingInterval < time.Second || c.CommandTimeout < time.Second || c.RestartGrace < time.Second || c.ProtocolLogQueue < 1 || c.ProtocolLogDays < 0 || c.MessageDays < 0 {
		return fmt.Errorf("ocpp-heartbeat-interval, ocpp-ping-interval, command-timeout and restart-grace must be at least 1s, protocol-log-queue positive, protocol-log-retention-days and message-retention-days not negative")
	}
	if c.ActionLogDays < 0 || c.ErrorLogDays < 0 || c.OpenAPILogDays < 0 {
		return fmt.Errorf("action-log-retention-days, error-log-retention-days and openapi-log-retention-days must not be negative")
	}
	if c.OCPPKeyBackoff < time.Second {
		return fmt.Errorf("ocpp-key-backoff must be at least 1s, not %s", c.OCPPKeyBackoff)
	}
	if c.OpenAPIRate < 1 {
		return fmt.Errorf("openapi-rate-per-minute must be at least 1")
	}
	if c.ReadHeaderTimeout <= 0 || c.ReadTimeout <= 0 || c.ShutdownGrace <= 0 {
		return fmt.Errorf("read-header-timeout, read-timeout and shutdown-grace must be positive")
	}
	if err := c.checkPublicURL(); err != nil {
		return err
	}
	if err := c.checkOCPPTLS(); err != nil {
		return err
	}
	if err := c.checkStorage(); err != nil {
		return err
	}
	if err := c.checkRemote(); err != nil {
		return err
	}
	if err := c.checkLoad(); err != nil {
		return err
	}
	if err := c.checkWebhookCIDRs(); err != nil {
		return err
	}
	switch c.SMTPTLS {
	case "starttls", "tls", "none":
	default:
		return fmt.Errorf("smtp-tls must be starttls, tls or none")
	}
	return nil
}

// LinkBase is where mailed links point (docs/configuration.md, --public-url): the public URL,
// or when it is empty and --addr is a loopback address, http://<addr>. Otherwise it is an error
// that stops serve: a link taken from a request's Host header would point wherever the one who
// asked for the mail wants.
func (c Config) LinkBase() (string, error) {
	if c.PublicURL != "" {
		return strings.TrimRight(c.PublicURL, "/"), nil
	}
	host, port, err := net.SplitHostPort(c.Addr)
	if err == nil && (host == "localhost" || isLoopbackIP(host)) {
		return "http://" + net.JoinHostPort(host, port), nil
	}
	return "", fmt.Errorf("public-url is required when addr %q is not a loopback address: mailed links are built from it (e.g. --public-url https://console.example.com)", c.Addr)
}

func isLoopbackIP(host string) bool {
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.Unmap().IsLoopback()
}

// checkPublicURL accepts an absolute http(s) URL without query or fragment.
func (c Config) checkPublicURL() error {
	if c.PublicURL == "" {
		return nil
	}
	u, err := url.Parse(c.PublicURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		return fmt.Errorf("public-url must be an absolute http or https URL such as https://console.example.com, not %q", c.PublicURL)
	}
	return nil
}

func isBool(name string) bool {
	f, ok := fieldByName(reflect.ValueOf(Config{}), name)
	return ok && f.Kind() == reflect.Bool
}

func fieldByName(v reflect.Value, name string) (reflect.Value, bool) {
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		if t.Field(i).Tag.Get("name") == name {
			return v.Field(i), true
		}
	}
	return reflect.Value{}, false
}

func (c *Config) set(name, s string) error {
	f, ok := fieldByName(reflect.ValueOf(c).Elem(), name)
	if !ok {
		return fmt.Errorf("unknown option %q", name)
	}
	switch f.Interface().(type) {
	case string:
		f.SetString(s)
	case bool:
		b, err := strconv.ParseBool(s)
		if err != nil {
			return fmt.Errorf("%s: want true or false", name)
		}
		f.SetBool(b)
	case int:
		n, err := strconv.Atoi(s)
		if err != nil {
			return fmt.Errorf("%s: want a whole number", name)
		}
		f.SetInt(int64(n))
	case time.Duration:
		d, err := time.ParseDuration(s)
		if err != nil {
			return fmt.Errorf("%s: want a duration such as 30m or 2h", name)
		}
		f.SetInt(int64(d))
	}
	return nil
}

type boolFlag struct{ flag.Value }

func (boolFlag) IsBoolFlag() bool { return true }

// String works on the zero value too: flag.PrintDefaults makes one to tell whether a default is
// worth printing, and a nil inner Value would panic there ("panic calling String method").
func (b boolFlag) String() string {
	if b.Value == nil {
		return ""
	}
	return b.Value.String()
}

// checkStorage: local, or s3 with an endpoint, a bucket and both keys; link-ttl 1 minute to 7
// days (the longest an S3 presigned URL may live).
func (c Config) checkStorage() error {
	switch c.Storage {
	case "local":
	case "s3":
		if c.S3Endpoint == "" || c.S3Bucket == "" || c.S3AccessKey == "" || c.S3SecretKey == "" {
			return fmt.Errorf("storage s3 needs s3-endpoint, s3-bucket, s3-access-key and s3-secret-key")
		}
	default:
		return fmt.Errorf("storage must be local or s3, not %q", c.Storage)
	}
	if c.LinkTTL < time.Minute || c.LinkTTL > 7*24*time.Hour {
		return fmt.Errorf("link-ttl must be between 1m and 168h, not %s", c.LinkTTL)
	}
	return nil
}

// checkLoad: the load manager's Tx profiles live 10 s to 24 h, its leases 1 s to 5 min.
func (c Config) checkLoad() error {
	if c.LoadProfileTTL < 10*time.Second || c.LoadProfileTTL > 24*time.Hour {
		return fmt.Errorf("load-profile-ttl must be between 10s and 24h, not %s", c.LoadProfileTTL)
	}
	if c.LoadLeaseTTL < time.Second || c.LoadLeaseTTL > 5*time.Minute {
		return fmt.Errorf("load-lease-ttl must be between 1s and 5m, not %s", c.LoadLeaseTTL)
	}
	return nil
}

// checkRemote: remote-idle-timeout at least 1 s; node-url empty or an absolute http(s) URL.
func (c Config) checkRemote() error {
	if c.RemoteIdle < time.Second {
		return fmt.Errorf("remote-idle-timeout must be at least 1s, not %s", c.RemoteIdle)
	}
	if c.NodeURL != "" {
		u, err := url.Parse(c.NodeURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("node-url must be an absolute http or https URL such as http://10.0.0.5:8080, not %q", c.NodeURL)
		}
	}
	return nil
}

// NodeBase is where other nodes reach this one (docs/remote-access.md, "Across nodes"):
// --node-url, else http://<addr>, with this machine's host name when addr names no host.
func (c Config) NodeBase() string {
	if c.NodeURL != "" {
		return strings.TrimRight(c.NodeURL, "/")
	}
	host, port, err := net.SplitHostPort(c.Addr)
	if err != nil {
		return "http://" + c.Addr
	}
	if host == "" || host == "0.0.0.0" || host == "::" {
		host, _ = os.Hostname()
	}
	return "http://" + net.JoinHostPort(host, port)
}

// checkWebhookCIDRs: webhook-allow-cidrs is a comma-separated list of networks or addresses.
func (c Config) checkWebhookCIDRs() error {
	for part := range strings.SplitSeq(c.WebhookAllowCIDRs, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		if _, err := netip.ParsePrefix(part); err == nil {
			continue
		}
		if _, err := netip.ParseAddr(part); err != nil {
			return fmt.Errorf("webhook-allow-cidrs: %q is neither a network such as 10.20.0.0/16 nor an address", part)
		}
	}
	return nil
}

// OCPPTLSPairs are the certificate and key files of --ocpp-tls-cert and --ocpp-tls-key, paired
// in order; none when TLS is off.
func (c Config) OCPPTLSPairs() []tlsconf.Pair {
	certs, keys := splitList(c.OCPPTLSCert), splitList(c.OCPPTLSKey)
	if len(certs) != len(keys) {
		return nil
	}
	out := make([]tlsconf.Pair, len(certs))
	for i := range certs {
		out[i] = tlsconf.Pair{Cert: certs[i], Key: keys[i]}
	}
	return out
}

// CPCAKEKPath is the built-in charge-point CA's key-encryption key file.
func (c Config) CPCAKEKPath() string {
	if c.CPCAKEKFile != "" {
		return c.CPCAKEKFile
	}
	return filepath.Join(c.DataDir, "cp-ca.kek")
}

// OCPPClientCAs are the files of --ocpp-client-ca.
func (c Config) OCPPClientCAs() []string { return splitList(c.OCPPClientCA) }

func (c Config) checkOCPPTLS() error {
	certs, keys := splitList(c.OCPPTLSCert), splitList(c.OCPPTLSKey)
	if len(certs) != len(keys) {
		return fmt.Errorf("ocpp-tls-cert names %d files and ocpp-tls-key %d: one key for each certificate, in the same order", len(certs), len(keys))
	}
	if c.OCPPConsole && c.OCPPAddr == "" {
		return fmt.Errorf("ocpp-addr-console needs ocpp-addr: it serves the console on that listener")
	}
	if c.OCPPTLSRSAKeyExchange && len(certs) == 0 {
		return fmt.Errorf("ocpp-tls-rsa-key-exchange needs ocpp-tls-cert")
	}
	if (c.CPCACert == "") != (c.CPCAKey == "") {
		return fmt.Errorf("cp-ca-cert and cp-ca-key go together: the charge-point CA's certificate and its key")
	}
	if c.CPCertDays < 1 || c.CPCertDays > 3650 {
		return fmt.Errorf("cp-cert-days must be 1-3650")
	}
	if len(c.OCPPClientCAs()) > 0 && len(certs) == 0 && c.OCPPClientCertHeader == "" {
		return fmt.Errorf("ocpp-client-ca needs ocpp-tls-cert or ocpp-client-cert-header: client certificates come over TLS")
	}
	proxies, err := c.OCPPCertProxies()
	if err != nil {
		return err
	}
	if (c.OCPPClientCertHeader == "") != (len(proxies) == 0) {
		return fmt.Errorf("ocpp-client-cert-header and ocpp-trusted-proxies go together: the header is read only from the proxies' addresses")
	}
	return nil
}

// OCPPCertProxies are the ranges of --ocpp-trusted-proxies (a bare address is a one-address range).
func (c Config) OCPPCertProxies() ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, s := range splitList(c.OCPPTrustedProxies) {
		if p, err := netip.ParsePrefix(s); err == nil {
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(s)
		if err != nil {
			return nil, fmt.Errorf("ocpp-trusted-proxies: %q is neither an address nor a CIDR range", s)
		}
		a = a.Unmap()
		out = append(out, netip.PrefixFrom(a, a.BitLen()))
	}
	return out, nil
}

// splitList splits a comma-separated list, dropping blanks around and between items.
func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}
