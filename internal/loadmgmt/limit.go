package loadmgmt

import (
	"context"
	"math"
	"strconv"
	"strings"
	"time"
)

// Window is a time-of-day limit (peak hours): from From to To ("HH:MM", local time of
// Options.Location) on Days (1 Monday ... 7 Sunday; none: every day), the site's limit is at
// most LimitKW. A window whose To is not after its From runs across midnight: it starts on one
// of Days and ends the next day; From equal to To is the whole day.
type Window struct {
	From    string  `json:"from"`
	To      string  `json:"to"`
	Days    []int   `json:"days"`
	LimitKW float64 `json:"limitKw"`
}

// Extra is the storage hook: power a site's storage can discharge now (W), added to the site's
// limit while planning. nil in Options: none. The storage issue plugs its battery in here; an
// answer of 0 or less adds nothing, so a battery that fails makes the plan only safer.
type Extra interface {
	ExtraW(ctx context.Context, siteID int64) float64
}

// minutes parses "HH:MM" (00:00-24:00) into minutes of the day.
func minutes(s string) (int, bool) {
	h, m, ok := strings.Cut(s, ":")
	if !ok || len(h) != 2 || len(m) != 2 {
		return 0, false
	}
	hh, err1 := strconv.Atoi(h)
	mm, err2 := strconv.Atoi(m)
	if err1 != nil || err2 != nil || hh < 0 || mm < 0 || mm > 59 || hh > 24 || (hh == 24 && mm != 0) {
		return 0, false
	}
	return hh*60 + mm, true
}

// isoDay is t's weekday, 1 Monday ... 7 Sunday.
func isoDay(t time.Time) int {
	if d := int(t.Weekday()); d != 0 {
		return d
	}
	return 7
}

func onDay(days []int, d int) bool {
	if len(days) == 0 {
		return true
	}
	for _, x := range days {
		if x == d {
			return true
		}
	}
	return false
}

// Active reports whether w limits the site at t (t already in the site's time zone).
func (w Window) Active(t time.Time) bool {
	from, ok1 := minutes(w.From)
	to, ok2 := minutes(w.To)
	if !ok1 || !ok2 {
		return false
	}
	now, day := t.Hour()*60+t.Minute(), isoDay(t)
	prev := day - 1
	if prev == 0 {
		prev = 7
	}
	switch {
	case from == to:
		return onDay(w.Days, day)
	case from < to:
		return onDay(w.Days, day) && now >= from && now < to
	default: // across midnight: the evening part today, the morning part of yesterday's window
		return (onDay(w.Days, day) && now >= from) || (onDay(w.Days, prev) && now < to)
	}
}

// kwToA is a three-phase power as current per phase.
func kwToA(kw float64) float64 { return kw * 1000 / (Volts * 3) }

// baseA is the site's limit per phase without windows and storage.
func baseA(sp *SitePower) float64 {
	if sp.LimitKW > 0 {
		return kwToA(sp.LimitKW)
	}
	return math.Max(sp.LimitA, 0)
}

// SiteLimit is the site's limit at t: the base limit lowered by the windows active at t
// (evaluated in loc), plus extraW of storage spread over the three phases.
func SiteLimit(sp SitePower, t time.Time, loc *time.Location, extraW float64) Limit {
	a := baseA(&sp)
	lt := t.In(loc)
	for _, w := range sp.Schedule {
		if w.Active(lt) {
			a = math.Min(a, kwToA(math.Max(w.LimitKW, 0)))
		}
	}
	if extraW > 0 {
		a += extraW / (Volts * 3)
	}
	return Limit{PhaseA: [3]float64{a, a, a}}
}

// lowestA is the lowest per-phase limit the site can have on any day: the base limit and every
// window's, without storage (a battery may be empty when the charger is cut off).
func lowestA(sp *SitePower) float64 {
	a := baseA(sp)
	for _, w := range sp.Schedule {
		a = math.Min(a, kwToA(math.Max(w.LimitKW, 0)))
	}
	return a
}

// SafeShare is the fallback current (A per phase) of each of a site's chargers: the site's
// lowest per-phase limit (base and windows, no storage) divided by the number of its chargers
// (all of them, not only the charging ones), rounded down to 0.1 A; below minA it is 0 — a
// charger cut off from chargeops pauses rather than risk the fuse.
func SafeShare(sp SitePower, chargers int, minA float64) float64 {
	if chargers <= 0 {
		return 0
	}
	a := floor10(lowestA(&sp) / float64(chargers))
	if a < minA {
		return 0
	}
	return a
}
