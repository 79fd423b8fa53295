package sitetest_test

import (
	"context"
	"fmt"
	"log/slog"
	"math"
	"sort"
	"sync"
	"testing"
	"time"

	"chargeops/internal/apperr"
	"chargeops/internal/config"
	"chargeops/internal/db"
	"chargeops/internal/fleet"
	"chargeops/internal/fleet/fleettest"
	"chargeops/internal/loadmgmt"
	"chargeops/internal/sim"
	"chargeops/internal/smartcharging"
	"chargeops/internal/testutil"
	"chargeops/internal/testutil/apitest"
)

// The site: 20 three-phase chargers (default 6-32 A) under 100 kW, 144.9 A per phase.
const (
	chargers   = 20
	sessions   = 12 // sessions on LMS00001 ... LMS00012
	limitKW    = 100.0
	volts      = loadmgmt.Volts
	profileTTL = 12 * time.Second
	leaseTTL   = 2 * time.Second
	tick       = 200 * time.Millisecond
	shareAfter = 5 * time.Second // a new session's share is applied within this
	refuser    = "LMS00006"      // answers Rejected to every profile
	cutOff     = "LMS00008"      // OCPP 2.0.1; loses its connection in the fallback step
	stopped    = "LMS00001"      // its session ends in the last step
)

var phaseLimitA = limitKW * 1000 / (volts * 3) // 144.927 A

// allocation is a power_allocation row of the site.
type allocation struct {
	device, tx int64
	connector  int
	limitA     float64
	phases     int
	state      int
	message    string
}

// readAllocations reads the site's allocations by device (one connector per charger here).
func readAllocations(d *db.DB, siteID int64) (map[int64]allocation, error) {
	rows, err := d.Query(context.Background(), `SELECT device_id, connector_id, transaction_id, limit_a, phases, state, message
		FROM power_allocation WHERE site_id = ?`, siteID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	m := map[int64]allocation{}
	for rows.Next() {
		var a allocation
		if err := rows.Scan(&a.device, &a.connector, &a.tx, &a.limitA, &a.phases, &a.state, &a.message); err != nil {
			return nil, err
		}
		m[a.device] = a
	}
	return m, rows.Err()
}

func allocations(t testing.TB, d *db.DB, siteID int64) map[int64]allocation {
	t.Helper()
	m, err := readAllocations(d, siteID)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// phaseSums is what the site's allocations put on each phase: every charger is three-phase and
// 6-32 A here, a refused one counts at its maximum (32 A) whatever its row says.
func phaseSums(as map[int64]allocation) [3]float64 {
	var s [3]float64
	for _, a := range as {
		v := a.limitA
		if a.state == loadmgmt.StateRefused {
			v = loadmgmt.DefaultMaxA
		}
		for p := range s {
			if a.phases != 1 || p == 0 {
				s[p] += v
			}
		}
	}
	return s
}

// controlledSum is the sum of the limits of the sessions that are not refused.
func controlledSum(as map[int64]allocation) float64 {
	sum := 0.0
	for _, a := range as {
		if a.state != loadmgmt.StateRefused {
			sum += a.limitA
		}
	}
	return sum
}

// openTx is the device's open session (0: none).
func openTx(t testing.TB, d *db.DB, dev int64) int64 {
	t.Helper()
	var id int64
	err := d.QueryRow(context.Background(), `SELECT COALESCE(MAX(id), 0) FROM device_transaction WHERE device_id = ? AND stopped_at = 0`, dev).Scan(&id)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func count(t testing.TB, d *db.DB, q string, args ...any) int {
	t.Helper()
	var n int
	if err := d.QueryRow(context.Background(), q, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// send sends control type ct to device dev through the API and returns the command's id. A
// charger busy with another command (the load manager's profiles: a fallback goes to the
// refusing charger at every plan) is asked again for a few seconds.
func send(t testing.TB, root *apitest.Client, dev int64, ct int, params any) int64 {
	t.Helper()
	deadline := time.Now().Add(shareAfter)
	for {
		a, s := fleettest.Control(t, root, []int64{dev}, ct, params)
		if a.Code == apperr.DeviceBusy && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
			continue
		}
		apitest.Must(t, a)
		if len(s.Commands) != 1 || s.Commands[0].ID == 0 {
			t.Fatalf("control %d to device %d: %s", ct, dev, a.Data)
		}
		return s.Commands[0].ID
	}
}

// holdsFallback reports whether charger sn holds the load manager's fallback: TxDefault on
// connector 0, one period of limitA.
func holdsFallback(fl *sim.Fleet, sn string, limitA float64) bool {
	for _, in := range fl.Profiles(sn) {
		p := in.Profile
		if p.ID == loadmgmt.FallbackProfileID && p.Purpose == smartcharging.PurposeTxDefault && in.Connector == 0 &&
			p.Schedule.Unit == smartcharging.UnitA && len(p.Schedule.Periods) == 1 && p.Schedule.Periods[0].Limit == limitA {
			return true
		}
	}
	return false
}

// waitFor is testutil.EventuallyWithin whose condition says what it last saw.
func waitFor(t testing.TB, within time.Duration, what string, cond func(last *string) bool) {
	t.Helper()
	var last string
	deadline := time.Now().Add(within)
	for !cond(&last) {
		if time.Now().After(deadline) {
			t.Fatalf("waited %s for %s; last: %s", within, what, last)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

// TestSiteLoadManagement runs one site of 20 simulated chargers (a fifth of them OCPP 2.0.1)
// against a whole node and its gateway: sessions started through the API get their share of the
// site's 100 kW within seconds, a charger that refuses profiles is counted at its maximum, the
// chargers draw what their profiles allow, one that loses its connection falls back to its safe
// share once its Tx profile ends, and a session that ends releases its share. On every change
// the load manager announces, the site's allocations are checked against its limit.
func TestSiteLoadManagement(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		env, org, _ := fleettest.Node(t, d, fmt.Sprintf("LMS%05d", chargers), func(c *config.Config) {
			c.LoadProfileTTL, c.LoadLeaseTTL = profileTTL, leaseTTL
		})
		sns := append(fleettest.Devices(t, d, org, "LMS", chargers-1), fmt.Sprintf("LMS%05d", chargers))
		ids := map[string]int64{}
		snOf := map[int64]string{}
		for _, sn := range sns {
			var id int64
			if err := d.QueryRow(context.Background(), `SELECT id FROM device WHERE sn = ?`, sn).Scan(&id); err != nil {
				t.Fatal(err)
			}
			ids[sn], snOf[id] = id, sn
		}
		siteID := org.SiteA
		root := env.Root()

		// The app builds its load manager from the configuration (ProfileTTL, LeaseTTL) and starts
		// it in Serve, which apitest does not run; the node here plans with the app's fleet and
		// configuration and a shorter Tick than the configuration can set. Replan is left to its
		// default: a quarter of ProfileTTL (3 s), so the Tx profiles are renewed before they end.
		lm := loadmgmt.New(d, env.App.Fleet, loadmgmt.Options{Node: env.App.Fleet.Options().Node, Tick: tick,
			LeaseTTL: env.App.Cfg.LoadLeaseTTL, ProfileTTL: env.App.Cfg.LoadProfileTTL})

		// 3. On every announced change: the site's allocations (refused ones at their maximum)
		// stay within its limit on each phase.
		var mu sync.Mutex
		var worstSum float64
		var announced, checked int
		var broken []string
		lm.OnAllocations(func(ch []loadmgmt.AllocationChange) {
			as, err := readAllocations(d, siteID) // on the planning goroutine: no t.Fatal here
			s := phaseSums(as)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				broken = append(broken, "allocations not read: "+err.Error())
				return
			}
			announced += len(ch)
			checked++
			for p, v := range s {
				worstSum = max(worstSum, v)
				if v > phaseLimitA+1e-9 {
					broken = append(broken, fmt.Sprintf("L%d carries %.1f A > %.3f A after %+v", p+1, v, phaseLimitA, ch))
				}
			}
		})
		ctx, stop := context.WithCancel(context.Background())
		lm.Start(ctx)
		t.Cleanup(func() { stop(); lm.Stop() })
		assertSafe := func(t *testing.T) {
			t.Helper()
			mu.Lock()
			defer mu.Unlock()
			if len(broken) > 0 {
				t.Fatalf("the site's limit was broken %d times: %v", len(broken), broken)
			}
		}

		// the steps build on each other: the first that fails ends the run
		step := func(name string, f func(t *testing.T)) {
			if !t.Run(name, f) {
				t.FailNow()
			}
		}

		step("the site's limit is set through the API", func(t *testing.T) {
			apitest.Must(t, root.Call("POST", "/api/auth/sys/site/power", map[string]any{"siteId": siteID, "enabled": true, "limitKw": limitKW,
				"minA": 6, "editLevel": 1}))
			var v loadmgmt.SiteView
			apitest.Must(t, root.Call("GET", "/api/auth/sys/site/power", map[string]any{"siteId": siteID})).Into(t, &v)
			if !v.Power.Enabled || !near(v.LimitA[0], phaseLimitA, 0.001) || !near(v.LimitW, limitKW*1000, 0.01) || len(v.Chargers) != chargers {
				t.Fatalf("site view: %+v", v)
			}
			testutil.EventuallyWithin(t, 3*leaseTTL, "the node plans the site", func() bool {
				return count(t, d, `SELECT COUNT(*) FROM site_power_lease WHERE site_id = ? AND node = ?`, siteID, env.App.Fleet.Options().Node) == 1
			})
		})

		// 2. Twenty chargers, one connector each, every fourth speaking OCPP 2.0.1, one refusing
		// profiles; they start no session of their own (Busy near 0): the API starts them.
		fl := &sim.Fleet{}
		profiles := map[string]sim.Profile{}
		for _, sn := range sns {
			profiles[sn] = sim.Profile{Busy: 1e-6}
		}
		simCtx, simStop := context.WithCancel(context.Background())
		simDone := make(chan struct{})
		go func() {
			defer close(simDone)
			sim.Run(simCtx, sim.Options{URL: fleettest.WSBase(env), SNs: sns, Connectors: 1, MeterInterval: 2 * time.Second, FaultChance: 1e-12,
				Protocol201Every: 4, RefuseProfiles: map[string]bool{refuser: true}, Profiles: profiles, Fleet: fl,
				Logger: slog.New(slog.DiscardHandler)})
		}()
		t.Cleanup(func() {
			simStop()
			<-simDone
			// the gateway records the disconnects before the database closes
			deadline := time.Now().Add(10 * time.Second)
			for time.Now().Before(deadline) && count(t, d, `SELECT COUNT(*) FROM device_state WHERE online = 1`) > 0 {
				time.Sleep(20 * time.Millisecond)
			}
			env.App.Fleet.Close()
		})

		step("twenty simulated chargers connect and report their connector", func(t *testing.T) {
			testutil.EventuallyWithin(t, 20*time.Second, "all chargers online with connector 1", func() bool {
				return count(t, d, `SELECT COUNT(*) FROM device_state s JOIN device d ON d.id = s.device_id WHERE d.site_id = ? AND s.online = 1`, siteID) == chargers &&
					count(t, d, `SELECT COUNT(*) FROM device_connector c JOIN device d ON d.id = c.device_id WHERE d.site_id = ? AND c.connector_id = 1`, siteID) == chargers
			})
			// the site is planned again within Replan (3 s): each online charger gets its fallback,
			// the safe share 144.9 A / 20 = 7.2 A (the refusing one refuses it)
			waitFor(t, 10*time.Second, "every charger holds its fallback", func(last *string) bool {
				for _, sn := range sns {
					if sn != refuser && !holdsFallback(fl, sn, 7.2) {
						*last = fmt.Sprintf("%s: %+v", sn, fl.Profiles(sn))
						return false
					}
				}
				return true
			})
		})

		// 3-4. Sessions one after another; each gets an applied share within 5 s of its start.
		var othersBeforeRefuser float64
		step("every new session gets its share within 5 s", func(t *testing.T) {
			var worst time.Duration
			var worstSN string
			for i := range sessions {
				sn := sns[i]
				dev := ids[sn]
				if sn == refuser {
					othersBeforeRefuser = controlledSum(allocations(t, d, siteID))
				}
				start := time.Now()
				send(t, root, dev, fleet.CtlRemoteStart, map[string]any{"connectorId": 1, "idTag": fmt.Sprintf("LMTAG%02d", i+1)})
				want := loadmgmt.StateApplied
				if sn == refuser {
					want = loadmgmt.StateRefused
				}
				var tx int64
				var txAfter, rowAfter time.Duration // the session opened, its first allocation stored
				var got allocation
				var states []int // the states its allocation went through
				for {
					if tx == 0 {
						if tx = openTx(t, d, dev); tx != 0 {
							txAfter = time.Since(start)
						}
					}
					if tx != 0 {
						got = allocations(t, d, siteID)[dev]
						if got.tx == tx {
							if rowAfter == 0 {
								rowAfter = time.Since(start)
							}
							if len(states) == 0 || states[len(states)-1] != got.state {
								states = append(states, got.state)
							}
						}
						if got.tx == tx && got.state == want && (want == loadmgmt.StateRefused || got.limitA > 0) {
							break
						}
					}
					if time.Since(start) > shareAfter {
						t.Fatalf("%s: no share in state %d within %s of its start (session %d after %s, allocation %+v, states %v)", sn, want,
							shareAfter, tx, txAfter, got, states)
					}
					time.Sleep(10 * time.Millisecond)
				}
				took := time.Since(start)
				if took > shareAfter {
					t.Fatalf("%s: share in state %d after %s", sn, want, took)
				}
				if want == loadmgmt.StateApplied && took > worst {
					worst, worstSN = took, sn
				}
				t.Logf("%s (session %d open after %s, planned after %s): state %d at %.1f A after %s (states %v)", sn, tx,
					txAfter.Round(time.Millisecond), rowAfter.Round(time.Millisecond), got.state, got.limitA, took.Round(time.Millisecond), states)
			}
			t.Logf("worst time from a remote start to an applied share: %s (%s)", worst.Round(time.Millisecond), worstSN)
			assertSafe(t)
		})

		// 5. The refusing charger shows state 2 with its message; the others are re-planned with it
		// counted at its 32 A.
		step("a refusing charger is shown refused and counted at its maximum", func(t *testing.T) {
			var v loadmgmt.SiteView
			apitest.Must(t, root.Call("GET", "/api/auth/sys/site/power", map[string]any{"siteId": siteID})).Into(t, &v)
			found := false
			for _, r := range v.Chargers {
				if r.SN == refuser {
					found = true
					if r.State != loadmgmt.StateRefused || r.Message == "" || r.TransactionID == 0 || r.LimitA != loadmgmt.DefaultMaxA {
						t.Fatalf("the refusing charger's row: %+v", r)
					}
					t.Logf("%s: state %d, message %q, counted at %.1f A", refuser, r.State, r.Message, r.LimitA)
				}
			}
			if !found {
				t.Fatalf("%s not in the site view: %+v", refuser, v.Chargers)
			}
			// the eleven others share what the refused 32 A leave: 112.9 A / 11 = 10.2 A each
			wantEach := math.Floor((phaseLimitA-loadmgmt.DefaultMaxA)/(sessions-1)*10) / 10
			testutil.EventuallyWithin(t, 5*time.Second, "the others share the limit less the refused 32 A", func() bool {
				as := allocations(t, d, siteID)
				for dev, a := range as {
					if snOf[dev] != refuser && (a.limitA != wantEach || a.state != loadmgmt.StateApplied) {
						return false
					}
				}
				return len(as) == sessions
			})
			after := controlledSum(allocations(t, d, siteID))
			if othersBeforeRefuser <= phaseLimitA-loadmgmt.DefaultMaxA || after > phaseLimitA-loadmgmt.DefaultMaxA || after >= othersBeforeRefuser {
				t.Fatalf("the others' sum: %.1f A before the refusing session, %.1f A after (at most %.1f)", othersBeforeRefuser, after, phaseLimitA-loadmgmt.DefaultMaxA)
			}
			t.Logf("the others' sum dropped from %.1f A to %.1f A (%d × %.1f A)", othersBeforeRefuser, after, sessions-1, wantEach)
			if ps := fl.Profiles(refuser); len(ps) != 0 {
				t.Fatalf("the refusing charger holds profiles: %+v", ps)
			}
			assertSafe(t)
		})

		// 6. The simulated chargers hold what the plan says and draw no more.
		step("the chargers' power follows their limits", func(t *testing.T) {
			waitFor(t, 10*time.Second, "every applied charger at its allocation", func(last *string) bool {
				for dev, a := range allocations(t, d, siteID) {
					if a.state != loadmgmt.StateApplied {
						continue
					}
					sn := snOf[dev]
					want := a.limitA * float64(a.phases) * volts
					lw, ok := fl.LimitW(sn, a.connector)
					pw := fl.PowerW(sn, a.connector)
					if !ok || !near(lw, want, 1) || pw > lw+0.5 || pw <= 0 {
						*last = fmt.Sprintf("%s: allocation %.1f A = %.0f W, charger limit %.0f W (%v), power %.0f W", sn, a.limitA, want, lw, ok, pw)
						return false
					}
				}
				return true
			})
			for _, sn := range sns[:sessions] {
				if sn == refuser {
					continue
				}
				lw, _ := fl.LimitW(sn, 1)
				t.Logf("%s: limit %.0f W, power %.0f W", sn, lw, fl.PowerW(sn, 1))
			}
		})

		// 7. A charger that loses its connection keeps its Tx profile until it ends, then falls
		// back to the site's safe share: 144.9 A / 20 chargers = 7.2 A, 4968 W on three phases.
		step("a charger that loses its connection falls back to its safe share", func(t *testing.T) {
			sp := loadmgmt.SitePower{Enabled: true, LimitKW: limitKW, MinA: 6}
			share := loadmgmt.SafeShare(sp, chargers, 6)
			shareW := share * 3 * volts
			if share != 7.2 {
				t.Fatalf("safe share %.2f A, want 7.2 A", share)
			}
			dev := ids[cutOff]
			// before the cut: its share applied (a refresh of its Tx profile, every ProfileTTL/2,
			// may be on its way: waited for) and its fallback held
			var a allocation
			var tx smartcharging.Installed
			ready := func() bool {
				a = allocations(t, d, siteID)[dev]
				tx = smartcharging.Installed{}
				for _, in := range fl.Profiles(cutOff) {
					if in.Profile.ID == loadmgmt.TxProfileID+1 && in.Profile.Purpose == smartcharging.PurposeTx {
						tx = in
					}
				}
				return a.state == loadmgmt.StateApplied && tx.Profile.ValidTo != 0 && holdsFallback(fl, cutOff, share)
			}
			deadline := time.Now().Add(5 * time.Second)
			for !ready() {
				if time.Now().After(deadline) {
					t.Fatalf("%s before the cut: allocation %+v, profiles %+v", cutOff, a, fl.Profiles(cutOff))
				}
				time.Sleep(20 * time.Millisecond)
			}
			if !fl.Offline(cutOff) {
				t.Fatal("no such simulated charger")
			}
			cutAt := time.Now()
			testutil.EventuallyWithin(t, 10*time.Second, cutOff+" offline", func() bool {
				return count(t, d, `SELECT COUNT(*) FROM device_state WHERE device_id = ? AND online = 0`, dev) == 1
			})
			var v loadmgmt.SiteView
			apitest.Must(t, root.Call("GET", "/api/auth/sys/site/power", map[string]any{"siteId": siteID})).Into(t, &v)
			for _, r := range v.Chargers {
				if r.SN == cutOff && (r.State != loadmgmt.StateOffline || r.TransactionID != a.tx) {
					t.Fatalf("%s in the site view: %+v", cutOff, r)
				}
			}
			validTo := time.UnixMilli(tx.Profile.ValidTo)
			txW := a.limitA * 3 * volts
			for time.Until(validTo) > 300*time.Millisecond {
				if lw, ok := fl.LimitW(cutOff, 1); !ok || !near(lw, txW, 1) {
					t.Fatalf("%s %s before its Tx profile ends: limit %.0f W (%v), want %.0f W", cutOff, time.Until(validTo), lw, ok, txW)
				}
				// nothing changes meanwhile: the online chargers' Tx profiles are renewed and hold
				// their shares (the same as the offline one's), never their fallback
				for _, sn := range sns[:sessions] {
					if sn == refuser || sn == cutOff {
						continue
					}
					if lw, ok := fl.LimitW(sn, 1); !ok || !near(lw, txW, 1) {
						t.Fatalf("%s while %s is offline: limit %.0f W (%v), want %.0f W", sn, cutOff, lw, ok, txW)
					}
				}
				// the planner counts it at its Tx profile's limit meanwhile
				if b := allocations(t, d, siteID)[dev]; b.limitA != a.limitA || b.tx != a.tx {
					t.Fatalf("%s offline holding its profile: allocation %+v, was %+v", cutOff, b, a)
				}
				time.Sleep(100 * time.Millisecond)
			}
			testutil.EventuallyWithin(t, time.Until(validTo)+2*time.Second, cutOff+" at its safe share", func() bool {
				lw, ok := fl.LimitW(cutOff, 1)
				return ok && near(lw, shareW, 1) && time.Now().After(validTo)
			})
			if pw := fl.PowerW(cutOff, 1); pw > shareW+0.5 {
				t.Fatalf("%s draws %.0f W above its safe share %.0f W", cutOff, pw, shareW)
			}
			t.Logf("%s: %.0f W (Tx profile, %.1f A) until %s after the cut, then %.0f W (safe share %.1f A)", cutOff, txW, a.limitA,
				validTo.Sub(cutAt).Round(time.Millisecond), shareW, share)
			assertSafe(t)
		})

		// 8. A session that ends releases its share: the others' allocations rise.
		step("a session that ends releases its share", func(t *testing.T) {
			before := allocations(t, d, siteID)
			tx := before[ids[stopped]].tx
			if tx == 0 {
				t.Fatalf("%s has no allocation: %+v", stopped, before)
			}
			if r := fleettest.Result(t, root, send(t, root, ids[stopped], fleet.CtlRemoteStop, map[string]any{"transactionId": tx})); r.Result != fleet.ResultSuccess {
				t.Fatalf("remote stop: %+v", r)
			}
			waitFor(t, 10*time.Second, "the others' shares rise", func(last *string) bool {
				as := allocations(t, d, siteID)
				if _, ok := as[ids[stopped]]; ok || len(as) != sessions-1 {
					*last = fmt.Sprintf("%d allocations", len(as))
					return false
				}
				for dev, a := range as {
					b := before[dev]
					switch {
					case a.state == loadmgmt.StateRefused:
					case dev == ids[cutOff]: // planned, nothing sent
						if a.state != loadmgmt.StateOffline {
							*last = fmt.Sprintf("%s: %+v", snOf[dev], a)
							return false
						}
					case a.state != loadmgmt.StateApplied || a.limitA <= b.limitA:
						*last = fmt.Sprintf("%s: %.1f A (state %d), was %.1f A", snOf[dev], a.limitA, a.state, b.limitA)
						return false
					}
				}
				return true
			})
			as := allocations(t, d, siteID)
			var list []string
			for dev, a := range as {
				list = append(list, fmt.Sprintf("%s %.1f→%.1f A", snOf[dev], before[dev].limitA, a.limitA))
			}
			sort.Strings(list)
			t.Logf("after %s's session ended: %v", stopped, list)
			if s := phaseSums(as); s[0] > phaseLimitA {
				t.Fatalf("L1 carries %.1f A", s[0])
			}
			assertSafe(t)
		})

		step("the site view stays within the limit", func(t *testing.T) {
			var v loadmgmt.SiteView
			apitest.Must(t, root.Call("GET", "/api/auth/sys/site/power", map[string]any{"siteId": siteID})).Into(t, &v)
			if v.AllocatedW > v.LimitW || v.LimitW != limitKW*1000 {
				t.Fatalf("allocated %.0f W of %.0f W", v.AllocatedW, v.LimitW)
			}
			mu.Lock()
			defer mu.Unlock()
			if checked == 0 {
				t.Fatal("no allocation change announced")
			}
			t.Logf("allocated %.0f W of %.0f W; %d changes announced in %d rounds, the highest per-phase sum seen %.1f A of %.1f A",
				v.AllocatedW, v.LimitW, announced, checked, worstSum, phaseLimitA)
			if len(broken) > 0 {
				t.Fatalf("the site's limit was broken: %v", broken)
			}
		})
	})
}
