// Package memstat is the body of the debug endpoint `POST /debug/gc` that `chargeops bench`
// reads on a chargeops node and on the bare ocpp-go baseline: the process's memory right after
// a full collection, so that garbage left by set-up (handshakes, boots, transactions) does not
// count as memory held per connection.
package memstat

import (
	"encoding/json"
	"net/http"
	"runtime"
	"runtime/debug"
)

// Snapshot is the process's memory after two collections and a return of freed pages.
type Snapshot struct {
	HeapInuse   uint64 `json:"heapInuse"`   // bytes in in-use heap spans
	StackInuse  uint64 `json:"stackInuse"`  // bytes of goroutine stacks
	HeapLive    uint64 `json:"heapLive"`    // bytes of live heap objects (HeapAlloc after GC)
	HeapObjects uint64 `json:"heapObjects"` // live heap objects
	Goroutines  int    `json:"goroutines"`
	Sys         uint64 `json:"sys"` // bytes obtained from the OS
}

// Held is the memory that connections hold: in-use heap spans plus goroutine stacks.
func (s Snapshot) Held() uint64 { return s.HeapInuse + s.StackInuse }

// Collect runs the garbage collector twice (finalizers of the first may free more), returns
// freed memory to the OS and reads the memory statistics.
func Collect() Snapshot {
	runtime.GC()
	runtime.GC()
	debug.FreeOSMemory()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return Snapshot{HeapInuse: m.HeapInuse, StackInuse: m.StackInuse, HeapLive: m.HeapAlloc, HeapObjects: m.HeapObjects,
		Goroutines: runtime.NumGoroutine(), Sys: m.Sys}
}

// Handler answers a Snapshot as JSON. It stops the world for the collections: mount it only
// behind the same guard as /metrics.
func Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.Header().Set("Allow", http.MethodPost)
			http.Error(w, "POST only", http.StatusMethodNotAllowed)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		_ = json.NewEncoder(w).Encode(Collect())
	})
}
