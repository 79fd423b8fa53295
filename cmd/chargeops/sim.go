package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"time"

	"chargeops/internal/agent"
	"chargeops/internal/app"
	"chargeops/internal/sim"
)

// runSim is `chargeops sim --url ws://HOST/ocpp --devices N [--prefix SN-] [--protocol 2.0.1]`:
// simulated OCPP 1.6J (or 2.0.1) chargers until interrupted; with --storage mqtt://HOST:PORT,
// simulated storage units behind a site agent instead.
func runSim(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("sim", flag.ContinueOnError)
	url := fs.String("url", "ws://localhost:8080/ocpp", "gateway base URL; each charger appends /{SN}")
	n := fs.Int("devices", 10, "number of chargers")
	prefix := fs.String("prefix", "SN-", "SN prefix; chargers are PREFIX0001, PREFIX0002, ...")
	first := fs.Int("first", 1, "number of the first charger")
	connectors := fs.Int("connectors", 2, "connectors per charger")
	meter := fs.Duration("meter-interval", 10*time.Second, "meter values interval while charging")
	speed := fs.Float64("speed", 1, "time acceleration of sessions and faults")
	fault := fs.Float64("fault-chance", 0.05, "chance per idle period that a connector faults")
	key := fs.String("key", "", "auth key sent as HTTP Basic password (security profile 1) by every charger")
	protocol := fs.String("protocol", "1.6", "OCPP version the chargers speak: 1.6 or 2.0.1")
	storage := fs.String("storage", "", "simulate storage units instead, behind a site agent publishing to this MQTT broker (mqtt://HOST:1883; docs/mqtt.md): a SunSpec battery per unit, --key as every unit's key, --meter-interval as the reading interval")
	verbose := fs.Bool("v", false, "log connection failures")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *n < 1 || *n > 100000 {
		return fmt.Errorf("--devices must be 1..100000")
	}
	if *protocol != "1.6" && *protocol != sim.Protocol201 {
		return fmt.Errorf("--protocol must be 1.6 or %s", sim.Protocol201)
	}
	level := slog.LevelInfo
	if *verbose {
		level = slog.LevelDebug
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))
	sns := make([]string, *n)
	keys := map[string]string{}
	for i := range sns {
		sns[i] = fmt.Sprintf("%s%04d", *prefix, *first+i)
		if *key != "" {
			keys[sns[i]] = *key
		}
	}
	if *storage != "" {
		return simulateStorage(ctx, *storage, sns, *key, *meter, log)
	}
	st := &sim.Stats{}
	go func() {
		t := time.NewTicker(30 * time.Second)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				log.Info("sim", "connects", st.Connects.Load(), "frames", st.Frames.Load(), "sessions", st.Sessions.Load(),
					"faults", st.Faults.Load(), "commands", st.Commands.Load())
			}
		}
	}()
	fmt.Printf("simulating %d OCPP %s chargers %s .. %s against %s (Ctrl-C stops)\n", *n, *protocol, sns[0], sns[len(sns)-1], *url)
	sim.RunStats(ctx, sim.Options{URL: *url, SNs: sns, Keys: keys, Connectors: *connectors, MeterInterval: *meter, Speed: *speed,
		FaultChance: *fault, Logger: log, Protocol: *protocol}, st)
	return nil
}

// simulateStorage runs storage units behind a site agent (agent.Simulate) until interrupted.
func simulateStorage(ctx context.Context, broker string, sns []string, key string, interval time.Duration, log *slog.Logger) error {
	dir, err := os.MkdirTemp("", "chargeops-sim-agent-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	o := agent.SimulateOptions{Broker: broker, BufferDir: dir, Interval: interval, Version: app.Version}
	for _, sn := range sns {
		o.Units = append(o.Units, agent.SimUnit{SN: sn, Key: key})
	}
	fmt.Printf("simulating %d storage units %s .. %s behind a site agent on %s (Ctrl-C stops)\n", len(sns), sns[0], sns[len(sns)-1], broker)
	return agent.Simulate(ctx, o, log)
}
