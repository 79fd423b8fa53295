package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"time"

	"chargeops/internal/app"
	"chargeops/internal/bench"
	"chargeops/internal/bench/mqttbench"
)

// benchMQTT is `chargeops bench mqtt`: storage units over MQTT (issue 26, internal/bench/mqttbench).
func benchMQTT(ctx context.Context, args []string) error {
	if len(args) > 0 {
		switch args[0] {
		case "bare":
			return benchMQTTBare(ctx, args[1:])
		case "load":
			return benchMQTTLoad(ctx, args[1:])
		case "seed":
			return benchMQTTSeed(ctx, args[1:])
		}
	}
	fs := benchFlags("mqtt", "Measures N storage units publishing one telemetry message each --interval (QoS 1, a reading\n"+
		"of 15 values) through a chargeops node's embedded broker, with every reading acked once committed,\n"+
		"and the same load through the broker alone (mochi-mqtt acking at once, storing nothing), each\n"+
		"server a child process of its own: bare, then chargeops on SQLite (a temporary data folder), then\n"+
		"on PostgreSQL (a scratch database beside --db, dropped after). The units are seeded as keyless\n"+
		"storage devices; the node runs with --require-device-keys=false. Afterwards the node's database\n"+
		"must hold every acked reading once. Also: `bench mqtt bare --addr A` (the broker alone),\n"+
		"`bench mqtt seed --n N [--db URL|--data-dir DIR]` and `bench mqtt load --addr A --n N` (the load\n"+
		"against a running broker or node).")
	var o mqttbench.Options
	targets := fs.String("targets", "", "servers in order, comma-separated: bare, sqlite, postgres (default bare,sqlite and postgres with --db)")
	fs.StringVar(&o.Binary, "binary", "", "chargeops executable the servers run (default this one)")
	fs.StringVar(&o.DB, "db", "", "PostgreSQL URL beside which the postgres target makes its scratch database, e.g. postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable")
	nodeArgs := fs.String("node-args", "", "extra serve options, space-separated")
	bareArgs := fs.String("bare-args", "", "extra `bench mqtt bare` options, space-separated")
	fs.Float64Var(&o.QuietLoad, "quiet-load", 0, "before each server's load, wait until the machine's 1-minute load average is below this (0: do not wait)")
	fs.DurationVar(&o.QuietWait, "quiet-wait", 10*time.Minute, "longest wait for --quiet-load")
	fs.BoolVar(&o.Keep, "keep", false, "keep the temporary folders, the server logs and the scratch database")
	fs.DurationVar(&o.Settle, "settle", 3*time.Minute, "longest wait for the node to handle every birth before the load")
	loadFlags(fs, &o.Load)
	asJSON := fs.Bool("json", false, "print the results as JSON (the table goes to stderr)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *targets != "" {
		o.Targets = strings.Split(*targets, ",")
	}
	o.NodeArgs, o.BareArgs = strings.Fields(*nodeArgs), strings.Fields(*bareArgs)
	o.Logf = func(format string, args ...any) { slog.Info(fmt.Sprintf(format, args...)) }
	rs, err := mqttbench.Run(ctx, o)
	if len(rs) > 0 {
		if *asJSON {
			mqttbench.Print(os.Stderr, rs)
			enc := json.NewEncoder(os.Stdout)
			enc.SetIndent("", "  ")
			if jerr := enc.Encode(rs); jerr != nil && err == nil {
				err = jerr
			}
		} else {
			mqttbench.Print(os.Stdout, rs)
		}
	}
	return err
}

// loadFlags are the options of the units and their load.
func loadFlags(fs *flag.FlagSet, o *mqttbench.LoadOptions) {
	fs.IntVar(&o.N, "n", 1000, "storage units")
	fs.StringVar(&o.Prefix, "prefix", "BESS-", "SN prefix")
	fs.IntVar(&o.Digits, "digits", 6, "width of the SN's number")
	fs.IntVar(&o.First, "first", 1, "number of the first unit")
	fs.DurationVar(&o.Interval, "interval", 5*time.Second, "each unit publishes once per interval (units spread evenly over it)")
	fs.DurationVar(&o.Duration, "duration", 60*time.Second, "length of the load, after every unit is connected")
	fs.IntVar(&o.Readings, "readings", 1, "readings per telemetry message (15 values each)")
	fs.IntVar(&o.ConnectConcurrency, "connect-concurrency", 200, "connections being set up at once")
	fs.Float64Var(&o.ConnectRate, "connect-rate", 0, "new connections per second (0: unpaced)")
	fs.DurationVar(&o.Timeout, "timeout", 30*time.Second, "a CONNACK, SUBACK or PUBACK later than this fails; after the load, the wait for the last acks")
}

func benchMQTTBare(ctx context.Context, args []string) error {
	fs := benchFlags("mqtt bare", "Runs the broker alone: mochi-mqtt as chargeops embeds it, every client and topic allowed,\n"+
		"with an inline subscriber on chargeops/v1/+/telemetry that acks each message on {sn}/ack at once\n"+
		"and stores nothing. The peer of a chargeops node in `bench mqtt`.")
	var o mqttbench.BareOptions
	fs.StringVar(&o.Addr, "addr", "127.0.0.1:1884", "HOST:PORT of the plain TCP listener")
	pending := fs.Int("client-writes-pending", 0, "experiment: mochi's MaximumClientWritesPending, each client's outbound channel (0: chargeops' own, mqtt.NewMochi)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	o.ClientWritesPending = int32(*pending)
	if _, err := bench.RaiseFileLimit(); err != nil {
		slog.Warn("open-file limit not raised", "err", err)
	}
	return mqttbench.RunBare(ctx, o, func(a string) {
		fmt.Printf("broker alone: mqtt://%s; Ctrl-C stops\n", a)
	})
}

func benchMQTTLoad(ctx context.Context, args []string) error {
	fs := benchFlags("mqtt load", "Connects N storage units to a running broker (a node's --mqtt-addr, with the units seeded\n"+
		"and --require-device-keys=false, or `bench mqtt bare`) and runs the load of `bench mqtt` against it.")
	var o mqttbench.LoadOptions
	fs.StringVar(&o.Addr, "addr", "127.0.0.1:1883", "the broker, HOST:PORT")
	loadFlags(fs, &o)
	asJSON := fs.Bool("json", false, "print the result as JSON (the table goes to stderr)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if _, err := bench.RaiseFileLimit(); err != nil {
		slog.Warn("open-file limit not raised", "err", err)
	}
	o.Logf = func(format string, args ...any) { slog.Info(fmt.Sprintf(format, args...)) }
	f, err := mqttbench.Dial(ctx, o)
	if err != nil {
		return err
	}
	defer f.Close()
	r := &mqttbench.Result{Target: o.Addr, Connect: &f.Connect}
	if f.Units() == 0 {
		mqttbench.Print(os.Stdout, []*mqttbench.Result{r})
		return errors.New("no unit connected")
	}
	r.Load = f.Load(ctx)
	r.Kept = r.Load.Acked == r.Load.Offered && r.Load.Missing == 0
	out := os.Stdout
	if *asJSON {
		out = os.Stderr
		defer func() { _ = json.NewEncoder(os.Stdout).Encode(r) }()
	}
	mqttbench.Print(out, []*mqttbench.Result{r})
	return nil
}

func benchMQTTSeed(ctx context.Context, args []string) error {
	var o mqttbench.LoadOptions
	cfg, err := load("bench mqtt seed", args, func(fs *flag.FlagSet) {
		fs.IntVar(&o.N, "n", 0, "storage units to insert: PREFIX000001 .. (existing SNs are kept)")
		fs.StringVar(&o.Prefix, "prefix", "BESS-", "SN prefix")
		fs.IntVar(&o.Digits, "digits", 6, "width of the SN's number")
	})
	if err != nil {
		return err
	}
	if o.N < 1 {
		return errors.New("--n must be at least 1")
	}
	d, err := app.OpenDB(ctx, cfg)
	if err != nil {
		return err
	}
	defer d.Close()
	res, err := mqttbench.SeedUnits(ctx, d, o)
	if err != nil {
		return err
	}
	fmt.Printf("%d storage units %s..: %d inserted (model %d, device type 4) in %s on %s\n", o.N, o.SN(1), res.Inserted,
		res.ModelIDs[0], res.Took.Round(time.Millisecond), d.Dialect())
	return nil
}
