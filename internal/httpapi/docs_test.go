package httpapi_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/docs"
	"chargeops/internal/storage/storagetest"
	"chargeops/internal/testutil"
	"chargeops/internal/testutil/apitest"
)

// docsReadKeys are a reader's keys; docsAllKeys every docs key.
var (
	docsReadKeys = []string{"auth_docs", "auth_docs_home_list_all", "auth_docs_search", "auth_docs_detail", "auth_docs_list"}
	docsAllKeys  = append(slices.Clone(docsReadKeys), "auth_docs_manage", "auth_docs_add", "auth_docs_edit", "auth_docs_content_edit", "auth_docs_category_manage")
)

// docsUser makes a user of customer holding keys at document level.
func docsUser(t *testing.T, o *org, name string, customer int64, level int, keys []string) *apitest.Client {
	t.Helper()
	r := o.root
	rid := id(t, r.Call("POST", "/api/auth/sys/role/add", map[string]any{"name": name + " role", "customerId": customer}))
	apitest.Must(t, r.Call("POST", "/api/auth/sys/role/auth/menu", map[string]any{"id": rid, "keys": keys}))
	apitest.Must(t, r.Call("POST", "/api/auth/sys/role/auth/data", map[string]any{"id": rid, "customerAccess": 1, "siteAccess": 0,
		"webSshLevel": 5, "cfgReadLevel": 5, "cfgWriteLevel": 5, "cfgDownloadLevel": 5, "paramLevel": 5, "docLevel": level, "attachLevel": 5}))
	k := r.Key()
	id(t, r.Call("POST", "/api/auth/sys/user/add", map[string]any{"userName": name, "keyId": k.KeyID,
		"password": k.NewPassword(t, "Docs#Pass1234"), "roleId": rid, "customerId": customer}))
	return o.env.Client().MustLogin(name, "Docs#Pass1234")
}

// docProps is an add body; change fields with the overrides.
func docProps(category int64, title string, over map[string]any) map[string]any {
	b := map[string]any{"categoryId": category, "title": title, "name": title, "type": docs.TypeConfig, "readLevel": 5, "writeLevel": 5, "status": 1}
	for k, v := range over {
		b[k] = v
	}
	return b
}

type docHit struct {
	ID        int64
	Title     string
	TitleHTML string
	Snippet   string
}

func searchDocs(t *testing.T, c *apitest.Client, q string) []docHit {
	t.Helper()
	var out struct{ List []docHit }
	apitest.Must(t, c.Call("POST", "/api/auth/sys/article/search", map[string]any{"q": q, "pageSize": 50})).Into(t, &out)
	return out.List
}

func hitIDs(hits []docHit) []int64 {
	out := []int64{}
	for _, h := range hits {
		out = append(out, h.ID)
	}
	return out
}

func TestDocs(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		o := newOrg(t, d)
		r, env := o.root, o.env
		general := id(t, r.Call("POST", "/api/auth/sys/article/category/add", map[string]any{"name": "General", "description": "platform"}))
		writer := docsUser(t, o, "alpha_docs_writer", o.custA, 3, docsAllKeys) // levels 3-5
		reader := docsUser(t, o, "alpha_docs_reader", o.custA, 5, docsReadKeys)
		beta := docsUser(t, o, "beta_docs_all", o.custB, 0, docsAllKeys)

		overheat := id(t, r.Call("POST", "/api/auth/sys/article/add", docProps(general, "Overheat recovery", map[string]any{
			"content": `<p>充电桩过温保护后自动恢复</p><p>Check the <b>fan</b> &lt;tag&gt;.</p><script>alert(1)</script><img src="x" onerror="alert(1)">`})))
		secret := id(t, r.Call("POST", "/api/auth/sys/article/add", docProps(general, "Secret wiring", map[string]any{
			"readLevel": 2, "writeLevel": 1, "content": "<p>secret wiring of the contactor</p>"})))
		guarded := id(t, r.Call("POST", "/api/auth/sys/article/add", docProps(general, "Guarded manual", map[string]any{
			"readLevel": 3, "writeLevel": 2, "content": "<p>guarded text</p>"})))

		t.Run("sanitiser applied on store: script and onerror gone", func(t *testing.T) {
			var x struct{ Content string }
			apitest.Must(t, r.Call("GET", "/api/auth/sys/article/detail", map[string]any{"id": overheat})).Into(t, &x)
			if strings.Contains(x.Content, "<script") || strings.Contains(x.Content, "onerror") || !strings.Contains(x.Content, "充电桩过温保护后自动恢复") {
				t.Errorf("stored content: %s", x.Content)
			}
		})

		t.Run("document levels: below the read level neither opens nor finds it", func(t *testing.T) {
			if a := writer.Call("GET", "/api/auth/sys/article/detail", map[string]any{"id": secret}); a.Code != apperr.NotFound {
				t.Errorf("level-3 user opened a level-2 document: %d", a.Code)
			}
			if ids := hitIDs(searchDocs(t, writer, "secret")); slices.Contains(ids, secret) {
				t.Errorf("search found it: %v", ids)
			}
			if ids := listIDs(t, writer, "/api/auth/sys/article/list", map[string]any{"pageSize": 100}); slices.Contains(ids, secret) {
				t.Errorf("list shows it: %v", ids)
			}
			var home struct {
				Recent []struct{ ID int64 }
				Counts map[string]int64
			}
			apitest.Must(t, writer.Call("GET", "/api/auth/sys/article/home", nil)).Into(t, &home)
			for _, x := range home.Recent {
				if x.ID == secret {
					t.Errorf("home shows it")
				}
			}
			if home.Counts["101"] != 2 { // overheat and guarded
				t.Errorf("home counts %v", home.Counts)
			}
			if ids := hitIDs(searchDocs(t, r, "secret")); !slices.Contains(ids, secret) {
				t.Errorf("root does not find it: %v", ids)
			}
			if a := reader.Call("GET", "/api/auth/sys/article/detail", map[string]any{"id": guarded}); a.Code != apperr.NotFound {
				t.Errorf("level-5 reader opened a level-3 document: %d", a.Code)
			}
		})

		t.Run("write level: reading is not writing", func(t *testing.T) {
			var x struct{ Writable bool }
			apitest.Must(t, writer.Call("GET", "/api/auth/sys/article/detail", map[string]any{"id": guarded})).Into(t, &x)
			if x.Writable {
				t.Error("a level-3 user may write a write-level-2 document")
			}
			if a := writer.Call("POST", "/api/auth/sys/article/content", map[string]any{"id": guarded, "content": "<p>changed</p>"}); a.Code != apperr.NoPermission {
				t.Errorf("content saved below the write level: %d", a.Code)
			}
			if a := writer.Call("POST", "/api/auth/sys/article/add", docProps(general, "Too high", map[string]any{"readLevel": 2, "writeLevel": 2})); a.Code != apperr.Invalid {
				t.Errorf("a level-3 user made a level-2 document: %d", a.Code)
			}
			if a := writer.Call("POST", "/api/auth/sys/article/add", docProps(general, "Odd", map[string]any{"readLevel": 3, "writeLevel": 4})); a.Code != apperr.Invalid {
				t.Errorf("write level below read level accepted: %d", a.Code)
			}
		})

		// A's writer adds A's own category and document (customer A's, not the platform's).
		catA := id(t, writer.Call("POST", "/api/auth/sys/article/category/add", map[string]any{"name": "Alpha manuals"}))
		docA := id(t, writer.Call("POST", "/api/auth/sys/article/add", docProps(catA, "Alpha contactor guide", map[string]any{
			"content": "<p>alpha procedure</p>"})))

		t.Run("owner customer isolation: B never sees A's documents", func(t *testing.T) {
			if a := beta.Call("GET", "/api/auth/sys/article/detail", map[string]any{"id": docA}); a.Code != apperr.NotFound {
				t.Errorf("B opened A's document: %d", a.Code)
			}
			if ids := hitIDs(searchDocs(t, beta, "alpha")); len(ids) > 0 {
				t.Errorf("B finds A's documents: %v", ids)
			}
			if ids := listIDs(t, beta, "/api/auth/sys/article/list", map[string]any{"pageSize": 100}); slices.Contains(ids, docA) {
				t.Errorf("B lists A's document")
			}
			var cats []struct{ ID int64 }
			apitest.Must(t, beta.Call("GET", "/api/auth/sys/article/category/list", nil)).Into(t, &cats)
			for _, c := range cats {
				if c.ID == catA {
					t.Error("B sees A's category")
				}
			}
			if a := beta.Call("POST", "/api/auth/sys/article/update", docProps(general, "Hijacked", map[string]any{"id": docA})); a.Code == apperr.OK {
				t.Error("B changed A's document")
			}
			if a := writer.Call("POST", "/api/auth/sys/article/update", docProps(general, "Platform hijack", map[string]any{"id": overheat})); a.Code != apperr.NoPermission {
				t.Errorf("a customer's user changed a platform document: %d", a.Code)
			}
			if a := writer.Call("GET", "/api/auth/sys/article/detail", map[string]any{"id": overheat}); a.Code != apperr.OK {
				t.Errorf("A's user cannot read a platform document: %d", a.Code)
			}
		})

		t.Run("disabled documents are hidden from readers without the manage key", func(t *testing.T) {
			apitest.Must(t, r.Call("POST", "/api/auth/sys/article/status", map[string]any{"ids": []int64{docA}, "status": 0}))
			if a := reader.Call("GET", "/api/auth/sys/article/detail", map[string]any{"id": docA}); a.Code != apperr.NotFound {
				t.Errorf("reader opened a disabled document: %d", a.Code)
			}
			if ids := listIDs(t, reader, "/api/auth/sys/article/list", map[string]any{"pageSize": 100}); slices.Contains(ids, docA) {
				t.Error("reader lists a disabled document")
			}
			if ids := hitIDs(searchDocs(t, writer, "procedure")); len(ids) > 0 {
				t.Errorf("a disabled document is searchable: %v", ids)
			}
			if a := writer.Call("GET", "/api/auth/sys/article/detail", map[string]any{"id": docA}); a.Code != apperr.OK {
				t.Errorf("a manager cannot open a disabled document: %d", a.Code)
			}
			apitest.Must(t, r.Call("POST", "/api/auth/sys/article/status", map[string]any{"ids": []int64{docA}, "status": 1}))
			if ids := hitIDs(searchDocs(t, reader, "procedure")); !slices.Equal(ids, []int64{docA}) {
				t.Errorf("enabled again but not found: %v", ids)
			}
		})

		t.Run("search finds English words and a Chinese two-character word inside a sentence", func(t *testing.T) {
			for q, want := range map[string]bool{"过温": true, "恢复": true, "温保": true, "充电桩 恢复": true, "过温 fan": true, "FAN": true,
				"overheat": true, "温": true, "冷却": false, "fans": false, "overheat nonexistent": false} {
				got := slices.Contains(hitIDs(searchDocs(t, reader, q)), overheat)
				if got != want {
					t.Errorf("search %q finds the document: %v, want %v", q, got, want)
				}
			}
		})

		t.Run("ranked: a title match above a content match", func(t *testing.T) {
			inTitle := id(t, r.Call("POST", "/api/auth/sys/article/add", docProps(general, "Contactor welding", map[string]any{"content": "<p>see the wiring</p>"})))
			ids := hitIDs(searchDocs(t, r, "contactor"))
			if len(ids) < 3 || ids[0] != inTitle && ids[0] != docA {
				t.Errorf("contactor ranks %v, want the title matches (%d, %d) first", ids, inTitle, docA)
			}
			if i := slices.Index(ids, secret); i >= 0 && i < 2 {
				t.Errorf("the content-only match ranks %d in %v", i, ids)
			}
		})

		t.Run("highlighted: matches in <mark>, the rest escaped", func(t *testing.T) {
			hits := searchDocs(t, reader, "过温 fan")
			if len(hits) != 1 {
				t.Fatalf("hits %v", hits)
			}
			if s := hits[0].Snippet; !strings.Contains(s, "<mark>过温</mark>") || !strings.Contains(s, "<mark>fan</mark>") || !strings.Contains(s, "&lt;tag&gt;") {
				t.Errorf("snippet %q", s)
			}
			hits = searchDocs(t, reader, "recovery")
			if len(hits) != 1 || hits[0].TitleHTML != "Overheat <mark>recovery</mark>" {
				t.Errorf("title %v", hits)
			}
		})

		t.Run("content images: storage keys signed for readers, another customer's refused", func(t *testing.T) {
			_, up := upload(t, env, writer, "image", "shot.png", "", storagetest.Sample("png"))
			var u struct{ ObjectKey string }
			apitest.Must(t, up).Into(t, &u)
			apitest.Must(t, writer.Call("POST", "/api/auth/sys/article/content", map[string]any{"id": docA,
				"content": fmt.Sprintf(`<p>photo</p><img data-key="%s" src="https://expired.example/x">`, u.ObjectKey)}))
			var x struct{ Content string }
			apitest.Must(t, reader.Call("GET", "/api/auth/sys/article/detail", map[string]any{"id": docA})).Into(t, &x)
			if !strings.Contains(x.Content, `data-key="`+u.ObjectKey+`"`) || strings.Contains(x.Content, "expired.example") || !strings.Contains(x.Content, "src=") {
				t.Errorf("content %s", x.Content)
			}
			if a := beta.Call("POST", "/api/auth/sys/article/add", docProps(0, "B with A's image", map[string]any{"categoryId": general,
				"content": fmt.Sprintf(`<img data-key="%s">`, u.ObjectKey)})); a.Code != apperr.Invalid {
				t.Errorf("B stored A's image: %d", a.Code)
			}
		})

		t.Run("drafts kept 2 minutes after leaving, then expired", func(t *testing.T) {
			svc := env.App.Server.Docs
			now := time.Now()
			svc.SetClock(func() time.Time { return now })
			defer svc.SetClock(time.Now)
			draft := func() (found bool, content string) {
				var dr struct {
					Found   bool
					Content string
				}
				apitest.Must(t, writer.Call("GET", "/api/auth/sys/article/draft/get", map[string]any{"id": docA})).Into(t, &dr)
				return dr.Found, dr.Content
			}
			apitest.Must(t, writer.Call("POST", "/api/auth/sys/article/draft/save", map[string]any{"id": docA, "content": "<p>draft one</p><script>x</script>"}))
			if found, c := draft(); !found || c != "<p>draft one</p>" {
				t.Errorf("draft %v %q", found, c)
			}
			apitest.Must(t, writer.Call("POST", "/api/auth/sys/article/draft/save", map[string]any{"id": docA, "content": "<p>draft two</p>", "leave": true}))
			now = now.Add(90 * time.Second)
			if found, c := draft(); !found || c != "<p>draft two</p>" {
				t.Errorf("back within 2 minutes: %v %q", found, c)
			}
			apitest.Must(t, writer.Call("POST", "/api/auth/sys/article/draft/save", map[string]any{"id": docA, "content": "<p>draft three</p>", "leave": true}))
			now = now.Add(2*time.Minute + time.Second)
			if found, _ := draft(); found {
				t.Error("a draft left over 2 minutes ago was restored")
			}
			if a := reader.Call("GET", "/api/auth/sys/article/draft/get", map[string]any{"id": docA}); a.Code != apperr.NoPermission {
				t.Errorf("reader reads drafts: %d", a.Code)
			}
		})

		t.Run("alarm doc lookup: the device alarm list names the alarm's document", func(t *testing.T) {
			alarmDoc := id(t, r.Call("POST", "/api/auth/sys/article/add", docProps(general, "Ground failure", map[string]any{"type": docs.TypeAlarm,
				"name": "Ground fault: cause and remedy", "modelId": o.model, "alarmCodes": []string{"GroundFailure", "E-101"}})))
			otherModel := id(t, r.Call("POST", "/api/auth/sys/article/add", docProps(general, "Other model", map[string]any{"type": docs.TypeAlarm,
				"modelId": id(t, r.Call("POST", "/api/auth/sys/dev/model/add", map[string]any{"name": "DC-60kW", "deviceType": 1})), "alarmCodes": []string{"OverVoltage"}})))
			_ = otherModel
			ctx := context.Background()
			for _, ev := range []struct{ code, vendor string }{{"GroundFailure", ""}, {"OtherError", "E-101"}, {"OverVoltage", ""}, {"NoDoc", ""}} {
				if _, err := d.Exec(ctx, `INSERT INTO device_event (device_id, customer_id, site_id, kind, level, code, name, vendor_code, status, started_at) VALUES (?, ?, ?, 1, 1, ?, ?, ?, 1, ?)`,
					o.devA, o.custA, o.siteA, ev.code, ev.code, ev.vendor, db.NowMS()); err != nil {
					t.Fatal(err)
				}
			}
			var out struct {
				List []struct {
					Code, VendorCode string
					DocID            int64
					DocName          string
				}
			}
			apitest.Must(t, r.Call("POST", "/api/auth/sys/dev/alarm/list", map[string]any{"deviceId": o.devA, "pageSize": 100})).Into(t, &out)
			got := map[string]int64{}
			for _, e := range out.List {
				got[e.Code] = e.DocID
				if e.DocID == alarmDoc && e.DocName != "Ground fault: cause and remedy" {
					t.Errorf("doc name %q", e.DocName)
				}
			}
			if got["GroundFailure"] != alarmDoc || got["OtherError"] != alarmDoc || got["OverVoltage"] != 0 || got["NoDoc"] != 0 {
				t.Errorf("alarm docs %v (want %d for GroundFailure and vendor E-101; none for another model's code)", got, alarmDoc)
			}
			refs := []docs.AlarmRef{{DeviceID: o.devA, Code: "GroundFailure"}}
			low := &access.Principal{Keys: map[string]bool{"auth_docs_detail": true}, Role: access.RoleSettings{DocLevel: 5}, Scope: access.Scope{CustomerIDs: []int64{o.custB}}}
			apitest.Must(t, r.Call("POST", "/api/auth/sys/article/update", docProps(general, "Ground failure", map[string]any{"id": alarmDoc, "type": docs.TypeAlarm,
				"readLevel": 1, "writeLevel": 1, "modelId": o.model, "alarmCodes": []string{"GroundFailure"}})))
			found, err := env.App.Server.Docs.AlarmDocs(ctx, low, refs)
			if err != nil || found[0].ID != 0 {
				t.Errorf("a level-5 caller gets a level-1 alarm document: %v %v", found, err)
			}
			low.Role.DocLevel = 1
			if found, _ := env.App.Server.Docs.AlarmDocs(ctx, low, refs); found[0].ID != alarmDoc {
				t.Errorf("a level-1 caller does not get it: %v", found)
			}
		})

		t.Run("bad input: a clear error and nothing changed", func(t *testing.T) {
			for name, body := range map[string]map[string]any{
				"no title":          docProps(general, " ", nil),
				"unknown type":      docProps(general, "x", map[string]any{"type": 7}),
				"level 6":           docProps(general, "x", map[string]any{"readLevel": 6}),
				"codes on type 101": docProps(general, "x", map[string]any{"alarmCodes": []string{"E1"}}),
				"no category":       docProps(0, "x", nil),
			} {
				if a := r.Call("POST", "/api/auth/sys/article/add", body); a.Code != apperr.Invalid {
					t.Errorf("%s: %d %s", name, a.Code, a.Message)
				}
			}
			if a := r.Call("POST", "/api/auth/sys/article/category/delete", map[string]any{"ids": []int64{general}}); a.Code != apperr.Conflict {
				t.Errorf("a category with documents deleted: %d", a.Code)
			}
		})
	})
}
