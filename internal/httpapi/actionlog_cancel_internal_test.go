package httpapi

import (
	"context"
	"net/http/httptest"
	"testing"

	"chargeops/internal/access"
	"chargeops/internal/actionlog"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/testutil"
)

// A change whose caller hung up before its answer (its request's context cancelled, as a bench
// or a browser leaving mid-command does) still leaves its action-log row: the change was made.
func TestActionLogOfACancelledRequest(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		s := &Server{Deps: Deps{ActionLog: actionlog.NewStore(d)}}
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		r := httptest.NewRequest("POST", "/api/auth/sys/dev/control/send", nil).WithContext(ctx)
		c := &Ctx{Context: ctx, R: r, P: &access.Principal{UserID: 7, UserName: "op"}, body: []byte(`{"deviceIds":[1]}`)}
		s.logOperation(c, Route{Method: "POST", Path: "/api/auth/sys/dev/control/send"}, apperr.OK)
		var n int
		if err := d.QueryRow(context.Background(), `SELECT COUNT(*) FROM action_log WHERE action = ?`, "POST /api/auth/sys/dev/control/send").Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n != 1 {
			t.Fatalf("%d action-log rows, want 1", n)
		}
	})
}
