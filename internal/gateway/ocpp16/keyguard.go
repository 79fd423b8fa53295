package ocpp16

import (
	"log/slog"
	"net/http"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"

	"chargeops/internal/fleet"
)

// checkKey admits a connection by its Basic-auth key (security profiles 1 and 2) under the key
// back-off (docs/gateway.md, "Key guesses"): an SN or address in a back-off is refused with
// HTTP 429 and Retry-After before its key is looked at; a wrong or missing key is counted
// (per SN and per address, in the database, so across nodes) and refused with 401; the right
// key clears the SN's count. It reports whether the key was accepted (otherwise it answered)
// and whether the key breaks the 16-40 rule (a key set before the rule: accepted, flagged).
func (g *Gateway) checkKey(w http.ResponseWriter, r *http.Request, dev *fleet.Device) (ok, weak bool) {
	ctx := r.Context()
	sn := dev.SN
	// One key check of an SN at a time on this node: a burst of concurrent guesses is checked
	// one by one, so those after the limit find the back-off instead of all reading none.
	defer g.keyTurns.take(sn)()
	a := fleet.KeyAttempt{SN: sn, Addr: g.clientIP(r), Backoff: g.opt.KeyBackoff}
	state, err := g.fleet.KeyBlocked(ctx, a)
	if err != nil {
		slog.Warn("ocpp key back-off not read", "sn", sn, "err", err)
		http.Error(w, "unavailable", http.StatusServiceUnavailable)
		return false, false
	}
	if state.Wait > 0 {
		g.backoff(w, r, sn, state.Wait)
		return false, false
	}
	user, pass, ok := r.BasicAuth()
	if !ok || user != sn || !g.fleet.CheckAuthKey(sn, pass, dev.AuthKeyHash) {
		wait, err := g.fleet.KeyFailed(ctx, a)
		if err != nil {
			slog.Warn("ocpp wrong key not counted", "sn", sn, "err", err)
		}
		if wait > 0 {
			slog.Warn("ocpp key back-off started", "sn", sn, "addr", a.Addr, "retry_after", wait.String())
		}
		g.refuse(w, r, sn, fleet.RefuseWrongKey, http.StatusUnauthorized)
		return false, false
	}
	if state.SNFailures {
		if err := g.fleet.KeyAccepted(ctx, sn); err != nil {
			slog.Warn("ocpp wrong keys not cleared", "sn", sn, "err", err)
		}
	}
	if weak = !fleet.ValidAuthKey(pass); weak {
		// A key stored before the 16-40 rule keeps working, flagged (docs/gateway.md, "Key guesses").
		slog.Warn("ocpp charger key outside 16-40 characters: set a new one", "sn", sn, "length", utf8.RuneCountInString(pass))
	}
	return true, weak
}

// backoff refuses an attempt during a key back-off: 429 with Retry-After in whole seconds.
func (g *Gateway) backoff(w http.ResponseWriter, r *http.Request, sn string, wait time.Duration) {
	g.keyBackoff.Add(1)
	w.Header().Set("Retry-After", strconv.FormatInt(int64((wait+time.Second-1)/time.Second), 10))
	g.refuse(w, r, sn, fleet.RefuseKeyBackoff, http.StatusTooManyRequests)
}

// weakKeyFlag marks, in the protocol log's open row, a connection admitted with a key outside
// 16-40 characters.
const weakKeyFlag = "key-length-outside-16-40"

// keyTurns serialises the key checks of each SN on a node (a lock per SN in flight, none kept
// for SNs without a check running).
type keyTurns struct {
	mu sync.Mutex
	m  map[string]*keyTurn
}

type keyTurn struct {
	mu      sync.Mutex
	waiting int // under keyTurns.mu: checks holding or waiting for mu
}

// take waits for sn's turn and returns the function that ends it.
func (k *keyTurns) take(sn string) func() {
	k.mu.Lock()
	if k.m == nil {
		k.m = map[string]*keyTurn{}
	}
	t := k.m[sn]
	if t == nil {
		t = &keyTurn{}
		k.m[sn] = t
	}
	t.waiting++
	k.mu.Unlock()
	t.mu.Lock()
	return func() {
		t.mu.Unlock()
		k.mu.Lock()
		if t.waiting--; t.waiting == 0 {
			delete(k.m, sn)
		}
		k.mu.Unlock()
	}
}
