package smartcharging

import (
	"reflect"
	"testing"
	"time"
)

// t0 is a Monday midnight (UTC); the scenarios count from it.
var t0 = time.Date(2025, 3, 10, 0, 0, 0, 0, time.UTC).UnixMilli()

const (
	sec    = int64(1000)
	minute = 60 * sec
	hour   = 60 * minute
	day    = 24 * hour
)

// absolute is a profile of purpose on one period of limit (unit A) from t0.
func absolute(id int, purpose Purpose, level int, limit float64) Profile {
	return Profile{ID: id, StackLevel: level, Purpose: purpose, Kind: KindAbsolute,
		Schedule: Schedule{Start: t0, Unit: UnitA, Periods: []Period{{Start: 0, Limit: limit}}}}
}

func tx(id int, level int, limit float64, transaction int64) Profile {
	p := absolute(id, PurposeTx, level, limit)
	p.TransactionID = transaction
	return p
}

// limitIs checks LimitAt in A on 3 phases.
func limitIs(t *testing.T, ps []Installed, connector int, s Session, at int64, want float64) {
	t.Helper()
	got, ok := LimitAt(ps, connector, s, at, UnitA, 3)
	if want == Unlimited {
		if ok {
			t.Fatalf("at %+d ms: limit %v, want none", at-t0, got)
		}
		return
	}
	if !ok || got != want {
		t.Fatalf("at %+d ms: limit %v (ok %v), want %v", at-t0, got, ok, want)
	}
}

func TestLimitAt(t *testing.T) {
	t.Run("no profile: no limit", func(t *testing.T) {
		limitIs(t, nil, 1, Session{}, t0, Unlimited)
	})

	t.Run("stacking: the higher stack level wins, the lower applies once it ends", func(t *testing.T) {
		high := absolute(2, PurposeTxDefault, 2, 10)
		high.ValidTo = t0 + hour
		ps := []Installed{{1, absolute(1, PurposeTxDefault, 1, 16)}, {1, high}}
		limitIs(t, ps, 1, Session{}, t0+minute, 10)
		limitIs(t, ps, 1, Session{}, t0+2*hour, 16)
	})

	t.Run("a Tx profile overrides TxDefault, only for its own session", func(t *testing.T) {
		ps := []Installed{{1, absolute(1, PurposeTxDefault, 5, 16)}, {1, tx(2, 0, 20, 7)}}
		limitIs(t, ps, 1, Session{ID: 7, Start: t0}, t0+minute, 20) // overrides, even upwards
		limitIs(t, ps, 1, Session{ID: 8, Start: t0}, t0+minute, 16)
		limitIs(t, ps, 1, Session{}, t0+minute, 16)
		limitIs(t, ps, 2, Session{ID: 7, Start: t0}, t0+minute, Unlimited) // another connector
	})

	t.Run("a TxDefault on the connector overrides the one on connector 0", func(t *testing.T) {
		ps := []Installed{{0, absolute(1, PurposeTxDefault, 9, 10)}, {1, absolute(2, PurposeTxDefault, 0, 20)}}
		limitIs(t, ps, 1, Session{}, t0, 20)
		limitIs(t, ps, 2, Session{}, t0, 10)
	})

	t.Run("the station max caps every other limit", func(t *testing.T) {
		ps := []Installed{{0, absolute(1, PurposeStationMax, 0, 12)}, {1, absolute(2, PurposeTxDefault, 0, 16)}, {2, absolute(3, PurposeTxDefault, 0, 8)}}
		limitIs(t, ps, 1, Session{}, t0, 12)
		limitIs(t, ps, 2, Session{}, t0, 8)
		limitIs(t, ps, 3, Session{}, t0, 12)
		// a station max set on a connector is not one
		limitIs(t, []Installed{{1, absolute(1, PurposeStationMax, 0, 12)}}, 1, Session{}, t0, Unlimited)
	})

	t.Run("a recurring daily profile wraps at midnight", func(t *testing.T) {
		// from 20:00 on day 0: 6 A until 06:00 the next morning, then 32 A until 20:00
		p := Profile{ID: 1, Purpose: PurposeTxDefault, Kind: KindRecurring, Recurrency: RecurDaily, Schedule: Schedule{
			Start: t0 + 20*hour, Unit: UnitA, Periods: []Period{{Start: 0, Limit: 6}, {Start: 10 * 3600, Limit: 32}}}}
		ps := []Installed{{0, p}}
		day3 := t0 + 3*day
		limitIs(t, ps, 1, Session{}, day3+23*hour, 6)
		limitIs(t, ps, 1, Session{}, day3+3*hour, 6)
		limitIs(t, ps, 1, Session{}, day3+7*hour, 32)
		limitIs(t, ps, 1, Session{}, day3+20*hour-sec, 32)
		limitIs(t, ps, 1, Session{}, t0+10*hour, 32) // before its start, a daily profile is as daily
		c := Compose(ps, 1, Session{}, day3, 24*3600, UnitA, 3)
		if want := []Period{{0, 6, 0}, {6 * 3600, 32, 0}, {20 * 3600, 6, 0}}; !reflect.DeepEqual(c.Periods, want) {
			t.Fatalf("composite %+v", c.Periods)
		}
	})

	t.Run("a relative profile counts from the session's start", func(t *testing.T) {
		p := Profile{ID: 1, Purpose: PurposeTxDefault, Kind: KindRelative, Schedule: Schedule{Unit: UnitA,
			Periods: []Period{{Start: 0, Limit: 6}, {Start: 600, Limit: 16}}}}
		ps := []Installed{{1, p}}
		s := Session{ID: 3, Start: t0}
		limitIs(t, ps, 1, s, t0+5*minute, 6)
		limitIs(t, ps, 1, s, t0+11*minute, 16)
		limitIs(t, ps, 1, Session{}, t0+11*minute, 6) // no session: from the instant asked
		c := Compose(ps, 1, s, t0+5*minute, 1200, UnitA, 3)
		if want := []Period{{0, 6, 0}, {300, 16, 0}}; !reflect.DeepEqual(c.Periods, want) {
			t.Fatalf("composite with a session %+v", c.Periods)
		}
		c = Compose(ps, 1, Session{}, t0+5*minute, 1200, UnitA, 3)
		if want := []Period{{0, 6, 0}, {600, 16, 0}}; !reflect.DeepEqual(c.Periods, want) {
			t.Fatalf("composite without a session %+v", c.Periods)
		}
	})

	t.Run("validTo ends a profile and validFrom begins one", func(t *testing.T) {
		p := absolute(1, PurposeStationMax, 0, 10)
		p.ValidTo = t0 + hour
		later := absolute(2, PurposeStationMax, 0, 20)
		later.ValidFrom = t0 + 2*hour
		ps := []Installed{{0, p}, {0, later}}
		limitIs(t, ps, 1, Session{}, t0+hour-sec, 10)
		limitIs(t, ps, 1, Session{}, t0+hour, Unlimited)
		limitIs(t, ps, 1, Session{}, t0+2*hour, 20)
		c := Compose(ps, 1, Session{}, t0, 3*3600, UnitA, 3)
		if want := []Period{{0, 10, 0}, {3600, Unlimited, 0}, {7200, 20, 0}}; !reflect.DeepEqual(c.Periods, want) {
			t.Fatalf("composite %+v", c.Periods)
		}
	})

	t.Run("limits convert between W and A with the period's phases", func(t *testing.T) {
		w := absolute(1, PurposeStationMax, 0, 6900)
		w.Schedule.Unit = UnitW
		one := absolute(2, PurposeTxDefault, 0, 16)
		one.Schedule.Periods[0].Phases = 1
		if got, _ := LimitAt([]Installed{{0, w}}, 1, Session{}, t0, UnitA, 3); got != 10 {
			t.Fatalf("6900 W as A on 3 phases: %v", got)
		}
		if got, _ := LimitAt([]Installed{{1, one}}, 1, Session{}, t0, UnitW, 3); got != 16*230 {
			t.Fatalf("16 A on 1 phase as W: %v", got)
		}
		if got, _ := LimitAt([]Installed{{1, absolute(3, PurposeTxDefault, 0, 16)}}, 1, Session{}, t0, UnitW, 0); got != 16*230*3 {
			t.Fatalf("16 A on the default phases as W: %v", got)
		}
		// the cap compares in the unit asked: 6900 W is 10 A, under the default's 16 A
		if got, _ := LimitAt([]Installed{{0, w}, {1, absolute(3, PurposeTxDefault, 0, 16)}}, 1, Session{}, t0, UnitA, 3); got != 10 {
			t.Fatalf("capped: %v", got)
		}
	})
}

func TestCompose(t *testing.T) {
	t.Run("equal neighbours merge and the period starts count from `from`", func(t *testing.T) {
		p := absolute(1, PurposeTxDefault, 0, 16)
		p.Schedule.Periods = []Period{{Start: 0, Limit: 16}, {Start: 600, Limit: 16}, {Start: 1200, Limit: 10}}
		p.Schedule.Duration = 2400
		c := Compose([]Installed{{1, p}}, 1, Session{}, t0+300*sec, 3000, UnitW, 3)
		want := Composite{ConnectorID: 1, Start: t0 + 300*sec, Duration: 3000, Unit: UnitW,
			Periods: []Period{{0, 16 * 690, 0}, {900, 10 * 690, 0}, {2100, Unlimited, 0}}}
		if !reflect.DeepEqual(c, want) {
			t.Fatalf("composite\n got %+v\nwant %+v", c, want)
		}
	})

	t.Run("a window no profile limits has no periods", func(t *testing.T) {
		p := absolute(1, PurposeTxDefault, 0, 16)
		p.ValidTo = t0 + hour
		if c := Compose([]Installed{{1, p}}, 1, Session{}, t0+2*hour, 3600, UnitA, 3); len(c.Periods) != 0 || c.Unit != UnitA {
			t.Fatalf("%+v", c)
		}
		if c := Compose(nil, 1, Session{}, t0, 0, UnitA, 3); len(c.Periods) != 0 {
			t.Fatalf("%+v", c)
		}
	})

	t.Run("a station max and a stack of defaults compose into the minimum at each instant", func(t *testing.T) {
		station := absolute(1, PurposeStationMax, 0, 20)
		station.Schedule.Periods = []Period{{Start: 0, Limit: 20}, {Start: 1800, Limit: 8}}
		top := absolute(2, PurposeTxDefault, 3, 12)
		top.ValidFrom, top.ValidTo = t0+600*sec, t0+1200*sec
		ps := []Installed{{0, station}, {0, absolute(3, PurposeTxDefault, 1, 16)}, {1, top}}
		c := Compose(ps, 1, Session{}, t0, 3600, UnitA, 3)
		if want := []Period{{0, 16, 0}, {600, 12, 0}, {1200, 16, 0}, {1800, 8, 0}}; !reflect.DeepEqual(c.Periods, want) {
			t.Fatalf("composite %+v", c.Periods)
		}
	})
}
