package httpapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/fleet/read"
	"chargeops/internal/httpapi"
	"chargeops/internal/testutil"
	"chargeops/internal/testutil/apitest"
)

// TestChargingSessionRoutes: the console's session calls on a whole node: the list and detail
// for the session's customer, the signed values as a JSON file with its name, the xlsx export,
// and a bad filter refused with a message in the caller's language.
func TestChargingSessionRoutes(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		o := newOrg(t, d)
		ctx := context.Background()
		sid, err := db.InsertID(ctx, d, `INSERT INTO device_transaction (device_id, customer_id, site_id, connector_id, id_tag, meter_start, meter_stop,
			energy_wh, started_at, stopped_at, reason) VALUES (?, ?, ?, 2, 'TAG-R', 100, 2600, 2500, 1772323200000, 1772326800000, 'Local')`, o.devA, o.custA, o.siteA)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := d.Exec(ctx, `INSERT INTO session_signed_value (transaction_id, device_id, connector_id, measurand, context, format, value, ts, created_at)
			VALUES (?, ?, 2, 'Energy.Active.Import.Register', 'Transaction.End', 'SignedData', 'OCMF|{"FV":"1.0"}|{"SA":"ECDSA"}', 1772326800000, 1)`, sid, o.devA); err != nil {
			t.Fatal(err)
		}

		t.Run("A's admin lists and reads the session with names", func(t *testing.T) {
			var l read.SessionList
			apitest.Must(t, o.a.Call("POST", "/api/auth/sys/session/list", map[string]any{"customerId": o.custA})).Into(t, &l)
			if len(l.List) != 1 || l.List[0].ID != sid || l.List[0].CustomerName != "Alpha Charging" || l.List[0].SiteName != "Alpha Futian" {
				t.Fatalf("%+v", l)
			}
			var v read.SessionDetail
			apitest.Must(t, o.a.Call("GET", "/api/auth/sys/session/detail", map[string]any{"id": sid})).Into(t, &v)
			if len(v.Signed) != 1 || v.Signed[0].Value != `OCMF|{"FV":"1.0"}|{"SA":"ECDSA"}` {
				t.Fatalf("signed %+v", v.Signed)
			}
		})
		t.Run("the signed values download as a named JSON file, as received", func(t *testing.T) {
			req, err := http.NewRequest("GET", fmt.Sprintf("%s/api/auth/sys/session/signed/download?id=%d", o.env.URL, sid), nil)
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Cookie", httpapi.TokenCookie+"="+o.a.Cookie(httpapi.TokenCookie))
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			if cd := resp.Header.Get("Content-Disposition"); cd != fmt.Sprintf(`attachment; filename="session-%d-signed.json"`, sid) {
				t.Errorf("Content-Disposition %q", cd)
			}
			var f read.SignedFile
			if err := json.Unmarshal(body, &f); err != nil || f.SessionID != sid || len(f.Values) != 1 || f.Values[0].Value != `OCMF|{"FV":"1.0"}|{"SA":"ECDSA"}` {
				t.Errorf("file %s (%v)", body, err)
			}
		})
		t.Run("B's admin finds none of it", func(t *testing.T) {
			for _, path := range []string{"/api/auth/sys/session/detail", "/api/auth/sys/session/signed/download"} {
				if a := o.b.Call("GET", path, map[string]any{"id": sid}); a.Code != apperr.NotFound {
					t.Errorf("%s: code %d", path, a.Code)
				}
			}
		})
		t.Run("the export is an xlsx file", func(t *testing.T) {
			raw := o.root.CallRaw("POST", "/api/auth/sys/session/export", map[string]any{"deviceId": o.devA})
			if raw.ContentType != "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" || len(raw.Body) < 100 {
				t.Errorf("export answered %s (%d bytes)", raw.ContentType, len(raw.Body))
			}
		})
		t.Run("a bad stop reason is refused in the caller's language", func(t *testing.T) {
			for locale, want := range map[string]string{"en-US": "reason: not a stop reason", "zh-CN": "reason：不是有效的停止原因"} {
				o.a.Locale = locale
				a := o.a.Call("POST", "/api/auth/sys/session/list", map[string]any{"reason": "Bogus"})
				if a.Code != apperr.Invalid || !strings.Contains(a.Message, want) {
					t.Errorf("%s: %d %q", locale, a.Code, a.Message)
				}
			}
			o.a.Locale = "en-US"
		})
	})
}
