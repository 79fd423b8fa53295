package httpapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"chargeops/internal/apperr"
	"chargeops/internal/config"
	"chargeops/internal/db"
	"chargeops/internal/openapi"
	"chargeops/internal/openapi/webhook"
	"chargeops/internal/sim"
	"chargeops/internal/testutil"
	"chargeops/internal/testutil/apitest"
)

// receiver is a third party's webhook endpoint started in the test: it checks every delivery's
// signature with openapi.Sign and the application's secret, and answers 500 to the first
// failFirst attempts of each delivery (always, with failFirst < 0).
type receiver struct {
	*httptest.Server
	appID, secret string
	failFirst     int

	mu       sync.Mutex
	got      []delivered
	bad      []string
	attempts map[string]int
}

// delivered is a delivery the receiver accepted, with its checked signature.
type delivered struct {
	Event, DeliveryID string
	Body              struct {
		ID    int64           `json:"id"`
		Event string          `json:"event"`
		Time  int64           `json:"time"`
		Data  json.RawMessage `json:"data"`
	}
	Data struct {
		SN     string `json:"sn"`
		Online bool   `json:"online"`
	}
}

func newReceiver(t *testing.T, app *apitest.Client, failFirst int) *receiver {
	r := &receiver{appID: app.AppID, secret: app.AppSecret, failFirst: failFirst, attempts: map[string]int{}}
	r.Server = httptest.NewServer(http.HandlerFunc(r.serve))
	t.Cleanup(r.Close)
	return r
}

func (r *receiver) serve(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(req.Body)
	h := req.Header
	want := openapi.Sign([]byte(r.secret), openapi.Request{Method: req.Method, Path: req.URL.EscapedPath(), RawQuery: req.URL.RawQuery,
		Body: body, AppID: h.Get("X-App-Id"), Timestamp: h.Get("X-Timestamp"), Nonce: h.Get("X-Nonce")})
	ts, _ := strconv.ParseInt(h.Get("X-Timestamp"), 10, 64)
	r.mu.Lock()
	defer r.mu.Unlock()
	id := h.Get("X-Webhook-Delivery")
	switch {
	case req.Method != http.MethodPost || h.Get("Content-Type") != "application/json":
		r.bad = append(r.bad, "not a JSON POST: "+req.Method+" "+h.Get("Content-Type"))
	case h.Get("X-App-Id") != r.appID:
		r.bad = append(r.bad, "X-App-Id "+h.Get("X-App-Id"))
	case h.Get("X-Signature") != want:
		r.bad = append(r.bad, "signature does not verify for delivery "+id)
	case time.Since(time.Unix(ts, 0)).Abs() > time.Minute:
		r.bad = append(r.bad, "timestamp "+h.Get("X-Timestamp"))
	case !openapi.ValidNonce(h.Get("X-Nonce")):
		r.bad = append(r.bad, "nonce "+h.Get("X-Nonce"))
	}
	r.attempts[id]++
	if r.failFirst < 0 || r.attempts[id] <= r.failFirst {
		http.Error(w, "receiver down", http.StatusInternalServerError)
		return
	}
	d := delivered{Event: h.Get("X-Webhook-Event"), DeliveryID: id}
	if err := json.Unmarshal(body, &d.Body); err != nil {
		r.bad = append(r.bad, "body: "+err.Error())
	}
	_ = json.Unmarshal(d.Body.Data, &d.Data)
	if d.Event != d.Body.Event || fmt.Sprint(d.Body.ID) != id {
		r.bad = append(r.bad, fmt.Sprintf("headers %s/%s do not match the body %s/%d", d.Event, id, d.Body.Event, d.Body.ID))
	}
	r.got = append(r.got, d)
	w.WriteHeader(http.StatusNoContent)
}

// received is what the receiver accepted so far, and the problems it found.
func (r *receiver) received() ([]delivered, []string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]delivered(nil), r.got...), append([]string(nil), r.bad...)
}

// fastRetry makes the node's delivery worker retry within milliseconds.
func fastRetry(env *apitest.Env, maxAttempts int) {
	o := env.App.Webhooks.Options()
	o.Backoff = []time.Duration{20 * time.Millisecond, 40 * time.Millisecond}
	o.MaxAttempts = maxAttempts
	o.Poll = 20 * time.Millisecond
	o.Timeout = 2 * time.Second
	o.SubsRefresh = 100 * time.Millisecond
	env.App.Webhooks.SetOptions(o)
}

type webhookDeliveries struct {
	Total int64
	List  []webhook.Delivery
}

func TestWebhooks(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		o := newOrgOn(t, apitest.New(t, d, func(c *config.Config) { c.WebhookAllowPrivate = true; c.OpenAPIRate = 100000 }))
		fastRetry(o.env, 8)
		t.Cleanup(o.env.App.StartWorkers(context.Background()))
		appA := o.env.NewApp(o.root, "Alpha hooks", o.userA)
		appB := o.env.NewApp(o.root, "Beta hooks", o.userB)
		recvA := newReceiver(t, appA, 0)
		flaky := newReceiver(t, appA, 2)
		down := newReceiver(t, appA, -1)
		recvB := newReceiver(t, appB, 0)
		var hookA, hookFlaky, hookDown webhook.Webhook
		subscribe := func(app *apitest.Client, url string, events ...string) webhook.Webhook {
			var w webhook.Webhook
			apitest.Must(t, app.Call("POST", "/openapi/v1/webhooks", map[string]any{"url": url, "events": events})).Into(t, &w)
			return w
		}

		t.Run("an application subscribes over the signed OpenAPI", func(t *testing.T) {
			hookA = subscribe(appA, recvA.URL+"/hooks/chargeops?tenant=alpha&x=1", "device.status", "alarm")
			hookFlaky = subscribe(appA, flaky.URL, "device.status")
			hookDown = subscribe(appA, down.URL+"/down", "device.status")
			subscribe(appB, recvB.URL+"/beta", "device.status", "alarm", "command.result")
			var list []webhook.Webhook
			apitest.Must(t, appA.Call("GET", "/openapi/v1/webhooks", nil)).Into(t, &list)
			if len(list) != 3 || list[0].ID != hookA.ID || !list[0].Enabled || strings.Join(list[0].Events, ",") != "alarm,device.status" {
				t.Fatalf("webhooks: %+v", list)
			}
			// B's application does not see A's webhooks, nor change or delete them.
			apitest.Must(t, appB.Call("GET", "/openapi/v1/webhooks", nil)).Into(t, &list)
			if len(list) != 1 || list[0].ID == hookA.ID {
				t.Fatalf("B's webhooks: %+v", list)
			}
			if a := appB.Call("POST", "/openapi/v1/webhooks", map[string]any{"id": hookA.ID, "url": recvB.URL, "events": []string{"alarm"}}); a.Code != apperr.NotFound {
				t.Fatalf("B changed A's webhook: %d %s", a.Code, a.Message)
			}
			if a := appB.Call("POST", "/openapi/v1/webhooks/delete", map[string]any{"ids": []int64{hookA.ID}}); a.Code != apperr.NotFound {
				t.Fatalf("B deleted A's webhook: %d %s", a.Code, a.Message)
			}
		})

		t.Run("subscriptions are validated, one field at a time, and limited to five", func(t *testing.T) {
			for _, c := range []struct {
				name string
				body map[string]any
				want string
			}{
				{"no url", map[string]any{"events": []string{"alarm"}}, "url"},
				{"not http", map[string]any{"url": "ftp://203.0.113.7/x", "events": []string{"alarm"}}, "url"},
				{"credentials in the url", map[string]any{"url": "https://u:p@203.0.113.7/x", "events": []string{"alarm"}}, "url"},
				{"no events", map[string]any{"url": "https://203.0.113.7/x"}, "events"},
				{"unknown event", map[string]any{"url": "https://203.0.113.7/x", "events": []string{"alarm", "device.deleted"}}, "events"},
			} {
				a := appA.Call("POST", "/openapi/v1/webhooks", c.body)
				if a.Code != apperr.Invalid || !strings.Contains(strings.ToLower(a.Message), map[string]string{"url": "url", "events": "event"}[c.want]) {
					t.Errorf("%s: %d %q", c.name, a.Code, a.Message)
				}
			}
			extra := []int64{subscribe(appA, "https://203.0.113.7/a", "alarm").ID, subscribe(appA, "https://203.0.113.7/b", "alarm").ID}
			a := appA.Call("POST", "/openapi/v1/webhooks", map[string]any{"url": "https://203.0.113.7/c", "events": []string{"alarm"}})
			if a.Code != apperr.Conflict || !strings.Contains(a.Message, "5") {
				t.Fatalf("a sixth webhook: %d %q", a.Code, a.Message)
			}
			apitest.Must(t, appA.Call("POST", "/openapi/v1/webhooks/delete", map[string]any{"ids": extra}))
		})

		// Both customers' chargers connect; each application hears of its own customer's only.
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() {
			defer close(done)
			sim.Run(ctx, sim.Options{URL: "ws" + strings.TrimPrefix(o.env.URL, "http") + "/ocpp", SNs: []string{"ALPHA-0001", "BETA-0001"},
				FaultChance: 0.000001, MeterInterval: time.Hour})
		}()
		defer func() { cancel(); <-done }()

		online := func(r *receiver, sn string) func() bool {
			return func() bool {
				got, _ := r.received()
				for _, g := range got {
					if g.Event == "device.status" && g.Data.SN == sn && g.Data.Online {
						return true
					}
				}
				return false
			}
		}

		t.Run("a charger connecting is a signed device.status event", func(t *testing.T) {
			testutil.EventuallyWithin(t, 20*time.Second, "A's receiver hears ALPHA-0001 online", online(recvA, "ALPHA-0001"))
			testutil.EventuallyWithin(t, 20*time.Second, "B's receiver hears BETA-0001 online", online(recvB, "BETA-0001"))
			got, bad := recvA.received()
			if len(bad) > 0 {
				t.Fatalf("A's receiver found: %v", bad)
			}
			for _, g := range got {
				if g.Body.Time == 0 || g.Body.ID == 0 || len(g.Body.Data) == 0 {
					t.Errorf("incomplete body: %+v", g.Body)
				}
			}
		})

		t.Run("an application bound to customer A's user gets no event of customer B's device", func(t *testing.T) {
			// every delivery of the connects has gone out: none due, none in its first attempt
			testutil.Eventually(t, "every delivery of the connects sent", func() bool {
				return testutil.Count(t, d, `SELECT COUNT(*) FROM webhook_delivery WHERE status = ?
					AND (next_at <= ? OR (last_status = 0 AND last_error = ''))`, webhook.StatusPending, db.NowMS()) == 0
			})
			for _, r := range []*receiver{recvA, flaky} {
				got, _ := r.received()
				for _, g := range got {
					if strings.Contains(string(g.Body.Data), "BETA-0001") {
						t.Errorf("A's application got B's device: %s", g.Body.Data)
					}
				}
			}
			got, bad := recvB.received()
			if len(bad) > 0 {
				t.Fatalf("B's receiver found: %v", bad)
			}
			for _, g := range got {
				if strings.Contains(string(g.Body.Data), "ALPHA-0001") {
					t.Errorf("B's application got A's device: %s", g.Body.Data)
				}
			}
			var n int
			if err := d.QueryRow(context.Background(), `SELECT COUNT(*) FROM webhook_delivery dl JOIN application a ON a.id = dl.app_id
				WHERE a.app_id = ? AND dl.payload LIKE '%ALPHA-0001%'`, appB.AppID).Scan(&n); err != nil || n != 0 {
				t.Errorf("deliveries of A's device queued for B: %d %v", n, err)
			}
		})

		t.Run("a failing receiver is retried with back-off until it answers", func(t *testing.T) {
			testutil.EventuallyWithin(t, 20*time.Second, "the flaky receiver accepts ALPHA-0001 online", online(flaky, "ALPHA-0001"))
			// Deliveries of later status changes may still be on their way: the delivered ones count.
			var l webhookDeliveries
			testutil.EventuallyWithin(t, 20*time.Second, "the flaky webhook's deliveries delivered", func() bool {
				apitest.Must(t, appA.Call("GET", "/openapi/v1/webhooks/deliveries", map[string]any{"webhookId": hookFlaky.ID,
					"status": "delivered", "pageSize": 100})).Into(t, &l)
				return len(l.List) > 0
			})
			for i, x := range l.List {
				if x.Attempts != 3 || x.LastStatus != http.StatusNoContent || x.LastError != "" || x.DeliveredAt == 0 || x.Event != "device.status" {
					t.Errorf("delivery %+v: want 3 attempts (500, 500, 204)", x)
				}
				if i > 0 && x.ID > l.List[i-1].ID {
					t.Errorf("not newest first: %d after %d", x.ID, l.List[i-1].ID)
				}
			}
			flaky.mu.Lock()
			defer flaky.mu.Unlock()
			for _, x := range l.List {
				if n := flaky.attempts[fmt.Sprint(x.ID)]; n != 3 {
					t.Errorf("delivery %d reached the receiver %d times", x.ID, n)
				}
			}
		})

		t.Run("a receiver that keeps failing gets 8 attempts, then the delivery fails", func(t *testing.T) {
			var l webhookDeliveries
			testutil.EventuallyWithin(t, 20*time.Second, "the failing webhook's deliveries failed", func() bool {
				apitest.Must(t, appA.Call("GET", "/openapi/v1/webhooks/deliveries", map[string]any{"webhookId": hookDown.ID, "status": "failed", "pageSize": 100})).Into(t, &l)
				return len(l.List) > 0
			})
			x := l.List[0]
			if x.Attempts != 8 || x.LastStatus != 500 || !strings.Contains(x.LastError, "HTTP 500") || x.URL != down.URL+"/down" {
				t.Fatalf("failed delivery: %+v", x)
			}
		})

		t.Run("the console manages an application's webhooks and reads its deliveries", func(t *testing.T) {
			var appID int64
			var apps struct {
				List []struct {
					ID    int64
					AppID string
				}
			}
			apitest.Must(t, o.root.Call("POST", "/api/auth/sys/application/list", map[string]any{"pageSize": 100})).Into(t, &apps)
			for _, a := range apps.List {
				if a.AppID == appA.AppID {
					appID = a.ID
				}
			}
			var list []webhook.Webhook
			apitest.Must(t, o.root.Call("POST", "/api/auth/sys/application/webhook/list", map[string]any{"appId": appID})).Into(t, &list)
			if len(list) != 3 {
				t.Fatalf("console list: %+v", list)
			}
			var saved webhook.Webhook
			apitest.Must(t, o.root.Call("POST", "/api/auth/sys/application/webhook/save", map[string]any{"appId": appID, "id": hookDown.ID,
				"url": down.URL + "/down", "events": []string{"command.result"}, "enabled": false})).Into(t, &saved)
			if saved.Enabled || strings.Join(saved.Events, ",") != "command.result" {
				t.Fatalf("saved: %+v", saved)
			}
			var l webhookDeliveries
			apitest.Must(t, o.root.Call("POST", "/api/auth/sys/application/webhook/deliveries", map[string]any{"appId": appID, "pageSize": 10})).Into(t, &l)
			if l.Total == 0 || len(l.List) == 0 {
				t.Fatalf("console deliveries: %+v", l)
			}
			// Customer B's admin does not reach A's application.
			for _, p := range []string{"list", "deliveries"} {
				if a := o.b.Call("POST", "/api/auth/sys/application/webhook/"+p, map[string]any{"appId": appID}); a.Code == apperr.OK {
					t.Errorf("B reads A's webhook %s: %s", p, a.Data)
				}
			}
			apitest.Must(t, o.root.Call("POST", "/api/auth/sys/application/webhook/delete", map[string]any{"appId": appID, "ids": []int64{hookDown.ID}}))
			apitest.Must(t, appA.Call("GET", "/openapi/v1/webhooks", nil)).Into(t, &list)
			if len(list) != 2 {
				t.Fatalf("after delete: %+v", list)
			}
		})
	})
}

// Without the operator's permission a webhook may not point at a private address: saving one is
// refused with a clear message, and a delivery whose URL turned private (DNS) is refused when
// the connection is made, never reaching the receiver.
func TestWebhookPrivateDestinations(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		o := newOrgOn(t, apitest.New(t, d, func(c *config.Config) { c.OpenAPIRate = 100000 }))
		fastRetry(o.env, 2)
		t.Cleanup(o.env.App.StartWorkers(context.Background()))
		app := o.env.NewApp(o.root, "Alpha hooks", o.userA)
		recv := newReceiver(t, app, 0)

		for _, u := range []string{recv.URL + "/hook", "http://localhost/hook", "http://169.254.169.254/latest/meta-data", "https://10.0.0.8/hook", "http://[::1]:8080/"} {
			a := app.Call("POST", "/openapi/v1/webhooks", map[string]any{"url": u, "events": []string{"device.status"}})
			if a.Code != apperr.Invalid || !strings.Contains(a.Message, "may not be sent to") {
				t.Errorf("%s: %d %q", u, a.Code, a.Message)
			}
		}
		zh := o.env.AppClient(app.AppID, app.AppSecret)
		zh.Locale = "zh-CN"
		if a := zh.Call("POST", "/openapi/v1/webhooks", map[string]any{"url": recv.URL, "events": []string{"alarm"}}); !strings.Contains(a.Message, "不允许向 127.0.0.1") {
			t.Errorf("zh-CN: %q", a.Message)
		}

		// A webhook saved while its name resolved to a public address, now pointing at loopback.
		var appRow int64
		if err := d.QueryRow(context.Background(), `SELECT id FROM application WHERE app_id = ?`, app.AppID).Scan(&appRow); err != nil {
			t.Fatal(err)
		}
		now := time.Now().UnixMilli()
		hook, err := db.InsertID(context.Background(), d, `INSERT INTO webhook (app_id, url, events, enabled, created_at, updated_at) VALUES (?, ?, ?, 1, ?, ?)`,
			appRow, recv.URL+"/rebound", "device.status", now, now)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := d.Exec(context.Background(), `INSERT INTO webhook_delivery (webhook_id, app_id, event, payload, attempts, next_at, status, created_at)
			VALUES (?, ?, ?, ?, 0, ?, ?, ?)`, hook, appRow, "device.status", `{"sn":"ALPHA-0001"}`, now, webhook.StatusPending, now); err != nil {
			t.Fatal(err)
		}
		o.env.App.Webhooks.Wake()
		var l webhookDeliveries
		testutil.EventuallyWithin(t, 10*time.Second, "the delivery to loopback failed", func() bool {
			apitest.Must(t, app.Call("GET", "/openapi/v1/webhooks/deliveries", map[string]any{"status": "failed"})).Into(t, &l)
			return len(l.List) == 1
		})
		if x := l.List[0]; x.Attempts != 2 || x.LastStatus != 0 || !strings.Contains(x.LastError, "refused: loopback") {
			t.Errorf("delivery: %+v", x)
		}
		recv.mu.Lock()
		defer recv.mu.Unlock()
		if len(recv.attempts) != 0 {
			t.Errorf("the loopback receiver was reached: %v", recv.attempts)
		}
	})
}
