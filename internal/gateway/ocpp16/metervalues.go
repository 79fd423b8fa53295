package ocpp16

import (
	"encoding/json"
	"sync"
	"time"

	"chargeops/internal/gateway/ocppj"
)

// MeterValues bounds (docs/ocpp16.md, "MeterValues bounds"): one MeterValues carries at most
// MaxSampledValues sampled values (over all its meterValue elements), and each charger may send
// MeterRatePerSecond sampled values per second, with MeterBurst at once (a token bucket per SN,
// kept across its reconnections): every charger has the same share, whatever the others send.
// A MeterValues over either bound is refused with a CALLERROR before anything of it is stored,
// counted (Stats.MeterRefused, chargeops_ocpp_meter_values_refused_total) and logged at most
// once per 10 s; its frame and the CALLERROR stay in the protocol log like every frame. The
// CALLERROR is answered after a pause (until the charger's bucket would hold the message, at
// most MeterRefusalPause), during which its socket is not read: a flooding charger slows down
// to about one message per pause instead of costing the node a refusal as fast as it can send.
const (
	MaxSampledValues   = 500
	MeterRatePerSecond = 50
	MeterBurst         = 2 * MaxSampledValues
	MeterRefusalPause  = time.Second
	codeGeneric        = ocppj.CodeGeneric
)

// meterCount is how many sampled values a MeterValues payload carries (read without
// validating the rest, so an oversized message is refused before it is decoded).
func meterCount(raw json.RawMessage) int {
	var m struct {
		MeterValue []struct {
			SampledValue []json.RawMessage `json:"sampledValue"`
		} `json:"meterValue"`
	}
	if json.Unmarshal(raw, &m) != nil {
		return 0 // decode explains what is wrong with it
	}
	n := 0
	for _, v := range m.MeterValue {
		n += len(v.SampledValue)
	}
	return n
}

// boundMeter refuses a MeterValues over the bounds; nil lets it be handled.
func (c *conn) boundMeter(raw json.RawMessage) error {
	n := meterCount(raw)
	var err error
	pause := MeterRefusalPause
	if n > MaxSampledValues {
		err = callErr(codeOccurence, "meterValue: %d sampled values, at most %d in one MeterValues", n, MaxSampledValues)
	} else if wait := c.g.meterBuckets.take(c.sn, n, time.Now()); wait > 0 {
		err = callErr(codeGeneric, "MeterValues over this charger's rate of %d sampled values per second: send fewer or less often", MeterRatePerSecond)
		pause = min(pause, wait)
	} else {
		return nil
	}
	c.g.meterRefused.Add(1)
	c.g.meterLog.note(c.sn, err.Error(), nil)
	select {
	case <-time.After(pause):
	case <-c.closed:
	}
	return err
}

// meterBuckets holds one token bucket of sampled values per SN. A bucket that has refilled to
// MeterBurst is the same as a new one: such buckets are dropped once a minute, so the map holds
// only the chargers that sent MeterValues lately.
type meterBuckets struct {
	mu     sync.Mutex
	m      map[string]*meterBucket
	pruned time.Time
}

const meterPruneEvery = time.Minute

type meterBucket struct {
	tokens float64
	at     time.Time
}

// take removes n tokens from sn's bucket, refilled at MeterRatePerSecond up to MeterBurst. When
// there are too few it takes none and returns how long the bucket needs to hold n (> 0).
func (b *meterBuckets) take(sn string, n int, now time.Time) time.Duration {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.m == nil {
		b.m = map[string]*meterBucket{}
	}
	if now.Sub(b.pruned) >= meterPruneEvery {
		b.pruned = now
		full := time.Duration(MeterBurst / MeterRatePerSecond * float64(time.Second))
		for sn, k := range b.m {
			if now.Sub(k.at) >= full {
				delete(b.m, sn)
			}
		}
	}
	k, ok := b.m[sn]
	if !ok {
		k = &meterBucket{tokens: MeterBurst, at: now}
		b.m[sn] = k
	}
	k.tokens = min(MeterBurst, k.tokens+now.Sub(k.at).Seconds()*MeterRatePerSecond)
	k.at = now
	if missing := float64(n) - k.tokens; missing > 0 {
		return time.Duration(missing / MeterRatePerSecond * float64(time.Second))
	}
	k.tokens -= float64(n)
	return 0
}
