package bench

import (
	"context"
	"math"
	"sync"
	"time"
)

// loadJob is the k-th message of the schedule and when it is due.
type loadJob struct {
	k   int64
	due time.Time
}

// loadWorkers is how many goroutines write the scheduled messages: a socket the server stops
// reading (backpressure) holds one of them, not the schedule.
const loadWorkers = 256

// Load sends MeterValues (2.0.1 with LoadTransactionEvent: TransactionEvent Updated) at Rate
// per second for Duration, open loop: message k is due at
// start + k/Rate whatever the answers of earlier ones, charger k mod N sends it, and it is
// sent even when that charger's previous MeterValues is still unanswered (counted as a busy
// send). A message that leaves more than LateAfter after its time is counted late; the lag of
// every send is recorded. After the schedule, answers are awaited up to Timeout.
func (f *Fleet) Load(ctx context.Context) error {
	o := f.opt
	total := int64(math.Round(o.Rate * o.Duration.Seconds()))
	res := &LoadResult{Message: f.d.names[f.loadKind], OfferedRate: o.Rate, Seconds: o.Duration.Seconds(), Scheduled: total}
	meter := &f.kinds[f.loadKind]
	sent0, ans0, err0, to0, se0 := meter.sent.Load(), meter.answered.Load(), meter.callErrors.Load(), meter.timeouts.Load(), meter.sendErrors.Load()
	drops0 := f.drops.Load()
	jobs := make(chan loadJob, 8192)
	var wg sync.WaitGroup
	for range min(loadWorkers, len(f.chargers)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var buf, payload []byte
			for j := range jobs {
				f.sendMeter(j, &buf, &payload)
			}
		}()
	}
	start := time.Now()
	due := func(k int64) time.Time { return start.Add(time.Duration(float64(k) / o.Rate * float64(time.Second))) }
	var k int64
schedule:
	for k < total {
		now := time.Now()
		for ; k < total && !due(k).After(now); k++ {
			select {
			case jobs <- loadJob{k: k, due: due(k)}:
			case <-ctx.Done():
				break schedule
			}
		}
		if k < total && !sleepCtx(ctx, min(time.Until(due(k)), 5*time.Millisecond)) {
			break
		}
	}
	close(jobs)
	wg.Wait()
	// Answers still on their way: wait for them (the sweeper times out the rest).
	for deadline := time.Now().Add(o.Timeout + time.Second); time.Now().Before(deadline) && ctx.Err() == nil; {
		done := meter.answered.Load() + meter.callErrors.Load() + meter.timeouts.Load() - ans0 - err0 - to0
		if done >= meter.sent.Load()-sent0 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	res.Sent = meter.sent.Load() - sent0
	res.Answered = meter.answered.Load() - ans0
	res.CallErrors = meter.callErrors.Load() - err0
	res.Timeouts = meter.timeouts.Load() - to0
	res.SendErrors = meter.sendErrors.Load() - se0
	res.Late, res.BusySends = f.late.Load(), f.busy.Load()
	res.Drops = f.drops.Load() - drops0
	if last := f.lastAnswer.Load(); last > start.UnixNano() {
		res.AnsweredSeconds = time.Duration(last - start.UnixNano()).Seconds()
	}
	res.Achieved = rate(float64(res.Answered), max(res.Seconds, res.AnsweredSeconds))
	res.RTT = &Histogram{}
	res.RTT.Merge(&meter.rtt)
	res.Lag = &Histogram{}
	res.Lag.Merge(&f.lag)
	f.mu.Lock()
	f.result.Load = res
	f.mu.Unlock()
	return ctx.Err()
}

// sendMeter sends one scheduled load message.
func (f *Fleet) sendMeter(j loadJob, buf, payload *[]byte) {
	c := f.chargers[j.k%int64(len(f.chargers))]
	now := time.Now()
	lag := now.Sub(j.due)
	f.lag.Record(lag)
	if lag > LateAfter {
		f.late.Add(1)
	}
	if c.meterBusy.Add(1) > 1 {
		f.busy.Add(1)
	}
	switch {
	case f.loadKind == kindTxUpdated:
		*payload = txUpdatedPayload201((*payload)[:0], c.txID, c.seq.Add(1), j.k, f.opt.MeterValues, now)
	case f.v201:
		*payload = meterPayload201((*payload)[:0], j.k, f.opt.MeterValues, now)
	default:
		*payload = meterPayload((*payload)[:0], c.tx.Load(), j.k, f.opt.MeterValues, now)
	}
	kind := f.loadKind
	ok := f.send(c, kind, func(id uint64) []byte {
		*buf = callFrame((*buf)[:0], id, f.d.actions[kind], *payload)
		return *buf
	})
	if !ok {
		c.meterBusy.Add(-1)
	}
}
