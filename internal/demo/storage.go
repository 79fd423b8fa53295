package demo

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"strconv"
	"time"

	"chargeops/internal/access"
	"chargeops/internal/agent"
	"chargeops/internal/app"
	"chargeops/internal/device"
	"chargeops/internal/ess"
	"chargeops/internal/fleet"
	"chargeops/internal/sunspec"
)

// The demo's storage units (issue 26, docs/mqtt.md): battery systems that speak SunSpec over
// Modbus TCP (sunspec.Sim), read by a site agent (internal/agent, as `chargeops agent` runs it)
// that publishes them to the demo's embedded MQTT broker. They charge from the midday sun and
// discharge into the evening load, and take the console's commands.

type storageSpec struct {
	site, sn, model string
	capacityWh      float64
	ratedW          float64
	soc             float64 // at the start of its day of history
}

var storageUnits = []storageSpec{
	{"SZ-NS-01", "SZ-NS-ESS1", "BESS-200kWh", 200_000, 100_000, 60},
	{"SZ-NS-01", "SZ-NS-ESS2", "BESS-200kWh", 200_000, 100_000, 40},
	{"SZ-BA-01", "SZ-BA-ESS1", "BESS-200kWh", 200_000, 100_000, 75},
	{"HK-KB-01", "HK-KB-ESS1", "Home-ESS-10kWh", 10_000, 5_000, 50},
	{"HK-TW-01", "HK-TW-ESS1", "BESS-200kWh", 200_000, 100_000, 45},
}

// storageHistory is how far back a unit's charts start, and its step.
const (
	storageHistory     = 24 * time.Hour
	storageHistoryStep = 5 * time.Minute
)

// seedStorage adds the storage units and a day of their readings, made by the same simulated
// battery stepped through the day.
func seedStorage(ctx context.Context, a *app.App, root *access.Principal, modelIDs, siteIDs map[string]int64) error {
	for _, u := range storageUnits {
		if _, err := a.Devices.Add(ctx, root, device.Input{SN: u.sn, Name: u.model + " " + u.sn, ModelID: modelIDs[u.model], SiteID: siteIDs[u.site],
			SoftwareVersion: "3.1.0", InstallDate: "2025-08-01", ArrivalDate: "2025-07-15", MaintenanceCycle: 365}); err != nil {
			return fmt.Errorf("device %s: %w", u.sn, err)
		}
		dev, err := a.Fleet.DeviceBySN(ctx, u.sn)
		if err != nil || dev == nil {
			return fmt.Errorf("device %s: %w", u.sn, err)
		}
		// the unit signs in to the broker with its SN and key, as a real one must
		if err := a.Fleet.SetConfigValue(ctx, dev, "AuthorizationKey", storageKey(u.sn)); err != nil {
			return fmt.Errorf("device %s key: %w", u.sn, err)
		}
		if err := storageDay(ctx, a, dev, u); err != nil {
			return err
		}
	}
	return nil
}

// storageDay stores a day of a unit's readings: the simulator with its clock moved through the
// day, read in the storage model's names.
func storageDay(ctx context.Context, a *app.App, dev *fleet.Device, u storageSpec) error {
	at := time.Now().In(siteZone(a)).Add(-storageHistory)
	sim, err := sunspec.StartSim(sunspec.SimOptions{Vendor: "Harbour Power", Model: u.model, Serial: u.sn, CapacityWh: u.capacityWh,
		RatedPowerW: u.ratedW, SoC: u.soc, Clock: func() time.Time { return at }})
	if err != nil {
		return fmt.Errorf("history of %s: %w", u.sn, err)
	}
	defer sim.Close()
	var samples []fleet.Sample
	for n := 0; at.Before(time.Now()); n++ {
		for name, v := range sim.Values() {
			samples = append(samples, sample(name, v, at.UnixMilli(), n))
		}
		for range int(storageHistoryStep / time.Minute) {
			at = at.Add(time.Minute)
			sim.Step(time.Minute)
		}
	}
	return a.Fleet.Meter(ctx, fleet.MeterReport{Device: dev, Samples: samples})
}

func sample(name string, v any, at int64, element int) fleet.Sample {
	p, _ := ess.PointOf(name)
	s := fleet.Sample{Measurand: name, Unit: p.Unit, At: at, Element: element}
	switch x := v.(type) {
	case float64:
		s.Value = strconv.FormatFloat(x, 'f', -1, 64)
	default:
		s.Value = fmt.Sprint(x)
	}
	return s
}

// RunStorage runs the demo's storage units until ctx ends: a simulated SunSpec battery system
// per unit on a loopback Modbus port, and one site agent that reads them all and publishes to
// the node's embedded broker (its buffer in the data folder, as a real agent's on disk).
func RunStorage(ctx context.Context, a *app.App, log *slog.Logger) error {
	addr, err := a.MQTTBrokerAddr(ctx)
	if err != nil || addr == "" {
		return err // an external broker: the demo's units are not simulated
	}
	zone := siteZone(a)
	o := agent.SimulateOptions{Broker: "mqtt://" + addr, BufferDir: filepath.Join(a.Cfg.DataDir, "demo-agent"), Version: app.Version,
		Clock: func() time.Time { return time.Now().In(zone) }}
	for _, u := range storageUnits {
		// the battery goes on from the charge and the energy registers its charts end at
		last := lastValues(ctx, a, u.sn)
		soc := u.soc
		if v := last[ess.SoC]; v > 0 {
			soc = v
		}
		o.Units = append(o.Units, agent.SimUnit{SN: u.sn, Key: storageKey(u.sn), Model: u.model, CapacityWh: u.capacityWh, RatedPowerW: u.ratedW, SoC: soc,
			ChargedWh: last[ess.EnergyCharged], DischargedWh: last[ess.EnergyDischarge]})
	}
	log.Info("simulating the demo's storage units behind a site agent", "units", len(o.Units), "broker", addr)
	return agent.Simulate(ctx, o, log)
}

// storageKey is a demo unit's key (the demo's own: its units are simulated on the same node).
func storageKey(sn string) string { return "demo-" + sn + "-key" }

// siteZone is the demo sites' time zone (--time-zone): their sun rises and their load peaks
// on local time.
func siteZone(a *app.App) *time.Location {
	if loc, err := time.LoadLocation(a.Cfg.TimeZone); err == nil {
		return loc
	}
	return time.UTC
}

// lastValues are a unit's latest numeric values by name (none when it never reported).
func lastValues(ctx context.Context, a *app.App, sn string) map[string]float64 {
	out := map[string]float64{}
	rows, err := a.DB.Query(ctx, `SELECT r.name, r.value FROM device_runtime r JOIN device d ON d.id = r.device_id
		WHERE d.sn = ? AND r.connector_id = 0 AND r.name IN (?, ?, ?)`, sn, ess.SoC, ess.EnergyCharged, ess.EnergyDischarge)
	if err != nil {
		return out
	}
	defer rows.Close()
	for rows.Next() {
		var name, value string
		if rows.Scan(&name, &value) == nil {
			if v, err := strconv.ParseFloat(value, 64); err == nil {
				out[name] = v
			}
		}
	}
	return out
}
