package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"time"

	"chargeops/internal/app"
	"chargeops/internal/bench"
)

const benchUsage = `Usage:
  chargeops bench seed --n N [--prefix BENCH-] [--db URL] [--data-dir DIR]
      bulk-insert N devices PREFIX0000001.. (one customer, site and model) into the database
  chargeops bench bare --addr 127.0.0.1:PORT [--protocol 1.6|2.0.1]
      run ocpp-go's own central system at ws://ADDR/ocpp/{SN}: the baseline (stores nothing)
  chargeops bench run --url ws://127.0.0.1:PORT/ocpp --n N --rate MSGS_PER_S --duration D [--protocol 1.6|2.0.1] [options]
      drive N simulated chargers against a running node and print what it sustained
  chargeops bench mqtt --n N --interval 5s --duration 60s [--db postgres://...] [options]
      N storage units over MQTT against a chargeops node (SQLite, PostgreSQL) and the broker alone

'chargeops bench <command> --help' lists a command's options; docs/benchmarks.md has examples.
`

// runBench is `chargeops bench`: the ingest benchmark of issue 9 (internal/bench).
func runBench(ctx context.Context, args []string) error {
	if len(args) == 0 {
		fmt.Fprint(os.Stderr, benchUsage)
		return errors.New("bench needs a command: seed, bare, run or mqtt")
	}
	switch args[0] {
	case "seed":
		return benchSeed(ctx, args[1:])
	case "bare":
		return benchBare(ctx, args[1:])
	case "run":
		return benchRun(ctx, args[1:])
	case "mqtt":
		return benchMQTT(ctx, args[1:])
	case "worker": // started by `bench run --procs K`, speaks JSON lines on stdin/stdout
		return bench.RunWorker(ctx, os.Stdin, os.Stdout)
	case "help", "-h", "--help":
		fmt.Fprint(os.Stderr, benchUsage)
		return flag.ErrHelp
	}
	fmt.Fprint(os.Stderr, benchUsage)
	return fmt.Errorf("unknown bench command %q", args[0])
}

// benchFlags is a flag set whose --help starts with what the command does.
func benchFlags(name, what string) *flag.FlagSet {
	fs := flag.NewFlagSet("bench "+name, flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: chargeops bench %s [options]\n\n%s\n\nOptions:\n", name, what)
		fs.PrintDefaults()
	}
	return fs
}

func benchSeed(ctx context.Context, args []string) error {
	var n int
	var prefix string
	cfg, err := load("bench seed", args, func(fs *flag.FlagSet) {
		fs.IntVar(&n, "n", 0, "devices to insert: PREFIX0000001 .. PREFIXn (existing SNs are kept)")
		fs.StringVar(&prefix, "prefix", "BENCH-", "SN prefix")
		fs.Usage = func() {
			fmt.Fprintf(fs.Output(), "Usage: chargeops bench seed --n N [--prefix BENCH-] [options]\n\n"+
				"Bulk-inserts N devices (one customer, one site, one model, named Bench ...) into the database of\n"+
				"--db / --data-dir, after applying the migrations; seeding twice adds nothing.\n\nOptions:\n")
			fs.PrintDefaults()
		}
	})
	if err != nil {
		return err
	}
	if n < 1 || n > 10_000_000 {
		return errors.New("--n must be 1..10000000")
	}
	d, err := app.OpenDB(ctx, cfg)
	if err != nil {
		return err
	}
	defer d.Close()
	next := time.Now()
	res, err := bench.Seed(ctx, d, bench.SeedOptions{Devices: n, Prefix: prefix, Digits: 7, First: 1, NamePrefix: "Bench " + prefix,
		Label: "Bench ", Code: "BENCH-", Progress: func(done int) {
			if time.Now().After(next) {
				slog.Info("seeding", "devices", done, "of", n)
				next = time.Now().Add(5 * time.Second)
			}
		}})
	if err != nil {
		return err
	}
	fmt.Printf("%d devices %s .. %s: %d inserted (customer %d, site %d, model %d) in %s on %s\n", n, bench.SN(prefix, 7, 1), bench.SN(prefix, 7, n),
		res.Inserted, res.CustomerIDs[0], res.SiteIDs[0], res.ModelIDs[0], res.Took.Round(time.Millisecond), d.Dialect())
	return nil
}

func benchBare(ctx context.Context, args []string) error {
	fs := benchFlags("bare", "Runs ocpp-go v0.19's own central system (NewCentralSystem over its ws.Server) at\n"+
		"ws://ADDR/ocpp/{SN}, sub-protocol ocpp1.6, answering BootNotification, Heartbeat, StatusNotification,\n"+
		"MeterValues, Start/StopTransaction and storing nothing: the baseline of `bench run`. With\n"+
		"--protocol 2.0.1 it is ocpp-go's 2.0.1 CSMS (NewCSMS, sub-protocol ocpp2.0.1) answering\n"+
		"BootNotification, Heartbeat, StatusNotification, TransactionEvent, MeterValues and Authorize.\n"+
		"It serves GET /metrics and POST /debug/gc to loopback peers like a chargeops node. ocpp-go\n"+
		"listens on every interface of the port.")
	addr := fs.String("addr", "127.0.0.1:9100", "HOST:PORT (loopback)")
	protocol := fs.String("protocol", bench.Protocol16, "OCPP version of the central system: 1.6 or 2.0.1")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if _, err := bench.RaiseFileLimit(); err != nil {
		slog.Warn("open-file limit not raised", "err", err)
	}
	return bench.RunBare(ctx, bench.BareOptions{Addr: *addr, Protocol: *protocol, Ready: func(a string) {
		fmt.Printf("ocpp-go OCPP %s central system: ws://%s/ocpp/{SN} (metrics http://%s/metrics); Ctrl-C stops\n", *protocol, a, a)
	}})
}

func benchRun(ctx context.Context, args []string) error {
	fs := benchFlags("run", "Drives N simulated OCPP 1.6J chargers (--protocol 2.0.1: OCPP 2.0.1, offering only ocpp2.0.1)\n"+
		"against a running node (chargeops or `bench bare --protocol` of the same version):\n"+
		"connects them at --connect-rate and boots them, reads the server's memory per connection after a\n"+
		"full GC, sends MeterValues at --rate per second for --duration (open loop), times remote commands\n"+
		"through the API (--api), optionally drops every connection at once and reconnects (--storm), and\n"+
		"compares the protocol-log rows written with the frames sent and received. Devices must exist\n"+
		"(chargeops bench seed); the node needs --captcha=false for --api.")
	var o bench.RunOptions
	var api bench.APIOptions
	f := &o.Fleet
	fs.StringVar(&f.URL, "url", "ws://127.0.0.1:8080/ocpp", "gateway base URL; each charger appends /{SN}")
	fs.IntVar(&f.N, "n", 100, "chargers")
	fs.StringVar(&f.Prefix, "prefix", "BENCH-", "SN prefix (as seeded)")
	fs.IntVar(&f.First, "first", 1, "number of the first charger")
	fs.IntVar(&f.Digits, "digits", 7, "width of the SN's number (bench seed writes 7)")
	fs.Float64Var(&f.Rate, "rate", 100, "MeterValues per second across the fleet (0: no load)")
	fs.DurationVar(&f.Duration, "duration", 30*time.Second, "length of the load")
	fs.Float64Var(&f.ConnectRate, "connect-rate", 500, "new connections per second (0: unpaced)")
	fs.IntVar(&f.DialConcurrency, "dial-concurrency", 500, "connections being set up at once (also in the storm)")
	fs.IntVar(&f.ConnectRetries, "connect-retries", 3, "retries of a charger that could not connect and boot")
	fs.StringVar(&f.Protocol, "protocol", bench.Protocol16, "OCPP version the chargers speak: 1.6 or 2.0.1 (2.0.1: TransactionEvent instead of StartTransaction)")
	fs.StringVar(&f.LoadMessage, "load-message", bench.LoadMeterValues, "the load's message: meter-values, or with --protocol 2.0.1 transaction-event (TransactionEvent Updated, MeterValuePeriodic)")
	fs.IntVar(&f.MeterValues, "meter-values", 2, "sampled values per load message")
	fs.DurationVar(&f.Timeout, "timeout", 30*time.Second, "a CALL unanswered after this long is a timeout")
	fs.DurationVar(&f.PingInterval, "ping-interval", 30*time.Second, "WebSocket pings from each charger")
	fs.BoolVar(&o.Storm, "storm", false, "after the load, drop every connection at once and reconnect all")
	fs.StringVar(&f.StormDrop, "storm-drop", bench.StormAbandon, "how the storm drops: abandon (old socket left open and silent, like a rebooted charger) or close")
	fs.DurationVar(&f.StormTimeout, "storm-timeout", 60*time.Second, "a charger not booted again this long after the drop is stuck")
	fs.DurationVar(&o.Settle, "settle", 2*time.Second, "idle time after connecting, before the memory reading")
	fs.DurationVar(&o.IdleCommands, "idle-commands", 5*time.Second, "how long commands are timed on the idle fleet (with --api; negative: skip)")
	fs.IntVar(&o.Procs, "procs", 1, "worker processes sharing the chargers (beyond one process's open-file limit)")
	fs.StringVar(&api.URL, "api", "", "console base URL, e.g. http://127.0.0.1:8080: time remote commands and probe the console")
	fs.StringVar(&api.User, "user", "", "user for --api (may operate the bench devices)")
	fs.StringVar(&api.Password, "password", "", "password for --api (or CHARGEOPS_BENCH_PASSWORD)")
	fs.DurationVar(&api.Interval, "command-interval", 100*time.Millisecond, "one remote command at most this often")
	fs.StringVar(&api.SN, "command-sn", "", "the charger commanded (default the first)")
	fs.StringVar(&o.MetricsURL, "metrics", "", "the server's /metrics, e.g. http://127.0.0.1:8080/metrics (its POST /debug/gc is read too)")
	fs.StringVar(&o.MetricsToken, "metrics-token", "", "bearer token of --metrics (or CHARGEOPS_METRICS_TOKEN)")
	asJSON := fs.Bool("json", false, "print the report as JSON (the table goes to stderr)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if f.N < 1 {
		return errors.New("--n must be at least 1")
	}
	if f.StormDrop != bench.StormAbandon && f.StormDrop != bench.StormClose {
		return fmt.Errorf("--storm-drop must be %s or %s", bench.StormAbandon, bench.StormClose)
	}
	if f.Protocol != bench.Protocol16 && f.Protocol != bench.Protocol201 {
		return fmt.Errorf("--protocol must be %s or %s", bench.Protocol16, bench.Protocol201)
	}
	if f.LoadMessage == bench.LoadTransactionEvent && f.Protocol != bench.Protocol201 {
		return fmt.Errorf("--load-message %s needs --protocol %s", bench.LoadTransactionEvent, bench.Protocol201)
	}
	if api.URL != "" {
		if api.Password == "" {
			api.Password = os.Getenv("CHARGEOPS_BENCH_PASSWORD")
		}
		if api.User == "" || api.Password == "" {
			return errors.New("--api needs --user and --password")
		}
		o.API = &api
	}
	if o.MetricsToken == "" {
		o.MetricsToken = os.Getenv("CHARGEOPS_METRICS_TOKEN")
	}
	if o.Procs > 1 {
		exe, err := os.Executable()
		if err != nil {
			return fmt.Errorf("--procs: %w", err)
		}
		o.WorkerCommand = []string{exe, "bench", "worker"}
	}
	o.Logf = func(format string, args ...any) { slog.Info(fmt.Sprintf(format, args...)) }
	rep, err := bench.Run(ctx, o)
	if err != nil {
		return err
	}
	if *asJSON {
		rep.Print(os.Stderr)
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	rep.Print(os.Stdout)
	return nil
}
