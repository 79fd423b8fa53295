package sunspec

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"chargeops/internal/ess"
)

// outcome is a command's answer (Apply's results).
type outcome struct {
	status, message string
	items           []ess.Item
	values          map[string]any
}

func accepted(values map[string]any) outcome {
	return outcome{status: ess.StatusAccepted, values: values}
}

func rejected(format string, a ...any) outcome {
	return outcome{status: ess.StatusRejected, message: fmt.Sprintf(format, a...)}
}

func notSupported(format string, a ...any) outcome {
	return outcome{status: ess.StatusNotSupported, message: fmt.Sprintf(format, a...)}
}

// Apply runs one ess command as Modbus writes and reads back what it wrote. It answers a status
// (ess.Status*), a message when the command was not accepted, the items of getConfig and
// setConfig, and values read back after a write (ess names). A command that finds the
// connection broken before it wrote anything dials again and runs once more; one that broke
// after writing answers Failed, as the unit may or may not have taken it.
func (c *Client) Apply(ctx context.Context, name string, p ess.Params) (status, message string, items []ess.Item, values map[string]any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for attempt := 0; ; attempt++ {
		if err := c.ensure(ctx); err != nil {
			return ess.StatusFailed, fmt.Sprintf("sunspec: %s: %v", name, err), nil, nil
		}
		before := c.writes
		out, err := c.apply(ctx, name, p)
		if err != nil && c.mb == nil && c.writes == before && attempt == 0 {
			continue
		}
		if err != nil {
			return ess.StatusFailed, fmt.Sprintf("sunspec: %s: %v", name, err), nil, nil
		}
		return out.status, out.message, out.items, out.values
	}
}

func (c *Client) apply(ctx context.Context, name string, p ess.Params) (outcome, error) {
	switch name {
	case ess.CmdSetPower:
		return c.setPower(ctx, p)
	case ess.CmdSetMode:
		return c.setMode(ctx, p)
	case ess.CmdRun:
		return c.run(ctx, p)
	case ess.CmdFaultReset:
		return c.faultReset(ctx)
	case ess.CmdGetConfig:
		return c.getConfig(ctx, p)
	case ess.CmdSetConfig:
		return c.setConfig(ctx, p)
	case ess.CmdReboot:
		return notSupported("SunSpec has no point to restart a unit"), nil
	default:
		return notSupported("unknown command %q", name), nil
	}
}

// readBack reads every value after a write and keeps the names asked for.
func (c *Client) readBack(ctx context.Context, names ...string) (map[string]any, error) {
	all, _, err := c.readAll(ctx)
	if err != nil {
		return nil, fmt.Errorf("read back: %w", err)
	}
	out := map[string]any{}
	for _, n := range names {
		if v, ok := all[n]; ok {
			out[n] = v
		}
	}
	return out, nil
}

// setPower writes the 704 active power setpoint in watts (+ discharge, - charge: 704 counts
// injection positive) and switches the unit to manual mode, setpoint first so the switch never
// acts on a stale one.
func (c *Client) setPower(ctx context.Context, p ess.Params) (outcome, error) {
	if p.PowerW == nil || !finite(*p.PowerW) {
		return rejected("powerW is required"), nil
	}
	w := *p.PowerW
	s, err := c.snapshot(ctx)
	if err != nil {
		return outcome{}, fmt.Errorf("set power: %w", err)
	}
	if s.ctl == nil || s.bat == nil {
		return notSupported("the unit has no models 704 and 802 to take a power setpoint"), nil
	}
	chaMax, ok1 := s.bat.value("WChaRteMax")
	disMax, ok2 := s.bat.value("WDisChaRteMax")
	if !ok1 || !ok2 {
		return notSupported("the unit reports no charge and discharge rates (802)"), nil
	}
	if w < -chaMax || w > disMax {
		return rejected("powerW %g is outside [%g, %g]", w, -chaMax, disMax), nil
	}
	if st, ok := enumNameOf(s.vend, "PCSState", vendorStates); ok && st == ess.StateFault {
		return rejected("the unit is in fault; reset it first"), nil
	}
	wset, err := s.ctl.encode("WSet", w)
	if err != nil {
		return rejected("powerW %g cannot be written: %v", w, err), nil
	}
	regs := append([]uint16{wSetEnabled, wSetModWatts}, wset...) // WSetEna, WSetMod, WSet are adjacent
	if err := c.write(ctx, s.ctl.addr("WSetEna"), regs); err != nil {
		return outcome{}, fmt.Errorf("set power: %w", err)
	}
	manual := int64(slices.Index(vendorModes, ess.ModeManual))
	if s.vend != nil {
		if err := c.write(ctx, s.vend.addr("Mode"), []uint16{uint16(manual)}); err != nil {
			return outcome{}, fmt.Errorf("set power: %w", err)
		}
	}

	ctl, err := c.readModel(ctx, idDERCtlAC)
	if err != nil {
		return outcome{}, fmt.Errorf("set power: read back: %w", err)
	}
	values, err := c.readBack(ctx, ess.PCSSetpoint, ess.PCSMode, ess.PCSState, ess.PCSPower)
	if err != nil {
		return outcome{}, fmt.Errorf("set power: %w", err)
	}
	got := slices.Concat(ctl.raw("WSetEna"), ctl.raw("WSetMod"), ctl.raw("WSet"))
	if !slices.Equal(got, regs) {
		return outcome{status: ess.StatusFailed, message: fmt.Sprintf("the setpoint read back as %v, wrote %v", got, regs), values: values}, nil
	}
	if s.vend != nil && values[ess.PCSMode] != ess.ModeManual {
		return outcome{status: ess.StatusFailed, message: fmt.Sprintf("the mode read back as %v, wrote %s", values[ess.PCSMode], ess.ModeManual), values: values}, nil
	}
	return accepted(values), nil
}

// setMode writes the vendor model's Mode.
func (c *Client) setMode(ctx context.Context, p ess.Params) (outcome, error) {
	if !ess.ValidMode(p.Mode) {
		return rejected("unknown mode %q", p.Mode), nil
	}
	vend, err := c.readModel(ctx, idVendor)
	if err != nil {
		return outcome{}, fmt.Errorf("set mode: %w", err)
	}
	if vend == nil {
		return notSupported("the unit has no operating modes (vendor model %d)", idVendor), nil
	}
	if err := c.write(ctx, vend.addr("Mode"), []uint16{uint16(slices.Index(vendorModes, p.Mode))}); err != nil {
		return outcome{}, fmt.Errorf("set mode: %w", err)
	}
	values, err := c.readBack(ctx, ess.PCSMode, ess.PCSState, ess.PCSPower)
	if err != nil {
		return outcome{}, fmt.Errorf("set mode: %w", err)
	}
	if values[ess.PCSMode] != p.Mode {
		return outcome{status: ess.StatusFailed, message: fmt.Sprintf("the mode read back as %v", values[ess.PCSMode]), values: values}, nil
	}
	return accepted(values), nil
}

// run starts or stops the unit through 802: SetOp connects or disconnects the bank and
// SetInvState tells the battery the inverter is started or stopped; they are adjacent, so one
// write.
func (c *Client) run(ctx context.Context, p ess.Params) (outcome, error) {
	if p.Enable == nil {
		return rejected("enable is required"), nil
	}
	bat, err := c.readModel(ctx, idBattery)
	if err != nil {
		return outcome{}, fmt.Errorf("run: %w", err)
	}
	if bat == nil {
		return notSupported("the unit has no battery model (802)"), nil
	}
	regs := []uint16{setOpDisconnect, setInvStateStopped}
	if *p.Enable {
		regs = []uint16{setOpConnect, setInvStateStarted}
	}
	if err := c.write(ctx, bat.addr("SetOp"), regs); err != nil {
		return outcome{}, fmt.Errorf("run: %w", err)
	}
	back, err := c.readModel(ctx, idBattery)
	if err != nil {
		return outcome{}, fmt.Errorf("run: read back: %w", err)
	}
	values, err := c.readBack(ctx, ess.PCSState, ess.PCSPower)
	if err != nil {
		return outcome{}, fmt.Errorf("run: %w", err)
	}
	if got := slices.Concat(back.raw("SetOp"), back.raw("SetInvState")); !slices.Equal(got, regs) {
		return outcome{status: ess.StatusFailed, message: fmt.Sprintf("SetOp, SetInvState read back as %v, wrote %v", got, regs), values: values}, nil
	}
	return accepted(values), nil
}

// faultReset writes 802 AlmRst; the unit clears it when done. Failed when the unit is still in
// fault afterwards, naming the fault alarms still raised.
func (c *Client) faultReset(ctx context.Context) (outcome, error) {
	bat, err := c.readModel(ctx, idBattery)
	if err != nil {
		return outcome{}, fmt.Errorf("fault reset: %w", err)
	}
	if bat == nil {
		return notSupported("the unit has no battery model (802)"), nil
	}
	if err := c.write(ctx, bat.addr("AlmRst"), []uint16{1}); err != nil {
		return outcome{}, fmt.Errorf("fault reset: %w", err)
	}
	all, alarms, err := c.readAll(ctx)
	if err != nil {
		return outcome{}, fmt.Errorf("fault reset: read back: %w", err)
	}
	values := map[string]any{}
	if st, ok := all[ess.PCSState]; ok {
		values[ess.PCSState] = st
	}
	if values[ess.PCSState] == ess.StateFault {
		msg := "the unit is still in fault"
		if faults := slices.DeleteFunc(alarms, func(a string) bool { return !isFault(a) }); len(faults) > 0 {
			msg += "; fault alarms raised: " + strings.Join(faults, ", ")
		}
		return outcome{status: ess.StatusFailed, message: msg, values: values}, nil
	}
	return accepted(values), nil
}

// enumNameOf is enumName for a block that may be absent.
func enumNameOf(b *block, point string, names []string) (string, bool) {
	if b == nil {
		return "", false
	}
	return enumName(b, point, names)
}
