package token_test

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/fleet"
	"chargeops/internal/fleet/fleettest"
	"chargeops/internal/testutil"
	"chargeops/internal/token"
)

func customerOf(id int64) *access.Principal {
	return &access.Principal{UserID: 7, Scope: access.Scope{CustomerIDs: []int64{id}, AllSites: true}}
}

var root = &access.Principal{Root: true, Scope: access.FullScope()}

func add(t *testing.T, s *token.Service, p *access.Principal, in token.Form) int64 {
	t.Helper()
	id, err := s.Add(context.Background(), p, in)
	if err != nil {
		t.Fatalf("add %s: %v", in.IDTag, err)
	}
	return id
}

func wantKey(t *testing.T, err error, key string) {
	t.Helper()
	e, ok := apperr.As(err)
	if !ok || e.Key != key {
		t.Fatalf("want %s, got %v", key, err)
	}
}

func TestTokenStore(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		org := fleettest.Seed(t, d)
		s := token.New(d)
		a, b := customerOf(org.CustomerA), customerOf(org.CustomerB)

		t.Run("add and read back, idTag compared case-insensitively", func(t *testing.T) {
			id := add(t, s, a, token.Form{IDTag: "abc123", Name: "Card 1", ParentIDTag: "fleet-a", ExpiresAt: 0})
			got, err := s.Get(ctx, a, id)
			if err != nil || got.IDTag != "abc123" || got.CustomerID != org.CustomerA || got.ParentIDTag != "fleet-a" || got.Origin != token.OriginAdded {
				t.Fatalf("got %+v %v", got, err)
			}
			_, err = s.Add(ctx, a, token.Form{IDTag: "ABC123"})
			wantKey(t, err, "err.token_exists")
			// the same idTag in another customer is another token
			add(t, s, b, token.Form{IDTag: "ABC123"})
		})
		t.Run("one check per field", func(t *testing.T) {
			cases := []struct {
				name string
				in   token.Form
				key  string
			}{
				{"empty idTag", token.Form{}, "err.required"},
				{"idTag over 20", token.Form{IDTag: "123456789012345678901"}, "err.token_tag"},
				{"idTag with a space", token.Form{IDTag: "a b"}, "err.token_tag"},
				{"parent is itself", token.Form{IDTag: "X1", ParentIDTag: "x1"}, "err.token_parent_self"},
				{"bad status", token.Form{IDTag: "X2", Status: 5}, "err.invalid"},
				{"negative expiry", token.Form{IDTag: "X3", ExpiresAt: -1}, "err.invalid"},
			}
			for _, c := range cases {
				t.Run(c.name, func(t *testing.T) {
					_, err := s.Add(ctx, a, c.in)
					wantKey(t, err, c.key)
				})
			}
		})
		t.Run("a customer outside the scope cannot be given a token", func(t *testing.T) {
			_, err := s.Add(ctx, a, token.Form{IDTag: "OTHER", CustomerID: org.CustomerB})
			wantKey(t, err, "err.invalid")
		})
		t.Run("another customer's token is not found", func(t *testing.T) {
			idB := add(t, s, b, token.Form{IDTag: "B-ONLY"})
			if _, err := s.Get(ctx, a, idB); !apperr.IsNotFound(err) {
				t.Fatalf("get: %v", err)
			}
			if err := s.Update(ctx, a, token.Form{ID: idB, IDTag: "B-ONLY", Name: "taken"}); !apperr.IsNotFound(err) {
				t.Fatalf("update: %v", err)
			}
			if err := s.Delete(ctx, a, []int64{idB}); !apperr.IsNotFound(err) {
				t.Fatalf("delete: %v", err)
			}
			list, err := s.List(ctx, a, token.ListFilter{IDTag: "b-only"})
			if err != nil || list.Total != 0 {
				t.Fatalf("list: %+v %v", list, err)
			}
			list, err = s.List(ctx, b, token.ListFilter{IDTag: "b-only"})
			if err != nil || list.Total != 1 {
				t.Fatalf("own list: %+v %v", list, err)
			}
		})
		t.Run("batch block is atomic", func(t *testing.T) {
			x := add(t, s, a, token.Form{IDTag: "BATCH-1"})
			y := add(t, s, a, token.Form{IDTag: "BATCH-2"})
			foreign := add(t, s, b, token.Form{IDTag: "BATCH-3"})
			if err := s.SetBlocked(ctx, a, []int64{x, y, foreign}, true); !apperr.IsNotFound(err) {
				t.Fatalf("block with a foreign id: %v", err)
			}
			for _, id := range []int64{x, y} {
				if got, _ := s.Get(ctx, a, id); got.Status != token.StatusActive {
					t.Fatalf("token %d blocked by a refused batch", id)
				}
			}
			if err := s.SetBlocked(ctx, a, []int64{x, y}, true); err != nil {
				t.Fatal(err)
			}
			st := token.StatusBlocked
			list, err := s.List(ctx, a, token.ListFilter{IDTag: "BATCH", Status: &st})
			if err != nil || list.Total != 2 {
				t.Fatalf("blocked list: %+v %v", list, err)
			}
		})
		t.Run("batch delete is atomic", func(t *testing.T) {
			x := add(t, s, a, token.Form{IDTag: "DEL-1"})
			if err := s.Delete(ctx, a, []int64{x, 999999}); !apperr.IsNotFound(err) {
				t.Fatalf("delete with an unknown id: %v", err)
			}
			if _, err := s.Get(ctx, a, x); err != nil {
				t.Fatalf("deleted by a refused batch: %v", err)
			}
			if err := s.Delete(ctx, a, []int64{x}); err != nil {
				t.Fatal(err)
			}
			if _, err := s.Get(ctx, a, x); !apperr.IsNotFound(err) {
				t.Fatalf("still there: %v", err)
			}
		})
		t.Run("expiry filter", func(t *testing.T) {
			x := add(t, s, a, token.Form{IDTag: "OLD-1"})
			if err := s.SetExpiry(ctx, a, []int64{x}, time.Now().Add(-time.Hour).UnixMilli()); err != nil {
				t.Fatal(err)
			}
			st := token.StatusExpired
			list, err := s.List(ctx, a, token.ListFilter{Status: &st})
			if err != nil || list.Total != 1 || list.List[0].ID != x || !list.List[0].Expired {
				t.Fatalf("expired list: %+v %v", list, err)
			}
		})
		t.Run("policy defaults to accept and is scoped", func(t *testing.T) {
			pol, err := s.GetPolicy(ctx, a, org.CustomerA)
			if err != nil || pol.Unknown != token.PolicyAccept {
				t.Fatalf("default policy: %+v %v", pol, err)
			}
			if err := s.SetPolicy(ctx, a, token.Policy{CustomerID: org.CustomerA, Unknown: token.PolicyRefuse}); err != nil {
				t.Fatal(err)
			}
			if pol, _ := s.GetPolicy(ctx, a, org.CustomerA); pol.Unknown != token.PolicyRefuse {
				t.Fatalf("policy not set: %+v", pol)
			}
			if err := s.SetPolicy(ctx, a, token.Policy{CustomerID: org.CustomerB, Unknown: token.PolicyRefuse}); !apperr.IsNotFound(err) {
				t.Fatalf("another customer's policy: %v", err)
			}
		})
	})
}

func TestTokenAuthority(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		org := fleettest.Seed(t, d)
		s := token.New(d)
		dev := &fleet.Device{ID: fleettest.Device(t, d, org, org.CustomerA, org.SiteA, "SN-AUTH"), CustomerID: org.CustomerA, SiteID: org.SiteA, SN: "SN-AUTH"}
		add(t, s, root, token.Form{CustomerID: org.CustomerA, IDTag: "GROUP", Status: token.StatusBlocked})
		add(t, s, root, token.Form{CustomerID: org.CustomerA, IDTag: "CHILD", ParentIDTag: "group"})
		add(t, s, root, token.Form{CustomerID: org.CustomerA, IDTag: "GOOD", ParentIDTag: "NOGROUP", ExpiresAt: time.Now().Add(time.Hour).UnixMilli()})
		add(t, s, root, token.Form{CustomerID: org.CustomerB, IDTag: "B-TAG"})
		cases := []struct {
			name, tag string
			want      fleet.TokenVerdict
		}{
			{"active, case-insensitively", "good", fleet.TokenAccepted},
			{"a blocked parent blocks its children", "CHILD", fleet.TokenBlocked},
			{"another customer's token is unknown here", "B-TAG", fleet.TokenAccepted}, // recorded by the default policy
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				ans, err := s.Authorize(ctx, dev, c.tag)
				if err != nil || ans.Status != c.want {
					t.Fatalf("%s: %+v %v", c.tag, ans, err)
				}
			})
		}
		t.Run("the answer carries parent and expiry", func(t *testing.T) {
			ans, _ := s.Authorize(ctx, dev, "GOOD")
			if ans.ParentIDTag != "NOGROUP" || ans.ExpiryDate == 0 {
				t.Fatalf("%+v", ans)
			}
		})
		t.Run("unknown under accept is recorded", func(t *testing.T) {
			list, err := s.List(ctx, root, token.ListFilter{IDTag: "B-TAG", CustomerID: org.CustomerA})
			if err != nil || list.Total != 1 || list.List[0].Origin != token.OriginRecorded {
				t.Fatalf("recorded: %+v %v", list, err)
			}
		})
		t.Run("a full list holds the added tokens with their answers, not the untouched recorded one", func(t *testing.T) {
			list, refusal, err := s.Build(ctx, dev, true)
			if err != nil || refusal != "" || !list.Full {
				t.Fatalf("build: %+v %q %v", list, refusal, err)
			}
			got := map[string]fleet.TokenVerdict{}
			for _, e := range list.Entries {
				got[e.IDTag] = e.Info.Status
			}
			want := map[string]fleet.TokenVerdict{"GROUP": fleet.TokenBlocked, "CHILD": fleet.TokenBlocked, "GOOD": fleet.TokenAccepted}
			if len(got) != len(want) {
				t.Fatalf("entries: %v", got)
			}
			for tag, st := range want {
				if got[tag] != st {
					t.Fatalf("entries: %v", got)
				}
			}
		})
	})
}

// xlsxFile builds an import file: a header row and rows.
func xlsxFile(t *testing.T, rows ...[]any) []byte {
	t.Helper()
	f := excelize.NewFile()
	defer f.Close()
	all := append([][]any{{"idTag", "Name", "Parent", "Expiry", "Status", "Note"}}, rows...)
	for i, r := range all {
		cell, _ := excelize.CoordinatesToCellName(1, i+1)
		if err := f.SetSheetRow("Sheet1", cell, &r); err != nil {
			t.Fatal(err)
		}
	}
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestTokenImport(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		org := fleettest.Seed(t, d)
		s := token.New(d)
		a := customerOf(org.CustomerA)
		t.Run("the template reads back as a good file", func(t *testing.T) {
			b, err := token.Template("en-US")
			if err != nil {
				t.Fatal(err)
			}
			res, err := s.Import(ctx, a, token.ImportInput{Content: b, Locale: "en-US"})
			if err != nil || res.Imported != 2 {
				t.Fatalf("template import: %+v %v", res, err)
			}
		})
		t.Run("a bad row names its row and field and nothing is imported", func(t *testing.T) {
			file := xlsxFile(t, []any{"IMP-1", "Good", "", "2030-01-31", "blocked", ""}, []any{"IMP-2", "Bad", "", "not a date", "", ""})
			_, err := s.Import(ctx, a, token.ImportInput{Content: file, Locale: "zh-CN"})
			e, ok := apperr.As(err)
			if !ok || e.Key != "err.token_import_row" || e.Args["row"] != 3 {
				t.Fatalf("want row 3 refused, got %v", err)
			}
			rows := e.Data.(map[string]any)["rows"].([]token.RowError)
			if len(rows) != 1 || rows[0].Row != 3 || rows[0].Field != "到期日期（yyyy-MM-dd）" {
				t.Fatalf("rows: %+v", rows)
			}
			if list, _ := s.List(ctx, a, token.ListFilter{IDTag: "IMP-"}); list.Total != 0 {
				t.Fatalf("imported %d tokens of a refused file", list.Total)
			}
		})
		t.Run("a good file is imported with its fields", func(t *testing.T) {
			file := xlsxFile(t, []any{"IMP-1", "Good", "FLEET", "2030-01-31", "blocked", "n"}, []any{"imp-2", "Two", "", "", "启用", ""})
			res, err := s.Import(ctx, a, token.ImportInput{Content: file, Locale: "en-US", Location: time.UTC})
			if err != nil || res.Imported != 2 {
				t.Fatalf("import: %+v %v", res, err)
			}
			list, _ := s.List(ctx, a, token.ListFilter{IDTag: "IMP-1"})
			if list.Total != 1 {
				t.Fatalf("list: %+v", list)
			}
			got := list.List[0]
			want := time.Date(2030, 1, 31, 23, 59, 59, 0, time.UTC).UnixMilli()
			if got.Status != token.StatusBlocked || got.ParentIDTag != "FLEET" || got.ExpiresAt != want || got.Origin != token.OriginImported {
				t.Fatalf("imported token: %+v", got)
			}
		})
		t.Run("a row clashing with an existing token is refused", func(t *testing.T) {
			file := xlsxFile(t, []any{"NEW-9", "", "", "", "", ""}, []any{"IMP-1", "again", "", "", "", ""})
			_, err := s.Import(ctx, a, token.ImportInput{Content: file, Locale: "en-US"})
			e, ok := apperr.As(err)
			if !ok || e.Args["row"] != 3 {
				t.Fatalf("want row 3 refused, got %v", err)
			}
			if list, _ := s.List(ctx, a, token.ListFilter{IDTag: "NEW-9"}); list.Total != 0 {
				t.Fatal("a refused file left a token")
			}
		})
	})
}
