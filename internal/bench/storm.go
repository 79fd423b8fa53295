package bench

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// Storm drops every charger's connection at once (StormDrop says how), then every charger
// reconnects at once (at most DialConcurrency dials in flight) and boots again, retrying a
// refusal after a back-off, until StormTimeout. It measures each charger's time from the drop
// to its accepted boot, counts every refusal by reason (an HTTP status, a close code such as
// ocpp-go's 1008 "already exists", a boot that was not accepted) and the chargers still not
// back at the end (stuck).
func (f *Fleet) Storm(ctx context.Context) error {
	o := f.opt
	res := &StormResult{Drop: o.StormDrop, Recovery: &Histogram{}, Refusals: map[string]int64{}, StuckReasons: map[string]int64{}}
	var abandoned []*link
	t0 := time.Now()
	for _, c := range f.chargers {
		l := c.detach(nil)
		if l == nil {
			continue
		}
		res.Dropped++
		l.quiet.Store(true)
		l.abandoned.Store(true)
		if o.StormDrop == StormClose {
			_ = l.ws.UnderlyingConn().Close()
		} else {
			abandoned = append(abandoned, l) // left open, never read again by us
		}
	}
	ctx, cancel := context.WithDeadline(ctx, t0.Add(o.StormTimeout))
	defer cancel()
	var mu sync.Mutex
	var recovered atomic.Int64
	var last atomic.Int64
	sem := make(chan struct{}, o.DialConcurrency)
	var wg sync.WaitGroup
	for _, c := range f.chargers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for attempt := 0; ; attempt++ {
				var reason string
				select {
				case sem <- struct{}{}:
					reason = f.connectOne(ctx, c)
					<-sem
				case <-ctx.Done():
					reason = "not dialled before the storm timeout"
				}
				if reason == "" {
					now := time.Now()
					res.Recovery.Record(now.Sub(t0))
					storeMax(&last, now.UnixNano())
					recovered.Add(1)
					return
				}
				mu.Lock()
				res.Refusals[reason]++
				mu.Unlock()
				if ctx.Err() != nil || !sleepCtx(ctx, backoff(attempt)) {
					mu.Lock()
					res.StuckReasons[reason]++
					mu.Unlock()
					return
				}
			}
		}()
	}
	wg.Wait()
	for _, l := range abandoned {
		_ = l.ws.UnderlyingConn().Close()
	}
	res.Recovered = int(recovered.Load())
	res.Stuck = len(f.chargers) - res.Recovered
	if l := last.Load(); l > 0 {
		res.Seconds = time.Duration(l - t0.UnixNano()).Seconds()
	}
	if len(res.Refusals) == 0 {
		res.Refusals = nil
	}
	if len(res.StuckReasons) == 0 {
		res.StuckReasons = nil
	}
	f.mu.Lock()
	f.result.Storm = res
	f.mu.Unlock()
	return nil
}
