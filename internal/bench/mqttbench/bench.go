package mqttbench

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"chargeops/internal/app"
	"chargeops/internal/bench"
	"chargeops/internal/config"
)

// The servers a run measures.
const (
	TargetBare     = "bare"     // the broker alone (`chargeops bench mqtt bare`)
	TargetSQLite   = "sqlite"   // `chargeops serve` on SQLite in a temporary data folder
	TargetPostgres = "postgres" // `chargeops serve` on a scratch database beside Options.DB
)

// Options of a run.
type Options struct {
	Targets []string // in order; default bare, sqlite (and postgres with DB)
	// Binary is the chargeops executable the servers run (default this one).
	Binary string
	// DB is a PostgreSQL URL the postgres target creates its scratch database beside (and drops
	// it after).
	DB string
	// NodeArgs are extra `serve` options, BareArgs extra `bench mqtt bare` options.
	NodeArgs, BareArgs []string
	// QuietLoad, when set, holds each server's load until the machine's 1-minute load average
	// is below it (at most QuietWait, default 10 minutes): the bench shares the machine.
	QuietLoad float64
	QuietWait time.Duration
	// Keep leaves the temporary folders (database, server logs) and the scratch database.
	Keep bool
	// Settle bounds the wait for a node to have handled every birth before the load.
	Settle time.Duration
	Load   LoadOptions
	Logf   func(format string, args ...any)
}

// Result is one server's figures.
type Result struct {
	Target  string         `json:"target"`
	Server  string         `json:"server"` // the command line
	Seeded  int            `json:"seeded,omitempty"`
	SeedFor time.Duration  `json:"seedTook,omitempty"`
	Connect *ConnectReport `json:"connect"`
	// SettleTook is how long the node took, after the last unit connected, to have every unit
	// registered and its ingest queue empty (the births' writes).
	SettleTook time.Duration `json:"settleTook"`
	Load       *LoadReport   `json:"load"`
	// CPU during the connect phase and during the load (from the first send to the last ack).
	ConnectCPU CPUFigures `json:"connectCpu"`
	LoadCPU    CPUFigures `json:"loadCpu"`
	// Server memory (RSS): before the units connect, once they are connected and idle, and the
	// highest seen during the load (sampled every second).
	RSSStart     int64 `json:"rssStart"`
	RSSConnected int64 `json:"rssConnected"`
	RSSMax       int64 `json:"rssMax"`
	// Node figures over the load (/metrics differences), chargeops only.
	Ingest  map[string]float64 `json:"ingest,omitempty"`
	Stored  *Stored            `json:"stored,omitempty"`
	StopFor time.Duration      `json:"stopTook"` // SIGTERM → exit
	StopErr string             `json:"stopError,omitempty"`
	// the server's log: WARN and ERROR lines, and the first of them
	LogWarn   int    `json:"logWarn"`
	LogError  int    `json:"logError"`
	LogSample string `json:"logSample,omitempty"`
	// Kept is set when every reading published was acked and, on a node, is stored once.
	Kept bool `json:"kept"`
	// LoadAvg is the machine's 1-minute load average before the units connected.
	LoadAvg float64  `json:"loadAvg"`
	Remarks []string `json:"remarks,omitempty"`
}

// Run measures each target in turn with the same load.
func Run(ctx context.Context, o Options) ([]*Result, error) {
	o.Load.defaults()
	if o.Logf == nil {
		o.Logf = func(string, ...any) {}
	}
	if o.Load.Logf == nil {
		o.Load.Logf = o.Logf
	}
	if o.Binary == "" {
		exe, err := os.Executable()
		if err != nil {
			return nil, err
		}
		o.Binary = exe
	}
	if o.Settle <= 0 {
		o.Settle = 3 * time.Minute
	}
	if len(o.Targets) == 0 {
		o.Targets = []string{TargetBare, TargetSQLite}
		if o.DB != "" {
			o.Targets = append(o.Targets, TargetPostgres)
		}
	}
	if n, err := bench.RaiseFileLimit(); err == nil && n > 0 && n < uint64(o.Load.N)+100 {
		return nil, fmt.Errorf("the open-file limit is %d: too low for %d units in this process", n, o.Load.N)
	}
	var out []*Result
	for _, t := range o.Targets {
		o.Logf("%s: %d units, one message each %s for %s", t, o.Load.N, o.Load.Interval, o.Load.Duration)
		r, err := runTarget(ctx, o, t)
		if err != nil {
			return out, fmt.Errorf("%s: %w", t, err)
		}
		out = append(out, r)
	}
	return out, nil
}

func runTarget(ctx context.Context, o Options, target string) (*Result, error) {
	res := &Result{Target: target}
	work, err := os.MkdirTemp("", "chargeops-mqttbench-"+target+"-")
	if err != nil {
		return nil, err
	}
	if o.Keep {
		o.Logf("%s: data and logs kept in %s", target, work)
	} else {
		defer os.RemoveAll(work)
	}
	mqttAddr, err := freeAddr()
	if err != nil {
		return nil, err
	}
	var argv []string
	var metricsURL, healthURL string
	var cfg config.Config
	switch target {
	case TargetBare:
		argv = append([]string{o.Binary, "bench", "mqtt", "bare", "--addr", mqttAddr}, o.BareArgs...)
	case TargetSQLite, TargetPostgres:
		cfg = config.Config{DataDir: filepath.Join(work, "data")}
		if target == TargetPostgres {
			if o.DB == "" {
				return nil, errors.New("the postgres target needs --db postgres://...")
			}
			dbURL, drop, err := scratchPG(ctx, o.DB)
			if err != nil {
				return nil, err
			}
			cfg.DB = dbURL
			if o.Keep {
				o.Logf("%s: scratch database kept: %s", target, dbURL)
			} else {
				defer func() {
					if err := drop(); err != nil {
						o.Logf("%s: scratch database not dropped: %v", target, err)
					}
				}()
			}
		}
		if err := seed(ctx, cfg, o.Load, res); err != nil {
			return nil, err
		}
		o.Logf("%s: %d storage units seeded in %s", target, res.Seeded, res.SeedFor.Round(time.Millisecond))
		httpAddr, err := freeAddr()
		if err != nil {
			return nil, err
		}
		argv = []string{o.Binary, "serve", "--data-dir", cfg.DataDir, "--addr", httpAddr, "--mqtt-addr", mqttAddr,
			"--require-device-keys=false", "--captcha=false", "--log-level", "warn"}
		if cfg.DB != "" {
			argv = append(argv, "--db", cfg.DB)
		}
		argv = append(argv, o.NodeArgs...)
		metricsURL, healthURL = "http://"+httpAddr+"/metrics", "http://"+httpAddr+"/healthz"
	default:
		return nil, fmt.Errorf("unknown target %q (bare, sqlite or postgres)", target)
	}
	res.Server = fmt.Sprint(argv[1:])
	srv, err := startServer(argv, filepath.Join(work, "server.log"))
	if err != nil {
		return nil, err
	}
	stopped := false
	defer func() {
		if !stopped {
			_, _ = srv.stop(30 * time.Second)
		}
	}()
	if err := srv.waitReady(ctx, mqttAddr, healthURL, 2*time.Minute); err != nil {
		return nil, err
	}
	pid := srv.pid()
	if p, err := readProc(pid); err == nil {
		res.RSSStart = p.RSS
	}

	if o.QuietLoad > 0 {
		waited, load, err := waitQuiet(ctx, o.QuietLoad, o.QuietWait)
		if err != nil {
			return nil, err
		}
		if load >= o.QuietLoad {
			res.Remarks = append(res.Remarks, fmt.Sprintf("the load average was still %.2f after %s", load, waited.Round(time.Second)))
		}
		o.Logf("%s: load average %.2f after waiting %s", target, load, waited.Round(time.Second))
	}
	res.LoadAvg = loadAvg()

	// connect
	lo := o.Load
	lo.Addr = mqttAddr
	c0 := snapCPU(pid)
	fleet, err := Dial(ctx, lo)
	if err != nil {
		return nil, err
	}
	closed := false
	defer func() {
		if !closed {
			fleet.Close()
		}
	}()
	res.Connect = &fleet.Connect
	o.Logf("%s: %d of %d units connected in %s (%.0f/s)", target, fleet.Connect.Connected, lo.N, fleet.Connect.Took.Round(time.Millisecond), fleet.Connect.Rate)
	var before map[string]float64
	if metricsURL != "" {
		t := time.Now()
		before, err = waitIdle(ctx, metricsURL, fleet.Units(), o.Settle)
		res.SettleTook = time.Since(t)
		if err != nil {
			res.Remarks = append(res.Remarks, fmt.Sprintf("the node was not idle %s after the units connected: %v (connections %.0f, queue %.0f)",
				o.Settle, err, before[metricConnections], before[metricQueue]))
		}
		o.Logf("%s: births handled %s after the last connect", target, res.SettleTook.Round(time.Millisecond))
	}
	c1 := snapCPU(pid)
	res.ConnectCPU = cpuBetween(c0, c1)
	if p, err := readProc(pid); err == nil {
		res.RSSConnected = p.RSS
	}

	// load, with the server's RSS sampled every second
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			if p, err := readProc(pid); err == nil && p.RSS > res.RSSMax {
				res.RSSMax = p.RSS
			}
			select {
			case <-stop:
				return
			case <-t.C:
			}
		}
	})
	c2 := snapCPU(pid)
	res.Load = fleet.Load(ctx)
	c3 := snapCPU(pid)
	close(stop)
	wg.Wait()
	res.LoadCPU = cpuBetween(c2, c3)
	if metricsURL != "" && before != nil {
		if after, err := scrape(ctx, metricsURL); err == nil {
			res.Ingest = map[string]float64{}
			for _, k := range []string{metricUnits, metricBatches, metricCommitSecs, metricBlocked, metricFailures, metricLogRows} {
				res.Ingest[k] = after[k] - before[k]
			}
			res.Ingest[metricGoroutines] = after[metricGoroutines]
		}
	}
	l := res.Load
	o.Logf("%s: %d of %d messages acked (%.1f/s), ack p50 %s p99 %s", target, l.Acked, l.Offered, l.Achieved,
		l.Ack.Quantile(0.5), l.Ack.Quantile(0.99))

	// end: close the units, let the node commit what it holds, stop it, count what it stored
	fleet.Close()
	closed = true
	if metricsURL != "" {
		if _, err := waitIdle(ctx, metricsURL, 0, time.Minute); err != nil {
			res.Remarks = append(res.Remarks, "the node's ingest queue was not empty a minute after the load: "+err.Error())
		}
	}
	res.StopFor, err = srv.stop(2 * time.Minute)
	stopped = true
	if err != nil {
		res.StopErr = err.Error()
	}
	res.LogWarn, res.LogError, res.LogSample = srv.logCounts()
	res.Kept = l.Offered > 0 && l.Acked == l.Offered && l.Missing == 0 && l.Nacked == 0 && l.Refused == 0
	if target != TargetBare {
		d, err := app.OpenDB(ctx, cfg)
		if err != nil {
			return res, err
		}
		s, err := countStored(ctx, d)
		d.Close()
		if err != nil {
			return res, err
		}
		res.Stored = &s
		r := int64(l.ReadingsPerMessage)
		res.Kept = res.Kept && s.SeriesSoC == l.Acked*r && s.SeriesAll == l.Acked*r*NumericValues &&
			s.RuntimeSoC == int64(l.AckedUnits) && s.RuntimeTSSum == l.LastTSSum
	}
	return res, nil
}

// seed migrates the node's database and seeds the units.
func seed(ctx context.Context, cfg config.Config, lo LoadOptions, res *Result) error {
	d, err := app.OpenDB(ctx, cfg)
	if err != nil {
		return err
	}
	defer d.Close()
	s, err := SeedUnits(ctx, d, lo)
	if err != nil {
		return err
	}
	res.Seeded, res.SeedFor = s.Inserted, s.Took
	return nil
}
