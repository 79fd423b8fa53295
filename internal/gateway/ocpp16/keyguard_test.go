package ocpp16_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"chargeops/internal/apperr"
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
	fleettest.Secure(t, env.DB, id, env.App.Fleet.HashAuthKey(sn, key), 1)
}

// M4 (issue 29): 200 wrong keys in 384 ms, then the right one accepted. Wrong keys now start a
// back-off per SN and per address, kept in the database so that a second node sees it too.
func TestChargerKeyGuessesBackOff(t *testing.T) {
	t.Parallel()
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
		t.Run("a burst of concurrent guesses for one SN gets no more than the limit checked", func(t *testing.T) {
			const keyD = "Right-Key-Of-D-0004"
			keyed(t, env, org, "SN-KEY-D", keyD)
			var mu sync.Mutex
			codes := map[int]int{}
			var wg sync.WaitGroup
			for i := range 40 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					resp := dialAs(t, base, "SN-KEY-D", "198.51.100.99", "concurrent-guess-"+strconv.Itoa(i))
					mu.Lock()
					codes[resp.StatusCode]++
					mu.Unlock()
				}()
			}
			wg.Wait()
			if codes[http.StatusUnauthorized] != fleet.KeyFailuresPerSN || codes[http.StatusTooManyRequests] != 40-fleet.KeyFailuresPerSN {
				t.Fatalf("answers %v, want %d×401 and the rest 429", codes, fleet.KeyFailuresPerSN)
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

// L1 (issue 29): any AuthorizationKey length was accepted. A key is set through
// ChangeConfiguration AuthorizationKey (console, OpenAPI and parameter import all send control
// type 11): 16-40 characters, else a localised field error and nothing is sent. A key stored
// before the rule keeps working and its connections are flagged in the protocol log.
func TestAuthorizationKeyLength(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		env := apitest.New(t, d, func(c *config.Config) { c.DataDir = t.TempDir() })
		org := fleettest.Seed(t, d)
		dev := fleettest.Device(t, d, org, org.CustomerA, org.SiteA, "SN-KEYLEN")
		cp, h, err := startCP(t, wsBase(env), "SN-KEYLEN", "")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := cp.BootNotification("m", "v"); err != nil {
			t.Fatal(err)
		}
		root := env.Root()
		setKey := func(key string) (apitest.Answer, sendAnswer) {
			return control(t, root, []int64{dev}, fleet.CtlChangeConfig, map[string]any{"items": []map[string]string{
				{"key": "HeartbeatInterval", "value": fmt.Sprint(30 + len(key))}, {"key": "authorizationkey", "value": key}}})
		}
		for _, c := range []struct{ name, key string }{
			{"15 characters", strings.Repeat("k", 15)},
			{"41 characters", strings.Repeat("k", 41)},
			{"15 characters and a multi-byte one", strings.Repeat("键", 15)},
		} {
			for _, l := range []struct{ locale, want string }{
				{"en-US", "Configuration value: the authorization key must be 16 to 40 characters long"},
				{"zh-CN", "配置值：授权密钥长度须为 16 至 40 个字符"},
			} {
				t.Run(c.name+" is refused in "+l.locale, func(t *testing.T) {
					root.Locale = l.locale
					a, _ := setKey(c.key)
					if a.Code != apperr.Invalid || a.Message != l.want {
						t.Fatalf("answer %d %q, want %d %q", a.Code, a.Message, apperr.Invalid, l.want)
					}
				})
			}
		}
		root.Locale = "en-US"
		t.Run("a refused key changes nothing and reaches no charger", func(t *testing.T) {
			for _, g := range h.got {
				if strings.HasPrefix(g, "ChangeConfiguration") {
					t.Fatalf("the charger got %s", g)
				}
			}
			if n := countRows(t, d, `SELECT COUNT(*) FROM device WHERE id = ? AND auth_key_hash <> ''`, dev); n != 0 {
				t.Fatalf("a key was stored")
			}
		})
		for _, key := range []string{strings.Repeat("a", 16), strings.Repeat("b", 40)} {
			t.Run(fmt.Sprintf("a key of %d characters is set", len(key)), func(t *testing.T) {
				a, s := setKey(key)
				apitest.Must(t, a)
				if v := result(t, root, s.Commands[0].ID); v.Result != fleet.ResultSuccess {
					t.Fatalf("result %+v", v)
				}
				waitFor(t, "the key stored", func() bool {
					var hash string
					_ = d.QueryRow(context.Background(), `SELECT auth_key_hash FROM device WHERE id = ?`, dev).Scan(&hash)
					return env.App.Fleet.CheckAuthKey("SN-KEYLEN", key, hash)
				})
			})
		}
		t.Run("a short key stored before the rule still connects, flagged in the protocol log", func(t *testing.T) {
			const old = "short-key-13c"
			legacy := fleettest.Device(t, d, org, org.CustomerA, org.SiteA, "SN-OLDKEY")
			fleettest.Secure(t, d, legacy, env.App.Fleet.HashAuthKey("SN-OLDKEY", old), 1)
			if _, _, err := startCP(t, wsBase(env), "SN-OLDKEY", old); err != nil {
				t.Fatalf("a stored short key is refused: %v", err)
			}
			waitFor(t, "the flagged open row", func() bool {
				for _, r := range logRows(t, d, "SN-OLDKEY", fleet.LogOpen) {
					if strings.Contains(r, "key-length-outside-16-40") {
						return true
					}
				}
				return false
			})
		})
	})
}
