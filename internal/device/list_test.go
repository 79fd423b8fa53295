package device_test

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/device"
	"chargeops/internal/devstate"
	"chargeops/internal/testutil"
)

// TestListMatchesAPlainFilter checks that the branched index walks return exactly the page a
// naive filter-and-sort would, for scopes, keywords, filters, pages and both orders.
func TestListMatchesAPlainFilter(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		now := db.NowMS()
		for c := 1; c <= 4; c++ {
			d.Exec(ctx, `INSERT INTO customer (id, name, code, created_at, updated_at) VALUES (?, ?, ?, ?, ?)`, c, fmt.Sprint("C", c), fmt.Sprint("C", c), now, now)
		}
		for s := 1; s <= 12; s++ {
			d.Exec(ctx, `INSERT INTO site (id, customer_id, name, code, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)`, s, (s-1)%4+1, fmt.Sprint("S", s), fmt.Sprint("S", s), now, now)
		}
		d.Exec(ctx, `INSERT INTO device_model (id, name, created_at, updated_at) VALUES (1, 'M', ?, ?)`, now, now)
		type row struct {
			id                     int64
			sn, name               string
			site, customer, status int
		}
		rng := rand.New(rand.NewPCG(7, 9))
		var all []row
		for i := 1; i <= 400; i++ {
			site := rng.IntN(12) + 1
			r := row{sn: fmt.Sprintf("%s%04d", []string{"AB", "AC", "BX"}[rng.IntN(3)], i), name: fmt.Sprintf("%s %04d", []string{"East", "West"}[rng.IntN(2)], i),
				site: site, customer: (site-1)%4 + 1, status: rng.IntN(4)}
			id, err := db.InsertID(ctx, d, `INSERT INTO device (sn, name, model_id, site_id, customer_id, status, created_at, updated_at) VALUES (?, ?, 1, ?, ?, ?, ?, ?)`,
				r.sn, r.name, r.site, r.customer, r.status, now, now)
			if err != nil {
				t.Fatal(err)
			}
			r.id = id
			all = append(all, r)
		}
		svc := device.NewService(d)
		st := 2
		cases := []struct {
			scope access.Scope
			f     device.ListFilter
			keep  func(r row) bool
		}{
			{access.Scope{CustomerIDs: []int64{1, 3}, AllSites: true}, device.ListFilter{}, func(r row) bool { return r.customer == 1 || r.customer == 3 }},
			{access.Scope{CustomerIDs: []int64{1, 3}, AllSites: true}, device.ListFilter{Status: &st, Page: db.Page{Page: 2, PageSize: 10}}, func(r row) bool { return (r.customer == 1 || r.customer == 3) && r.status == 2 }},
			{access.Scope{CustomerIDs: []int64{1, 2}, SiteIDs: []int64{1, 2, 6, 7}}, device.ListFilter{Sort: "id"}, func(r row) bool { return slices.Contains([]int{1, 2, 6}, r.site) }},
			{access.FullScope(), device.ListFilter{Filter: device.Filter{Keyword: "AC"}}, func(r row) bool { return r.sn[:2] == "AC" }},
			{access.FullScope(), device.ListFilter{Filter: device.Filter{Keyword: "West"}, Page: db.Page{Page: 3, PageSize: 20}}, func(r row) bool { return r.name[:4] == "West" }},
			{access.Scope{CustomerIDs: []int64{2, 4}, AllSites: true}, device.ListFilter{Filter: device.Filter{Keyword: "A"}, Status: &st}, func(r row) bool { return r.sn[0] == 'A' && r.status == 2 && (r.customer == 2 || r.customer == 4) }},
		}
		for i, c := range cases {
			var want []int64
			for _, r := range all {
				if c.keep(r) {
					want = append(want, r.id)
				}
			}
			total := len(want)
			if c.f.Sort != "id" {
				slices.Reverse(want)
			}
			limit, offset := c.f.Page.LimitOffset()
			want = want[min(offset, len(want)):min(offset+limit, len(want))]
			got, err := svc.List(ctx, &access.Principal{Scope: c.scope}, c.f)
			if err != nil {
				t.Fatal(err)
			}
			var gotIDs []int64
			for _, d := range got.List {
				gotIDs = append(gotIDs, d.ID)
			}
			if got.Total != int64(total) || !slices.Equal(gotIDs, want) {
				t.Errorf("case %d: total %d want %d; ids %v want %v", i, got.Total, total, gotIDs, want)
			}
		}
		t.Run("status counts follow the filters", func(t *testing.T) {
			one := 1
			counts := []struct {
				name  string
				scope access.Scope
				f     device.Filter
				keep  func(r row) bool
			}{
				{"whole scope", access.Scope{CustomerIDs: []int64{1, 3}, AllSites: true}, device.Filter{}, func(r row) bool { return r.customer == 1 || r.customer == 3 }},
				{"customer", access.FullScope(), device.Filter{CustomerID: 2}, func(r row) bool { return r.customer == 2 }},
				{"site in a site scope", access.Scope{CustomerIDs: []int64{1, 2}, SiteIDs: []int64{1, 2, 6}}, device.Filter{SiteID: 6}, func(r row) bool { return r.site == 6 }},
				{"site outside the scope", access.Scope{CustomerIDs: []int64{1, 2}, SiteIDs: []int64{1, 2}}, device.Filter{SiteID: 6}, func(r row) bool { return false }},
				{"keyword in two customers", access.Scope{CustomerIDs: []int64{2, 4}, AllSites: true}, device.Filter{Keyword: " A "}, func(r row) bool { return r.sn[0] == 'A' && (r.customer == 2 || r.customer == 4) }},
				{"model and alarm", access.FullScope(), device.Filter{ModelID: 1, AlarmStatus: &one}, func(r row) bool { return false }},
			}
			for _, c := range counts {
				want := map[int]int64{}
				for _, r := range all {
					if c.keep(r) {
						want[r.status]++
					}
				}
				got, err := svc.StatusCounts(ctx, &access.Principal{Scope: c.scope}, c.f)
				if err != nil {
					t.Fatal(err)
				}
				if len(got) != len(want) {
					t.Errorf("%s: counts %v, want %v", c.name, got, want)
				}
				for st, n := range want {
					if got[st] != n {
						t.Errorf("%s: counts %v, want %v", c.name, got, want)
						break
					}
				}
				// each badge equals the total the list shows for that status
				for st := range 4 {
					l, err := svc.List(ctx, &access.Principal{Scope: c.scope}, device.ListFilter{Filter: c.f, Status: &st})
					if err != nil {
						t.Fatal(err)
					}
					if l.Total != got[st] {
						t.Errorf("%s: status %d: list total %d, badge %d", c.name, st, l.Total, got[st])
					}
				}
			}
		})
	})
}

// TestListSortsAndFiltersOffline checks each sortable column in both directions against a plain
// sort (ties by id), across an unbranched, a site-branched and a keyword-branched plan, and the
// "offline for longer than" filter, which keeps only offline devices silent for longer.
func TestListSortsAndFiltersOffline(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		now := db.NowMS()
		d.Exec(ctx, `INSERT INTO customer (id, name, code, created_at, updated_at) VALUES (1, 'C1', 'C1', ?, ?)`, now, now)
		for s := 1; s <= 3; s++ {
			d.Exec(ctx, `INSERT INTO site (id, customer_id, name, code, created_at, updated_at) VALUES (?, 1, ?, ?, ?, ?)`, s, fmt.Sprint("S", s), fmt.Sprint("S", s), now, now)
		}
		d.Exec(ctx, `INSERT INTO device_model (id, name, created_at, updated_at) VALUES (1, 'M', ?, ?)`, now, now)
		type row struct {
			id, refresh  int64
			sn, name     string
			site, status int
		}
		rng := rand.New(rand.NewPCG(3, 5))
		var all []row
		for i := 1; i <= 120; i++ {
			r := row{sn: fmt.Sprintf("%s%04d", []string{"AB", "BX"}[rng.IntN(2)], rng.IntN(9000)+i*10000), name: fmt.Sprintf("N%02d-%03d", rng.IntN(30), i),
				site: rng.IntN(3) + 1, status: rng.IntN(4), refresh: now - int64(rng.IntN(10))*3_600_000 - 1_800_000}
			id, err := db.InsertID(ctx, d, `INSERT INTO device (sn, name, model_id, site_id, customer_id, status, last_refresh_at, created_at, updated_at) VALUES (?, ?, 1, ?, 1, ?, ?, ?, ?)`,
				r.sn, r.name, r.site, r.status, r.refresh, now, now)
			if err != nil {
				t.Fatal(err)
			}
			r.id = id
			all = append(all, r)
		}
		svc := device.NewService(d)
		key := map[string]func(r row) string{
			"status":        func(r row) string { return fmt.Sprint(r.status) },
			"lastRefreshAt": func(r row) string { return fmt.Sprintf("%020d", r.refresh) },
			"sn":            func(r row) string { return r.sn },
			"name":          func(r row) string { return r.name },
			"createdAt":     func(r row) string { return "" },
		}
		scopes := []struct {
			name  string
			scope access.Scope
			f     device.Filter
			keep  func(r row) bool
		}{
			{"whole fleet", access.FullScope(), device.Filter{}, func(r row) bool { return true }},
			{"two sites", access.Scope{CustomerIDs: []int64{1}, SiteIDs: []int64{1, 3}}, device.Filter{}, func(r row) bool { return r.site != 2 }},
			{"keyword", access.FullScope(), device.Filter{Keyword: "AB"}, func(r row) bool { return r.sn[:2] == "AB" }},
		}
		for _, sc := range scopes {
			for col, k := range key {
				for _, desc := range []bool{false, true} {
					var want []row
					for _, r := range all {
						if sc.keep(r) {
							want = append(want, r)
						}
					}
					slices.SortFunc(want, func(a, b row) int {
						c := strings.Compare(k(a), k(b))
						if c == 0 {
							c = cmp.Compare(a.id, b.id)
						}
						if desc {
							return -c
						}
						return c
					})
					sort := col
					if desc {
						sort = "-" + col
					}
					page := db.Page{Page: 2, PageSize: 10}
					got, err := svc.List(ctx, &access.Principal{Scope: sc.scope}, device.ListFilter{Filter: sc.f, Sort: sort, Page: page})
					if err != nil {
						t.Fatal(err)
					}
					var gotIDs, wantIDs []int64
					for _, d := range got.List {
						gotIDs = append(gotIDs, d.ID)
					}
					for _, r := range want[10:min(20, len(want))] {
						wantIDs = append(wantIDs, r.id)
					}
					if got.Total != int64(len(want)) || !slices.Equal(gotIDs, wantIDs) {
						t.Errorf("%s sorted by %s: total %d want %d; ids %v want %v", sc.name, sort, got.Total, len(want), gotIDs, wantIDs)
					}
				}
			}
		}
		t.Run("an unknown sort or a negative offline time is refused", func(t *testing.T) {
			for _, f := range []device.ListFilter{{Sort: "password"}, {Sort: "-d.id; DROP TABLE device"}, {Filter: device.Filter{OfflineFor: -60}}} {
				_, err := svc.List(ctx, &access.Principal{Scope: access.FullScope()}, f)
				if e, ok := apperr.As(err); !ok || e.Code != apperr.Invalid {
					t.Errorf("%+v: error %v, want an invalid field", f, err)
				}
			}
		})
		t.Run("offline for longer than", func(t *testing.T) {
			for _, hours := range []int64{1, 5, 24} {
				var want []int64
				for _, r := range all {
					if r.status == 0 && r.refresh < now-hours*3_600_000 {
						want = append(want, r.id)
					}
				}
				slices.Reverse(want)
				got, err := svc.List(ctx, &access.Principal{Scope: access.FullScope()}, device.ListFilter{Filter: device.Filter{OfflineFor: hours * 3600}, Page: db.Page{Page: 1, PageSize: 100}})
				if err != nil {
					t.Fatal(err)
				}
				var gotIDs []int64
				for _, d := range got.List {
					gotIDs = append(gotIDs, d.ID)
				}
				if !slices.Equal(gotIDs, want) {
					t.Errorf("offline > %d h: ids %v want %v", hours, gotIDs, want)
				}
			}
		})
		t.Run("by the protocol of the last connection, the counts alike; an unknown one is refused", func(t *testing.T) {
			var want []int64
			for i, r := range all {
				if i%3 != 0 {
					continue
				}
				if _, err := d.Exec(ctx, `INSERT INTO device_state (device_id, protocol) VALUES (?, ?)`, r.id, devstate.ProtocolOCPP16); err != nil {
					t.Fatal(err)
				}
				want = append(want, r.id)
			}
			slices.Reverse(want)
			sites := &access.Principal{Scope: access.Scope{AllCustomers: true, SiteIDs: []int64{1, 2, 3}}} // a site-branched plan
			for _, p := range []*access.Principal{{Scope: access.FullScope()}, sites} {
				got, err := svc.List(ctx, p, device.ListFilter{Filter: device.Filter{Protocol: devstate.ProtocolOCPP16}, Page: db.Page{Page: 1, PageSize: 100}})
				if err != nil {
					t.Fatal(err)
				}
				var gotIDs []int64
				for _, d := range got.List {
					gotIDs = append(gotIDs, d.ID)
				}
				if !slices.Equal(gotIDs, want) || got.Total != int64(len(want)) {
					t.Errorf("ocpp1.6: ids %v (total %d) want %v", gotIDs, got.Total, want)
				}
				counts, err := svc.StatusCounts(ctx, p, device.Filter{Protocol: devstate.ProtocolOCPP16})
				if err != nil {
					t.Fatal(err)
				}
				var sum int64
				for _, n := range counts {
					sum += n
				}
				if sum != int64(len(want)) {
					t.Errorf("status counts %v sum to %d, want %d", counts, sum, len(want))
				}
			}
			if got, err := svc.List(ctx, &access.Principal{Scope: access.FullScope()}, device.ListFilter{Filter: device.Filter{Protocol: devstate.ProtocolOCPP201}}); err != nil || got.Total != 0 {
				t.Errorf("ocpp2.0.1: %d devices, %v", got.Total, err)
			}
			for _, call := range []func() error{
				func() error {
					_, err := svc.List(ctx, &access.Principal{Scope: access.FullScope()}, device.ListFilter{Filter: device.Filter{Protocol: "ocpp9"}})
					return err
				},
				func() error {
					_, err := svc.StatusCounts(ctx, &access.Principal{Scope: access.FullScope()}, device.Filter{Protocol: "ocpp9"})
					return err
				},
			} {
				if e, ok := apperr.As(call()); !ok || e.Code != apperr.Invalid {
					t.Errorf("an unknown protocol: %v, want an invalid field", e)
				}
			}
		})
	})
}
