package fleet

import (
	"time"

	"chargeops/internal/devstate"
)

// The rules that turn what real chargers report into sessions and energy (docs/decisions.md,
// "Charging sessions and energy"). Pure functions; transactions.go applies them.

// Flags of a charging session (device_transaction.flags): the traps it met.
const (
	// FlagClock: a timestamp before 2015 or more than 10 minutes ahead of the server; the
	// server's time was used instead.
	FlagClock = 1 << iota
	// FlagUnknownStop: a StopTransaction whose transactionId (-1, 0 or not one of the device's
	// sessions) matched no single open session: kept as a session of its own, without energy.
	FlagUnknownStop
	// FlagMatchedStop: a StopTransaction with transactionId -1, 0 or unknown, given to the
	// device's only open session.
	FlagMatchedStop
	// FlagMeterBack: meterStop below the session's start; energy is what the session's own
	// samples measured before the counter went back, else 0.
	FlagMeterBack
	// FlagMeterReset: meterStart 0 from a charger that lost its counter; the session's first
	// own sample is its start.
	FlagMeterReset
	// FlagImplausible: more energy than MaxChargePowerW could deliver in the session's time (a
	// charger's lifetime register taken for a session): counted as 0.
	FlagImplausible
	// FlagUnterminated: never stopped; closed by the next StartTransaction on its connector.
	FlagUnterminated
)

// MaxChargePowerW is the most power a session is believed to draw (above today's fastest car
// chargers); PlausibleSlackWh is allowed on top for rounding and short sessions.
const (
	MaxChargePowerW  = 500_000
	PlausibleSlackWh = 1_000
)

// Clock limits of a charger's timestamps.
var (
	earliestChargerTime = time.Date(2015, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli()
	maxClockAhead       = int64(devstate.MaxClockAheadMS)
)

// ChargerTime returns the time to store for a charger's timestamp at (unix ms, 0 if absent):
// at itself, or now when it is missing, before 2015 or more than 10 minutes ahead; clamped
// reports the latter two.
func ChargerTime(at, now int64) (t int64, clamped bool) {
	switch {
	case at == 0:
		return now, false
	case at < earliestChargerTime || at > now+maxClockAhead:
		return now, true
	}
	return at, false
}

// sessionMeter is what is known of a session's meter when it stops (Wh; First and Last are -1
// when no sample was seen).
type sessionMeter struct {
	Start, First, Last, Stop int64
	StartedAt, StoppedAt     int64
}

// plausible reports whether wh could be delivered in d ms.
func plausible(wh, d int64) bool {
	return wh <= PlausibleSlackWh+int64(float64(MaxChargePowerW)*float64(max(d, 0))/3_600_000)
}

// sessionEnergy is the energy a session counts, and the flags of the traps it met.
func sessionEnergy(m sessionMeter) (int64, int) {
	flags := 0
	d := m.StoppedAt - m.StartedAt
	start := m.Start
	wh := m.Stop - start
	if start == 0 && m.First > 0 && !plausible(wh, d) {
		start = m.First
		flags |= FlagMeterReset
		wh = m.Stop - start
	}
	if wh < 0 {
		flags |= FlagMeterBack
		wh = 0
		if m.Last > start {
			wh = m.Last - start
		}
	}
	if !plausible(wh, d) {
		return 0, flags | FlagImplausible
	}
	return wh, flags
}
