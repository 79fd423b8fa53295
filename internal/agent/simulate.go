package agent

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"time"

	"chargeops/internal/sunspec"
)

// SimUnit is one simulated storage unit: its identity in chargeops and its battery.
type SimUnit struct {
	SN, Key     string
	Vendor      string  // default "Harbour Power"
	Model       string  // default "BESS-200kWh"
	CapacityWh  float64 // default 200 kWh
	RatedPowerW float64 // default 100 kW
	SoC         float64 // starting state of charge, %; 0: 50
	// ChargedWh and DischargedWh start its energy registers
	ChargedWh, DischargedWh float64
}

// SimulateOptions run simulated storage units behind this agent (`chargeops sim --storage`,
// the demo): a SunSpec battery system per unit on a loopback Modbus port (sunspec.Sim), read
// by the agent as it reads real ones.
type SimulateOptions struct {
	Broker    string // mqtt://host:port
	BufferDir string
	Interval  time.Duration // default DefaultInterval
	Units     []SimUnit
	// Clock is the batteries' clock: their sun and load follow its time of day (nil: now, in the
	// machine's zone).
	Clock   func() time.Time
	Version string
}

// Simulate runs the units until ctx ends.
func Simulate(ctx context.Context, o SimulateOptions, log *slog.Logger) error {
	cfg := Config{Broker: []string{o.Broker}, BufferDir: o.BufferDir}
	for _, u := range o.Units {
		sim, err := sunspec.StartSim(sunspec.SimOptions{Vendor: cmp.Or(u.Vendor, "Harbour Power"), Model: cmp.Or(u.Model, "BESS-200kWh"), Serial: u.SN,
			CapacityWh: orF(u.CapacityWh, 200_000), RatedPowerW: orF(u.RatedPowerW, 100_000), SoC: u.SoC, ChargedWh: u.ChargedWh, DischargedWh: u.DischargedWh, Clock: o.Clock})
		if err != nil {
			return fmt.Errorf("agent: simulated unit %s: %w", u.SN, err)
		}
		defer sim.Close()
		cfg.Units = append(cfg.Units, UnitConfig{SN: u.SN, Key: u.Key, Modbus: sim.URL(), UnitID: 1, Interval: o.Interval})
	}
	return Run(ctx, cfg, log, Options{Version: o.Version})
}

func orF(v, def float64) float64 {
	if v <= 0 {
		return def
	}
	return v
}
