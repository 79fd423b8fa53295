package fleet

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strconv"
	"sync/atomic"
	"time"
)

// Admission order (docs/gateway.md, "Connections"): every connection gets an id at the
// handshake whose first 16 hex digits are its admission time in nanoseconds, strictly
// increasing on a node; the 8 after them are random, so ids stay unique across nodes. Of two
// connections of one SN the one with the higher order is the newer, and the newer wins: in
// device_state (Connected), in the registry (Register) and across nodes (natsreg's kick).

// lastOrder is the last admission order handed out on this node.
var lastOrder atomic.Int64

// NewConnID returns a connection id that orders after every id this node handed out before.
func NewConnID() string {
	var order int64
	for {
		last := lastOrder.Load()
		order = max(time.Now().UnixNano(), last+1)
		if lastOrder.CompareAndSwap(last, order) {
			break
		}
	}
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	return fmt.Sprintf("%016x", order) + hex.EncodeToString(b)
}

// ConnOrder is the admission order of a connection id; an id not made by NewConnID (a test's,
// or one recorded before ids were ordered) is 0, older than any ordered one.
func ConnOrder(connID string) int64 {
	if len(connID) != 24 {
		return 0
	}
	n, err := strconv.ParseInt(connID[:16], 16, 64)
	if err != nil || n < 0 {
		return 0
	}
	return n
}

// Older reports whether connection a was admitted before connection b. Two ids of the same
// order (unordered ids, both 0) are neither: the later to arrive replaces the other, as before
// ids were ordered.
func Older(a, b string) bool { return ConnOrder(a) < ConnOrder(b) }
