package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"chargeops/internal/agent"
	"chargeops/internal/app"
)

// runAgent is `chargeops agent --config FILE [--log-level info]`: the edge agent of a site
// gateway (internal/agent), publishing its storage units to chargeops over MQTT until
// interrupted. Built without the console for gateways by `make agent`.
func runAgent(args []string) error {
	fs := flag.NewFlagSet("agent", flag.ContinueOnError)
	path := fs.String("config", "", "the agent's JSON config file (required)")
	level := fs.String("log-level", "info", "debug, info, warn or error")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *path == "" {
		fs.Usage()
		return errors.New("agent: --config is required")
	}
	var lv slog.Level
	if err := lv.UnmarshalText([]byte(*level)); err != nil {
		return fmt.Errorf("agent: --log-level: %w", err)
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: lv}))
	cfg, err := agent.LoadConfig(*path)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	log.Info("chargeops agent starting", "version", app.Version, "units", len(cfg.Units), "broker", cfg.Broker)
	return agent.Run(ctx, cfg, log, agent.Options{Version: app.Version})
}
