package ticket

import (
	"context"
	"testing"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/testutil"
)

// TestTransitions walks every action from every state: only the allowed ones change the state,
// each adds exactly one process entry, and a refused one changes nothing.
func TestTransitions(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		now := db.NowMS()
		cust, err := db.InsertID(ctx, d, `INSERT INTO customer (name, code, created_at, updated_at) VALUES (?, ?, ?, ?)`, "Ticket Co", "TKT", now, now)
		if err != nil {
			t.Fatal(err)
		}
		s := New(d, nil, nil)
		p := &access.Principal{UserID: 1, UserName: "root", Root: true, CustomerID: cust, Scope: access.FullScope()}
		prio := 1
		act := map[string]func(context.Context, *access.Principal, CommentInput) error{"pending": s.Pending, "close": s.Close, "reopen": s.Reopen}
		for _, from := range []string{StateOpen, StatePending, StateClosed, StateReopen} {
			for name, tr := range transitions {
				t.Run(from+" "+name, func(t *testing.T) {
					id, err := s.Add(ctx, p, Input{Title: "t", Category: CategoryDeviceIndependent, Priority: &prio, OccurredAt: now, CustomerID: cust})
					if err != nil {
						t.Fatal(err)
					}
					if _, err := d.Exec(ctx, `UPDATE ticket SET state = ? WHERE id = ?`, from, id); err != nil {
						t.Fatal(err)
					}
					entries := func() int {
						x, err := s.Detail(ctx, p, id)
						if err != nil {
							t.Fatal(err)
						}
						return len(x.Entries)
					}
					before := entries()
					if tr.comment {
						if err := act[name](ctx, p, CommentInput{ID: id, Comment: "<p> </p>"}); err == nil {
							t.Fatalf("%s without a comment accepted", name)
						}
					}
					err = act[name](ctx, p, CommentInput{ID: id, Comment: "<p>why</p>"})
					allowed := false
					for _, f := range tr.from {
						allowed = allowed || f == from
					}
					x, _ := s.Detail(ctx, p, id)
					switch {
					case allowed && err != nil:
						t.Fatalf("%s from %s refused: %v", name, from, err)
					case allowed && (x.State != tr.to || len(x.Entries) != before+1):
						t.Fatalf("%s from %s: state %s, %d entries (was %d)", name, from, x.State, len(x.Entries), before)
					case !allowed:
						if e, ok := apperr.As(err); !ok || e.Code != apperr.Conflict {
							t.Fatalf("%s from %s: %v, want a conflict", name, from, err)
						}
						if x.State != from || entries() != before {
							t.Fatalf("a refused %s changed the ticket", name)
						}
					}
				})
			}
		}
	})
}

// TestListCommentCount: the list's comment count counts every comment a reader sees in the
// process: plain comments, a visitor's, and the comments given with a state change (close and
// reopen require one). It used to count plain comments only: 1 for three.
func TestListCommentCount(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		now := db.NowMS()
		cust, err := db.InsertID(ctx, d, `INSERT INTO customer (name, code, created_at, updated_at) VALUES (?, ?, ?, ?)`, "Count Co", "CNT", now, now)
		if err != nil {
			t.Fatal(err)
		}
		s := New(d, nil, nil)
		p := &access.Principal{UserID: 1, UserName: "root", Root: true, CustomerID: cust, Scope: access.FullScope()}
		prio := 1
		id, err := s.Add(ctx, p, Input{Title: "three comments", Category: CategoryDeviceIndependent, Priority: &prio, OccurredAt: now, CustomerID: cust})
		if err != nil {
			t.Fatal(err)
		}
		count := func() int {
			l, err := s.List(ctx, p, ListInput{CustomerID: cust, Page: db.Page{Page: 1, PageSize: 20}})
			if err != nil || len(l.List) != 1 {
				t.Fatalf("list: %v %+v", err, l)
			}
			return int(l.List[0].Comments)
		}
		steps := []struct {
			name string
			do   func() error
		}{
			{"a plain comment", func() error { return s.Comment(ctx, p, CommentInput{ID: id, Comment: "<p>looking</p>"}) }},
			{"pending without a comment counts nothing", func() error { return s.Pending(ctx, p, CommentInput{ID: id}) }},
			{"close with its comment", func() error { return s.Close(ctx, p, CommentInput{ID: id, Comment: "<p>fixed</p>"}) }},
			{"reopen with its comment", func() error { return s.Reopen(ctx, p, CommentInput{ID: id, Comment: "<p>came back</p>"}) }},
		}
		want := []int{1, 1, 2, 3}
		for i, st := range steps {
			if err := st.do(); err != nil {
				t.Fatalf("%s: %v", st.name, err)
			}
			if got := count(); got != want[i] {
				t.Fatalf("after %s: %d comments in the list, want %d", st.name, got, want[i])
			}
		}
		x, err := s.Detail(ctx, p, id)
		if err != nil || x.Comments != 3 {
			t.Fatalf("detail: %v, %d comments, want 3", err, x.Comments)
		}
	})
}
