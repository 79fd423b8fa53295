package bench

import (
	"cmp"
	"maps"
	"slices"
)

// CallStats count one kind of charger-initiated call.
type CallStats struct {
	Sent       int64      `json:"sent"`
	Answered   int64      `json:"answered"`
	CallErrors int64      `json:"callErrors"`
	Timeouts   int64      `json:"timeouts"`
	SendErrors int64      `json:"sendErrors"` // not sent: not connected, or the write failed
	RTT        *Histogram `json:"rtt"`        // CALL → CALLRESULT or CALLERROR
}

// ConnectResult is the connect phase: every charger connects (at the connect rate) and boots.
type ConnectResult struct {
	Chargers  int              `json:"chargers"`
	Connected int              `json:"connected"` // booted and held
	Failed    int              `json:"failed"`    // gave up after the retries
	Seconds   float64          `json:"seconds"`   // first dial → last charger booted or given up
	Rate      float64          `json:"rate"`      // chargers booted per second
	Refusals  map[string]int64 `json:"refusals,omitempty"`
	// ClientHeld and ClientSys are the bench processes' own memory with every charger connected
	// (heap+stack after GC, and from the OS), summed over the processes.
	ClientHeld uint64 `json:"clientHeld"`
	ClientSys  uint64 `json:"clientSys"`
}

// LoadResult is the load phase: MeterValues at a fixed aggregate rate, open loop.
type LoadResult struct {
	Message     string  `json:"message"` // MeterValues, or TransactionEvent Updated (2.0.1)
	OfferedRate float64 `json:"offeredRate"`
	Seconds     float64 `json:"seconds"`   // the schedule's length
	Scheduled   int64   `json:"scheduled"` // messages the schedule held
	Sent        int64   `json:"sent"`
	Answered    int64   `json:"answered"` // CALLRESULTs
	CallErrors  int64   `json:"callErrors"`
	Timeouts    int64   `json:"timeouts"`
	SendErrors  int64   `json:"sendErrors"`
	Late        int64   `json:"late"`      // sent more than LateAfter behind their time
	BusySends   int64   `json:"busySends"` // sent while the charger's previous MeterValues was unanswered
	Drops       int64   `json:"drops"`     // connections lost during the load
	// AnsweredSeconds runs from the schedule's start to the last answer; Achieved is Answered
	// over the longer of it and Seconds, so a server that falls behind shows a lower rate.
	AnsweredSeconds float64    `json:"answeredSeconds"`
	Achieved        float64    `json:"achieved"`
	RTT             *Histogram `json:"rtt"` // load message CALL → CALLRESULT
	Lag             *Histogram `json:"lag"` // actual send − scheduled send
}

// StormResult is the reconnect storm: every charger's connection drops at once, then all
// reconnect at once and boot again.
type StormResult struct {
	Drop         string           `json:"drop"` // abandon or close (StormDrop)
	Dropped      int              `json:"dropped"`
	Recovered    int              `json:"recovered"`
	Stuck        int              `json:"stuck"`   // not booted again when the storm timed out
	Seconds      float64          `json:"seconds"` // drop → last charger booted again
	Recovery     *Histogram       `json:"recovery"`
	Refusals     map[string]int64 `json:"refusals,omitempty"`     // every failed attempt, by reason
	StuckReasons map[string]int64 `json:"stuckReasons,omitempty"` // the last reason of the stuck ones
}

// FrameCounts count what crossed the sockets.
type FrameCounts struct {
	Sent        int64 `json:"sent"`        // text frames the chargers sent
	Received    int64 `json:"received"`    // text frames they received
	Connections int64 `json:"connections"` // WebSocket connections opened (each logs an open and a close row)
	Drops       int64 `json:"drops"`       // connections the server ended unasked
	ServerCalls int64 `json:"serverCalls"` // CALLs of the central system (remote commands)
	LateAnswers int64 `json:"lateAnswers"` // answers that came after their call timed out
}

// FleetResult is what one fleet (one process) measured.
type FleetResult struct {
	Connect ConnectResult         `json:"connect"`
	Load    *LoadResult           `json:"load,omitempty"`
	Storm   *StormResult          `json:"storm,omitempty"`
	Calls   map[string]*CallStats `json:"calls"`
	Frames  FrameCounts           `json:"frames"`
}

// Merge adds the figures of another process's fleet: counts add up, histograms merge, times
// are the longest, rates are recomputed.
func (r *FleetResult) Merge(o FleetResult) {
	c := &r.Connect
	c.Chargers += o.Connect.Chargers
	c.Connected += o.Connect.Connected
	c.Failed += o.Connect.Failed
	c.Seconds = max(c.Seconds, o.Connect.Seconds)
	c.Refusals = addCounts(c.Refusals, o.Connect.Refusals)
	c.ClientHeld += o.Connect.ClientHeld
	c.ClientSys += o.Connect.ClientSys
	c.Rate = rate(float64(c.Connected), c.Seconds)
	if r.Calls == nil {
		r.Calls = map[string]*CallStats{}
	}
	for k, s := range o.Calls {
		mine := r.Calls[k]
		if mine == nil {
			mine = &CallStats{RTT: &Histogram{}}
			r.Calls[k] = mine
		}
		mine.Sent += s.Sent
		mine.Answered += s.Answered
		mine.CallErrors += s.CallErrors
		mine.Timeouts += s.Timeouts
		mine.SendErrors += s.SendErrors
		mine.RTT.Merge(s.RTT)
	}
	f := &r.Frames
	f.Sent += o.Frames.Sent
	f.Received += o.Frames.Received
	f.Connections += o.Frames.Connections
	f.Drops += o.Frames.Drops
	f.ServerCalls += o.Frames.ServerCalls
	f.LateAnswers += o.Frames.LateAnswers
	if o.Load != nil {
		if r.Load == nil {
			r.Load = &LoadResult{RTT: &Histogram{}, Lag: &Histogram{}}
		}
		l := r.Load
		l.Message = o.Load.Message
		l.OfferedRate += o.Load.OfferedRate
		l.Seconds = max(l.Seconds, o.Load.Seconds)
		l.Scheduled += o.Load.Scheduled
		l.Sent += o.Load.Sent
		l.Answered += o.Load.Answered
		l.CallErrors += o.Load.CallErrors
		l.Timeouts += o.Load.Timeouts
		l.SendErrors += o.Load.SendErrors
		l.Late += o.Load.Late
		l.BusySends += o.Load.BusySends
		l.Drops += o.Load.Drops
		l.AnsweredSeconds = max(l.AnsweredSeconds, o.Load.AnsweredSeconds)
		l.Achieved = rate(float64(l.Answered), max(l.Seconds, l.AnsweredSeconds))
		l.RTT.Merge(o.Load.RTT)
		l.Lag.Merge(o.Load.Lag)
	}
	if o.Storm != nil {
		if r.Storm == nil {
			r.Storm = &StormResult{Drop: o.Storm.Drop, Recovery: &Histogram{}}
		}
		s := r.Storm
		s.Dropped += o.Storm.Dropped
		s.Recovered += o.Storm.Recovered
		s.Stuck += o.Storm.Stuck
		s.Seconds = max(s.Seconds, o.Storm.Seconds)
		s.Recovery.Merge(o.Storm.Recovery)
		s.Refusals = addCounts(s.Refusals, o.Storm.Refusals)
		s.StuckReasons = addCounts(s.StuckReasons, o.Storm.StuckReasons)
	}
}

func addCounts(dst, src map[string]int64) map[string]int64 {
	if len(src) == 0 {
		return dst
	}
	if dst == nil {
		dst = map[string]int64{}
	}
	for k, v := range src {
		dst[k] += v
	}
	return dst
}

func rate(n, seconds float64) float64 {
	if seconds <= 0 {
		return 0
	}
	return n / seconds
}

// sortedKeys lists a count map's keys, largest count first.
func sortedKeys(m map[string]int64) []string {
	keys := slices.Collect(maps.Keys(m))
	slices.SortFunc(keys, func(a, b string) int {
		if c := cmp.Compare(m[b], m[a]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	return keys
}
