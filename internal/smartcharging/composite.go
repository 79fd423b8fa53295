package smartcharging

import (
	"math"
	"slices"
)

// The composite schedule (OCPP 1.6 §3.13.3-§3.13.5; 2.0.1 K08 follows the same rules): which
// of the profiles installed on a charger limits a connector at an instant, and the schedule
// that gives over a window. The simulator meters with it and answers GetCompositeSchedule with
// it; chargeops can use it to predict what a charger will do with the profiles it was sent.

// Unlimited is the Limit of a composite period no profile limits (a span between two
// profiles' validities, say). Profiles never carry a negative limit, so it cannot be mistaken
// for one; a charger answering GetCompositeSchedule puts its own rated limit there.
const Unlimited = -1.0

// Installed is a profile set on a connector (0: the whole charger).
type Installed struct {
	Connector int     `json:"connectorId"`
	Profile   Profile `json:"profile"`
}

// Session is the running session a Tx profile may name (ID 0: none) and its start (unix ms).
type Session struct {
	ID    int64 `json:"id"`
	Start int64 `json:"start"`
}

// LimitAt is the limit in unit (A per phase or W, converted with phases; phases 0 = 3) that the
// installed profiles put on connector at instant at (unix ms); ok false: no profile limits it.
// A Relative profile without a session counts from at itself (its first period applies).
func LimitAt(ps []Installed, connector int, tx Session, at int64, unit string, phases int) (limit float64, ok bool) {
	return limitAt(ps, connector, tx, at, at, unit, phases)
}

// Compose is the composite schedule of connector from `from` for duration seconds in unit:
// consecutive periods with the limit in effect (merging equal neighbours), Start = from. A
// span no profile limits is a period of limit Unlimited; when none limits any instant of the
// window, Periods is empty. A Relative profile without a session counts from `from`.
func Compose(ps []Installed, connector int, tx Session, from int64, duration int, unit string, phases int) Composite {
	unit = normUnit(unit)
	c := Composite{ConnectorID: connector, Start: from, Duration: duration, Unit: unit}
	if duration <= 0 {
		return c
	}
	limited := false
	for _, t := range changePoints(ps, connector, tx, from, from+int64(duration)*1000) {
		limit, ok := limitAt(ps, connector, tx, t, from, unit, phases)
		if !ok {
			limit = Unlimited
		}
		limited = limited || ok
		c.Periods = appendPeriod(c.Periods, Period{Start: int((t - from) / 1000), Limit: limit})
	}
	if !limited {
		c.Periods = nil
	}
	return c
}

// pick is the winner so far among the profiles of one purpose: the highest stack level.
type pick struct {
	ok    bool
	level int
	limit float64
}

func (k *pick) offer(level int, limit float64) {
	if !k.ok || level > k.level {
		*k = pick{ok: true, level: level, limit: limit}
	}
}

// limitAt is LimitAt with the instant a Relative profile counts from when there is no session.
func limitAt(ps []Installed, connector int, tx Session, at, anchor int64, unit string, phases int) (float64, bool) {
	var station, txProfile, connDefault, allDefault pick
	for i := range ps {
		in := &ps[i]
		if !applies(in, connector, tx) {
			continue
		}
		p := &in.Profile
		pd, ok := p.periodAt(at, p.origin(at, tx, anchor))
		if !ok {
			continue
		}
		on := phases
		if pd.Phases > 0 {
			on = pd.Phases
		}
		limit := convert(pd.Limit, p.Schedule.Unit, unit, on)
		switch {
		case p.Purpose == PurposeStationMax:
			station.offer(p.StackLevel, limit)
		case p.Purpose == PurposeTx:
			txProfile.offer(p.StackLevel, limit)
		case in.Connector == 0:
			allDefault.offer(p.StackLevel, limit)
		default:
			connDefault.offer(p.StackLevel, limit)
		}
	}
	// A Tx profile overrides the defaults, the connector's default the charger-wide one; the
	// charger's maximum caps whichever applies.
	session := txProfile
	if !session.ok {
		session = connDefault
	}
	if !session.ok {
		session = allDefault
	}
	switch {
	case station.ok && session.ok:
		return math.Min(station.limit, session.limit), true
	case station.ok:
		return station.limit, true
	case session.ok:
		return session.limit, true
	}
	return 0, false
}

// applies reports whether in may limit connector at all, whatever the time: the charger's
// maximum from connector 0, the session's Tx profile on its connector, a TxDefault on the
// connector or on 0.
func applies(in *Installed, connector int, tx Session) bool {
	switch in.Profile.Purpose {
	case PurposeStationMax:
		return in.Connector == 0
	case PurposeTx:
		return in.Connector == connector && tx.ID != 0 && in.Profile.TransactionID == tx.ID
	case PurposeTxDefault:
		return in.Connector == 0 || in.Connector == connector
	}
	return false
}

// origin is the instant p's schedule in effect at t counts from: Schedule.Start (Absolute),
// its latest repetition at or before t (Recurring; before Start too, a daily profile is a
// daily one), the session's start or else anchor (Relative, and an Absolute one without start).
func (p *Profile) origin(t int64, tx Session, anchor int64) int64 {
	switch {
	case p.Kind == KindRecurring:
		cycle := int64(RecurLength(p.Recurrency)) * 1000
		return p.Schedule.Start + floorDiv(t-p.Schedule.Start, cycle)*cycle
	case p.Kind == KindRelative || p.Schedule.Start == 0:
		if tx.ID != 0 && tx.Start > 0 {
			return tx.Start
		}
		return anchor
	}
	return p.Schedule.Start
}

// periodAt is the period of p in effect at t for a schedule counting from origin: p valid at
// t, the schedule begun and not over (Duration), the last period begun. The last period runs
// to the schedule's end.
func (p *Profile) periodAt(t, origin int64) (Period, bool) {
	if t < p.ValidFrom || (p.ValidTo != 0 && t >= p.ValidTo) {
		return Period{}, false
	}
	offset := t - origin
	if offset < 0 || (p.Schedule.Duration > 0 && offset >= int64(p.Schedule.Duration)*1000) {
		return Period{}, false
	}
	var pd Period
	found := false
	for _, x := range p.Schedule.Periods {
		if int64(x.Start)*1000 > offset {
			break
		}
		pd, found = x, true
	}
	return pd, found
}

// changePoints are the instants of [from, end) where the composite limit may change: from
// itself, the validity bounds, and for each start of a schedule (each repetition of a
// recurring one) its period starts and its end. Sorted, without duplicates.
func changePoints(ps []Installed, connector int, tx Session, from, end int64) []int64 {
	pts := []int64{from}
	add := func(t int64) {
		if t > from && t < end {
			pts = append(pts, t)
		}
	}
	for i := range ps {
		if !applies(&ps[i], connector, tx) {
			continue
		}
		p := &ps[i].Profile
		add(p.ValidFrom)
		add(p.ValidTo)
		for _, o := range p.origins(tx, from, end) {
			add(o)
			for _, pd := range p.Schedule.Periods {
				add(o + int64(pd.Start)*1000)
			}
			if p.Schedule.Duration > 0 {
				add(o + int64(p.Schedule.Duration)*1000)
			}
		}
	}
	slices.Sort(pts)
	return slices.Compact(pts)
}

// origins are the starts of p's schedule that matter in [from, end): one, or each repetition
// of a recurring profile from the one running at from.
func (p *Profile) origins(tx Session, from, end int64) []int64 {
	first := p.origin(from, tx, from)
	if p.Kind != KindRecurring {
		return []int64{first}
	}
	cycle := int64(RecurLength(p.Recurrency)) * 1000
	var out []int64
	for o := first; o < end; o += cycle {
		out = append(out, o)
	}
	return out
}

// appendPeriod appends p to a composite's periods: a change within the same second replaces
// the period begun that second, and a limit equal to the last one extends it.
func appendPeriod(ps []Period, p Period) []Period {
	if n := len(ps); n > 0 && ps[n-1].Start == p.Start {
		ps = ps[:n-1]
	}
	if n := len(ps); n > 0 && ps[n-1].Limit == p.Limit {
		return ps
	}
	return append(ps, p)
}

// convert is limit (in unit from) in unit to, on phases phases.
func convert(limit float64, from, to string, phases int) float64 {
	from, to = normUnit(from), normUnit(to)
	switch {
	case from == to:
		return limit
	case to == UnitW:
		return Watts(limit, phases)
	}
	return Amps(limit, phases)
}

// normUnit is unit, A unless W.
func normUnit(unit string) string {
	if unit == UnitW {
		return UnitW
	}
	return UnitA
}

// floorDiv is a/b rounded towards minus infinity (b > 0).
func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}
