package sunspec

import (
	"testing"
	"time"

	"chargeops/internal/ess"
)

func TestRead(t *testing.T) {
	for _, tc := range []struct {
		name          string
		clock         func() time.Time
		state         string
		batW, loadW   float64
		socAfter30min float64
	}{
		// Noon: 30 kW PV, 5 kW load; self-consumption stores the 25 kW surplus.
		{"charging at noon", at(12, 0), ess.StateCharging, -25_000, 5_000, 62.5},
		// Evening: 20 kW load, no PV; the battery covers it.
		{"discharging in the evening", at(19, 0), ess.StateDischarging, 20_000, 20_000, 40},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := startSim(t, tc.clock)
			c := dial(t, s)
			v, alarms := read(t, c)

			if len(alarms) != 0 {
				t.Errorf("alarms %v, want none", alarms)
			}
			if v[ess.PCSState] != tc.state || v[ess.PCSMode] != ess.ModeSelfConsumption {
				t.Errorf("state %v mode %v, want %s selfConsumption", v[ess.PCSState], v[ess.PCSMode], tc.state)
			}
			if p := num(t, v, ess.BatteryPower); p != tc.batW {
				t.Errorf("battery power %v W, want %v (+ discharge)", p, tc.batW)
			}
			if p := num(t, v, ess.PCSPower); p != tc.batW {
				t.Errorf("PCS power %v W, want %v", p, tc.batW)
			}
			if a := num(t, v, ess.BatteryCurrent); (a < 0) != (tc.batW < 0) || a == 0 {
				t.Errorf("current %v A has the wrong sign for %v W", a, tc.batW)
			}
			if g := num(t, v, ess.GridPower); g != 0 {
				t.Errorf("grid %v W, want 0 (self-consumption balances the site)", g)
			}
			if l := num(t, v, ess.LoadPower); l != tc.loadW {
				t.Errorf("load %v W, want %v", l, tc.loadW)
			}
			if soc := num(t, v, ess.SoC); soc != 50 {
				t.Errorf("SoC %v %%, want 50", soc)
			}
			if u := num(t, v, ess.BatteryVoltage); u < 700 || u > 800 {
				t.Errorf("voltage %v V, want 700-800", u)
			}
			lo, hi := num(t, v, ess.CellVoltageMin), num(t, v, ess.CellVoltageMax)
			if !(3.0 < lo && lo < hi && hi < 3.65) {
				t.Errorf("cell voltages %v-%v V", lo, hi)
			}
			tlo, thi := num(t, v, ess.CellTempMin), num(t, v, ess.CellTempMax)
			if !(0 < tlo && tlo < thi && thi < 60) {
				t.Errorf("cell temperatures %v-%v °C", tlo, thi)
			}
			if num(t, v, ess.Capacity) != 100_000 || num(t, v, ess.RatedPower) != 50_000 {
				t.Errorf("capacity %v, rated %v", v[ess.Capacity], v[ess.RatedPower])
			}

			// Every value the simulator has reaches the client, within a register's resolution.
			want := s.Values()
			for name, w := range want {
				got, ok := v[name]
				if !ok {
					t.Errorf("%s missing from Read", name)
					continue
				}
				if wf, ok := w.(float64); ok {
					if !near(got.(float64), wf, 10) {
						t.Errorf("%s = %v, sim has %v", name, got, wf)
					}
				} else if got != w {
					t.Errorf("%s = %v, sim has %v", name, got, w)
				}
			}

			s.Step(30 * time.Minute)
			v, _ = read(t, c)
			if soc := num(t, v, ess.SoC); !near(soc, tc.socAfter30min, 0.1) {
				t.Errorf("SoC after 30 min %v %%, want %v", soc, tc.socAfter30min)
			}
			energy := num(t, v, ess.EnergyCharged) + num(t, v, ess.EnergyDischarge)
			if !near(energy, abs(tc.batW)/2, 1) {
				t.Errorf("energy registers %v Wh, want %v", energy, abs(tc.batW)/2)
			}
		})
	}
}

func abs(f float64) float64 { return max(f, -f) }
