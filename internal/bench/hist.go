package bench

import (
	"encoding/json"
	"fmt"
	"math/bits"
	"strconv"
	"sync/atomic"
	"time"
)

// Histogram records durations in microseconds in log-linear buckets (HDR style: 64 buckets per
// power of two, under 1.6 % error) with lock-free recording, so thousands of connections can
// record at once. Histograms of several processes merge exactly (their bucket counts add up).
type Histogram struct {
	counts [histBuckets]atomic.Uint64
	n      atomic.Uint64
	sum    atomic.Uint64 // µs
	max    atomic.Uint64 // µs
}

const (
	histSubBits = 7 // 2^7 exact values below 128 µs, then 64 buckets per power of two
	histSub     = 1 << histSubBits
	histHalf    = histSub / 2
	histBuckets = histSub + (64-histSubBits)*histHalf
)

// bucketOf is the bucket of v µs.
func bucketOf(v uint64) int {
	if v < histSub {
		return int(v)
	}
	shift := bits.Len64(v) - histSubBits // ≥ 1
	top := v >> uint(shift)              // in [histHalf, histSub)
	return histSub + (shift-1)*histHalf + int(top-histHalf)
}

// bucketLow is the smallest value of bucket i, and bucketHigh the largest.
func bucketLow(i int) uint64 {
	if i < histSub {
		return uint64(i)
	}
	shift := (i-histSub)/histHalf + 1
	top := uint64((i-histSub)%histHalf + histHalf)
	return top << uint(shift)
}

func bucketHigh(i int) uint64 {
	if i < histSub {
		return uint64(i)
	}
	shift := (i-histSub)/histHalf + 1
	return bucketLow(i) + (1 << uint(shift)) - 1
}

// Record adds one duration (negative counts as zero).
func (h *Histogram) Record(d time.Duration) {
	v := uint64(max(d.Microseconds(), 0))
	h.counts[bucketOf(v)].Add(1)
	h.n.Add(1)
	h.sum.Add(v)
	for {
		m := h.max.Load()
		if v <= m || h.max.CompareAndSwap(m, v) {
			return
		}
	}
}

// Count is the number of recorded values.
func (h *Histogram) Count() uint64 { return h.n.Load() }

// Max is the largest recorded value.
func (h *Histogram) Max() time.Duration { return time.Duration(h.max.Load()) * time.Microsecond }

// Mean is the average recorded value.
func (h *Histogram) Mean() time.Duration {
	n := h.n.Load()
	if n == 0 {
		return 0
	}
	return time.Duration(h.sum.Load()/n) * time.Microsecond
}

// Quantile is the value below which a fraction q (0-1) of the recorded values lie: the middle
// of the bucket holding it, never above the maximum.
func (h *Histogram) Quantile(q float64) time.Duration {
	n := h.n.Load()
	if n == 0 {
		return 0
	}
	rank := uint64(q*float64(n) + 0.5)
	rank = min(max(rank, 1), n)
	var seen uint64
	for i := range h.counts {
		seen += h.counts[i].Load()
		if seen >= rank {
			v := (bucketLow(i) + bucketHigh(i)) / 2
			return time.Duration(min(v, h.max.Load())) * time.Microsecond
		}
	}
	return h.Max()
}

// Merge adds o's values to h.
func (h *Histogram) Merge(o *Histogram) {
	for i := range o.counts {
		if c := o.counts[i].Load(); c > 0 {
			h.counts[i].Add(c)
		}
	}
	h.n.Add(o.n.Load())
	h.sum.Add(o.sum.Load())
	for {
		m, v := h.max.Load(), o.max.Load()
		if v <= m || h.max.CompareAndSwap(m, v) {
			return
		}
	}
}

// histJSON is a histogram on the wire: a summary to read, the non-empty buckets to merge.
type histJSON struct {
	Count   uint64            `json:"count"`
	P50ms   float64           `json:"p50Ms"`
	P99ms   float64           `json:"p99Ms"`
	MaxMs   float64           `json:"maxMs"`
	MeanMs  float64           `json:"meanMs"`
	SumUs   uint64            `json:"sumUs"`
	MaxUs   uint64            `json:"maxUs"`
	Buckets map[string]uint64 `json:"buckets,omitempty"`
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// MarshalJSON writes the summary and the buckets.
func (h *Histogram) MarshalJSON() ([]byte, error) {
	out := histJSON{Count: h.n.Load(), P50ms: ms(h.Quantile(0.5)), P99ms: ms(h.Quantile(0.99)), MaxMs: ms(h.Max()),
		MeanMs: ms(h.Mean()), SumUs: h.sum.Load(), MaxUs: h.max.Load(), Buckets: map[string]uint64{}}
	for i := range h.counts {
		if c := h.counts[i].Load(); c > 0 {
			out.Buckets[strconv.Itoa(i)] = c
		}
	}
	return json.Marshal(out)
}

// UnmarshalJSON reads what MarshalJSON wrote (the summary is recomputed from the buckets).
func (h *Histogram) UnmarshalJSON(b []byte) error {
	var in histJSON
	if err := json.Unmarshal(b, &in); err != nil {
		return err
	}
	for k, c := range in.Buckets {
		i, err := strconv.Atoi(k)
		if err != nil || i < 0 || i >= histBuckets {
			return fmt.Errorf("histogram bucket %q out of range", k)
		}
		h.counts[i].Store(c)
	}
	h.n.Store(in.Count)
	h.sum.Store(in.SumUs)
	h.max.Store(in.MaxUs)
	return nil
}
