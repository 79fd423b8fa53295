package sunspec

import (
	"context"
	"slices"
	"strings"
	"testing"

	"chargeops/internal/ess"
)

func apply(t *testing.T, c *Client, name string, p ess.Params) (string, string, []ess.Item, map[string]any) {
	t.Helper()
	return c.Apply(context.Background(), name, p)
}

func TestSetPower(t *testing.T) {
	s := startSim(t, at(12, 0))
	c := dial(t, s)

	t.Run("accepted with read-back", func(t *testing.T) {
		status, msg, _, values := apply(t, c, ess.CmdSetPower, ess.Params{PowerW: ptr(-10_000.0)})
		if status != ess.StatusAccepted {
			t.Fatalf("status %s: %s", status, msg)
		}
		if values[ess.PCSSetpoint] != -10_000.0 || values[ess.PCSMode] != ess.ModeManual || values[ess.PCSPower] != -10_000.0 {
			t.Errorf("read back %v", values)
		}
		v, _ := read(t, c)
		if v[ess.BatteryPower] != -10_000.0 || v[ess.PCSState] != ess.StateCharging {
			t.Errorf("after setPower: power %v state %v", v[ess.BatteryPower], v[ess.PCSState])
		}
	})
	t.Run("discharge setpoint", func(t *testing.T) {
		status, msg, _, values := apply(t, c, ess.CmdSetPower, ess.Params{PowerW: ptr(15_000.0)})
		if status != ess.StatusAccepted || values[ess.PCSPower] != 15_000.0 {
			t.Errorf("status %s %s, values %v", status, msg, values)
		}
	})
	for _, tc := range []struct {
		name string
		p    ess.Params
	}{
		{"above the discharge rate", ess.Params{PowerW: ptr(60_000.0)}},
		{"above the charge rate", ess.Params{PowerW: ptr(-50_001.0)}},
		{"no power", ess.Params{}},
	} {
		t.Run("rejected "+tc.name+", nothing written", func(t *testing.T) {
			before := s.Writes()
			status, msg, _, _ := apply(t, c, ess.CmdSetPower, tc.p)
			if status != ess.StatusRejected || msg == "" {
				t.Errorf("status %s %q, want Rejected with a message", status, msg)
			}
			if s.Writes() != before {
				t.Errorf("%d writes, want none", s.Writes()-before)
			}
		})
	}
}

func TestSetMode(t *testing.T) {
	s := startSim(t, at(19, 0))
	c := dial(t, s)

	t.Run("backup holds the charge", func(t *testing.T) {
		status, msg, _, values := apply(t, c, ess.CmdSetMode, ess.Params{Mode: ess.ModeBackup})
		if status != ess.StatusAccepted || values[ess.PCSMode] != ess.ModeBackup {
			t.Fatalf("status %s %s, values %v", status, msg, values)
		}
		v, _ := read(t, c)
		if v[ess.BatteryPower] != 0.0 || v[ess.GridPower] != 20_000.0 {
			t.Errorf("backup in the evening: battery %v grid %v, want 0 and the load imported", v[ess.BatteryPower], v[ess.GridPower])
		}
	})
	t.Run("peak shaving discharges above the limit", func(t *testing.T) {
		if status, msg, _, _ := apply(t, c, ess.CmdSetMode, ess.Params{Mode: ess.ModePeakShaving}); status != ess.StatusAccepted {
			t.Fatalf("status %s %s", status, msg)
		}
		v, _ := read(t, c)
		// The default peak limit is half the rated power, 25 kW: a 20 kW load stays below it.
		if p := num(t, v, ess.BatteryPower); p > 0 {
			t.Errorf("battery %v W, want no discharge below the limit", p)
		}
	})
	t.Run("unknown mode rejected, nothing written", func(t *testing.T) {
		before := s.Writes()
		if status, _, _, _ := apply(t, c, ess.CmdSetMode, ess.Params{Mode: "turbo"}); status != ess.StatusRejected {
			t.Errorf("status %s, want Rejected", status)
		}
		if s.Writes() != before {
			t.Error("wrote for a rejected mode")
		}
	})
}

func TestRun(t *testing.T) {
	s := startSim(t, at(12, 0))
	c := dial(t, s)

	t.Run("stop", func(t *testing.T) {
		status, msg, _, values := apply(t, c, ess.CmdRun, ess.Params{Enable: ptr(false)})
		if status != ess.StatusAccepted || values[ess.PCSState] != ess.StateOff {
			t.Fatalf("status %s %s, values %v", status, msg, values)
		}
		v, _ := read(t, c)
		// Stopped: the battery does nothing and the PV surplus is exported (grid negative).
		if v[ess.BatteryPower] != 0.0 || v[ess.GridPower] != -25_000.0 {
			t.Errorf("stopped: battery %v grid %v", v[ess.BatteryPower], v[ess.GridPower])
		}
	})
	t.Run("start", func(t *testing.T) {
		status, msg, _, values := apply(t, c, ess.CmdRun, ess.Params{Enable: ptr(true)})
		if status != ess.StatusAccepted || values[ess.PCSState] != ess.StateCharging {
			t.Errorf("status %s %s, values %v", status, msg, values)
		}
	})
	t.Run("no enable rejected", func(t *testing.T) {
		if status, _, _, _ := apply(t, c, ess.CmdRun, ess.Params{}); status != ess.StatusRejected {
			t.Errorf("status %s, want Rejected", status)
		}
	})
	t.Run("reboot not supported", func(t *testing.T) {
		if status, _, _, _ := apply(t, c, ess.CmdReboot, ess.Params{}); status != ess.StatusNotSupported {
			t.Errorf("status %s, want NotSupported", status)
		}
	})
}

func TestAlarmsAndFaultReset(t *testing.T) {
	s := startSim(t, at(12, 0))
	c := dial(t, s)

	t.Run("a warning-level alarm shows and the unit runs on", func(t *testing.T) {
		s.SetAlarm("PCS.FanFault", true)
		v, alarms := read(t, c)
		if !slices.Equal(alarms, []string{"PCS.FanFault"}) || v[ess.PCSState] != ess.StateCharging {
			t.Errorf("alarms %v state %v", alarms, v[ess.PCSState])
		}
		s.SetAlarm("PCS.FanFault", false)
		if _, alarms := read(t, c); len(alarms) != 0 {
			t.Errorf("alarms %v after clearing", alarms)
		}
	})
	t.Run("a PCS code with an official 701 bit reads once", func(t *testing.T) {
		s.SetAlarm("PCS.GridOverVoltage", true)
		_, alarms := read(t, c)
		s.SetAlarm("PCS.GridOverVoltage", false)
		if !slices.Equal(alarms, []string{"PCS.GridOverVoltage"}) {
			t.Errorf("alarms %v", alarms)
		}
	})
	t.Run("a fault stops the unit", func(t *testing.T) {
		s.SetAlarm("BMS.CellOverTemperature", true)
		v, alarms := read(t, c)
		if !slices.Equal(alarms, []string{"BMS.CellOverTemperature"}) || v[ess.PCSState] != ess.StateFault || v[ess.BatteryPower] != 0.0 {
			t.Errorf("alarms %v state %v power %v", alarms, v[ess.PCSState], v[ess.BatteryPower])
		}
	})
	t.Run("setPower refused in fault", func(t *testing.T) {
		if status, _, _, _ := apply(t, c, ess.CmdSetPower, ess.Params{PowerW: ptr(1000.0)}); status != ess.StatusRejected {
			t.Errorf("status %s, want Rejected", status)
		}
	})
	t.Run("reset while the fault is raised fails", func(t *testing.T) {
		status, msg, _, values := apply(t, c, ess.CmdFaultReset, ess.Params{})
		if status != ess.StatusFailed || !strings.Contains(msg, "BMS.CellOverTemperature") || values[ess.PCSState] != ess.StateFault {
			t.Errorf("status %s %q values %v", status, msg, values)
		}
	})
	t.Run("cleared alarm, still latched until reset", func(t *testing.T) {
		s.SetAlarm("BMS.CellOverTemperature", false)
		v, alarms := read(t, c)
		if len(alarms) != 0 || v[ess.PCSState] != ess.StateFault {
			t.Errorf("alarms %v state %v", alarms, v[ess.PCSState])
		}
	})
	t.Run("reset", func(t *testing.T) {
		status, msg, _, values := apply(t, c, ess.CmdFaultReset, ess.Params{})
		if status != ess.StatusAccepted || values[ess.PCSState] != ess.StateCharging {
			t.Errorf("status %s %q values %v", status, msg, values)
		}
	})
	t.Run("every ess code the simulator can raise reads back as itself", func(t *testing.T) {
		for _, a := range ess.Alarms {
			s.SetAlarm(a.Code, true)
			_, alarms := read(t, c)
			s.SetAlarm(a.Code, false)
			if !slices.Equal(alarms, []string{a.Code}) {
				t.Errorf("%s read as %v", a.Code, alarms)
			}
		}
	})
}
