package loadmgmt

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

func three(dev int64, maxA float64) Demand {
	return Demand{DeviceID: dev, ConnectorID: 1, TransactionID: dev, Phases: 3, MinA: 6, MaxA: maxA, Started: dev}
}

func single(dev int64, phase int, maxA float64) Demand {
	d := three(dev, maxA)
	d.Phases, d.Phase = 1, phase
	return d
}

func with(d Demand, f func(*Demand)) Demand { f(&d); return d }

func even(a float64) Limit { return Limit{PhaseA: [3]float64{a, a, a}} }

func TestPlanScenarios(t *testing.T) {
	cases := []struct {
		name  string
		limit Limit
		ds    []Demand
		want  []float64
	}{
		{"equal share", even(60), []Demand{three(1, 32), three(2, 32), three(3, 32)}, []float64{20, 20, 20}},
		{"nothing to share", even(0), []Demand{three(1, 32)}, []float64{0}},
		{"minimum admission pauses when 6 A does not fit", even(20), []Demand{three(1, 32), three(2, 32), three(3, 32), three(4, 32)},
			[]float64{6.6, 6.6, 6.6, 0}},
		{"earlier start admitted first", even(10), []Demand{with(three(1, 32), func(d *Demand) { d.Started = 50 }), three(2, 32)},
			[]float64{0, 10}},
		{"max caps and redistributes", even(60), []Demand{three(1, 10), three(2, 32), three(3, 32)}, []float64{10, 25, 25}},
		{"all capped leaves the rest unused", even(100), []Demand{three(1, 16), three(2, 32)}, []float64{16, 32}},
		{"single-phase on L1 vs three-phase", even(40), []Demand{three(1, 32), single(2, 1, 32), single(3, 1, 32), single(4, 2, 32)},
			// L1 is shared by three (13.3 each); L2 by the three-phase (held at 13.3 by L1) and one single-phase
			[]float64{13.3, 13.3, 13.3, 26.6}},
		{"priorities: higher tier fills first", even(40), []Demand{three(1, 32), with(three(2, 32), func(d *Demand) { d.Priority = 5 })},
			[]float64{8, 32}},
		{"priority admits before an earlier start", even(10), []Demand{three(1, 32), with(three(2, 32), func(d *Demand) { d.Priority = 1 })},
			[]float64{0, 10}},
		{"idle releases its share", even(60), []Demand{three(1, 32), with(three(2, 32), func(d *Demand) { d.Idle = true }), three(3, 32)},
			[]float64{27, 6, 27}},
		{"uncontrolled counted at its maximum", even(60), []Demand{with(three(1, 32), func(d *Demand) { d.Uncontrolled = true }), three(2, 32), three(3, 32)},
			[]float64{32, 14, 14}},
		{"uncontrolled above the limit leaves nothing", even(20), []Demand{with(three(1, 32), func(d *Demand) { d.Uncontrolled = true }), three(2, 32)},
			[]float64{32, 0}},
		{"uneven phases", Limit{PhaseA: [3]float64{30, 60, 60}}, []Demand{three(1, 32), single(2, 2, 32), single(3, 3, 32)},
			[]float64{30, 30, 30}},
		{"rounded down to 0.1 A", even(50), []Demand{three(1, 32), three(2, 32), three(3, 32)}, []float64{16.6, 16.6, 16.6}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Plan(c.limit, c.ds)
			if err := Check(c.limit, c.ds, got); err != nil {
				t.Fatal(err)
			}
			for i, a := range got {
				if math.Abs(a.LimitA-c.want[i]) > 1e-9 {
					t.Fatalf("allocation %d (device %d) = %.2f A, want %.2f; all %+v", i, a.DeviceID, a.LimitA, c.want[i], got)
				}
			}
		})
	}
}

// exampleDemands is the worked example of docs/smart-charging.md.
func exampleDemands() (Limit, []Demand) {
	l := SiteLimit(SitePower{Enabled: true, LimitKW: 100}, time.Now(), time.UTC, 0)
	return l, []Demand{
		three(1, 32),
		three(2, 32),
		three(3, 16),
		single(4, 1, 32),
		single(5, 1, 32),
		with(single(6, 2, 32), func(d *Demand) { d.Idle = true }),
		with(three(7, 32), func(d *Demand) { d.Priority = 1 }),
	}
}

func TestPlanWorkedExample(t *testing.T) {
	l, ds := exampleDemands()
	if math.Abs(l.PhaseA[0]-144.927) > 0.001 {
		t.Fatalf("100 kW = %.3f A per phase", l.PhaseA[0])
	}
	got := Plan(l, ds)
	if err := Check(l, ds, got); err != nil {
		t.Fatal(err)
	}
	want := []float64{24.2, 24.2, 16, 24.2, 24.2, 6, 32}
	for i, a := range got {
		if math.Abs(a.LimitA-want[i]) > 1e-9 {
			t.Fatalf("example: device %d = %.2f A, want %.2f (all %+v)", a.DeviceID, a.LimitA, want[i], got)
		}
	}
}

// TestPlanInvariantRandom: over 2,000 random sites the invariant holds, every admitted session
// has its minimum, and Plan is deterministic.
func TestPlanInvariantRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(25, 2026))
	for site := 0; site < 2000; site++ {
		var l Limit
		for p := range l.PhaseA {
			l.PhaseA[p] = r.Float64() * 300
		}
		if r.IntN(3) == 0 {
			l = even(r.Float64() * 200)
		}
		n := r.IntN(40)
		ds := make([]Demand, n)
		for i := range ds {
			minA := float64(r.IntN(3) * 3)
			ds[i] = Demand{DeviceID: int64(r.IntN(20) + 1), ConnectorID: i + 1, TransactionID: int64(i + 1), Phases: []int{1, 3}[r.IntN(2)],
				Phase: r.IntN(3) + 1, MinA: minA, MaxA: minA + float64(r.IntN(60)), Priority: r.IntN(3) - 1, Started: int64(r.IntN(5)),
				Idle: r.IntN(6) == 0, Uncontrolled: r.IntN(15) == 0}
		}
		got := Plan(l, ds)
		if err := Check(l, ds, got); err != nil {
			t.Fatalf("site %d: %v (limit %v, demands %+v)", site, err, l, ds)
		}
		again := Plan(l, ds)
		for i := range got {
			if got[i] != again[i] {
				t.Fatalf("site %d: not deterministic", site)
			}
			d := ds[i]
			if !d.Uncontrolled && got[i].LimitA > 0 && got[i].LimitA+1e-9 < math.Min(d.MinA, d.MaxA) {
				t.Fatalf("site %d: %.1f A below the minimum %.1f", site, got[i].LimitA, d.MinA)
			}
		}
	}
}

func TestWindows(t *testing.T) {
	hk := time.FixedZone("HKT", 8*3600)
	sp := SitePower{Enabled: true, LimitKW: 100, Schedule: []Window{
		{From: "17:00", To: "21:00", Days: []int{1, 2, 3, 4, 5}, LimitKW: 60},
		{From: "23:00", To: "06:00", Days: []int{6}, LimitKW: 30},
	}}
	at := func(s string) time.Time {
		tm, err := time.ParseInLocation("2006-01-02 15:04", s, hk)
		if err != nil {
			t.Fatal(err)
		}
		return tm
	}
	cases := []struct {
		when string
		kw   float64
	}{
		{"2026-03-02 16:59", 100}, // Monday
		{"2026-03-02 17:00", 60},
		{"2026-03-02 20:59", 60},
		{"2026-03-02 21:00", 100},
		{"2026-03-07 18:00", 100}, // Saturday: no peak window
		{"2026-03-07 23:30", 30},  // Saturday night
		{"2026-03-08 05:59", 30},  // ... into Sunday morning
		{"2026-03-08 06:00", 100},
		{"2026-03-08 23:30", 100}, // Sunday night: not a window day
	}
	for _, c := range cases {
		// the instant in UTC: the windows are read in the location given
		got := SiteLimit(sp, at(c.when).UTC(), hk, 0).W() / 1000
		if math.Abs(got-c.kw) > 0.01 {
			t.Errorf("%s: %.2f kW, want %.0f", c.when, got, c.kw)
		}
	}
	if got := SiteLimit(sp, at("2026-03-02 12:00"), hk, 6900).PhaseA[0]; math.Abs(got-(100000.0+6900)/690) > 1e-9 {
		t.Errorf("storage adds to the limit: %.3f A", got)
	}
	if got := SiteLimit(SitePower{Enabled: true, LimitA: 63}, at("2026-03-02 12:00"), hk, 0).PhaseA; got != [3]float64{63, 63, 63} {
		t.Errorf("limit in A: %v", got)
	}
}

func TestSafeShare(t *testing.T) {
	sp := SitePower{LimitKW: 100, Schedule: []Window{{From: "17:00", To: "21:00", LimitKW: 60}}}
	// the lowest limit of the day: 60 kW = 86.95 A per phase over 10 chargers
	if got := SafeShare(sp, 10, 6); got != 8.6 {
		t.Errorf("safe share %.1f, want 8.6", got)
	}
	if got := SafeShare(sp, 20, 6); got != 0 {
		t.Errorf("below the minimum: %.1f, want 0", got)
	}
	if got := SafeShare(sp, 0, 6); got != 0 {
		t.Errorf("no chargers: %.1f", got)
	}
}
