package testutil

import (
	"net"
	"testing"
	"time"
)

// WaitTimeout is how long Eventually waits by default: long enough for a loaded CI machine,
// and a passing test never waits for it.
const WaitTimeout = 15 * time.Second

// Eventually waits until cond holds, checking every 10 ms, and fails the test naming what it
// waited for when WaitTimeout passes first. Tests wait on the condition they assert instead
// of sleeping a guessed time.
func Eventually(t testing.TB, what string, cond func() bool) {
	t.Helper()
	EventuallyWithin(t, WaitTimeout, what, cond)
}

// EventuallyWithin is Eventually with its own deadline.
func EventuallyWithin(t testing.TB, within time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waited %s for %s", within, what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Never checks for the whole of d that cond stays false, and fails the test naming what
// happened when it becomes true: the check that something does not happen (a mail not sent,
// an event not opened) within a window.
func Never(t testing.TB, d time.Duration, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(d); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if cond() {
			t.Fatalf("%s (within %s)", what, d)
		}
	}
	if cond() {
		t.Fatalf("%s (within %s)", what, d)
	}
}

// FreeAddr is a loopback address whose port was free a moment ago: for a listener a test
// starts by address (a node's --ocpp-addr).
func FreeAddr(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}
