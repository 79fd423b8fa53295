package notify_test

import (
	"context"
	"encoding/json"
	"io"
	"mime"
	"mime/quotedprintable"
	"net/http"
	"net/http/httptest"
	netmail "net/mail"
	"strings"
	"sync"
	"testing"
	"time"

	"encoding/base64"

	"github.com/lorenzodonini/ocpp-go/ocpp1.6/core"

	"chargeops/internal/config"
	"chargeops/internal/db"
	"chargeops/internal/openapi/webhook"
	"chargeops/internal/testutil"
	"chargeops/internal/testutil/apitest"
)

// decodedMail is a received mail's subject and text body, decoded from their transfer encodings.
func decodedMail(t *testing.T, raw string) (subject, body string) {
	t.Helper()
	m, err := netmail.ReadMessage(strings.NewReader(raw))
	if err != nil {
		t.Fatalf("not a mail: %v\n%s", err, raw)
	}
	subject, err = new(mime.WordDecoder).DecodeHeader(m.Header.Get("Subject"))
	if err != nil {
		t.Fatal(err)
	}
	var r io.Reader = m.Body
	switch strings.ToLower(m.Header.Get("Content-Transfer-Encoding")) {
	case "quoted-printable":
		r = quotedprintable.NewReader(r)
	case "base64":
		r = base64.NewDecoder(base64.StdEncoding, r)
	}
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return subject, string(b)
}

// hookReceiver is a third party's webhook endpoint: it keeps the data of every alarm event.
type hookReceiver struct {
	*httptest.Server
	mu     sync.Mutex
	alarms []map[string]any
}

func newHookReceiver(t *testing.T) *hookReceiver {
	r := &hookReceiver{}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		var body struct {
			Event string
			Data  map[string]any
		}
		if err := json.NewDecoder(req.Body).Decode(&body); err == nil && body.Event == webhook.EventAlarm {
			r.mu.Lock()
			r.alarms = append(r.alarms, body.Data)
			r.mu.Unlock()
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(r.Close)
	return r
}

func (r *hookReceiver) got() []map[string]any {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]map[string]any(nil), r.alarms...)
}

// TestOneNamingInMailAndWebhooks (issue 30 item 4): an alarm a charger reports with its own
// vendor code is named in the alarm mail and the webhook payload as the console names it (one
// source, internal/i18n EventName/EventTitle; names_test.go keeps it equal to the console's
// locales), in the receiver's language, with the level code and the vendor's code beside.
func TestOneNamingInMailAndWebhooks(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		w := newWorld(t, d, time.Minute, func(c *config.Config) { c.WebhookAllowPrivate = true })
		// alice reads Chinese, carol English (carol's setting excludes faults, not alarms)
		if _, err := d.Exec(ctx, `UPDATE app_user SET locale = ? WHERE id = ?`, "zh-CN", w.aliceID); err != nil {
			t.Fatal(err)
		}
		if _, err := d.Exec(ctx, `UPDATE app_user SET locale = ? WHERE id = ?`, "en-US", w.carolID); err != nil {
			t.Fatal(err)
		}
		// an application bound to each, subscribed to alarms at its own receiver
		root := w.env.Root()
		recv := map[string]*hookReceiver{}
		for _, u := range []struct {
			locale string
			id     int64
		}{{"zh-CN", w.aliceID}, {"en-US", w.carolID}} {
			app := w.env.NewApp(root, "Naming "+u.locale, u.id)
			recv[u.locale] = newHookReceiver(t)
			var appRow int64
			if err := d.QueryRow(ctx, `SELECT id FROM application WHERE app_id = ?`, app.AppID).Scan(&appRow); err != nil {
				t.Fatal(err)
			}
			apitest.Must(t, root.Call("POST", "/api/auth/sys/application/webhook/save", map[string]any{"appId": appRow,
				"url": recv[u.locale].URL, "events": []string{webhook.EventAlarm}}))
		}

		cp, _ := w.charger(t, "SN-MSG-A1")
		if _, err := cp.StatusNotification(1, core.NoError, core.ChargePointStatusAvailable); err != nil {
			t.Fatal(err)
		}
		if _, err := cp.StatusNotification(1, core.HighTemperature, core.ChargePointStatusCharging, func(r *core.StatusNotificationRequest) {
			r.VendorErrorCode = "E-207"
		}); err != nil {
			t.Fatal(err)
		}

		t.Run("the alarm mail names the charger, site, alarm, level and vendor code in the receiver's language", func(t *testing.T) {
			for _, c := range []struct{ to, subject, body string }{
				{"alice_a@example.com", "Site A 的 SN-MSG-A1 (Charger SN-MSG-A1)：温度过高（级别 MA） · E-207", "告警  Site A 的 SN-MSG-A1"},
				{"carol_c@example.com", "SN-MSG-A1 (Charger SN-MSG-A1) at Site A: High temperature (MA) · E-207", "Alarm  SN-MSG-A1"},
			} {
				testutil.EventuallyWithin(t, 10*time.Second, c.to+"'s mail", func() bool { return len(w.sink.To(c.to)) == 1 })
				subject, body := decodedMail(t, w.sink.To(c.to)[0].Data)
				if subject != c.subject {
					t.Errorf("%s: subject %q, want %q", c.to, subject, c.subject)
				}
				if !strings.Contains(body, c.body) || !strings.Contains(body, c.subject[strings.Index(c.subject, "(Charger SN-MSG-A1)")+len("(Charger SN-MSG-A1)"):]) {
					t.Errorf("%s: body does not name the alarm as the subject does:\n%s", c.to, body)
				}
			}
		})

		t.Run("the webhook payload keeps the machine fields and adds the name and level code", func(t *testing.T) {
			for locale, want := range map[string]string{"zh-CN": "温度过高", "en-US": "High temperature"} {
				r := recv[locale]
				testutil.EventuallyWithin(t, 10*time.Second, locale+" webhook", func() bool { return len(r.got()) > 0 })
				a := r.got()[0]
				if a["name"] != want || a["locale"] != locale || a["code"] != "HighTemperature" || a["vendorCode"] != "E-207" ||
					a["level"] != float64(1) || a["levelCode"] != "MA" || a["kind"] != float64(1) || a["state"] != "open" || a["sn"] != "SN-MSG-A1" {
					t.Errorf("%s payload: %v", locale, a)
				}
			}
		})
	})
}
