// Command chargeops is the whole product in one binary: the console, the API, the device
// gateway and the background jobs.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"chargeops/internal/app"
	"chargeops/internal/config"
	demoseed "chargeops/internal/demo"
	"chargeops/internal/httpapi"
	"chargeops/internal/sim"
	"chargeops/web"
)

const usage = `chargeops - operations console for EV chargers and energy storage

Usage:
  chargeops serve    [options]   run the console, API and gateway (applies migrations first)
  chargeops demo     [options]   serve, and on an empty database seed the demo organisation
                                 (super admin admin_root / Admin@12345 unless --demo-password)
  chargeops migrate  [options]   apply database migrations and exit
  chargeops user create-root --name NAME --password PASSWORD [options]
                                 create a super admin, or reset an existing one
  chargeops sim --url ws://HOST/ocpp --devices N [--prefix SN-]
                                 run simulated OCPP 1.6J chargers
  chargeops bench seed|bare|run  benchmark the OCPP ingest path (docs/benchmarks.md)
  chargeops agent --config FILE  the edge agent of a site gateway: SunSpec storage units over
                                 Modbus TCP published to chargeops over MQTT (docs/agent.md)
  chargeops openapi              print the OpenAPI document
  chargeops version

Options (every one also as CHARGEOPS_<NAME> and in a --config JSON file):
`

func main() {
	err := run(os.Args[1:])
	switch {
	case err == nil:
	case errors.Is(err, flag.ErrHelp) && len(os.Args) > 1:
		// asked for (--help, -h): the usage was printed, which is success
	case errors.Is(err, flag.ErrHelp):
		os.Exit(2) // no command given: the usage was printed
	default:
		fmt.Fprintln(os.Stderr, "chargeops:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	if len(args) == 0 {
		printUsage()
		return flag.ErrHelp
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	cmd, rest := args[0], args[1:]
	switch cmd {
	case "serve":
		return serve(ctx, rest, false)
	case "demo":
		return serve(ctx, rest, true)
	case "migrate":
		cfg, err := load("migrate", rest, nil)
		if err != nil {
			return err
		}
		d, err := app.OpenDB(ctx, cfg)
		if err != nil {
			return err
		}
		defer d.Close()
		// Building the node seeds the interface rows from the route table.
		if _, err := app.New(ctx, cfg, d, nil); err != nil {
			return err
		}
		fmt.Println("database is up to date:", d.Dialect())
		return nil
	case "user":
		if len(rest) == 0 || rest[0] != "create-root" {
			return fmt.Errorf("unknown user command; try: chargeops user create-root --name NAME --password PASSWORD")
		}
		return createRoot(ctx, rest[1:])
	case "openapi":
		s := httpapi.New(httpapi.Deps{}, httpapi.Options{}, nil)
		_, err := os.Stdout.Write(s.OpenAPI())
		return err
	case "agent":
		return runAgent(rest)
	case "sim":
		return runSim(ctx, rest)
	case "bench":
		return runBench(ctx, rest)
	case "version":
		fmt.Println(app.Version)
		return nil
	case "help", "-h", "--help":
		printUsage()
		return nil
	}
	printUsage()
	return fmt.Errorf("unknown command %q", cmd)
}

func printUsage() {
	fmt.Fprint(os.Stderr, usage)
	for _, o := range config.Options() {
		fmt.Fprintf(os.Stderr, "  --%-18s %s (default %q)\n", o.Name, o.Help, o.Default)
	}
}

// load parses the shared options plus extra flags of a sub-command, and sets up logging.
func load(name string, args []string, extra func(*flag.FlagSet)) (config.Config, error) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	setUsage(fs, name)
	if extra != nil {
		extra(fs)
	}
	def := config.Default()
	if name == "demo" {
		def = config.DemoDefault()
	}
	cfg, err := config.LoadFrom(def, fs, args, os.LookupEnv)
	if err != nil {
		return cfg, err
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(cfg.LogLevel)); err != nil {
		return cfg, fmt.Errorf("log-level: %w", err)
	}
	opts := &slog.HandlerOptions{Level: level}
	if cfg.LogFormat == "json" {
		slog.SetDefault(slog.New(slog.NewJSONHandler(os.Stderr, opts)))
	} else {
		slog.SetDefault(slog.New(slog.NewTextHandler(os.Stderr, opts)))
	}
	return cfg, nil
}

// Demo sign-in, created only on an empty database by `chargeops demo`.
const (
	demoRootName     = "admin_root"
	demoRootPassword = "Admin@12345"
)

func serve(ctx context.Context, args []string, demo bool) error {
	demoPassword := demoRootPassword
	name := "serve"
	if demo {
		name = "demo"
	}
	cfg, err := load(name, args, func(fs *flag.FlagSet) {
		if demo {
			fs.StringVar(&demoPassword, "demo-password", demoRootPassword, "password of the demo super admin "+demoRootName)
		}
	})
	if err != nil {
		return err
	}
	if _, err := cfg.LinkBase(); err != nil {
		if !demo {
			return err
		}
		// The demo is for trying chargeops on this machine: without a public URL it listens on
		// loopback only, so its mailed links are right and nothing is open to the network.
		_, port, _ := net.SplitHostPort(cfg.Addr)
		cfg.Addr = net.JoinHostPort("127.0.0.1", port)
		slog.Info("demo without --public-url listens on loopback only", "addr", cfg.Addr)
	}
	d, err := app.OpenDB(ctx, cfg)
	if err != nil {
		return err
	}
	defer d.Close()
	a, err := app.New(ctx, cfg, d, web.FS())
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return err
	}
	n, err := a.Users.Count(ctx)
	if err != nil {
		return err
	}
	seeded := demo && n == 0
	if seeded {
		if _, _, err := a.Users.UpsertRoot(ctx, demoRootName, demoPassword); err != nil {
			return fmt.Errorf("demo user: %s", describe(err))
		}
		if _, _, err = demoseed.Seed(ctx, a); err != nil {
			return fmt.Errorf("demo data: %s", describe(err))
		}
		n = 1
	}
	// a restarted demo lists its sign-ins too: those that still exist
	var rootExists bool
	var accounts []demoseed.Account
	if demo {
		if rootExists, accounts, err = demoseed.SignIns(ctx, a, demoRootName); err != nil {
			return err
		}
	}
	if !demo && cfg.RequireDeviceKeys {
		warnKeyless(ctx, a)
	}
	if demo {
		logDemoAdmission(slog.Default(), cfg)
		// The demo sites' chargers come alive: simulated OCPP clients on this node's gateway.
		_, port, _ := net.SplitHostPort(ln.Addr().String())
		o, err := demoseed.SimOptions(ctx, a, "ws://127.0.0.1:"+port+"/ocpp")
		if err != nil {
			return err
		}
		o.Logger = slog.Default().With("component", "sim")
		go sim.Run(ctx, o)
		slog.Info("simulating the demo fleet", "chargers", len(o.SNs))
		// and its storage units, behind a simulated site agent on the embedded broker (docs/mqtt.md)
		go func() {
			if err := demoseed.RunStorage(ctx, a, slog.Default().With("component", "agent")); err != nil {
				slog.Error("demo storage units stopped", "err", err)
			}
		}()
		// and a billing system calls the OpenAPI (docs/openapi.md)
		go demoseed.RunIntegration(ctx, a, "http://127.0.0.1:"+port, 20*time.Second)
	}
	slog.Info("chargeops is running", "url", consoleURL(ln.Addr()), "db", d.Dialect().String(), "version", app.Version)
	fmt.Printf("\n  chargeops console: %s\n", consoleURL(ln.Addr()))
	switch {
	case demo:
		printDemoSignIns(os.Stdout, seeded, rootExists, demoPassword, accounts)
		printDemoAdmission(os.Stdout, cfg.RequireDeviceKeys)
	case n == 0:
		fmt.Printf("  no user exists yet: chargeops user create-root --name NAME --password PASSWORD\n\n")
	default:
		fmt.Printf("  sign in with your account\n\n")
	}
	return a.Serve(ctx, ln)
}

// warnKeyless tells at start how many devices --require-device-keys refuses (an install from
// before keys were required, or devices added without one).
func warnKeyless(ctx context.Context, a *app.App) {
	n, err := a.Fleet.KeylessDevices(ctx)
	if err != nil {
		slog.Warn("keyless devices not counted", "err", err)
		return
	}
	if n > 0 {
		slog.Warn("devices without a key are refused (no_key): give them keys (control type 11) or client certificates, or start with --require-device-keys=false",
			"devices", n)
	}
}

// logDemoAdmission states at the demo's start whether keyless chargers are admitted
// (--require-device-keys; the demo's default is config.DemoRequireDeviceKeys).
func logDemoAdmission(l *slog.Logger, cfg config.Config) {
	keyless := "admitted by their SN"
	if cfg.RequireDeviceKeys {
		keyless = "refused (HTTP 401, no_key)"
	}
	l.Info("demo charger admission", "require_device_keys", cfg.RequireDeviceKeys, "keyless_chargers", keyless,
		"demo_default", config.DemoRequireDeviceKeys)
}

func consoleURL(addr net.Addr) string {
	host, port, _ := net.SplitHostPort(addr.String())
	if host == "" || host == "::" || host == "0.0.0.0" {
		host = "localhost"
	}
	return "http://" + net.JoinHostPort(host, port) + "/"
}

func createRoot(ctx context.Context, args []string) error {
	var name, password string
	cfg, err := load("user create-root", args, func(fs *flag.FlagSet) {
		fs.StringVar(&name, "name", "", "user name (6-32 letters, digits, underscore)")
		fs.StringVar(&password, "password", "", "password (8-32 with upper, lower, digit and special character)")
	})
	if err != nil {
		return err
	}
	if name == "" || password == "" {
		return fmt.Errorf("--name and --password are required")
	}
	d, err := app.OpenDB(ctx, cfg)
	if err != nil {
		return err
	}
	defer d.Close()
	a, err := app.New(ctx, cfg, d, nil)
	if err != nil {
		return err
	}
	_, created, err := a.Users.UpsertRoot(ctx, strings.TrimSpace(name), password)
	if err != nil {
		return fmt.Errorf("%s", describe(err))
	}
	if created {
		fmt.Printf("root user %q created\n", name)
	} else {
		fmt.Printf("root user %q reset (new password; its sessions ended)\n", name)
	}
	return nil
}
