package ocpp16_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	ocpp "github.com/lorenzodonini/ocpp-go/ocpp1.6"
	"github.com/lorenzodonini/ocpp-go/ocpp1.6/core"
	"github.com/lorenzodonini/ocpp-go/ocpp1.6/remotetrigger"
	ocppws "github.com/lorenzodonini/ocpp-go/ws"

	"chargeops/internal/config"
	"chargeops/internal/db"
	"chargeops/internal/fleet"
	"chargeops/internal/fleet/fleettest"
	"chargeops/internal/fleet/read"
	"chargeops/internal/testutil"
	"chargeops/internal/testutil/apitest"
)

// The connection life cycle (docs/gateway.md, "Connections" and "Admission"): the newest of a
// charger's sockets wins whatever order their steps interleave in, and a charger left Pending
// becomes the device an admin adds without reconnecting.

// quietClient is ocpp-go's WebSocket client that does not reconnect by itself during a test, so
// a socket the gateway closes stays closed.
func quietClient() *ocppws.Client {
	c := ocppws.NewClient()
	cfg := ocppws.NewClientTimeoutConfig()
	cfg.RetryBackOffWaitMinimum = time.Hour
	c.SetTimeoutConfig(cfg)
	return c
}

// noteTrigger notes a TriggerMessage and answers Accepted without sending the message (the
// test sends it itself, while the charge point is surely connected).
type noteTrigger struct{ *cpHandler }

func (h noteTrigger) OnTriggerMessage(r *remotetrigger.TriggerMessageRequest) (*remotetrigger.TriggerMessageConfirmation, error) {
	h.note("TriggerMessage " + string(r.RequestedMessage))
	return remotetrigger.NewTriggerMessageConfirmation(remotetrigger.TriggerMessageStatusAccepted), nil
}

// liveView is what the node says of one charger: its registry, device_state and the console.
type liveView struct {
	registered bool
	regConn    string
	online     bool
	stateConn  string
	apiOnline  bool
	apiStatus  int
}

func (v liveView) String() string {
	return fmt.Sprintf("registry %v %q, device_state online %v %q, console online %v status %d",
		v.registered, v.regConn, v.online, v.stateConn, v.apiOnline, v.apiStatus)
}

func viewOf(t *testing.T, env *apitest.Env, root *apitest.Client, id int64, sn string) liveView {
	t.Helper()
	var v liveView
	if l, ok := env.App.Fleet.Registry.Lookup(sn); ok {
		v.registered, v.regConn = true, l.ConnID()
	}
	var online int
	err := env.DB.QueryRow(context.Background(), `SELECT online, conn_id FROM device_state WHERE device_id = ?`, id).Scan(&online, &v.stateConn)
	if err != nil && !db.NotFound(err) {
		t.Fatal(err)
	}
	v.online = online == 1
	var rt read.RuntimeView
	apitest.Must(t, root.Call("GET", "/api/auth/sys/dev/runtime/detail", map[string]any{"id": id})).Into(t, &rt)
	v.apiOnline, v.apiStatus = rt.Online, rt.Status
	return v
}

// agrees reports whether the node's view matches the sockets really open (the ones the charge
// points still hold): one open socket is registered, recorded online under its conn_id and
// shown online; none means nothing registered and Offline everywhere.
func (v liveView) agrees(open int) bool {
	switch open {
	case 0:
		return !v.registered && !v.online && !v.apiOnline && v.apiStatus == fleet.StatusOffline
	case 1:
		return v.registered && v.online && v.stateConn == v.regConn && v.apiOnline && v.apiStatus != fleet.StatusOffline
	}
	return false
}

// settle waits until at most one of the charge points is still connected and the node agrees
// with that (twice in a row, so a late step would show), and returns the open one (-1: none).
func settle(t *testing.T, env *apitest.Env, root *apitest.Client, id int64, sn string, cps []ocpp.ChargePoint) int {
	t.Helper()
	var last liveView
	lastOpen, stable := -2, 0
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(25 * time.Millisecond) {
		open := -1
		n := 0
		for i, cp := range cps {
			if cp.IsConnected() {
				open, n = i, n+1
			}
		}
		last = viewOf(t, env, root, id, sn)
		if n > 1 || !last.agrees(n) {
			stable = 0
			continue
		}
		if open == lastOpen {
			stable++
		} else {
			lastOpen, stable = open, 1
		}
		if stable >= 3 {
			return open
		}
	}
	open := 0
	for _, cp := range cps {
		if cp.IsConnected() {
			open++
		}
	}
	t.Fatalf("the node disagrees with the %d open socket(s): %v", open, last)
	return -1
}

func TestNewestConnectionWins(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		env := apitest.New(t, d, func(c *config.Config) { c.CommandTimeout, c.DataDir = 5*time.Second, t.TempDir() })
		org := fleettest.Seed(t, d)
		const sn = "SN-RACE"
		id := fleettest.Device(t, d, org, org.CustomerA, org.SiteA, sn)
		root := env.Root()
		base := wsBase(env)
		rng := rand.New(rand.NewPCG(22, uint64(time.Now().UnixNano())))

		// round opens n sockets of the SN (all at once, or one after another with the given
		// pause), closes the one at index closeAt right after opening it (-1: none), and checks
		// that the node agrees with the socket left open and that a command reaches it.
		round := func(t *testing.T, n int, together bool, pause time.Duration, closeAt int) {
			t.Helper()
			cps := make([]ocpp.ChargePoint, n)
			hs := make([]*cpHandler, n)
			open := func(i int) {
				cp, h, err := startCPWith(t, quietClient(), base, sn, "")
				if err != nil {
					t.Error(err)
					return
				}
				cps[i], hs[i] = cp, h
				if i == closeAt {
					h.stop()
				}
			}
			if together {
				var wg sync.WaitGroup
				for i := range n {
					wg.Add(1)
					go func() { defer wg.Done(); open(i) }()
				}
				wg.Wait()
			} else {
				for i := range n {
					open(i)
					time.Sleep(pause)
				}
			}
			if t.Failed() {
				t.FailNow()
			}
			survivor := settle(t, env, root, id, sn, cps)
			if !together {
				// One after another, the last admission is the newest: it wins, or nothing does
				// when it was closed.
				want := n - 1
				if closeAt == n-1 {
					want = -1
				}
				if survivor != want {
					t.Fatalf("socket %d of %d is open, want %d (closed: %d)", survivor, n, want, closeAt)
				}
			}
			if survivor >= 0 {
				h := hs[survivor]
				h.mu.Lock()
				before := len(h.got)
				h.mu.Unlock()
				if v := sendOne(t, root, id, fleet.CtlSoftReset, nil); v.Result != fleet.ResultSuccess {
					t.Fatalf("command to the open socket: result %d %s", v.Result, v.Message)
				}
				h.mu.Lock()
				got := h.got[before:]
				h.mu.Unlock()
				if len(got) != 1 || got[0] != "Reset Soft" {
					t.Fatalf("the open socket got %v, want one Reset Soft", got)
				}
			}
			for _, h := range hs {
				h.stop()
			}
			settle(t, env, root, id, sn, cps)
		}

		t.Run("sockets opened at once", func(t *testing.T) {
			for i := range 40 {
				round(t, 2+i%2, true, 0, -1)
			}
		})
		t.Run("sockets opened one after another", func(t *testing.T) {
			for i := range 20 {
				round(t, 2+i%2, false, 0, -1)
			}
		})
		t.Run("sockets opened with pauses", func(t *testing.T) {
			for i := range 10 {
				round(t, 2+i%2, false, time.Duration(rng.IntN(30))*time.Millisecond, -1)
			}
		})
		t.Run("some sockets closed at once", func(t *testing.T) {
			for i := range 30 {
				n := 2 + i%2
				round(t, n, i%3 == 0, 0, rng.IntN(n))
			}
		})
	})
}

func TestPendingChargerBecomesTheAddedDevice(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		env := apitest.New(t, d, func(c *config.Config) {
			c.OCPPAllowUnknown, c.CommandTimeout, c.DataDir = true, 5*time.Second, t.TempDir()
		})
		org := fleettest.Seed(t, d)
		root := env.Root()
		base := wsBase(env)
		add := func(t *testing.T, sn string) int64 {
			t.Helper()
			var added struct {
				ID int64 `json:"id"`
			}
			apitest.Must(t, root.Call("POST", "/api/auth/sys/dev/basic/add", map[string]any{"sn": sn, "name": "Charger " + sn,
				"modelId": org.ModelID, "siteId": org.SiteA})).Into(t, &added)
			return added.ID
		}
		opens := func(t *testing.T, sn string) int {
			t.Helper()
			var n int
			if err := d.QueryRow(context.Background(), `SELECT COUNT(*) FROM protocol_log WHERE sn = ? AND type = ?`, sn, fleet.LogOpen).Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n
		}

		t.Run("the open socket goes online, boots Accepted and takes commands", func(t *testing.T) {
			const sn = "SN-PEND-1"
			cp, h, err := startCPWith(t, quietClient(), base, sn, "")
			if err != nil {
				t.Fatal(err)
			}
			cp.SetRemoteTriggerHandler(noteTrigger{h})
			boot, err := cp.BootNotification("AC-22", "Test")
			if err != nil || boot.Status != core.RegistrationStatusPending {
				t.Fatalf("unknown charger boot: %+v %v", boot, err)
			}
			id := add(t, sn)
			waitFor(t, "the console to show the charger online", func() bool {
				v := viewOf(t, env, root, id, sn)
				return v.apiOnline && v.apiStatus != fleet.StatusOffline && v.agrees(1)
			})
			waitFor(t, "the gateway to ask for a boot", func() bool {
				h.mu.Lock()
				defer h.mu.Unlock()
				return strings.Contains(strings.Join(h.got, "|"), "TriggerMessage BootNotification")
			})
			boot, err = cp.BootNotification("AC-22", "Test")
			if err != nil || boot.Status != core.RegistrationStatusAccepted {
				t.Fatalf("boot after the device was added: %+v %v", boot, err)
			}
			if _, err := cp.StatusNotification(1, core.NoError, core.ChargePointStatusAvailable); err != nil {
				t.Fatalf("status notification after the device was added: %v", err)
			}
			if v := sendOne(t, root, id, fleet.CtlSoftReset, nil); v.Result != fleet.ResultSuccess {
				t.Fatalf("command to the adopted charger: result %d %s", v.Result, v.Message)
			}
			if !cp.IsConnected() || opens(t, sn) != 1 {
				t.Fatalf("the charger reconnected (connected %v, %d opens)", cp.IsConnected(), opens(t, sn))
			}
			h.stop()
			waitFor(t, "offline after the charger left", func() bool { return viewOf(t, env, root, id, sn).agrees(0) })
		})

		t.Run("a device that needs a key closes the Pending socket", func(t *testing.T) {
			const sn = "SN-PEND-KEY"
			cp, _, err := startCPWith(t, quietClient(), base, sn, "")
			if err != nil {
				t.Fatal(err)
			}
			if boot, err := cp.BootNotification("AC-22", "Test"); err != nil || boot.Status != core.RegistrationStatusPending {
				t.Fatalf("unknown charger boot: %+v %v", boot, err)
			}
			// The device is added with a key (as the register would give it one), so only a
			// connection that shows the key may be its.
			id := fleettest.Device(t, d, org, org.CustomerA, org.SiteA, sn)
			if _, err := d.Exec(context.Background(), `UPDATE device SET auth_key_hash = ? WHERE id = ?`, env.App.Fleet.HashAuthKey(sn, "pendKey00000001"), id); err != nil {
				t.Fatal(err)
			}
			if err := env.App.Fleet.DeviceChanged(context.Background(), id); err != nil {
				t.Fatal(err)
			}
			waitFor(t, "the Pending socket to be closed", func() bool { return !cp.IsConnected() })
			// the charger sees its socket closed before the server has let it go: wait for the
			// registry too, then every view must say offline
			waitFor(t, "the closed Pending socket to leave the registry", func() bool { return viewOf(t, env, root, id, sn).agrees(0) })
			if v := viewOf(t, env, root, id, sn); !v.agrees(0) {
				t.Fatalf("a charger that showed no key is recorded: %v", v)
			}
			if _, _, err := startCPWith(t, quietClient(), base, sn, ""); httpCode(err) != 401 {
				t.Fatalf("reconnecting without the key: %v, want HTTP 401", err)
			}
			cp2, _, err := startCPWith(t, quietClient(), base, sn, "pendKey00000001")
			if err != nil {
				t.Fatalf("reconnecting with the key: %v", err)
			}
			if boot, err := cp2.BootNotification("AC-22", "Test"); err != nil || boot.Status != core.RegistrationStatusAccepted {
				t.Fatalf("boot with the key: %+v %v", boot, err)
			}
			waitFor(t, "online with the key", func() bool { return viewOf(t, env, root, id, sn).agrees(1) })
		})
	})
}
