package sunspec

import (
	"context"
	"fmt"
	"slices"

	"chargeops/internal/ess"
)

// Read reads every value of the storage model the device offers, in ess names and units
// (numbers as float64, PCS.State and PCS.Mode as strings), and the ess alarm codes active now.
// A connection that broke since the last call (a restarted device) is dialled and discovered
// again once before Read gives up.
func (c *Client) Read(ctx context.Context) (map[string]any, []string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for attempt := 0; ; attempt++ {
		if err := c.ensure(ctx); err != nil {
			return nil, nil, fmt.Errorf("sunspec: read: %w", err)
		}
		values, alarms, err := c.readAll(ctx)
		if err != nil && c.mb == nil && attempt == 0 {
			continue
		}
		if err != nil {
			return nil, nil, fmt.Errorf("sunspec: read: %w", err)
		}
		return values, alarms, nil
	}
}

// snapshot is one read of every model the client decodes; absent models are nil.
type snapshot struct {
	meas, capa, ctl, bat, bank, vend *block
}

func (c *Client) snapshot(ctx context.Context) (snapshot, error) {
	var s snapshot
	for _, m := range []struct {
		id uint16
		to **block
	}{
		{idDERMeasureAC, &s.meas}, {idDERCapacity, &s.capa}, {idDERCtlAC, &s.ctl},
		{idBattery, &s.bat}, {idLiIonBank, &s.bank}, {idVendor, &s.vend},
	} {
		b, err := c.readModel(ctx, m.id)
		if err != nil {
			return snapshot{}, err
		}
		*m.to = b
	}
	return s, nil
}

func (c *Client) readAll(ctx context.Context) (map[string]any, []string, error) {
	s, err := c.snapshot(ctx)
	if err != nil {
		return nil, nil, err
	}
	values, alarms := s.decode()
	return values, alarms, nil
}

// decode maps the models to ess values and alarm codes. Where two models carry a value the
// more specific one wins: the vendor model's PCSState over one derived from 701 InvSt.
func (s snapshot) decode() (map[string]any, []string) {
	v := map[string]any{}
	num := func(name string, b *block, point string) {
		if b == nil {
			return
		}
		if x, ok := b.value(point); ok {
			v[name] = x
		}
	}
	var alarms []string
	bits := func(b *block, point string, table []bitAlarm) {
		if b == nil {
			return
		}
		if x, ok := b.intv(point); ok {
			alarms = append(alarms, bitsToCodes(table, uint32(x))...)
		}
	}

	num(ess.SoC, s.bat, "SoC")
	num(ess.SoH, s.bat, "SoH")
	num(ess.BatteryPower, s.bat, "W")
	num(ess.BatteryVoltage, s.bat, "V")
	num(ess.BatteryCurrent, s.bat, "A")
	num(ess.CellVoltageMin, s.bat, "CellVMin")
	num(ess.CellVoltageMax, s.bat, "CellVMax")
	num(ess.Capacity, s.bat, "WHRtg")
	bits(s.bat, "Evt1", batteryEvt1)

	// SunSpec has module temperatures for a lithium-ion bank (803), not cell temperatures; the
	// hottest and coolest module stand for the cells.
	num(ess.CellTempMin, s.bank, "ModTmpMin")
	num(ess.CellTempMax, s.bank, "ModTmpMax")

	num(ess.PCSPower, s.meas, "W")
	num(ess.EnergyCharged, s.meas, "TotWhAbs")
	num(ess.EnergyDischarge, s.meas, "TotWhInj")
	bits(s.meas, "Alrm", derAlrm)
	if st, ok := derState(s.meas); ok {
		v[ess.PCSState] = st
	}

	if w, ok := ratedPower(s.capa, s.bat); ok {
		v[ess.RatedPower] = w
	}
	if sp, ok := s.setpoint(); ok {
		v[ess.PCSSetpoint] = sp
	}

	if s.vend != nil {
		if m, ok := enumName(s.vend, "Mode", vendorModes); ok {
			v[ess.PCSMode] = m
		}
		if st, ok := enumName(s.vend, "PCSState", vendorStates); ok {
			v[ess.PCSState] = st
		}
		num(ess.GridPower, s.vend, "GridW")
		num(ess.LoadPower, s.vend, "LoadW")
		bits(s.vend, "PCSAlrm", vendorPCSAlrm)
	}

	slices.Sort(alarms)
	return v, slices.Compact(alarms)
}

// setpoint is the 704 active power setpoint in W (0 when disabled); in percent mode it is
// taken of 702 WMax, else of the rated power.
func (s snapshot) setpoint() (float64, bool) {
	if s.ctl == nil {
		return 0, false
	}
	ena, ok := s.ctl.intv("WSetEna")
	if !ok {
		return 0, false
	}
	if ena != wSetEnabled {
		return 0, true
	}
	if mod, _ := s.ctl.intv("WSetMod"); mod == wSetModWatts {
		return s.ctl.value("WSet")
	}
	pct, ok := s.ctl.value("WSetPct")
	if !ok {
		return 0, false
	}
	wmax, ok := 0.0, false
	if s.capa != nil {
		wmax, ok = s.capa.value("WMax")
	}
	if !ok {
		wmax, ok = ratedPower(s.capa, s.bat)
	}
	return pct / 100 * wmax, ok
}

// derState derives PCS.State from 701 InvSt and the sign of W, for units without the vendor
// model.
func derState(meas *block) (string, bool) {
	if meas == nil {
		return "", false
	}
	inv, ok := meas.intv("InvSt")
	if !ok {
		return "", false
	}
	switch inv {
	case invStFault:
		return ess.StateFault, true
	case invStOff, invStSleeping, invStShuttingDown:
		return ess.StateOff, true
	case invStStarting, invStStandby:
		return ess.StateStandby, true
	}
	w, _ := meas.value("W")
	switch {
	case w < -0.5:
		return ess.StateCharging, true
	case w > 0.5:
		return ess.StateDischarging, true
	}
	return ess.StateStandby, true
}

// enumName is an enum point's value as its name in names (the value is the index).
func enumName(b *block, point string, names []string) (string, bool) {
	x, ok := b.intv(point)
	if !ok || x < 0 || x >= int64(len(names)) {
		return "", false
	}
	return names[x], true
}
