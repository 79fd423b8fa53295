package httpapi

import (
	"testing"
	"time"
)

func TestInboundRateMeter(t *testing.T) {
	t.Parallel()
	var m rateMeter
	start := time.Unix(1000, 0)
	if got := m.rate(500, start.Add(10*time.Second), start); got != 50 {
		t.Fatalf("first reading: the average since the start, got %v", got)
	}
	if got := m.rate(900, start.Add(12*time.Second), start); got != 50 {
		t.Fatalf("within the window the rate holds, got %v", got)
	}
	if got := m.rate(1500, start.Add(20*time.Second), start); got != 100 {
		t.Fatalf("over the last window: 1000 messages in 10 s, got %v", got)
	}
}
