package ingest

import "testing"

func TestBatchMergesRuntimeCountsPerDevice(t *testing.T) {
	b := &Batch{seen: map[int64]Seen{}}
	b.addSeen(&Seen{DeviceID: 1, ConnID: "a", At: 1000, Secs: 2, CountedAt: 900})
	b.addSeen(&Seen{DeviceID: 1, ConnID: "b", At: 3000, Secs: 1, CountedAt: 2900})
	b.addSeen(&Seen{DeviceID: 1, ConnID: "a", At: 2000, Secs: 4, CountedAt: 1900}) // arrives late
	b.addSeen(&Seen{DeviceID: 2, ConnID: "c", At: 500, Secs: 0, CountedAt: 0})
	b.addSeen(nil)
	want := map[int64]Seen{
		1: {DeviceID: 1, ConnID: "b", At: 3000, Secs: 7, CountedAt: 2900},
		2: {DeviceID: 2, ConnID: "c", At: 500},
	}
	if len(b.seen) != len(want) || b.seen[1] != want[1] || b.seen[2] != want[2] {
		t.Fatalf("merged %+v, want %+v", b.seen, want)
	}
}
