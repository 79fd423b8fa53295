package ocpp16

import (
	"testing"
	"time"
)

// The per-charger bucket: burst, refill at the rate, a refused take costs nothing, and
// refilled buckets are dropped so the map holds only recent senders.
func TestMeterBucket(t *testing.T) {
	t.Parallel()
	var b meterBuckets
	t0 := time.Unix(1_000_000, 0)
	t.Run("the burst is taken, then the rest waits for the refill", func(t *testing.T) {
		if w := b.take("A", MeterBurst, t0); w != 0 {
			t.Fatalf("burst refused, wait %v", w)
		}
		if w := b.take("A", MaxSampledValues, t0); w != MaxSampledValues*time.Second/MeterRatePerSecond {
			t.Fatalf("wait %v, want %v", w, MaxSampledValues*time.Second/MeterRatePerSecond)
		}
		if w := b.take("A", MeterRatePerSecond, t0.Add(time.Second)); w != 0 {
			t.Fatalf("a second's share refused after a refused take: wait %v", w)
		}
	})
	t.Run("another charger has its own share", func(t *testing.T) {
		if w := b.take("B", MaxSampledValues, t0.Add(time.Second)); w != 0 {
			t.Fatalf("charger B refused: wait %v", w)
		}
	})
	t.Run("refilled buckets are dropped", func(t *testing.T) {
		b.take("C", 1, t0.Add(2*time.Minute))
		if _, ok := b.m["A"]; ok || len(b.m) != 1 {
			t.Fatalf("buckets kept: %d", len(b.m))
		}
	})
}
