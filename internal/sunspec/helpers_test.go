package sunspec

import (
	"context"
	"math"
	"testing"
	"time"
)

// The test site: at noon PV exceeds the load (the battery charges in self-consumption), in the
// evening the load runs on the battery, at night a small load.
func testProfile(t time.Time) (loadW, pvW float64) {
	switch h := t.Hour(); {
	case h >= 10 && h < 16:
		return 5_000, 30_000
	case h >= 17 && h < 22:
		return 20_000, 0
	default:
		return 3_000, 0
	}
}

// at is a clock that stands at hh:mm UTC on a fixed day, so the ticker never moves the state.
func at(hh, mm int) func() time.Time {
	t := time.Date(2025, 6, 21, hh, mm, 0, 0, time.UTC)
	return func() time.Time { return t }
}

// startSim starts a 100 kWh / 50 kW simulator at 50 % with the test profile.
func startSim(t *testing.T, clock func() time.Time, opts ...func(*SimOptions)) *Sim {
	t.Helper()
	opt := SimOptions{
		Vendor: "ChargeOps", Model: "ESS-100", Serial: "SN-42",
		CapacityWh: 100_000, RatedPowerW: 50_000, SoC: 50,
		Clock: clock, Profile: testProfile,
	}
	for _, o := range opts {
		o(&opt)
	}
	s, err := StartSim(opt)
	if err != nil {
		t.Fatalf("start sim: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func dial(t *testing.T, s *Sim) *Client {
	t.Helper()
	c, err := Dial(context.Background(), s.URL(), 1, 2*time.Second)
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func read(t *testing.T, c *Client) (map[string]any, []string) {
	t.Helper()
	v, a, err := c.Read(context.Background())
	if err != nil {
		t.Fatalf("read: %v", err)
	}
	return v, a
}

// num is a numeric value of a Read, failing the test when it is missing.
func num(t *testing.T, v map[string]any, name string) float64 {
	t.Helper()
	f, ok := v[name].(float64)
	if !ok {
		t.Fatalf("%s = %v (%T), want a number", name, v[name], v[name])
	}
	return f
}

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

func ptr[T any](v T) *T { return &v }
