package fleet_test

import (
	"context"
	"strings"
	"testing"

	"chargeops/internal/access"
	"chargeops/internal/db"
	"chargeops/internal/fleet"
	"chargeops/internal/setting"
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
		s, err := fleet.New(ctx, d, setting.NewStore(d), fleet.Options{DataDir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		root := &access.Principal{Root: true, Scope: access.FullScope()}
		l, err := s.ProtocolLogs(ctx, root, fleet.LogListInput{Page: db.Page{Page: 9999, PageSize: 100}})
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
