package ocpp16_test

import (
	"context"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"chargeops/internal/config"
	"chargeops/internal/db"
	"chargeops/internal/fleet"
	"chargeops/internal/fleet/fleettest"
	"chargeops/internal/testutil"
	"chargeops/internal/testutil/apitest"
)

// dialAs opens a raw WebSocket to the gateway as sn, from addr (X-Forwarded-For, the node
// trusting the proxy), with key as Basic auth ("" sends none). It returns the HTTP answer of
// the handshake; an accepted socket is closed at the end of the test.
func dialAs(t *testing.T, base, sn, addr, key string) *http.Response {
	t.Helper()
	h := http.Header{"X-Forwarded-For": {addr}}
	if key != "" {
		r, _ := http.NewRequest(http.MethodGet, "http://x", nil)
		r.SetBasicAuth(sn, key)
		h.Set("Authorization", r.Header.Get("Authorization"))
	}
	d := websocket.Dialer{Subprotocols: []string{"ocpp1.6"}, HandshakeTimeout: 10 * time.Second}
	ws, resp, err := d.Dial(base+"/"+sn, h)
	if ws != nil {
		t.Cleanup(func() { _ = ws.Close() })
	}
	if resp == nil {
		t.Fatalf("dial %s from %s: %v", sn, addr, err)
	}
	return resp
}

// keyed adds a device whose charger must present key (security profile 1).
func keyed(t *testing.T, env *apitest.Env, org fleettest.Org, sn, key string) {
	t.Helper()
	id := fleettest.Device(t, env.DB, org, org.CustomerA, org.SiteA, sn)
	if _, err := env.DB.Exec(context.Background(), `UPDATE device SET auth_key_hash = ?, security_profile = 1 WHERE id = ?`,
		env.App.Fleet.HashAuthKey(sn, key), id); err != nil {
		t.Fatal(err)
	}
}

// M4 (issue 29): 200 wrong keys in 384 ms, then the right one accepted. Wrong keys now start a
// back-off per SN and per address, kept in the database so that a second node sees it too.
func TestChargerKeyGuessesBackOff(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		const backoff = 2 * time.Second
		opts := func(c *config.Config) { c.DataDir, c.TrustProxy, c.OCPPKeyBackoff = t.TempDir(), true, backoff }
		env := apitest.New(t, d, opts)
		other := apitest.New(t, d, opts) // a second node on the same database
		org := fleettest.Seed(t, d)
		const keyA, keyB, keyC = "Right-Key-Of-A-0001", "Right-Key-Of-B-0002", "Right-Key-Of-C-0003"
		keyed(t, env, org, "SN-KEY-A", keyA)
		keyed(t, env, org, "SN-KEY-B", keyB)
		keyed(t, env, org, "SN-KEY-C", keyC)
		base, base2 := wsBase(env), wsBase(other)
		const attacker = "198.51.100.7"

		// 50 wrong keys from one address, for two SNs in turn.
		codes := map[int]int{}
		var retryAfter string
		for i := range 50 {
			sn := []string{"SN-KEY-A", "SN-KEY-C"}[i%2]
			resp := dialAs(t, base, sn, attacker, "wrong-key-guess-"+strconv.Itoa(i))
			codes[resp.StatusCode]++
			if resp.StatusCode == http.StatusTooManyRequests {
				retryAfter = resp.Header.Get("Retry-After")
			}
		}
		t.Run("the first wrong keys are 401, the rest 429 with Retry-After", func(t *testing.T) {
			if codes[http.StatusUnauthorized] != fleet.KeyFailuresPerAddr || codes[http.StatusTooManyRequests] != 50-fleet.KeyFailuresPerAddr {
				t.Fatalf("answers %v, want %d×401 then %d×429", codes, fleet.KeyFailuresPerAddr, 50-fleet.KeyFailuresPerAddr)
			}
			if s, err := strconv.Atoi(retryAfter); err != nil || s < 1 || s > int(backoff/time.Second) {
				t.Fatalf("Retry-After %q, want 1..%d s", retryAfter, int(backoff/time.Second))
			}
		})
		t.Run("the right key is not checked during the back-off", func(t *testing.T) {
			if resp := dialAs(t, base, "SN-KEY-A", attacker, keyA); resp.StatusCode != http.StatusTooManyRequests {
				t.Fatalf("right key during the back-off: HTTP %d, want 429", resp.StatusCode)
			}
		})
		t.Run("the address is held back for every SN", func(t *testing.T) {
			if resp := dialAs(t, base, "SN-KEY-B", attacker, keyB); resp.StatusCode != http.StatusTooManyRequests {
				t.Fatalf("another SN from the guessing address: HTTP %d, want 429", resp.StatusCode)
			}
		})
		t.Run("the SN is held back from every address, on the other node too", func(t *testing.T) {
			if resp := dialAs(t, base2, "SN-KEY-A", "203.0.113.9", keyA); resp.StatusCode != http.StatusTooManyRequests {
				t.Fatalf("guessed SN from elsewhere on node 2: HTTP %d, want 429", resp.StatusCode)
			}
		})
		t.Run("a different SN from another address is unaffected", func(t *testing.T) {
			if resp := dialAs(t, base2, "SN-KEY-B", "192.0.2.44", keyB); resp.StatusCode != http.StatusSwitchingProtocols {
				t.Fatalf("HTTP %d, want 101", resp.StatusCode)
			}
		})
		t.Run("refusals are counted, recorded and visible on /metrics", func(t *testing.T) {
			if got := env.App.Gateway.Stats().KeyBackoff; got < 50-fleet.KeyFailuresPerAddr {
				t.Fatalf("key back-off count %d", got)
			}
			if n := countRows(t, d, `SELECT COUNT(*) FROM device_refusal WHERE sn = 'SN-KEY-A' AND reason = ?`, fleet.RefuseKeyBackoff); n != 1 {
				t.Fatalf("%d key_backoff refusal rows", n)
			}
			req, _ := http.NewRequest(http.MethodGet, env.URL+"/metrics", nil)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, err := io.ReadAll(resp.Body)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(body), "chargeops_ocpp_key_backoff_refused_total") {
				t.Fatalf("/metrics lacks the key back-off counter")
			}
		})
		t.Run("after the back-off the right key is accepted and clears the SN's count", func(t *testing.T) {
			time.Sleep(backoff + 200*time.Millisecond)
			if resp := dialAs(t, base, "SN-KEY-A", attacker, keyA); resp.StatusCode != http.StatusSwitchingProtocols {
				t.Fatalf("right key after the back-off: HTTP %d, want 101", resp.StatusCode)
			}
			if n := countRows(t, d, `SELECT COUNT(*) FROM charger_key_failure WHERE subject = 'sn:SN-KEY-A'`); n != 0 {
				t.Fatalf("the SN's wrong keys stay counted after its right key")
			}
		})
		t.Run("a wrong key after a back-off starts a doubled one", func(t *testing.T) {
			if resp := dialAs(t, base, "SN-KEY-C", attacker, "still-a-wrong-key-00"); resp.StatusCode != http.StatusUnauthorized {
				t.Fatalf("HTTP %d, want 401", resp.StatusCode)
			}
			resp := dialAs(t, base, "SN-KEY-C", "203.0.113.10", keyC)
			if s, _ := strconv.Atoi(resp.Header.Get("Retry-After")); resp.StatusCode != http.StatusTooManyRequests || s <= int(backoff/time.Second) {
				t.Fatalf("HTTP %d Retry-After %q, want 429 with more than %v", resp.StatusCode, resp.Header.Get("Retry-After"), backoff)
			}
		})
	})
}
