// Package loadmgmt is the site load manager (issue 25, docs/smart-charging.md): it shares a
// site's grid limit among the site's open charging sessions and keeps each charger at its
// share with a Tx charging profile, and at a safe share with a TxDefault fallback profile.
//
// The allocation rule (Plan; pure, deterministic, no database):
//
//  1. Uncontrolled sessions (their charger refused our profile) are counted at their MaxA and
//     subtracted from their phases first; they are never planned.
//  2. The other sessions are ordered by priority (higher first), then earlier start, then
//     device id, connector id and transaction id.
//  3. Admission: each session in that order gets its MinA on all its phases if that fits in
//     what remains, else 0: it is paused and the car waits for a later plan.
//  4. Water-filling, one priority tier at a time (highest first): every admitted session of the
//     tier that is not idle and not saturated repeatedly gets an equal increment, the smallest
//     over its phases of (remaining current on the phase / number of unsaturated sessions of
//     the tier on the phase), capped at its MaxA, until no increment of at least 0.01 A is left.
//     Idle sessions (car full or suspended, or drawing nothing) stay at their minimum.
//  5. Each limit is rounded down to 0.1 A.
//
// Invariant (Check, asserted before every plan is stored): on each phase the planned limits of
// the sessions using it (a three-phase session uses all three) plus the uncontrolled ones never
// exceed the phase's limit; when the uncontrolled ones alone exceed it, the others get 0 there.
//
// Where it runs: one node plans a site at a time (a lease in site_power_lease, lease.go); the
// running part is in manager.go, the console's reads in settings.go and view.go.
package loadmgmt

import (
	"fmt"
	"math"
	"sort"

	"chargeops/internal/smartcharging"
)

// Volts is the phase voltage that turns amperes into watts (smartcharging.NominalVolts).
const Volts = smartcharging.NominalVolts

// eps is the smallest increment water-filling still hands out, and the tolerance of a fit.
const eps = 0.01

// Limit is the current available on each phase of a site (A on L1, L2, L3).
type Limit struct {
	PhaseA [3]float64
}

// W is the limit in watts (each phase at Volts).
func (l Limit) W() float64 { return (l.PhaseA[0] + l.PhaseA[1] + l.PhaseA[2]) * Volts }

// Demand is one open session asking for current.
type Demand struct {
	DeviceID      int64
	ConnectorID   int
	TransactionID int64
	Phases        int // 1 or 3 (anything but 1 counts as 3)
	Phase         int // 1-3: the phase of a single-phase session (anything else: 1)
	MinA, MaxA    float64
	Priority      int
	Started       int64
	// Idle: the car is full or suspended, or draws nothing; it keeps its minimum and releases
	// the rest of its share.
	Idle bool
	// Uncontrolled: the charger refused our profile; counted at MaxA, never planned.
	Uncontrolled bool
}

// Allocation is a session's planned limit in A per phase. An uncontrolled session's LimitA is
// the MaxA it is counted at.
type Allocation struct {
	DeviceID      int64
	ConnectorID   int
	TransactionID int64
	LimitA        float64
	Phases        int
}

// W is the allocation in watts.
func (a Allocation) W() float64 { return a.LimitA * float64(a.Phases) * Volts }

// phasesOf lists the phase indexes (0-2) a demand uses.
func phasesOf(d *Demand) []int {
	if d.Phases == 1 {
		if d.Phase >= 1 && d.Phase <= 3 {
			return []int{d.Phase - 1}
		}
		return []int{0}
	}
	return []int{0, 1, 2}
}

func phaseCount(d *Demand) int {
	if d.Phases == 1 {
		return 1
	}
	return 3
}

// bounds are a demand's minimum and maximum, made sane: no negatives, the minimum not above
// the maximum.
func bounds(d *Demand) (lo, hi float64) {
	lo, hi = math.Max(d.MinA, 0), math.Max(d.MaxA, 0)
	if lo > hi {
		lo = hi
	}
	return lo, hi
}

// floor10 rounds down to 0.1 A (a hair of float noise does not cost a tenth).
func floor10(a float64) float64 {
	if a <= 0 {
		return 0
	}
	return math.Floor(a*10+1e-6) / 10
}

// Plan shares l among ds by the package's rule. It returns one allocation per demand, in the
// order of ds.
func Plan(l Limit, ds []Demand) []Allocation {
	out := make([]Allocation, len(ds))
	var rem [3]float64
	for p := range rem {
		rem[p] = math.Max(l.PhaseA[p], 0)
	}
	cur := make([]float64, len(ds))
	var order []int
	for i := range ds {
		d := &ds[i]
		out[i] = Allocation{DeviceID: d.DeviceID, ConnectorID: d.ConnectorID, TransactionID: d.TransactionID, Phases: phaseCount(d)}
		if d.Uncontrolled {
			_, hi := bounds(d)
			out[i].LimitA = hi
			for _, p := range phasesOf(d) {
				rem[p] -= hi
			}
			continue
		}
		order = append(order, i)
	}
	for p := range rem {
		rem[p] = math.Max(rem[p], 0)
	}
	sort.SliceStable(order, func(a, b int) bool {
		x, y := &ds[order[a]], &ds[order[b]]
		switch {
		case x.Priority != y.Priority:
			return x.Priority > y.Priority
		case x.Started != y.Started:
			return x.Started < y.Started
		case x.DeviceID != y.DeviceID:
			return x.DeviceID < y.DeviceID
		case x.ConnectorID != y.ConnectorID:
			return x.ConnectorID < y.ConnectorID
		}
		return x.TransactionID < y.TransactionID
	})

	// admission: the minimum, in order, where it fits
	admitted := make([]bool, len(ds))
	for _, i := range order {
		d := &ds[i]
		lo, hi := bounds(d)
		if hi <= 0 {
			continue
		}
		fits := true
		for _, p := range phasesOf(d) {
			if rem[p]+1e-9 < lo {
				fits = false
			}
		}
		if !fits {
			continue
		}
		admitted[i] = true
		cur[i] = lo
		for _, p := range phasesOf(d) {
			rem[p] = math.Max(rem[p]-lo, 0)
		}
	}

	// water-filling, tier by tier
	for start := 0; start < len(order); {
		end := start
		for end < len(order) && ds[order[end]].Priority == ds[order[start]].Priority {
			end++
		}
		var open []int
		for _, i := range order[start:end] {
			if _, hi := bounds(&ds[i]); admitted[i] && !ds[i].Idle && cur[i] < hi-eps/2 {
				open = append(open, i)
			}
		}
		fill(ds, cur, open, &rem)
		start = end
	}

	for i := range ds {
		if !ds[i].Uncontrolled {
			out[i].LimitA = floor10(cur[i])
		}
	}
	return out
}

// fill raises the sessions open (indexes into ds and cur) by equal increments within rem.
func fill(ds []Demand, cur []float64, open []int, rem *[3]float64) {
	inc := make([]float64, len(open))
	// each round saturates a session or a phase, or hands out less than eps: a bound far above
	// what any site needs keeps a float surprise from spinning
	for round := 0; len(open) > 0 && round < 4*len(open)+64; round++ {
		var n [3]int
		for _, i := range open {
			for _, p := range phasesOf(&ds[i]) {
				n[p]++
			}
		}
		given := 0.0
		for k, i := range open {
			d := &ds[i]
			_, hi := bounds(d)
			x := hi - cur[i]
			for _, p := range phasesOf(d) {
				x = math.Min(x, rem[p]/float64(n[p]))
			}
			inc[k] = math.Max(x, 0)
			given = math.Max(given, inc[k])
		}
		if given < eps {
			return
		}
		for k, i := range open {
			cur[i] += inc[k]
			for _, p := range phasesOf(&ds[i]) {
				rem[p] = math.Max(rem[p]-inc[k], 0)
			}
		}
		next := open[:0]
		for _, i := range open {
			d := &ds[i]
			_, hi := bounds(d)
			full := cur[i] >= hi-eps/2
			for _, p := range phasesOf(d) {
				if rem[p] < eps/2 {
					full = true
				}
			}
			if !full {
				next = append(next, i)
			}
		}
		open = next
		inc = inc[:len(open)]
	}
}

// Check asserts the invariant of a plan: on each phase the controlled sessions' limits fit in
// what the uncontrolled ones leave (never below 0), and no limit is negative or above its MaxA.
// as must be Plan(l, ds)'s answer (same order).
func Check(l Limit, ds []Demand, as []Allocation) error {
	if len(as) != len(ds) {
		return fmt.Errorf("loadmgmt: %d allocations for %d demands", len(as), len(ds))
	}
	var unc, sum [3]float64
	for i := range ds {
		d := &ds[i]
		_, hi := bounds(d)
		for _, p := range phasesOf(d) {
			if d.Uncontrolled {
				unc[p] += hi
			} else {
				sum[p] += as[i].LimitA
			}
		}
		if !d.Uncontrolled && (as[i].LimitA < 0 || as[i].LimitA > hi+1e-9) {
			return fmt.Errorf("loadmgmt: device %d connector %d planned %.1f A outside 0-%.1f", d.DeviceID, d.ConnectorID, as[i].LimitA, hi)
		}
	}
	for p := range sum {
		if room := math.Max(l.PhaseA[p]-unc[p], 0); sum[p] > room+1e-6 {
			return fmt.Errorf("loadmgmt: L%d planned %.2f A above the %.2f A left of %.2f A", p+1, sum[p], room, l.PhaseA[p])
		}
	}
	return nil
}
