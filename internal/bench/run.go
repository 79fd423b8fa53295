package bench

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"chargeops/internal/memstat"
)

// RunOptions describe one `chargeops bench run`.
type RunOptions struct {
	// Fleet is the whole run's fleet: N chargers from First, Rate MeterValues per second across
	// all of them; with Procs > 1 each worker gets its share.
	Fleet FleetOptions
	Procs int // worker processes (≤ 1: this process drives every charger)
	// WorkerCommand starts one worker (`chargeops bench worker`); needed when Procs > 1.
	WorkerCommand []string
	Storm         bool          // run the reconnect storm after the load
	Settle        time.Duration // idle time after connecting, before the memory reading (default 2 s)
	// IdleCommands is how long commands are timed on the idle fleet before the load (default
	// 5 s; with API only).
	IdleCommands time.Duration
	API          *APIOptions // nil: no command timing, no console probe
	MetricsURL   string      // the server's /metrics (empty: no server figures)
	MetricsToken string
	Logf         func(format string, args ...any) // progress (nil: quiet)
}

// ServerFigures are what the server says of itself.
type ServerFigures struct {
	Before    memstat.Snapshot `json:"before"`    // after a full GC, before any charger connected
	Connected memstat.Snapshot `json:"connected"` // after a full GC, every charger connected and idle
	// BytesPerConnection is Δ(heapInuse + stackInuse) between the two, over the chargers held.
	BytesPerConnection      float64 `json:"bytesPerConnection"`
	GoroutinesPerConnection float64 `json:"goroutinesPerConnection"`
	// Connections is the server's chargeops_ocpp_connections with every charger connected
	// (-1: the server does not expose it).
	Connections float64 `json:"connections"`
	// LogRows is how many protocol-log rows the server wrote during the run (-1: not exposed);
	// LogRowsExpected the frames sent and received plus an open and a close row per connection.
	LogRows         int64 `json:"logRows"`
	LogRowsExpected int64 `json:"logRowsExpected"`
}

// Commands are the remote-command timings.
type Commands struct {
	Idle *CommandStats `json:"idle,omitempty"`
	Load *CommandStats `json:"load,omitempty"` // during the load
}

// Report is the outcome of a run.
type Report struct {
	Target    string         `json:"target"`
	Protocol  string         `json:"protocol"` // Protocol16 or Protocol201
	Procs     int            `json:"procs"`
	FileLimit uint64         `json:"fileLimit"` // this process's open-file limit
	Fleet     FleetResult    `json:"fleet"`
	Server    *ServerFigures `json:"server,omitempty"`
	Commands  *Commands      `json:"commands,omitempty"`
	// Console is the console probe during the storm (with API only).
	Console *ProbeStats `json:"consoleDuringStorm,omitempty"`
	// DeviceList times the device list's first page during the load (with API only).
	DeviceList *ProbeStats `json:"deviceListDuringLoad,omitempty"`
	// Problems are what could not be measured (the run went on without it).
	Problems []string `json:"problems,omitempty"`
}

func (r *Report) problem(format string, args ...any) {
	r.Problems = append(r.Problems, fmt.Sprintf(format, args...))
}

// Run connects the fleet, reads the server's memory per connection, times commands on the idle
// fleet, runs the load (timing commands meanwhile), optionally the storm (probing the console
// meanwhile), closes every connection and counts the protocol-log rows.
func Run(ctx context.Context, o RunOptions) (*Report, error) {
	logf := o.Logf
	if logf == nil {
		logf = func(string, ...any) {}
	}
	if o.Settle <= 0 {
		o.Settle = 2 * time.Second
	}
	if o.IdleCommands == 0 {
		o.IdleCommands = 5 * time.Second
	}
	o.Fleet.defaults()
	if err := o.Fleet.check(); err != nil {
		return nil, err
	}
	rep := &Report{Target: o.Fleet.URL, Protocol: o.Fleet.Protocol, Procs: max(o.Procs, 1)}
	limit, err := RaiseFileLimit()
	if err != nil {
		rep.problem("open-file limit not raised: %v", err)
	}
	rep.FileLimit = limit
	parts, err := startParts(o)
	if err != nil {
		return nil, err
	}
	defer func() {
		for _, p := range parts {
			p.stop()
		}
	}()

	var probe *serverProbe
	var before map[string]float64
	if o.MetricsURL != "" {
		probe = newServerProbe(o.MetricsURL, o.MetricsToken)
		rep.Server = &ServerFigures{Connections: -1, LogRows: -1}
		if before, err = probe.scrape(ctx); err != nil {
			return nil, fmt.Errorf("server metrics: %w", err)
		}
		if rep.Server.Before, err = probe.gc(ctx); err != nil {
			rep.problem("server memory: %v", err)
		}
	}

	logf("connecting %d chargers to %s", o.Fleet.N, o.Fleet.URL)
	if err := forAll(ctx, parts, opConnect); err != nil {
		return nil, err
	}
	connected, err := results(ctx, parts)
	if err != nil {
		return nil, err
	}
	held := connected.Connect.Connected
	logf("%d of %d chargers connected in %.1f s; idle for %s", held, o.Fleet.N, connected.Connect.Seconds, o.Settle)
	sleepCtx(ctx, o.Settle)
	if probe != nil {
		measureConnected(ctx, probe, rep, held)
	}

	var cm *commander
	if o.API != nil {
		if o.API.SN == "" {
			o.API.SN = SN(o.Fleet.Prefix, o.Fleet.Digits, o.Fleet.First)
		}
		if cm, err = newCommander(ctx, *o.API); err != nil {
			rep.problem("commands: %v", err)
		} else {
			rep.Commands = &Commands{}
			if o.IdleCommands > 0 {
				logf("timing commands to %s on the idle fleet for %s", o.API.SN, o.IdleCommands)
				idle, cancel := context.WithTimeout(ctx, o.IdleCommands)
				rep.Commands.Idle = cm.commands(idle)
				cancel()
			}
		}
	}

	if o.Fleet.Rate > 0 && o.Fleet.Duration > 0 {
		msg := "MeterValues"
		if o.Fleet.LoadMessage == LoadTransactionEvent {
			msg = "TransactionEvent Updated"
		}
		logf("load: %.0f %s/s for %s (OCPP %s)", o.Fleet.Rate, msg, o.Fleet.Duration, o.Fleet.Protocol)
		stopCommands := during(ctx, cm != nil, func(c context.Context) { rep.Commands.Load = cm.commands(c) })
		stopList := during(ctx, cm != nil, func(c context.Context) { rep.DeviceList = cm.deviceList(c) })
		err := forAll(ctx, parts, opLoad)
		stopList()
		stopCommands()
		if err != nil {
			return nil, err
		}
	}

	if o.Storm {
		logf("storm: dropping every connection (%s) and reconnecting", o.Fleet.StormDrop)
		stopProbe := during(ctx, cm != nil, func(c context.Context) { rep.Console = cm.probe(c) })
		err := forAll(ctx, parts, opStorm)
		stopProbe()
		if err != nil {
			return nil, err
		}
	}

	if err := forAll(ctx, parts, opClose); err != nil {
		return nil, err
	}
	if rep.Fleet, err = results(ctx, parts); err != nil {
		return nil, err
	}
	if probe != nil {
		countLogRows(ctx, probe, rep, before)
	}
	return rep, nil
}

// measureConnected reads the server's memory and connections with the fleet connected and idle.
func measureConnected(ctx context.Context, probe *serverProbe, rep *Report, held int) {
	s := rep.Server
	var err error
	if s.Connected, err = probe.gc(ctx); err != nil {
		rep.problem("server memory: %v", err)
	} else if held > 0 && s.Before.Sys > 0 {
		s.BytesPerConnection = (float64(s.Connected.Held()) - float64(s.Before.Held())) / float64(held)
		s.GoroutinesPerConnection = float64(s.Connected.Goroutines-s.Before.Goroutines) / float64(held)
	}
	m, err := probe.scrape(ctx)
	if err != nil {
		rep.problem("server metrics: %v", err)
		return
	}
	if v, ok := m[metricConnections]; ok {
		s.Connections = v
	}
}

// countLogRows waits for the server to write what it holds, then compares the protocol-log rows
// written during the run with the frames that crossed the sockets.
func countLogRows(ctx context.Context, probe *serverProbe, rep *Report, before map[string]float64) {
	fr := rep.Fleet.Frames
	rep.Server.LogRowsExpected = fr.Sent + fr.Received + 2*fr.Connections
	after, err := probe.waitSettled(ctx, 30*time.Second, before[metricConnections])
	if err != nil {
		rep.problem("server metrics after the run: %v", err)
		return
	}
	if v, ok := after[metricLogRows]; ok {
		rep.Server.LogRows = int64(v - before[metricLogRows])
	}
}

// during runs fn in the background while the caller does something else; the returned stop
// cancels fn's context and waits for it. With on false it does nothing.
func during(ctx context.Context, on bool, fn func(context.Context)) (stop func()) {
	if !on {
		return func() {}
	}
	c, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { defer close(done); fn(c) }()
	return func() { cancel(); <-done }
}

// startParts starts this process's fleet, or the worker processes, each with its share of the
// chargers and of the rate.
func startParts(o RunOptions) ([]part, error) {
	k := max(o.Procs, 1)
	if k == 1 {
		f, err := NewFleet(o.Fleet)
		if err != nil {
			return nil, err
		}
		return []part{localPart{f}}, nil
	}
	if len(o.WorkerCommand) == 0 {
		return nil, errors.New("bench: --procs needs the worker command")
	}
	if o.Fleet.N < k {
		return nil, fmt.Errorf("bench: %d chargers cannot be split over %d processes", o.Fleet.N, k)
	}
	var parts []part
	first := o.Fleet.First
	for i := range k {
		share := o.Fleet
		share.N = o.Fleet.N / k
		if i < o.Fleet.N%k {
			share.N++
		}
		share.First = first
		first += share.N
		share.Rate = o.Fleet.Rate * float64(share.N) / float64(o.Fleet.N)
		share.ConnectRate = o.Fleet.ConnectRate / float64(k)
		share.DialConcurrency = max(o.Fleet.DialConcurrency/k, 1)
		p, err := startWorker(fmt.Sprintf("worker %d", i+1), o.WorkerCommand, share)
		if err != nil {
			for _, p := range parts {
				p.stop()
			}
			return nil, err
		}
		parts = append(parts, p)
	}
	return parts, nil
}

// forAll runs a phase on every part at once.
func forAll(ctx context.Context, parts []part, op string) error {
	errs := make([]error, len(parts))
	var wg sync.WaitGroup
	for i, p := range parts {
		wg.Add(1)
		go func() { defer wg.Done(); errs[i] = p.phase(ctx, op) }()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// results merges the parts' figures.
func results(ctx context.Context, parts []part) (FleetResult, error) {
	var all FleetResult
	for _, p := range parts {
		r, err := p.result(ctx)
		if err != nil {
			return all, err
		}
		all.Merge(r)
	}
	return all, nil
}
