package loadmgmt

import (
	"context"
	"fmt"
	"math"
	"sync"
	"testing"
	"time"

	"chargeops/internal/db"
	"chargeops/internal/fleet"
	"chargeops/internal/smartcharging"
	"chargeops/internal/testutil"
)

// fakeFleet takes every profile and answers it a moment later: accepted, or refused for the
// devices in refuse.
type fakeFleet struct {
	mu     sync.Mutex
	next   int64
	refuse map[int64]bool
	hooks  []func(fleet.CommandResult)
	tx     map[akey]float64 // the Tx limit each connector holds (accepted)
	orders []fleet.ProfileOrder
	clears []clearOrder
}

func newFake() *fakeFleet { return &fakeFleet{refuse: map[int64]bool{}, tx: map[akey]float64{}} }

func (f *fakeFleet) OnCommandResults(h func(fleet.CommandResult)) {
	f.mu.Lock()
	f.hooks = append(f.hooks, h)
	f.mu.Unlock()
}

func (f *fakeFleet) SetProfile(ctx context.Context, o fleet.ProfileOrder) (int64, int, error) {
	f.mu.Lock()
	f.next++
	id := f.next
	f.orders = append(f.orders, o)
	refused := f.refuse[o.DeviceID]
	if !refused && o.Profile.Purpose == smartcharging.PurposeTx {
		f.tx[akey{o.DeviceID, o.ConnectorID}] = o.Profile.Schedule.Periods[0].Limit
	}
	hooks := append([]func(fleet.CommandResult){}, f.hooks...)
	f.mu.Unlock()
	go func() {
		time.Sleep(5 * time.Millisecond)
		r := fleet.CommandResult{CommandID: id, DeviceID: o.DeviceID, ControlType: fleet.CtlSetChargingProfile, Result: fleet.ResultSuccess}
		if refused {
			r.Result, r.Message = fleet.ResultFailed, "Rejected"
		}
		for _, h := range hooks {
			h(r)
		}
	}()
	return id, fleet.ResultWaiting, nil
}

// ClearProfiles notes the clear and answers it at once.
func (f *fakeFleet) ClearProfiles(ctx context.Context, deviceID int64, c smartcharging.ClearFilter, by string) (int64, int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.next++
	f.clears = append(f.clears, clearOrder{deviceID, c})
	return f.next, fleet.ResultWaiting, nil
}

type clearOrder struct {
	device int64
	filter smartcharging.ClearFilter
}

func (f *fakeFleet) count(purpose smartcharging.Purpose) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for _, o := range f.orders {
		if o.Profile.Purpose == purpose {
			n++
		}
	}
	return n
}

func fastOptions(node string) Options {
	return Options{Node: node, Tick: 50 * time.Millisecond, Replan: time.Second, LeaseTTL: 1500 * time.Millisecond,
		SampleEvery: 200 * time.Millisecond, Location: time.UTC}
}

func enable(t *testing.T, d *db.DB, site int64, kw, a float64) {
	t.Helper()
	if _, err := d.Exec(context.Background(), `INSERT INTO site_power (site_id, enabled, limit_kw, limit_a, min_a, updated_at) VALUES (?, 1, ?, ?, 6, ?)
		ON CONFLICT (site_id) DO UPDATE SET enabled = 1, limit_kw = excluded.limit_kw, limit_a = excluded.limit_a, updated_at = excluded.updated_at`,
		site, kw, a, db.NowMS()); err != nil {
		t.Fatal(err)
	}
}

// rowsOf reads a site's allocations.
func rowsOf(t testing.TB, d *db.DB, site int64) map[akey]*allocRow {
	t.Helper()
	m := map[akey]*allocRow{}
	if err := scanRows(context.Background(), d, `WHERE site_id = ?`, []any{site}, func(r *allocRow) { m[akey{r.device, r.connector}] = r }); err != nil {
		t.Fatal(err)
	}
	return m
}

// phaseSums adds a site's planned limits per phase (all three-phase here).
func phaseSum(rows map[akey]*allocRow) float64 {
	sum := 0.0
	for _, r := range rows {
		sum += r.limitA
	}
	return sum
}

// TestManagerSharesSite: 20 chargers at a 100 kW site; sessions start one by one, each gets a
// share within 5 s and the plan never exceeds the limit; ended sessions release their share.
func TestManagerSharesSite(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		o := seed(t, d)
		var devs []int64
		for i := range 20 {
			devs = append(devs, addDevice(t, d, o, o.CustomerA, o.SiteA, fmt.Sprintf("LMS%03d", i), true))
		}
		enable(t, d, o.SiteA, 100, 0)
		limitA := kwToA(100)
		f := newFake()
		s := New(d, f, fastOptions("n1"))
		var mu sync.Mutex
		var changes []AllocationChange
		s.OnAllocations(func(cs []AllocationChange) {
			mu.Lock()
			changes = append(changes, cs...)
			mu.Unlock()
		})
		s.Start(ctx)
		defer s.Stop()

		var txs []int64
		for i, dev := range devs {
			tx := startSession(t, d, dev, o.CustomerA, o.SiteA, db.NowMS()+int64(i))
			txs = append(txs, tx)
			testutil.EventuallyWithin(t, 5*time.Second, fmt.Sprintf("session %d planned", i+1), func() bool {
				rows := rowsOf(t, d, o.SiteA)
				r := rows[akey{dev, 1}]
				return len(rows) == i+1 && r != nil && r.tx == tx && r.limitA >= 6
			})
			rows := rowsOf(t, d, o.SiteA)
			if sum := phaseSum(rows); sum > limitA+1e-6 {
				t.Fatalf("after %d sessions: %.1f A planned on a %.1f A limit", i+1, sum, limitA)
			}
		}
		// 20 sessions share 144.9 A: 7.2 A each, every profile answered
		testutil.Eventually(t, "every profile applied", func() bool {
			for _, r := range rowsOf(t, d, o.SiteA) {
				if r.state != StateApplied || r.limitA != 7.2 {
					return false
				}
			}
			return true
		})
		testutil.Eventually(t, "the chargers hold the plan", func() bool {
			f.mu.Lock()
			defer f.mu.Unlock()
			sum := 0.0
			for _, v := range f.tx {
				sum += v
			}
			return len(f.tx) == 20 && math.Abs(sum-20*7.2) < 1e-6
		})
		if n := f.count(smartcharging.PurposeTxDefault); n < 20 {
			t.Fatalf("%d fallbacks sent, want one per charger", n)
		}
		// half of the sessions end: the others get more
		for _, tx := range txs[:10] {
			stopSession(t, d, tx)
		}
		testutil.EventuallyWithin(t, 5*time.Second, "ended sessions released", func() bool {
			rows := rowsOf(t, d, o.SiteA)
			if len(rows) != 10 {
				return false
			}
			for _, r := range rows {
				if r.limitA != 14.4 {
					return false
				}
			}
			return true
		})
		mu.Lock()
		ended := 0
		for _, c := range changes {
			if c.Ended {
				ended++
			}
		}
		mu.Unlock()
		if ended != 10 {
			t.Fatalf("%d ended allocations announced, want 10", ended)
		}
		// the view shows the plan
		v, err := s.Site(ctx, testutil.Root(), o.SiteA)
		if err != nil || v.Planner != "n1" || len(v.Chargers) != 20 || math.Abs(v.AllocatedW-10*14.4*3*230) > 1e-6 || math.Abs(v.LimitW-100000) > 1e-6 {
			t.Fatalf("view: planner %q, %d rows, %.0f W of %.0f W, %v", v.Planner, len(v.Chargers), v.AllocatedW, v.LimitW, err)
		}
		testutil.Eventually(t, "samples written", func() bool {
			return testutil.Count(t, d, `SELECT COUNT(*) FROM site_power_sample WHERE site_id = ?`, o.SiteA) > 0
		})
		h, err := s.History(ctx, testutil.Root(), o.SiteA, 0, db.NowMS())
		if err == nil {
			t.Fatalf("a 56-year history is refused, got %d samples", len(h))
		}
		if h, err = s.History(ctx, testutil.Root(), o.SiteA, db.NowMS()-3600_000, db.NowMS()); err != nil || len(h) == 0 || h[len(h)-1].Sessions == 0 {
			t.Fatalf("history: %+v %v", h, err)
		}
	})
}

// TestManagerRefusedProfile: a charger that refuses its profile is shown refused and counted at
// its maximum; the others are re-planned around it.
func TestManagerRefusedProfile(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		o := seed(t, d)
		var devs []int64
		for i := range 3 {
			devs = append(devs, addDevice(t, d, o, o.CustomerA, o.SiteA, fmt.Sprintf("LMR%03d", i), true))
		}
		enable(t, d, o.SiteA, 0, 50) // 50 A per phase
		f := newFake()
		f.refuse[devs[2]] = true
		s := New(d, f, fastOptions("n1"))
		s.Start(ctx)
		defer s.Stop()
		for i, dev := range devs {
			startSession(t, d, dev, o.CustomerA, o.SiteA, db.NowMS()+int64(i))
		}
		testutil.EventuallyWithin(t, 5*time.Second, "the refusal re-planned", func() bool {
			rows := rowsOf(t, d, o.SiteA)
			r := rows[akey{devs[2], 1}]
			return len(rows) == 3 && r.state == StateRefused && r.limitA == 32 && r.message == "Rejected" &&
				rows[akey{devs[0], 1}].limitA == 9 && rows[akey{devs[1], 1}].limitA == 9
		})
		v, err := s.Site(ctx, testutil.Root(), o.SiteA)
		if err != nil {
			t.Fatal(err)
		}
		refused := 0
		for _, c := range v.Chargers {
			if c.State == StateRefused {
				refused++
			}
		}
		if refused != 1 {
			t.Fatalf("the view shows %d refused chargers", refused)
		}
	})
}

// TestLeaseOneNode: two nodes on one database; exactly one plans the site; when it is lost
// (its loops end without giving the lease up) the other takes the site within LeaseTTL and a
// tick, and plans it.
func TestLeaseOneNode(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		o := seed(t, d)
		dev := addDevice(t, d, o, o.CustomerA, o.SiteA, "LML001", false)
		enable(t, d, o.SiteA, 22, 0)
		a, b := New(d, newFake(), fastOptions("a")), New(d, newFake(), fastOptions("b"))
		ctxA, lose := context.WithCancel(ctx)
		a.Start(ctxA)
		defer a.Stop()
		testutil.Eventually(t, "a holds the lease", func() bool { return a.owns(o.SiteA) })
		b.Start(ctx)
		defer b.Stop()
		testutil.Never(t, 500*time.Millisecond, "two holders", func() bool { return b.owns(o.SiteA) })
		if err := b.PlanNow(ctx, o.SiteA); err != ErrNotPlanner {
			t.Fatalf("b plans a site it does not hold: %v", err)
		}
		if n := testutil.Count(t, d, `SELECT COUNT(*) FROM site_power_lease WHERE site_id = ?`, o.SiteA); n != 1 {
			t.Fatalf("%d lease rows", n)
		}

		lose() // node a is gone: no renewal, no release
		lostAt := time.Now()
		testutil.EventuallyWithin(t, fastOptions("").LeaseTTL+time.Second, "b takes the site", func() bool { return b.owns(o.SiteA) })
		t.Logf("taken over after %s", time.Since(lostAt).Round(time.Millisecond))
		tx := startSession(t, d, dev, o.CustomerA, o.SiteA, db.NowMS())
		testutil.EventuallyWithin(t, 5*time.Second, "b plans", func() bool {
			r := rowsOf(t, d, o.SiteA)[akey{dev, 1}]
			return r != nil && r.tx == tx && r.state == StateOffline && r.limitA == 31.8
		})
		if err := b.PlanNow(ctx, o.SiteA); err != nil {
			t.Fatal(err)
		}
		var node string
		if err := d.QueryRow(ctx, `SELECT node FROM site_power_lease WHERE site_id = ?`, o.SiteA).Scan(&node); err != nil || node != "b" {
			t.Fatalf("lease holder %q %v", node, err)
		}
		// Stop gives the lease up at once
		b.Stop()
		if n := testutil.Count(t, d, `SELECT COUNT(*) FROM site_power_lease WHERE node = ?`, "b"); n != 0 {
			t.Fatalf("b keeps %d leases after Stop", n)
		}
	})
}

// TestDisableSiteDropsPlan: turning a site's load management off removes its plan.
func TestDisableSiteDropsPlan(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		o := seed(t, d)
		dev := addDevice(t, d, o, o.CustomerA, o.SiteA, "LMD001", true)
		f := newFake()
		s := New(d, f, fastOptions("n1"))
		if err := s.SetSitePower(ctx, testutil.Root(), SitePower{SiteID: o.SiteA, Enabled: true, LimitA: 16, MinA: 6, EditLevel: 1}); err != nil {
			t.Fatal(err)
		}
		s.Start(ctx)
		defer s.Stop()
		startSession(t, d, dev, o.CustomerA, o.SiteA, db.NowMS())
		testutil.Eventually(t, "planned", func() bool { r := rowsOf(t, d, o.SiteA)[akey{dev, 1}]; return r != nil && r.limitA == 16 })
		if err := s.SetSitePower(ctx, testutil.Root(), SitePower{SiteID: o.SiteA, Enabled: true, LimitA: 10, MinA: 6, EditLevel: 1}); err != nil {
			t.Fatal(err)
		}
		testutil.EventuallyWithin(t, 2*time.Second, "a changed limit re-planned", func() bool {
			r := rowsOf(t, d, o.SiteA)[akey{dev, 1}]
			return r != nil && r.limitA == 10
		})
		if err := s.SetSitePower(ctx, testutil.Root(), SitePower{SiteID: o.SiteA, LimitA: 10, MinA: 6, EditLevel: 1}); err != nil {
			t.Fatal(err)
		}
		testutil.Eventually(t, "plan removed", func() bool { return len(rowsOf(t, d, o.SiteA)) == 0 && !s.owns(o.SiteA) })
		// the charger's fallback is cleared: load management no longer holds it back
		testutil.Eventually(t, "fallback cleared", func() bool {
			f.mu.Lock()
			defer f.mu.Unlock()
			return len(f.clears) == 1 && f.clears[0].device == dev && f.clears[0].filter.ID == FallbackProfileID
		})
	})
}
