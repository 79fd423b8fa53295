package agent

import (
	"context"
	"encoding/json"
	"time"

	"chargeops/internal/mqttwire"
)

// poll reads the unit every interval into the buffer, the first time at once. A failed read
// stores nothing; the unit is dialled again on the next tick.
func (u *unit) poll(ctx context.Context) {
	t := time.NewTicker(u.cfg.Interval)
	defer t.Stop()
	reachable := true // as assumed at start: the first failure is logged
	for {
		ok := u.readOnce(ctx, reachable)
		if ok != reachable {
			reachable = ok
			if ok {
				u.log.Info("agent: unit reachable again")
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// readOnce reads the unit once and buffers the reading; logFailure says whether a failure should
// be logged (once per outage, not every tick).
func (u *unit) readOnce(ctx context.Context, logFailure bool) (ok bool) {
	rctx, cancel := context.WithTimeout(ctx, readTimeout)
	defer cancel()
	values, alarms, attrs, err := u.dev.read(rctx)
	if attrs != nil {
		u.setAttributes(*attrs)
	}
	if err != nil {
		if ctx.Err() == nil && logFailure {
			u.log.Warn("agent: unit unreachable; retrying every interval", "err", err)
		}
		return false
	}
	now := u.opts.Now()
	data, err := json.Marshal(mqttwire.Reading{TS: now.UnixMilli(), Values: encodeValues(values)})
	if err != nil {
		u.log.Error("agent: encode reading", "err", err)
		return true
	}
	dropped, err := u.buf.append(data)
	if err != nil {
		u.log.Error("agent: reading not buffered", "err", err)
	}
	if dropped > 0 {
		u.dropped.Add(uint64(dropped))
		// a full buffer drops one reading a tick for as long as the outage lasts: a line a minute
		if now := time.Now(); now.Sub(u.dropLogged) >= time.Minute {
			u.dropLogged = now
			u.log.Warn("agent: buffer full (maxBufferBytes): oldest readings dropped", "dropped_total", u.dropped.Load())
		}
	}
	u.alarms.observe(alarms, now)
	u.poke()
	return true
}
