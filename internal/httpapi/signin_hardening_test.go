package httpapi_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"chargeops/internal/app"
	"chargeops/internal/apperr"
	"chargeops/internal/config"
	"chargeops/internal/db"
	"chargeops/internal/testutil"
	"chargeops/internal/testutil/apitest"
	"chargeops/internal/testutil/smtptest"
)

// postWithHost sends a JSON POST whose Host header names another site, as an attacker asking for
// someone's reset mail would.
func postWithHost(t *testing.T, env *apitest.Env, path, host string, body any) apitest.Answer {
	t.Helper()
	b, _ := json.Marshal(body)
	req, err := http.NewRequest("POST", env.URL+path, bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	req.Host = host
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var a apitest.Answer
	if err := json.NewDecoder(resp.Body).Decode(&a); err != nil {
		t.Fatal(err)
	}
	return a
}

// lastOutboxMail is the body of the newest mail kept in the outbox.
func lastOutboxMail(t *testing.T, root *apitest.Client) string {
	t.Helper()
	var box struct {
		List []struct{ Body string }
	}
	apitest.Must(t, root.Call("POST", "/api/auth/sys/mail/outbox/list", map[string]any{"pageSize": 10})).Into(t, &box)
	if len(box.List) == 0 {
		t.Fatal("no mail in the outbox")
	}
	return box.List[0].Body
}

// requestResetToken asks for a reset mail to email and returns the link's token.
func requestResetToken(t *testing.T, env *apitest.Env, root *apitest.Client, email string) string {
	t.Helper()
	apitest.Must(t, env.Client().Call("POST", "/api/unauth/password/email", map[string]any{"email": email}))
	m := resetLink.FindStringSubmatch(lastOutboxMail(t, root))
	if m == nil {
		t.Fatal("no reset link in the newest mail")
	}
	return m[1]
}

func TestResetLinksIgnoreTheRequestHost(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		t.Run("a forged Host gets a link to the configured public URL", func(t *testing.T) {
			sink := smtptest.Start(t)
			port := sink.Port
			env := apitest.New(t, d, func(c *config.Config) {
				c.SMTPHost, c.SMTPPort, c.SMTPTLS, c.PublicURL = "127.0.0.1", port, "none", "https://console.example.com/"
			})
			env.CreateUser(env.Root(), "forged_host", "Forg#Pass123", "auth_home")
			apitest.Must(t, postWithHost(t, env, "/api/unauth/password/email", "attacker.example", map[string]any{"email": "forged_host@example.com"}))
			mails := sink.Data()
			if len(mails) != 1 {
				t.Fatalf("want one mail, got %d", len(mails))
			}
			body := mailBody(t, mails[0])
			if !strings.Contains(body, "https://console.example.com/find-password/reset?token=") || strings.Contains(body, "attacker.example") {
				t.Fatalf("the link does not point at the public URL: %s", body)
			}
		})
		t.Run("without a public URL a loopback node links to its own address", func(t *testing.T) {
			env := apitest.New(t, d, nil)
			root := env.Root()
			env.CreateUser(root, "loop_user", "Loop#Pass123", "auth_home")
			apitest.Must(t, postWithHost(t, env, "/api/unauth/password/email", "attacker.example", map[string]any{"email": "loop_user@example.com"}))
			body := lastOutboxMail(t, root)
			if !strings.Contains(body, env.URL+"/find-password/reset?token=") || strings.Contains(body, "attacker.example") {
				t.Fatalf("the link does not point at the node (%s): %s", env.URL, body)
			}
		})
	})
	t.Run("a node on a public address without a public URL refuses to serve", func(t *testing.T) {
		d := testutil.OpenSQLite(t)
		cfg := config.Default()
		cfg.DataDir = t.TempDir() // the node writes there (the charge-point CA key file)
		cfg.Addr = "0.0.0.0:8080"
		a, err := app.New(context.Background(), cfg, d, nil)
		if err != nil {
			t.Fatal(err)
		}
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := a.Serve(ctx, ln); err == nil || !strings.Contains(err.Error(), "public-url") {
			t.Fatalf("want a refusal naming public-url, got %v", err)
		}
		if _, err := (config.Config{Addr: "127.0.0.1:8080"}).LinkBase(); err != nil {
			t.Fatalf("a loopback address needs no public URL: %v", err)
		}
	})
}

func TestOlderResetLinksDie(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		env := apitest.New(t, d, nil)
		root := env.Root()
		env.CreateUser(root, "links_user", "Link#Pass123", "auth_home")
		valid := func(token string) apitest.Answer {
			return env.Client().Call("POST", "/api/unauth/password/valid", map[string]any{"token": token})
		}
		reset := func(token, pw string) apitest.Answer {
			c := env.Client()
			k := c.Key()
			return c.Call("POST", "/api/unauth/password/reset", map[string]any{"token": token, "keyId": k.KeyID, "password": k.NewPassword(t, pw)})
		}

		older := requestResetToken(t, env, root, "links_user@example.com")
		newer := requestResetToken(t, env, root, "links_user@example.com")
		t.Run("a newer link ends the older one", func(t *testing.T) {
			apitest.WantCode(t, valid(older), apperr.ResetLinkExpired)
			apitest.WantCode(t, reset(older, "Olde#Pass123"), apperr.ResetLinkExpired)
			apitest.Must(t, valid(newer))
		})
		t.Run("a used link ends itself and every older one", func(t *testing.T) {
			apitest.Must(t, reset(newer, "Newe#Pass123"))
			apitest.WantCode(t, valid(newer), apperr.ResetLinkExpired)
			apitest.WantCode(t, reset(older, "Olde#Pass456"), apperr.ResetLinkExpired)
			apitest.Must(t, env.Client().Login("links_user", "Newe#Pass123"))
		})

		uid, _ := env.CreateUser(root, "change_user", "Chan#Pass123", "auth_home")
		t.Run("changing one's own password ends every outstanding link", func(t *testing.T) {
			token := requestResetToken(t, env, root, "change_user@example.com")
			c := env.Client().MustLogin("change_user", "Chan#Pass123")
			k := c.Key()
			apitest.Must(t, c.Call("POST", "/api/auth/sys/user/owner/password", map[string]any{"keyId": k.KeyID,
				"oldPassword": k.CheckedPassword(t, "Chan#Pass123"), "newPassword": k.NewPassword(t, "Chan#Pass456")}))
			apitest.WantCode(t, valid(token), apperr.ResetLinkExpired)
			apitest.WantCode(t, reset(token, "Chan#Pass789"), apperr.ResetLinkExpired)
		})
		t.Run("an administrator setting the password ends every outstanding link", func(t *testing.T) {
			token := requestResetToken(t, env, root, "change_user@example.com")
			k := root.Key()
			apitest.Must(t, root.Call("POST", "/api/auth/sys/user/password", map[string]any{"id": uid, "keyId": k.KeyID, "password": k.NewPassword(t, "Admi#Pass123")}))
			apitest.WantCode(t, valid(token), apperr.ResetLinkExpired)
			apitest.WantCode(t, reset(token, "Chan#Pass789"), apperr.ResetLinkExpired)
			apitest.Must(t, env.Client().Login("change_user", "Admi#Pass123"))
		})
	})
}

// loginBurst sends the prepared login bodies at once, each from the address xff (the node
// trusts X-Forwarded-For, so the per-address limit does not cut the burst short), and returns
// the answer codes in the order of bodies.
func loginBurst(t *testing.T, env *apitest.Env, xff string, bodies []map[string]any) []int {
	t.Helper()
	codes := make([]int, len(bodies))
	errs := make([]error, len(bodies))
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i, body := range bodies {
		b, _ := json.Marshal(body)
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			req, err := http.NewRequest("POST", env.URL+"/api/unauth/login", bytes.NewReader(b))
			if err != nil {
				errs[i] = err
				return
			}
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("X-Forwarded-For", xff)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				errs[i] = err
				return
			}
			defer resp.Body.Close()
			var a apitest.Answer
			errs[i] = json.NewDecoder(resp.Body).Decode(&a)
			codes[i] = a.Code
		}()
	}
	close(start)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	return codes
}

// A burst of wrong passwords sent at once learns at most LoginLockAfter verdicts: every attempt
// is counted before its password is checked, so the ones past the limit are refused unchecked.
// The right password, sent while the burst is still being answered, finds the account locked.
// (Which of two parallel requests the server counts first is up to the network, so the right
// one goes out once the burst has locked the account; the case of a right password counted
// before the lock but checked after it is user.TestARightPasswordCheckedAfterTheLockIsRefused.)
func TestParallelWrongLoginsCannotLetTheRightOneIn(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		const lockAfter = 5
		env := apitest.New(t, d, func(c *config.Config) { c.LoginLockAfter = lockAfter; c.TrustProxy = true })
		root := env.Root()
		uid, _ := env.CreateUser(root, "raced_user", "Race#Pass123", "auth_home")
		for round := 1; round <= 3; round++ {
			t.Run(fmt.Sprintf("11 wrong passwords at once, then the right one, round %d", round), func(t *testing.T) {
				c := env.Client()
				var bodies []map[string]any
				for range 11 {
					bodies = append(bodies, c.LoginBody("raced_user", "Wrong#Pass123"))
				}
				xff := fmt.Sprintf("203.0.113.%d", round)
				burst := make(chan []int, 1)
				go func() { burst <- loginBurst(t, env, xff, bodies) }()
				waitLocked(t, d, uid)
				right := loginBurst(t, env, xff, []map[string]any{c.LoginBody("raced_user", "Race#Pass123")})
				codes := <-burst
				if right[0] != apperr.AccountLocked {
					t.Fatalf("the right password after the burst answered %d, want %d (locked); the burst: %v", right[0], apperr.AccountLocked, codes)
				}
				verdicts := 0
				for i, code := range codes {
					switch code {
					case apperr.BadCredentials:
						verdicts++
					case apperr.AccountLocked:
					default:
						t.Fatalf("wrong password %d answered %d", i, code)
					}
				}
				// The lockAfter-th failure answers "locked", so at most lockAfter-1 say "wrong".
				if verdicts > lockAfter-1 {
					t.Fatalf("the burst learned %d wrong-password verdicts, want at most %d: %v", verdicts, lockAfter-1, codes)
				}
				var live int
				if err := d.QueryRow(context.Background(), `SELECT COUNT(*) FROM session WHERE user_id = ? AND ended_at = 0`, uid).Scan(&live); err != nil {
					t.Fatal(err)
				}
				if live != 0 {
					t.Fatalf("the burst opened %d sessions", live)
				}
				apitest.Must(t, root.Call("POST", "/api/auth/sys/user/lock/unlock", map[string]any{"ids": []int64{uid}}))
			})
		}
		t.Run("after the unlock the right password signs in", func(t *testing.T) {
			apitest.Must(t, env.Client().Login("raced_user", "Race#Pass123"))
		})
	})
}

// waitLocked waits until account uid is locked.
func waitLocked(t *testing.T, d *db.DB, uid int64) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		var until int64
		if err := d.QueryRow(context.Background(), `SELECT locked_until FROM app_user WHERE id = ?`, uid).Scan(&until); err != nil {
			t.Fatal(err)
		}
		if until > db.NowMS() {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the burst did not lock the account within 10 s")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

type logRow struct {
	Type, Reason, Code int
	UserName, IP       string
}

func signInRows(t *testing.T, root *apitest.Client, userName string) []logRow {
	t.Helper()
	var logs struct{ List []logRow }
	apitest.Must(t, root.Call("POST", "/api/auth/sys/logs/action/list", map[string]any{"type": 1, "userName": userName, "pageSize": 100})).Into(t, &logs)
	return logs.List
}

func countReason(rows []logRow, reason int) int {
	n := 0
	for _, r := range rows {
		if r.Reason == reason {
			n++
		}
	}
	return n
}

// infoWithToken asks /api/unauth/info with a session token the client kept, and returns the code.
func infoWithToken(t *testing.T, env *apitest.Env, token string) int {
	t.Helper()
	req, err := http.NewRequest("POST", env.URL+"/api/unauth/info", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.AddCookie(&http.Cookie{Name: "chargeops_token", Value: token})
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var a apitest.Answer
	if err := json.NewDecoder(resp.Body).Decode(&a); err != nil {
		t.Fatal(err)
	}
	return a.Code
}

func TestLoginLogReasons(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		env := apitest.New(t, d, nil)
		root := env.Root()
		_, roleID := env.CreateUser(root, "logged_user", "Logg#Pass123", "auth_home", "auth_my")

		t.Run("a failed login writes a logout row with reason 0", func(t *testing.T) {
			apitest.WantCode(t, env.Client().Login("logged_user", "Wrong#Pass123"), apperr.BadCredentials)
			apitest.WantCode(t, env.Client().Login("no_such_user", "Wrong#Pass123"), apperr.BadCredentials)
			for _, name := range []string{"logged_user", "no_such_user"} {
				rows := signInRows(t, root, name)
				if len(rows) != 1 || rows[0].Reason != 0 || rows[0].Code != apperr.BadCredentials || rows[0].IP != "127.0.0.1" {
					t.Fatalf("want one auth-failed row for %s, got %+v", name, rows)
				}
			}
		})
		t.Run("a password change writes reason 3 once, when the old session is first refused", func(t *testing.T) {
			old := env.Client().MustLogin("logged_user", "Logg#Pass123")
			c := env.Client().MustLogin("logged_user", "Logg#Pass123")
			k := c.Key()
			apitest.Must(t, c.Call("POST", "/api/auth/sys/user/owner/password", map[string]any{"keyId": k.KeyID,
				"oldPassword": k.CheckedPassword(t, "Logg#Pass123"), "newPassword": k.NewPassword(t, "Logg#Pass456")}))
			// The first refusal clears the browser's cookies; a client that kept the token is
			// refused again, without a second row.
			token := old.Cookie("chargeops_token")
			apitest.WantCode(t, old.Call("POST", "/api/unauth/info", nil), apperr.ForcedRelogin)
			if code := infoWithToken(t, env, token); code != apperr.ForcedRelogin {
				t.Fatalf("the kept token answered %d, want %d", code, apperr.ForcedRelogin)
			}
			if n := countReason(signInRows(t, root, "logged_user"), 3); n != 1 {
				t.Fatalf("want one forced re-login row, got %d", n)
			}
		})
		t.Run("a role change writes reason 3 for its holders' sessions", func(t *testing.T) {
			c := env.Client().MustLogin("logged_user", "Logg#Pass456")
			apitest.Must(t, root.Call("POST", "/api/auth/sys/role/auth/menu", map[string]any{"id": roleID, "keys": []string{"auth_home"}}))
			apitest.WantCode(t, c.Call("POST", "/api/unauth/info", nil), apperr.ForcedRelogin)
			if n := countReason(signInRows(t, root, "logged_user"), 3); n != 2 {
				t.Fatalf("want two forced re-login rows, got %d", n)
			}
		})
	})
}

// openStream opens the status event stream with c's session, as the console's EventSource
// does, and returns a channel closed when the server ends the stream.
func openStream(t *testing.T, env *apitest.Env, c *apitest.Client) <-chan struct{} {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, err := http.NewRequestWithContext(ctx, "GET", env.URL+"/api/auth/sys/dev/events/stream", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.AddCookie(&http.Cookie{Name: "chargeops_token", Value: c.Cookie("chargeops_token")})
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		t.Fatalf("not a stream (%s): %s", ct, b)
	}
	r := bufio.NewReader(resp.Body)
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("stream ended before it connected: %v", err)
		}
		if strings.HasPrefix(line, ": connected") {
			break
		}
	}
	ended := make(chan struct{})
	go func() {
		defer close(ended)
		defer resp.Body.Close()
		_, _ = io.Copy(io.Discard, r)
	}()
	return ended
}

func wantEnded(t *testing.T, ended <-chan struct{}, within time.Duration) {
	t.Helper()
	select {
	case <-ended:
	case <-time.After(within):
		t.Fatalf("the event stream still runs %s after its session ended", within)
	}
}

func TestEventStreamEndsWithItsSession(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		env := apitest.New(t, d, nil)
		root := env.Root()
		uid, _ := env.CreateUser(root, "stream_user", "Stre#Pass123", "auth_home", "auth_my")
		// Ends on this node close the stream at once, long before the periodic check (15 s).
		const atOnce = 3 * time.Second

		t.Run("logout closes the stream", func(t *testing.T) {
			c := env.Client().MustLogin("stream_user", "Stre#Pass123")
			ended := openStream(t, env, c)
			apitest.Must(t, c.Call("POST", "/api/unauth/logout", nil))
			wantEnded(t, ended, atOnce)
		})
		t.Run("a password change from another session closes the stream", func(t *testing.T) {
			c := env.Client().MustLogin("stream_user", "Stre#Pass123")
			ended := openStream(t, env, c)
			other := env.Client().MustLogin("stream_user", "Stre#Pass123")
			k := other.Key()
			apitest.Must(t, other.Call("POST", "/api/auth/sys/user/owner/password", map[string]any{"keyId": k.KeyID,
				"oldPassword": k.CheckedPassword(t, "Stre#Pass123"), "newPassword": k.NewPassword(t, "Stre#Pass456")}))
			wantEnded(t, ended, atOnce)
		})
		t.Run("disabling the account closes the stream", func(t *testing.T) {
			c := env.Client().MustLogin("stream_user", "Stre#Pass456")
			ended := openStream(t, env, c)
			apitest.Must(t, root.Call("POST", "/api/auth/sys/user/status", map[string]any{"ids": []int64{uid}, "status": 0}))
			wantEnded(t, ended, atOnce)
			apitest.Must(t, root.Call("POST", "/api/auth/sys/user/status", map[string]any{"ids": []int64{uid}, "status": 1}))
		})
		t.Run("a session ended on another node closes the stream at the next check", func(t *testing.T) {
			env.App.Sessions.SetWatchEvery(200 * time.Millisecond)
			defer env.App.Sessions.SetWatchEvery(0)
			c := env.Client().MustLogin("stream_user", "Stre#Pass456")
			ended := openStream(t, env, c)
			// Another node writes the end straight to the shared database; this node is not told.
			if _, err := d.Exec(context.Background(), `UPDATE session SET ended_at = ?, end_reason = 1 WHERE user_id = ? AND ended_at = 0`,
				time.Now().UnixMilli(), uid); err != nil {
				t.Fatal(err)
			}
			wantEnded(t, ended, 2*time.Second)
		})
	})
}
