package openapi

import (
	"testing"
	"time"
)

func TestPercentile(t *testing.T) {
	b := func(counts map[int]int64) []int64 {
		out := make([]int64, len(LatencyBounds)+1)
		for i, c := range counts {
			out[i] = c
		}
		return out
	}
	for _, c := range []struct {
		name    string
		buckets []int64
		q, want float64
	}{
		{"no calls", b(nil), 0.5, 0},
		{"the first bucket starts at 0", b(map[int]int64{0: 4}), 0.5, 2.5},
		{"the rank at a bucket's end is its upper bound", b(map[int]int64{0: 5, 2: 5}), 0.5, 5},
		{"interpolated within the bucket of the rank", b(map[int]int64{0: 4, 2: 4, 6: 2}), 0.5, 13.75},
		{"empty buckets are skipped", b(map[int]int64{0: 1, 9: 1}), 0.99, 4950},
		{"the open bucket reads as the last bound", b(map[int]int64{0: 1, 11: 9}), 0.9, 10000},
		{"a small share in the open bucket does not move p50", b(map[int]int64{3: 9, 11: 1}), 0.5, 38.889},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := Percentile(c.buckets, c.q); got != c.want {
				t.Errorf("Percentile(q=%v) = %v, want %v", c.q, got, c.want)
			}
		})
	}
}

func TestDaysOfTheConsolesTimeZone(t *testing.T) {
	hk, err := time.LoadLocation("Asia/Hong_Kong")
	if err != nil {
		t.Fatal(err)
	}
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Fatal(err)
	}
	at := func(loc *time.Location, y int, m time.Month, d, h int) int64 {
		return time.Date(y, m, d, h, 0, 0, 0, loc).UnixMilli()
	}
	r := &Reader{loc: hk}
	// 07:00 UTC on 10 March is 15:00 in Hong Kong; 23:30 UTC on 9 March is already 10 March there.
	if got, want := r.day(at(time.UTC, 2025, 3, 10, 7)), at(hk, 2025, 3, 10, 0); got != want {
		t.Errorf("day = %d, want %d", got, want)
	}
	if got, want := r.day(time.Date(2025, 3, 9, 23, 30, 0, 0, time.UTC).UnixMilli()), at(hk, 2025, 3, 10, 0); got != want {
		t.Errorf("late UTC evening: day = %d, want %d", got, want)
	}
	// A day with a DST change has 23 hours, and the next day starts at its midnight.
	r = &Reader{loc: ny}
	if got, want := r.nextDay(at(ny, 2025, 3, 9, 0)), at(ny, 2025, 3, 10, 0); got != want || want-at(ny, 2025, 3, 9, 0) != 23*3600_000 {
		t.Errorf("nextDay over DST = %d, want %d", got, want)
	}
}
