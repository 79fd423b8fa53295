package notify_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	ocpp "github.com/lorenzodonini/ocpp-go/ocpp1.6"
	"github.com/lorenzodonini/ocpp-go/ocpp1.6/core"
	ocppws "github.com/lorenzodonini/ocpp-go/ws"

	"chargeops/internal/config"
	"chargeops/internal/db"
	"chargeops/internal/fleet/fleettest"
	"chargeops/internal/httpapi"
	"chargeops/internal/testutil"
	"chargeops/internal/testutil/apitest"
	"chargeops/internal/testutil/smtptest"
)

// world is a node with the notifier and the mail worker running, customers A and B with one
// site each, a charger at A's site, and users:
//   - alice (customer A, receiver of site A, email-alarm role): default settings
//   - bob (customer B, receiver of site B): another customer's user
//   - carol (customer A, receiver of site A): her setting excludes faults
//   - dave (customer A, receiver of site A): his setting lists only another site of A
type world struct {
	env                     *apitest.Env
	d                       *db.DB
	sink                    *smtptest.Server
	org                     fleettest.Org
	devA                    int64
	siteA2                  int64
	alice, bob, carol, dave *apitest.Client
	aliceID, bobID, carolID int64
}

const pw = "Msg#Pass1234"

func newWorld(t *testing.T, d *db.DB, debounce time.Duration, opts ...func(*config.Config)) *world {
	t.Helper()
	sink := smtptest.Start(t)
	port := sink.Port
	env := apitest.New(t, d, func(c *config.Config) {
		c.SMTPHost, c.SMTPPort, c.SMTPTLS = "127.0.0.1", port, "none"
		c.AlarmOfflineDebounce = debounce
		for _, o := range opts {
			o(c)
		}
	})
	t.Cleanup(env.App.StartWorkers(context.Background()))
	w := &world{env: env, d: d, sink: sink, org: fleettest.Seed(t, d)}
	w.devA = fleettest.Device(t, d, w.org, w.org.CustomerA, w.org.SiteA, "SN-MSG-A1")
	var err error
	w.siteA2, err = db.InsertID(context.Background(), d, `INSERT INTO site (customer_id, name, code, created_at, updated_at) VALUES (?, ?, ?, ?, ?)`,
		w.org.CustomerA, "Site A2", fmt.Sprintf("SA2-%d", time.Now().UnixNano()), db.NowMS(), db.NowMS())
	if err != nil {
		t.Fatal(err)
	}
	root := env.Root()
	user := func(name string, customer, site int64) (int64, *apitest.Client) {
		uid, rid := env.CreateUser(root, name, pw, "auth_message", "auth_message_list", "auth_message_setting")
		for _, q := range []struct {
			sql  string
			args []any
		}{
			{`UPDATE app_user SET customer_id = ? WHERE id = ?`, []any{customer, uid}},
			{`UPDATE role SET customer_access = 1, site_access = 0, email_alarm = 1 WHERE id = ?`, []any{rid}},
			{`INSERT INTO site_receiver (site_id, user_id) VALUES (?, ?)`, []any{site, uid}},
		} {
			if _, err := d.Exec(context.Background(), q.sql, q.args...); err != nil {
				t.Fatal(err)
			}
		}
		return uid, env.Client().MustLogin(name, pw)
	}
	w.aliceID, w.alice = user("alice_a", w.org.CustomerA, w.org.SiteA)
	w.bobID, w.bob = user("bob_bee", w.org.CustomerB, w.org.SiteB)
	w.carolID, w.carol = user("carol_c", w.org.CustomerA, w.org.SiteA)
	_, w.dave = user("dave_d", w.org.CustomerA, w.org.SiteA)
	apitest.Must(t, w.carol.Call("POST", "/api/auth/sys/message/setting/save", map[string]any{"kinds": []int{0, 1, 3}, "levels": []int{0, 1, 2},
		"allSites": true, "console": true, "mail": true, "frequency": "immediate"}))
	apitest.Must(t, w.dave.Call("POST", "/api/auth/sys/message/setting/save", map[string]any{"kinds": []int{0, 1, 2, 3}, "levels": []int{0, 1, 2},
		"allSites": false, "siteIds": []int64{w.siteA2}, "console": true, "mail": true, "frequency": "immediate"}))
	return w
}

// charger connects an ocpp-go charge point (an independent OCPP client) as sn and boots it;
// stop disconnects it (once).
func (w *world) charger(t *testing.T, sn string) (cp ocpp.ChargePoint, stop func()) {
	t.Helper()
	cp = fleettest.ChargePoint(sn, ocppws.NewClient())
	if err := cp.Start("ws" + strings.TrimPrefix(w.env.URL, "http") + "/ocpp"); err != nil {
		t.Fatalf("connect %s: %v", sn, err)
	}
	var once sync.Once
	stop = func() { once.Do(cp.Stop) }
	t.Cleanup(stop)
	if _, err := cp.BootNotification("AC-22", "Test"); err != nil {
		t.Fatalf("boot: %v", err)
	}
	return cp, stop
}

type message struct {
	ID          int64  `json:"id"`
	Kind        int    `json:"kind"`
	Code        string `json:"code"`
	SN          string `json:"sn"`
	DeviceName  string `json:"deviceName"`
	SiteName    string `json:"siteName"`
	Repeats     int    `json:"repeats"`
	Read        bool   `json:"read"`
	Processed   bool   `json:"processed"`
	ProcessedBy string `json:"processedBy"`
	Recovered   bool   `json:"recovered"`
}

func messages(t *testing.T, c *apitest.Client, filter map[string]any) []message {
	t.Helper()
	var l struct{ List []message }
	apitest.Must(t, c.Call("POST", "/api/auth/sys/message/list", filter)).Into(t, &l)
	return l.List
}

func unread(t *testing.T, c *apitest.Client) int64 {
	t.Helper()
	var u struct{ Count int64 }
	apitest.Must(t, c.Call("GET", "/api/auth/sys/message/unread", nil)).Into(t, &u)
	return u.Count
}

// settled waits until the notifier has done all the work that is due: no pending event or
// alarm mail due now is left unhandled. Checks that something did not happen (no second
// message or mail) follow it instead of a guessed sleep.
func settled(t *testing.T, d *db.DB) {
	t.Helper()
	waitNone(t, d, "the notifier to handle what is due", `SELECT (SELECT COUNT(*) FROM notify_event WHERE done = 0 AND due_at <= ?)
		+ (SELECT COUNT(*) FROM alarm_mail WHERE sent_at = 0 AND due_at <= ?)`, 2)
}

// delivered is settled, and the mail worker has sent every mail of the outbox that is due.
func delivered(t *testing.T, d *db.DB) {
	t.Helper()
	settled(t, d)
	waitNone(t, d, "the mail worker to send the outbox", `SELECT COUNT(*) FROM mail_outbox WHERE status = 0 AND next_attempt_at <= ?`, 1)
}

// waitNone waits until query, given the current time nows times, counts no rows.
func waitNone(t *testing.T, d *db.DB, what, query string, nows int) {
	t.Helper()
	testutil.Eventually(t, what, func() bool {
		args := make([]any, nows)
		for i := range args {
			args[i] = db.NowMS()
		}
		return testutil.Count(t, d, query, args...) == 0
	})
}

// openStream reads the caller's unread-count stream and sends each count it pushes.
func openStream(t *testing.T, w *world, c *apitest.Client) <-chan int64 {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, err := http.NewRequestWithContext(ctx, "GET", w.env.URL+"/api/auth/sys/message/stream", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Cookie", httpapi.TokenCookie+"="+c.Cookie(httpapi.TokenCookie))
	req.Header.Set("Accept", "text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("open stream: %v", err)
	}
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/event-stream") {
		t.Fatalf("stream answered %s", ct)
	}
	counts := make(chan int64, 16)
	go func() {
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
				var u struct{ Count int64 }
				if json.Unmarshal([]byte(data), &u) == nil {
					counts <- u.Count
				}
			}
		}
	}()
	return counts
}

func nextCount(t *testing.T, counts <-chan int64, want int64) {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		select {
		case n := <-counts:
			if n == want {
				return
			}
		case <-deadline:
			t.Fatalf("the stream never pushed %d", want)
		}
	}
}

func TestMessagesFromChargerEvents(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		w := newWorld(t, d, time.Minute)
		stream := openStream(t, w, w.alice)
		nextCount(t, stream, 0)
		cp, _ := w.charger(t, "SN-MSG-A1")
		if _, err := cp.StatusNotification(1, core.NoError, core.ChargePointStatusAvailable); err != nil {
			t.Fatal(err)
		}
		if _, err := cp.StatusNotification(1, core.GroundFailure, core.ChargePointStatusFaulted); err != nil {
			t.Fatal(err)
		}

		t.Run("a fault gives the user in scope a console message with the device, site and kind", func(t *testing.T) {
			testutil.EventuallyWithin(t, 10*time.Second, "alice's message", func() bool { return unread(t, w.alice) == 1 })
			ms := messages(t, w.alice, map[string]any{"kind": 2})
			if len(ms) != 1 || ms[0].SN != "SN-MSG-A1" || ms[0].SiteName != "Site A" || ms[0].Code != "GroundFailure" || ms[0].Read || ms[0].Recovered {
				t.Fatalf("alice's messages: %+v", ms)
			}
		})
		t.Run("the unread count is pushed on the stream", func(t *testing.T) {
			nextCount(t, stream, 1)
		})
		t.Run("the site's notification receiver with email-alarm receipt gets a mail", func(t *testing.T) {
			testutil.EventuallyWithin(t, 10*time.Second, "alice's mail", func() bool { return len(w.sink.To("alice_a@example.com")) == 1 })
			m := w.sink.To("alice_a@example.com")[0]
			if !strings.Contains(m.Data, "SN-MSG-A1") || !strings.Contains(m.Data, "GroundFailure") {
				t.Fatalf("the mail does not name the charger and fault: %s", m.Data)
			}
		})
		t.Run("another customer's user gets neither message nor mail", func(t *testing.T) {
			if n := unread(t, w.bob); n != 0 {
				t.Errorf("bob has %d unread", n)
			}
			if ms := messages(t, w.bob, nil); len(ms) != 0 {
				t.Errorf("bob sees %+v", ms)
			}
			if m := w.sink.To("bob_bee@example.com"); len(m) != 0 {
				t.Errorf("bob got %d mails", len(m))
			}
		})
		t.Run("a user whose setting excludes faults, or that site, gets no message and no mail", func(t *testing.T) {
			for name, c := range map[string]*apitest.Client{"carol_c": w.carol, "dave_d": w.dave} {
				if ms := messages(t, c, nil); len(ms) != 0 {
					t.Errorf("%s has messages: %+v", name, ms)
				}
				if m := w.sink.To(name + "@example.com"); len(m) != 0 {
					t.Errorf("%s got %d mails", name, len(m))
				}
			}
		})
		t.Run("the end of the fault marks the message recovered", func(t *testing.T) {
			if _, err := cp.StatusNotification(1, core.NoError, core.ChargePointStatusAvailable); err != nil {
				t.Fatal(err)
			}
			testutil.EventuallyWithin(t, 10*time.Second, "recovered", func() bool {
				ms := messages(t, w.alice, map[string]any{"recovered": 1})
				return len(ms) == 1
			})
			if ms := messages(t, w.alice, map[string]any{"recovered": 0}); len(ms) != 0 {
				t.Errorf("unrecovered messages left: %+v", ms)
			}
		})
		t.Run("the same fault again within the window counts as a repeat: no new message or mail", func(t *testing.T) {
			if _, err := cp.StatusNotification(1, core.GroundFailure, core.ChargePointStatusFaulted); err != nil {
				t.Fatal(err)
			}
			testutil.EventuallyWithin(t, 10*time.Second, "the repeat", func() bool {
				ms := messages(t, w.alice, nil)
				return len(ms) == 1 && ms[0].Repeats == 1 && !ms[0].Recovered
			})
			delivered(t, d)
			if m := w.sink.To("alice_a@example.com"); len(m) != 1 {
				t.Errorf("alice got %d mails for one fault and its repeat", len(m))
			}
		})
		t.Run("read and process change only the caller's own messages", func(t *testing.T) {
			ms := messages(t, w.alice, nil)
			apitest.WantCode(t, w.bob.Call("POST", "/api/auth/sys/message/process", map[string]any{"ids": []int64{ms[0].ID}}), 10002)
			apitest.WantCode(t, w.bob.Call("POST", "/api/auth/sys/message/read", map[string]any{"ids": []int64{ms[0].ID}}), 10002)
			if unread(t, w.alice) != 1 {
				t.Fatal("bob changed alice's message")
			}
			apitest.Must(t, w.alice.Call("POST", "/api/auth/sys/message/read", map[string]any{"ids": []int64{}}))
			if n := unread(t, w.alice); n != 0 {
				t.Fatalf("unread after reading all: %d", n)
			}
			nextCount(t, stream, 0)
			apitest.Must(t, w.alice.Call("POST", "/api/auth/sys/message/process", map[string]any{"ids": []int64{ms[0].ID}}))
			got := messages(t, w.alice, map[string]any{"processed": 1})
			if len(got) != 1 || got[0].ProcessedBy != "alice_a" || !got[0].Read {
				t.Fatalf("processed: %+v", got)
			}
		})
		t.Run("settings are validated: fixed kinds and levels, sites in scope, delay bounds", func(t *testing.T) {
			base := func() map[string]any {
				return map[string]any{"kinds": []int{0, 1, 2, 3}, "levels": []int{0, 1, 2}, "allSites": true, "console": true, "mail": true, "frequency": "delayed", "delayMinutes": 30}
			}
			for _, c := range []struct {
				name string
				set  func(map[string]any)
			}{
				{"an unknown kind", func(m map[string]any) { m["kinds"] = []int{7} }},
				{"an unknown level", func(m map[string]any) { m["levels"] = []int{3} }},
				{"an unknown frequency", func(m map[string]any) { m["frequency"] = "hourly" }},
				{"a delay too short", func(m map[string]any) { m["delayMinutes"] = 1 }},
				{"another customer's site", func(m map[string]any) { m["allSites"], m["siteIds"] = false, []int64{w.org.SiteB} }},
			} {
				m := base()
				c.set(m)
				if a := w.alice.Call("POST", "/api/auth/sys/message/setting/save", m); a.Code != 10001 {
					t.Errorf("%s: code %d %q", c.name, a.Code, a.Message)
				}
			}
			apitest.Must(t, w.alice.Call("POST", "/api/auth/sys/message/setting/save", base()))
			var st struct {
				Frequency    string
				DelayMinutes int
				Kinds        []int
			}
			apitest.Must(t, w.alice.Call("GET", "/api/auth/sys/message/setting", nil)).Into(t, &st)
			if st.Frequency != "delayed" || st.DelayMinutes != 30 || len(st.Kinds) != 4 {
				t.Fatalf("saved setting reads %+v", st)
			}
		})
	})
}

func TestFlappingChargerIsDebounced(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		const debounce = 1500 * time.Millisecond
		w := newWorld(t, d, debounce)
		offline := func() []message { return messages(t, w.alice, map[string]any{"kind": 0}) }

		t.Run("a charger that drops and comes back every second produces no message and no mail", func(t *testing.T) {
			start := time.Now()
			for time.Since(start) < 3*debounce {
				_, stop := w.charger(t, "SN-MSG-A1")
				time.Sleep(700 * time.Millisecond)
				stop() // offline ...
				time.Sleep(300 * time.Millisecond)
			}
			_, stop := w.charger(t, "SN-MSG-A1") // ... back
			testutil.Eventually(t, "every offline event past its debounce and handled", func() bool {
				return testutil.Count(t, d, `SELECT COUNT(*) FROM device_event e WHERE e.device_id = ? AND e.kind = 0
					AND NOT EXISTS (SELECT 1 FROM notify_event n WHERE n.event_id = e.id AND n.done = 1)`, w.devA) == 0
			})
			delivered(t, d)
			if ms := offline(); len(ms) != 0 {
				t.Errorf("short offlines produced messages: %+v", ms)
			}
			if m := w.sink.To("alice_a@example.com"); len(m) != 0 {
				t.Errorf("short offlines produced %d mails", len(m))
			}
			if events := testutil.Count(t, d, `SELECT COUNT(*) FROM device_event WHERE device_id = ? AND kind = 0`, w.devA); events < 3 {
				t.Fatalf("the charger flapped only %d times", events)
			}

			t.Run("an offline longer than the debounce produces one message and one mail", func(t *testing.T) {
				stop()
				testutil.EventuallyWithin(t, 10*time.Second, "the offline message", func() bool { return len(offline()) == 1 })
				testutil.EventuallyWithin(t, 10*time.Second, "the offline mail", func() bool { return len(w.sink.To("alice_a@example.com")) == 1 })
				testutil.Never(t, debounce, "one long offline gave a second mail", func() bool { return len(w.sink.To("alice_a@example.com")) > 1 })
				w.charger(t, "SN-MSG-A1")
				testutil.EventuallyWithin(t, 10*time.Second, "recovered", func() bool { ms := offline(); return len(ms) == 1 && ms[0].Recovered })
			})
		})
	})
}
