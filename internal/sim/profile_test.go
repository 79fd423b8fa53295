package sim

import (
	"testing"
	"time"
)

func TestChargersMeterTheirProfile(t *testing.T) {
	t.Parallel()
	o := &Options{Vendor: "V", Model: "SIM-AC22", Speed: 1, Profiles: map[string]Profile{
		"DC-1": {Vendor: "Voltra", Model: "DC-120kW", DC: true, MaxPowerW: 120000},
	}}
	t.Run("an SN without a profile is an AC charger of the options' model", func(t *testing.T) {
		p := o.profile("AC-1")
		if p.Model != "SIM-AC22" || p.Vendor != "V" || p.DC || p.MaxPowerW != 7400 {
			t.Fatalf("%+v", p)
		}
		c := &charger{o: o, p: p}
		for range 100 {
			v, i, w := c.figures(50)
			if v < 220 || v > 240 || w > 7400*1.05 || w < 7400*0.8 || i <= 0 {
				t.Fatalf("AC reading %v V %v A %v W", v, i, w)
			}
		}
	})
	t.Run("a DC charger reports its model and meters DC figures that taper near full", func(t *testing.T) {
		p := o.profile("DC-1")
		if p.Model != "DC-120kW" || p.Vendor != "Voltra" || !p.DC {
			t.Fatalf("%+v", p)
		}
		c := &charger{o: o, p: p}
		for range 100 {
			v, i, w := c.figures(40)
			if v < 300 || v > 450 || w < 100000 || w > 120000 || i < 200 {
				t.Fatalf("DC reading at 40%%: %v V %v A %v W", v, i, w)
			}
			if _, _, full := c.figures(98); full > 0.4*120000 {
				t.Fatalf("DC power at 98%%: %v W", full)
			}
		}
	})
	t.Run("a seldom busy charger idles longer", func(t *testing.T) {
		busy := &charger{o: o, p: Profile{Busy: 0.9}}
		quiet := &charger{o: o, p: Profile{Busy: 0.1}}
		var b, q time.Duration
		for range 200 {
			b += busy.idle()
			q += quiet.idle()
		}
		if q < 3*b {
			t.Fatalf("idle %v (busy 0.1) vs %v (busy 0.9)", q/200, b/200)
		}
	})
}
