package fleet

import (
	"testing"
	"time"
)

func TestSessionEnergyRules(t *testing.T) {
	hour := int64(time.Hour / time.Millisecond)
	cases := []struct {
		name      string
		m         sessionMeter
		wantWh    int64
		wantFlags int
	}{
		{"a plain session", sessionMeter{Start: 1_000_000, First: -1, Last: -1, Stop: 1_030_000, StartedAt: 0, StoppedAt: hour}, 30_000, 0},
		{"meterStop lower than meterStart, no own samples: no energy", sessionMeter{Start: 50_000, First: -1, Last: -1, Stop: 10, StartedAt: 0, StoppedAt: hour}, 0, FlagMeterBack},
		{"meterStop lower than meterStart: what the samples measured before the counter went back", sessionMeter{Start: 50_000, First: 50_100, Last: 62_000, Stop: 10, StartedAt: 0, StoppedAt: hour}, 12_000, FlagMeterBack},
		{"meterStart 0 from a lost counter: the first own sample is the start", sessionMeter{Start: 0, First: 8_000_000, Last: 8_020_000, Stop: 8_022_000, StartedAt: 0, StoppedAt: hour}, 22_000, FlagMeterReset},
		{"meterStart 0 of a new meter is kept", sessionMeter{Start: 0, First: 300, Last: 20_000, Stop: 21_000, StartedAt: 0, StoppedAt: hour}, 21_000, 0},
		{"meterStart 0 and a lifetime register, no samples: never counted as one session", sessionMeter{Start: 0, First: -1, Last: -1, Stop: 48_000_000, StartedAt: 0, StoppedAt: hour}, 0, FlagImplausible},
		{"more than the fastest charger could deliver", sessionMeter{Start: 1_000, First: -1, Last: -1, Stop: 1_000 + 600_000, StartedAt: 0, StoppedAt: hour}, 0, FlagImplausible},
		{"a short session within the slack", sessionMeter{Start: 5_000, First: -1, Last: -1, Stop: 5_500, StartedAt: 0, StoppedAt: 0}, 500, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			wh, flags := sessionEnergy(c.m)
			if wh != c.wantWh || flags != c.wantFlags {
				t.Fatalf("got %d Wh flags %b, want %d Wh flags %b", wh, flags, c.wantWh, c.wantFlags)
			}
		})
	}
}

func TestChargerTimeClampsImpossibleClocks(t *testing.T) {
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC).UnixMilli()
	for _, c := range []struct {
		name    string
		at      int64
		want    int64
		clamped bool
	}{
		{"absent", 0, now, false},
		{"1970", 5_000, now, true},
		{"2014", time.Date(2014, 12, 31, 0, 0, 0, 0, time.UTC).UnixMilli(), now, true},
		{"a day ago (sent late from a buffer)", now - 86_400_000, now - 86_400_000, false},
		{"5 minutes ahead (a drifting clock)", now + 300_000, now + 300_000, false},
		{"a year ahead", now + 365*86_400_000, now, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, clamped := ChargerTime(c.at, now)
			if got != c.want || clamped != c.clamped {
				t.Fatalf("got %d %v, want %d %v", got, clamped, c.want, c.clamped)
			}
		})
	}
}

func TestRegisterWh(t *testing.T) {
	for _, c := range []struct {
		v, unit string
		want    int64
		ok      bool
	}{{"1234", "Wh", 1234, true}, {"1.5", "kWh", 1500, true}, {"12", "", 12, true}, {"3", "A", 0, false}, {"x", "Wh", 0, false}, {"-4", "Wh", 0, false}} {
		got, ok := registerWh(c.v, c.unit)
		if got != c.want || ok != c.ok {
			t.Errorf("registerWh(%q, %q) = %d %v, want %d %v", c.v, c.unit, got, ok, c.want, c.ok)
		}
	}
}
