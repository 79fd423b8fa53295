package device_test

import (
	"context"
	"os"
	"sort"
	"strconv"
	"testing"
	"time"

	"chargeops/internal/access"
	"chargeops/internal/bench"
	"chargeops/internal/db"
	"chargeops/internal/device"
	"chargeops/internal/testutil"
)

// fleetSize is the number of devices the list benchmark generates (CHARGEOPS_BENCH_DEVICES).
func fleetSize() int {
	if n, err := strconv.Atoi(os.Getenv("CHARGEOPS_BENCH_DEVICES")); err == nil && n > 0 {
		return n
	}
	return 1_000_000
}

// generate fills d with 20 customers, 400 sites, 12 models and n devices (SN CP00000000..., a
// live fleet's mix of statuses) with the generator of `chargeops bench seed`. The cases below
// name customers, sites and models by id: on the fresh database they are 1..n.
func generate(b *testing.B, d *db.DB, n int) {
	org, err := bench.Seed(context.Background(), d, bench.SeedOptions{Devices: n, Prefix: "CP", NamePrefix: "Charger ", Digits: 8,
		Customers: 20, Sites: 400, Models: 12, Mixed: true})
	if err != nil {
		b.Fatal(err)
	}
	if org.CustomerIDs[0] != 1 || org.SiteIDs[0] != 1 || org.ModelIDs[0] != 1 || org.Inserted != n {
		b.Fatalf("generated fleet is not the expected one: %+v", org)
	}
	b.Logf("generated %d devices in %s", n, org.Took.Round(time.Millisecond))
}

func intp(v int) *int { return &v }

// BenchmarkDeviceList measures every page and filter the device list screen offers on a
// generated fleet, on SQLite and PostgreSQL, and reports p50 and p99 latency per case.
// Run: make bench (CHARGEOPS_BENCH_DEVICES to change the size).
func BenchmarkDeviceList(b *testing.B) {
	n := fleetSize()
	for _, dialect := range []string{"sqlite", "postgres"} {
		b.Run(dialect, func(b *testing.B) {
			var d *db.DB
			if dialect == "sqlite" {
				d = testutil.OpenSQLite(b)
			} else {
				d = testutil.OpenPostgres(b)
			}
			generate(b, d, n)
			svc := device.NewService(d)
			customerScope := access.Scope{CustomerIDs: []int64{3, 7, 11}, AllSites: true}
			siteScope := access.Scope{CustomerIDs: []int64{3}, SiteIDs: []int64{3, 23, 43, 63}}
			cases := []struct {
				name  string
				scope access.Scope
				f     device.ListFilter
			}{
				{"all/page1", access.FullScope(), device.ListFilter{}},
				{"all/last-page", access.FullScope(), device.ListFilter{Page: db.Page{Page: 500, PageSize: 20}}},
				{"all/page100x100", access.FullScope(), device.ListFilter{Page: db.Page{Page: 100, PageSize: 100}}},
				{"all/oldest-first", access.FullScope(), device.ListFilter{Sort: "id"}},
				{"status-faulted", access.FullScope(), device.ListFilter{Status: intp(3)}},
				{"status-faulted/last-page", access.FullScope(), device.ListFilter{Status: intp(3), Page: db.Page{Page: 500, PageSize: 20}}},
				{"alarm", access.FullScope(), device.ListFilter{Filter: device.Filter{AlarmStatus: intp(1)}}},
				{"site", access.FullScope(), device.ListFilter{Filter: device.Filter{SiteID: 42}}},
				{"site+status", access.FullScope(), device.ListFilter{Filter: device.Filter{SiteID: 42}, Status: intp(2)}},
				{"model", access.FullScope(), device.ListFilter{Filter: device.Filter{ModelID: 5}}},
				{"customer", access.FullScope(), device.ListFilter{Filter: device.Filter{CustomerID: 9}}},
				{"customer+status", access.FullScope(), device.ListFilter{Filter: device.Filter{CustomerID: 9}, Status: intp(1)}},
				{"keyword-sn", access.FullScope(), device.ListFilter{Filter: device.Filter{Keyword: "CP0012"}}},
				{"keyword-name", access.FullScope(), device.ListFilter{Filter: device.Filter{Keyword: "Charger 0004"}}},
				{"keyword-none", access.FullScope(), device.ListFilter{Filter: device.Filter{Keyword: "ZZZ"}}},
				{"scope-3-customers", customerScope, device.ListFilter{}},
				{"scope-3-customers/last-page", customerScope, device.ListFilter{Page: db.Page{Page: 500, PageSize: 20}}},
				{"scope-4-sites+status", siteScope, device.ListFilter{Status: intp(1)}},
				// issue 30 item 7: the sortable columns and the offline filter
				{"sort-status", access.FullScope(), device.ListFilter{Sort: "-status"}},
				{"sort-last-refresh", access.FullScope(), device.ListFilter{Sort: "-lastRefreshAt"}},
				{"sort-sn/last-page", access.FullScope(), device.ListFilter{Sort: "sn", Page: db.Page{Page: 500, PageSize: 20}}},
				{"sort-name", access.FullScope(), device.ListFilter{Sort: "name"}},
				{"scope-3-customers/sort-last-refresh", customerScope, device.ListFilter{Sort: "lastRefreshAt"}},
				{"offline-24h", access.FullScope(), device.ListFilter{Filter: device.Filter{OfflineFor: 86400}}},
			}
			for _, c := range cases {
				b.Run(c.name, func(b *testing.B) {
					ctx := context.Background()
					lat := make([]time.Duration, 0, b.N)
					for b.Loop() {
						t0 := time.Now()
						if _, err := svc.List(ctx, &access.Principal{Scope: c.scope}, c.f); err != nil {
							b.Fatal(err)
						}
						lat = append(lat, time.Since(t0))
					}
					sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
					pct := func(p float64) float64 { return float64(lat[int(float64(len(lat)-1)*p)].Microseconds()) / 1000 }
					b.ReportMetric(pct(0.50), "p50-ms")
					b.ReportMetric(pct(0.99), "p99-ms")
				})
			}
		})
	}
}
