package read_test

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"chargeops/internal/access"
	"chargeops/internal/db"
	"chargeops/internal/fleet"
	"chargeops/internal/fleet/read"
	"chargeops/internal/testutil"
)

// TestProtocolLogListIsWindowed: the busiest table is never counted or paged past the window.
func TestProtocolLogListIsWindowed(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		const rows = db.MaxWindow + 50
		for i := 0; i < rows; i += 500 {
			var sb strings.Builder
			var args []any
			sb.WriteString(`INSERT INTO protocol_log (sn, type, data, created_at) VALUES `)
			for j := i; j < min(i+500, rows); j++ {
				if j > i {
					sb.WriteByte(',')
				}
				sb.WriteString("(?, 2, '[2,\"1\",\"Heartbeat\",{}]', ?)")
				args = append(args, "LOG-SN", int64(j))
			}
			if _, err := d.Exec(ctx, sb.String(), args...); err != nil {
				t.Fatal(err)
			}
		}
		s := read.New(d, read.Options{})
		root := &access.Principal{Root: true, Scope: access.FullScope()}
		l, err := s.ProtocolLogs(ctx, root, read.LogListInput{Page: db.Page{Page: 9999, PageSize: 100}})
		if err != nil {
			t.Fatal(err)
		}
		if l.Total != db.MaxWindow || !l.TotalMore || len(l.List) != 100 {
			t.Fatalf("total %d more %v rows %d", l.Total, l.TotalMore, len(l.List))
		}
		// The deepest page served is the window's last one: the oldest rows past it are not.
		if last := l.List[len(l.List)-1]; last.Time != rows-db.MaxWindow {
			t.Fatalf("last row of the deepest page has time %d, want %d", last.Time, rows-db.MaxWindow)
		}
	})
}

// TestProtocolLogKeysetPages: in every order and filter, walking the list by its cursors
// gives every matching row once, in order, on both databases; page numbers give the same
// pages; a cursor of another order, or a forged one, is refused.
func TestProtocolLogKeysetPages(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		if err := fleet.MaintainPartitions(ctx, d); err != nil {
			t.Fatal(err)
		}
		now := db.NowMS()
		if d.Dialect() == db.Postgres {
			// the last 10 days in partitions of their own, older ones in the default partition
			for i := int64(1); i <= 10; i++ {
				if err := fleet.CreatePartition(ctx, d, "protocol_log", time.UnixMilli(now-i*dayMS)); err != nil {
					t.Fatal(err)
				}
			}
		}
		type row struct {
			id  int64
			sn  string
			typ int
			at  int64
		}
		var all []row
		const n = 600
		for i := range n {
			// three rows share each time; times go back 2 h a step over 17 days, and a few
			// sit in 1970
			at := now - int64(i/3)*7_200_000
			if i%97 == 0 {
				at = int64(i)
			}
			r := row{sn: fmt.Sprintf("KS-%d", i%7), typ: i % 4, at: at}
			if _, err := d.Exec(ctx, `INSERT INTO protocol_log (sn, type, data, created_at) VALUES (?, ?, ?, ?)`, r.sn, r.typ, fmt.Sprint(i), r.at); err != nil {
				t.Fatal(err)
			}
			if err := d.QueryRow(ctx, `SELECT id FROM protocol_log WHERE data = ?`, fmt.Sprint(i)).Scan(&r.id); err != nil {
				t.Fatal(err)
			}
			all = append(all, r)
		}
		// Customer 1's user sees its device KS-3 only (listed device by device on PostgreSQL);
		// customer 2's sees KS-0, KS-1, KS-2 and 300 devices without logs (too many for that:
		// rows filtered in the walk of the whole table).
		for _, q := range []string{
			`INSERT INTO customer (id, name, code, created_at, updated_at) VALUES (1, 'C1', 'C1', 0, 0), (2, 'C2', 'C2', 0, 0)`,
			`INSERT INTO site (id, customer_id, name, code, created_at, updated_at) VALUES (1, 1, 'S1', 'S1', 0, 0), (2, 2, 'S2', 'S2', 0, 0)`,
			`INSERT INTO device_model (id, name, device_type, created_at, updated_at) VALUES (1, 'M1', 1, 0, 0)`,
			`INSERT INTO device (sn, name, model_id, site_id, customer_id, created_at, updated_at) VALUES ('KS-3', 'KS-3', 1, 1, 1, 0, 0)`,
			`INSERT INTO device (sn, name, model_id, site_id, customer_id, created_at, updated_at) VALUES ('KS-0', 'KS-0', 1, 2, 2, 0, 0), ('KS-1', 'KS-1', 1, 2, 2, 0, 0), ('KS-2', 'KS-2', 1, 2, 2, 0, 0)`,
		} {
			if _, err := d.Exec(ctx, q); err != nil {
				t.Fatal(err)
			}
		}
		for i := range 300 {
			if _, err := d.Exec(ctx, `INSERT INTO device (sn, name, model_id, site_id, customer_id, created_at, updated_at) VALUES (?, ?, 1, 2, 2, 0, 0)`,
				fmt.Sprintf("QUIET-%d", i), fmt.Sprintf("QUIET-%d", i)); err != nil {
				t.Fatal(err)
			}
		}
		s := read.New(d, read.Options{})
		root := &access.Principal{Root: true, Scope: access.FullScope()}
		customer := &access.Principal{Scope: access.Scope{CustomerIDs: []int64{1}, AllSites: true}}
		customer2 := &access.Principal{Scope: access.Scope{CustomerIDs: []int64{2}, AllSites: true}}

		two := 2
		cases := []struct {
			name  string
			p     *access.Principal
			in    read.LogListInput
			match func(r row) bool
		}{
			{"all", root, read.LogListInput{}, func(row) bool { return true }},
			{"sn", root, read.LogListInput{SN: "KS-5"}, func(r row) bool { return r.sn == "KS-5" }},
			{"type+time", root, read.LogListInput{Type: &two, Start: now - 5*dayMS, End: now - dayMS},
				func(r row) bool { return r.typ == 2 && r.at >= now-5*dayMS && r.at < now-dayMS }},
			{"scoped", customer, read.LogListInput{}, func(r row) bool { return r.sn == "KS-3" }},
			{"scoped+sn", customer, read.LogListInput{SN: "KS-3"}, func(r row) bool { return r.sn == "KS-3" }},
			{"scoped+other-sn", customer, read.LogListInput{SN: "KS-5"}, func(row) bool { return false }},
			{"scoped-many", customer2, read.LogListInput{Type: &two}, func(r row) bool { return r.typ == 2 && r.sn <= "KS-2" }},
		}
		for _, c := range cases {
			for _, sort := range []string{"", "sn", "-sn", "type", "-type"} {
				var want []int64
				var rows []row
				for _, r := range all {
					if c.match(r) {
						rows = append(rows, r)
					}
				}
				slices.SortFunc(rows, func(a, b row) int {
					key := 0
					switch sort {
					case "sn", "-sn":
						key = strings.Compare(a.sn, b.sn)
					case "type", "-type":
						key = a.typ - b.typ
					}
					if strings.HasPrefix(sort, "-") {
						key = -key
					}
					if key != 0 {
						return key
					}
					if c := cmp.Compare(b.at, a.at); c != 0 {
						return c
					}
					return cmp.Compare(b.id, a.id)
				})
				for _, r := range rows {
					want = append(want, r.id)
				}
				in := c.in
				in.Sort, in.PageSize = sort, 10
				var got []int64
				var pages [][]int64
				for page := 1; ; page++ {
					l, err := s.ProtocolLogs(ctx, c.p, in)
					if err != nil {
						t.Fatalf("%s/%q page %d: %v", c.name, sort, page, err)
					}
					if l.Total != int64(len(want)) {
						t.Fatalf("%s/%q: total %d, want %d", c.name, sort, l.Total, len(want))
					}
					var ids []int64
					for _, v := range l.List {
						ids = append(ids, v.ID)
					}
					got = append(got, ids...)
					pages = append(pages, ids)
					if l.Next == "" {
						break
					}
					in.Cursor = l.Next
					if page > n {
						t.Fatalf("%s/%q: cursor never ends", c.name, sort)
					}
				}
				if !slices.Equal(got, want) {
					t.Fatalf("%s/%q: cursor walk gave %d rows %v…, want %d %v…", c.name, sort, len(got), head(got), len(want), head(want))
				}
				// Page numbers reach the same pages.
				for _, page := range []int{1, 2, len(pages) / 2, len(pages)} {
					if page < 1 || page > len(pages) {
						continue
					}
					byNumber := c.in
					byNumber.Sort, byNumber.Page = sort, db.Page{Page: page, PageSize: 10}
					l, err := s.ProtocolLogs(ctx, c.p, byNumber)
					if err != nil {
						t.Fatal(err)
					}
					var ids []int64
					for _, v := range l.List {
						ids = append(ids, v.ID)
					}
					if !slices.Equal(ids, pages[page-1]) {
						t.Fatalf("%s/%q page %d by number %v, by cursor %v", c.name, sort, page, ids, pages[page-1])
					}
				}
			}
		}

		first, err := s.ProtocolLogs(ctx, root, read.LogListInput{Page: db.Page{PageSize: 10}})
		if err != nil || first.Next == "" {
			t.Fatalf("first page: %v", err)
		}
		for _, bad := range []read.LogListInput{
			{Cursor: first.Next, Sort: "sn"}, // another order's cursor
			{Cursor: "not-a-cursor"},
			{Cursor: "e30"}, // {}
		} {
			if _, err := s.ProtocolLogs(ctx, root, bad); err == nil {
				t.Errorf("cursor %q with sort %q accepted", bad.Cursor, bad.Sort)
			}
		}
	})
}

const dayMS = int64(24 * time.Hour / time.Millisecond)

func head(ids []int64) []int64 { return ids[:min(len(ids), 8)] }
