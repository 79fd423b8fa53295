package fleet

import (
	"fmt"
	"testing"
)

func TestNormaliseStoresEnergyInWhAndPowerInW(t *testing.T) {
	for _, c := range []struct {
		name, measurand, value, unit string
		want                         string // value unit
	}{
		{"kWh to Wh without float noise", "Energy.Active.Import.Register", "12.345", "kWh", "12345 Wh"},
		{"Wh kept", "Energy.Active.Import.Register", "12400", "Wh", "12400 Wh"},
		{"an energy without a unit is Wh", "", "7", "", "7 Wh"},
		{"kW to W", "Power.Active.Import", "7.2", "kW", "7200 W"},
		{"kvarh to varh", "Energy.Reactive.Import.Register", "1.5", "kvarh", "1500 varh"},
		{"kvar to var", "Power.Reactive.Import", "0.25", "kvar", "250 var"},
		{"kVA to VA", "Power.Offered", "11", "kVA", "11000 VA"},
		{"a unit's spelling is normalised", "Power.Active.Import", "2", "KW", "2000 W"},
		{"Celsius kept as sent", "Temperature", "31.5", "Celsius", "31.5 Celsius"},
		{"Fahrenheit kept as sent", "Temperature", "88", "Fahrenheit", "88 Fahrenheit"},
		{"K kept as sent", "Temperature", "300", "K", "300 K"},
		{"a percentage without a unit stays unitless", "SoC", "55", "", "55 "},
		{"a value that is no number keeps its text", "Energy.Active.Import.Register", "n/a", "kWh", "n/a Wh"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := normalise(c.measurand, c.value, c.unit)
			if got := r.Value + " " + r.Unit; got != c.want {
				t.Fatalf("normalise(%q, %q, %q) = %q, want %q", c.measurand, c.value, c.unit, got, c.want)
			}
		})
	}
}

func TestSeriesNameIsMeasurandPhaseAndLocation(t *testing.T) {
	for _, c := range []struct{ measurand, phase, location, want string }{
		{"Voltage", "", "", "Voltage"},
		{"Voltage", "L1-N", "", "Voltage.L1-N"},
		{"Temperature", "", "Outlet", "Temperature"},
		{"Temperature", "", "Body", "Temperature@Body"},
		{"Power.Active.Import", "L2", "Inlet", "Power.Active.Import.L2@Inlet"},
		{"", "", "", "Energy.Active.Import.Register"},
	} {
		t.Run(c.want, func(t *testing.T) {
			if got := SeriesName(c.measurand, c.phase, c.location); got != c.want {
				t.Fatalf("got %q", got)
			}
		})
	}
}

func TestSampleTimesKeepEachElementApartInOrder(t *testing.T) {
	now := int64(1_800_000_000_000)
	valid := now - 60_000
	for _, c := range []struct {
		name    string
		samples []Sample
		want    []int64
	}{
		{"two unreadable elements", []Sample{{Element: 0}, {Element: 0}, {Element: 1}}, []int64{now, now, now + 1}},
		{"valid times are kept", []Sample{{At: valid, Element: 0}, {At: valid + 5, Element: 1}}, []int64{valid, valid + 5}},
		{"an element with the previous element's time", []Sample{{At: valid, Element: 0}, {At: valid, Element: 1}}, []int64{valid, valid + 1}},
		{"a replaced time after a later valid one", []Sample{{At: now + 5_000, Element: 0}, {At: 5, Element: 1}}, []int64{now + 5_000, now + 5_001}},
		{"an older valid time stays older", []Sample{{At: valid, Element: 0}, {At: valid - 1000, Element: 1}}, []int64{valid, valid - 1000}},
		{"the server's own reading keeps its time", []Sample{{At: valid, Element: 0}, {At: valid, Element: -1}}, []int64{valid, valid}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := sampleTimes(c.samples, now); fmt.Sprint(got) != fmt.Sprint(c.want) {
				t.Fatalf("got %v, want %v", got, c.want)
			}
		})
	}
}
