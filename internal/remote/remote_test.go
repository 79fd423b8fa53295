package remote_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"chargeops/internal/apperr"
	"chargeops/internal/config"
	"chargeops/internal/db"
	"chargeops/internal/fleet"
	"chargeops/internal/remote"
	"chargeops/internal/sim"
	"chargeops/internal/testutil"
	"chargeops/internal/testutil/apitest"
)

const password = "Remote#Pass123"

// world is one customer's charger (a model supporting SSH and WEB, run by the simulator) on
// one node, with users of each kind of WEB/SSH access, and a user of another customer.
type world struct {
	env                     *apitest.Env
	root                    *apitest.Client
	engineer, webOnly, none *apitest.Client // Only Root access; Only Web Engineer; WEB/SSH disabled
	viewer                  *apitest.Client // reads devices and edits them, no auth_logs_action, Only Root access
	other                   *apitest.Client // another customer's user with Only Root access
	devID, engineerID       int64
	sn                      string
}

func id(t *testing.T, a apitest.Answer) int64 {
	t.Helper()
	var v struct{ ID int64 }
	apitest.Must(t, a).Into(t, &v)
	return v.ID
}

// newWorld seeds the organisation on env's database and starts a simulated charger against
// ocppURL (the node its OCPP socket lands on).
func newWorld(t *testing.T, env *apitest.Env, ocppURL string) *world {
	t.Helper()
	w := &world{env: env, root: env.Root()}
	r := w.root
	stamp := time.Now().UnixNano() % 1e9
	custA := id(t, r.Call("POST", "/api/auth/sys/customer/add", map[string]any{"name": fmt.Sprintf("Remote A %d", stamp), "code": fmt.Sprintf("RA%d", stamp)}))
	custB := id(t, r.Call("POST", "/api/auth/sys/customer/add", map[string]any{"name": fmt.Sprintf("Remote B %d", stamp), "code": fmt.Sprintf("RB%d", stamp)}))
	site := id(t, r.Call("POST", "/api/auth/sys/site/add", map[string]any{"customerId": custA, "name": "Remote site", "code": fmt.Sprintf("RS%d", stamp)}))
	model := id(t, r.Call("POST", "/api/auth/sys/dev/model/add", map[string]any{"name": fmt.Sprintf("DC-Remote %d", stamp), "deviceType": 1,
		"supportsSsh": true, "supportsWeb": true}))
	w.sn = fmt.Sprintf("RMT-%d", stamp)
	w.devID = id(t, r.Call("POST", "/api/auth/sys/dev/basic/add", map[string]any{"sn": w.sn, "name": "Remote " + w.sn, "modelId": model, "siteId": site}))
	var lastUser int64
	user := func(name string, customer int64, webSSH int, keys ...string) *apitest.Client {
		rid := id(t, r.Call("POST", "/api/auth/sys/role/add", map[string]any{"name": "role " + name, "customerId": customer}))
		apitest.Must(t, r.Call("POST", "/api/auth/sys/role/auth/menu", map[string]any{"id": rid, "keys": keys}))
		apitest.Must(t, r.Call("POST", "/api/auth/sys/role/auth/data", map[string]any{"id": rid, "customerAccess": 1, "siteAccess": 0,
			"webSshAccess": webSSH, "webSshLevel": 0, "cfgReadLevel": 5, "cfgWriteLevel": 5, "cfgDownloadLevel": 5, "paramLevel": 5, "docLevel": 5, "attachLevel": 5}))
		k := r.Key()
		lastUser = id(t, r.Call("POST", "/api/auth/sys/user/add", map[string]any{"userName": name, "keyId": k.KeyID,
			"password": k.NewPassword(t, password), "roleId": rid, "customerId": customer}))
		return env.Client().MustLogin(name, password)
	}
	keys := []string{"auth_device", "auth_device_list", "auth_device_detail", "auth_device_edit"}
	w.engineer = user(fmt.Sprintf("eng_%d", stamp), custA, 1, append(keys, "auth_logs", "auth_logs_action")...)
	w.engineerID = lastUser
	w.webOnly = user(fmt.Sprintf("web_%d", stamp), custA, 3, keys...)
	w.none = user(fmt.Sprintf("none_%d", stamp), custA, 0, keys...)
	w.viewer = user(fmt.Sprintf("view_%d", stamp), custA, 1, keys...)
	w.other = user(fmt.Sprintf("other_%d", stamp), custB, 1, keys...)

	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		sim.Run(ctx, sim.Options{URL: "ws" + strings.TrimPrefix(ocppURL, "http") + "/ocpp", SNs: []string{w.sn}, FaultChance: 0.0001})
	}()
	t.Cleanup(func() { cancel(); <-done })
	testutil.EventuallyWithin(t, 15*time.Second, "the charger online", func() bool {
		var st int
		_ = env.DB.QueryRow(context.Background(), `SELECT status FROM device WHERE id = ?`, w.devID).Scan(&st)
		return st != fleet.StatusOffline
	})
	return w
}

func (w *world) open(t *testing.T, c *apitest.Client, kind string) remote.LinkView {
	t.Helper()
	var l remote.LinkView
	apitest.Must(t, c.Call("POST", "/api/auth/sys/dev/link/open", map[string]any{"deviceId": w.devID, "kind": kind})).Into(t, &l)
	if l.Status != remote.StatusOpen || l.Kind != kind || l.ID == 0 {
		t.Fatalf("opened link %+v", l)
	}
	return l
}

func (w *world) status(t *testing.T, c *apitest.Client) remote.StatusView {
	t.Helper()
	var v remote.StatusView
	apitest.Must(t, c.Call("GET", "/api/auth/sys/dev/link/status", map[string]any{"deviceId": w.devID})).Into(t, &v)
	return v
}

// webURL asks for the web page's URL as c.
func (w *world) webURL(t *testing.T, c *apitest.Client) string {
	t.Helper()
	var l remote.WebLink
	apitest.Must(t, c.Call("POST", "/api/auth/sys/dev/link/web", map[string]any{"deviceId": w.devID})).Into(t, &l)
	return l.URL
}

// fetch gets a page without any cookie (the path token is the authority) and without
// following redirects.
func fetch(t *testing.T, method, u string, form url.Values) (*http.Response, string) {
	t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, u, body)
	if err != nil {
		t.Fatal(err)
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	return fetchReq(t, req)
}

// fetchReq sends req without following redirects.
func fetchReq(t *testing.T, req *http.Request) (*http.Response, string) {
	t.Helper()
	client := &http.Client{Timeout: 20 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

// term is a terminal WebSocket of the console.
type term struct {
	t   *testing.T
	ws  *websocket.Conn
	mu  sync.Mutex
	out strings.Builder
	end chan remote.Frame
	rdy chan struct{}
}

// dialTerm opens the terminal as c (its session cookie, the console's Origin) and sends auth.
func dialTerm(t *testing.T, env *apitest.Env, c *apitest.Client, devID int64, auth remote.Frame) *term {
	t.Helper()
	h := http.Header{}
	h.Set("Cookie", "chargeops_token="+c.Cookie("chargeops_token"))
	h.Set("Origin", env.URL)
	h.Set("Accept-Language", c.Locale)
	u := "ws" + strings.TrimPrefix(env.URL, "http") + "/api/auth/sys/dev/link/terminal?deviceId=" + fmt.Sprint(devID)
	ws, resp, err := websocket.DefaultDialer.Dial(u, h)
	if err != nil {
		b := ""
		if resp != nil {
			bb, _ := io.ReadAll(resp.Body)
			b = string(bb)
		}
		t.Fatalf("terminal dial: %v %s", err, b)
	}
	tm := &term{t: t, ws: ws, end: make(chan remote.Frame, 1), rdy: make(chan struct{})}
	go func() {
		var once sync.Once
		for {
			var f remote.Frame
			if err := ws.ReadJSON(&f); err != nil {
				select {
				case tm.end <- remote.Frame{Type: "eof"}:
				default:
				}
				return
			}
			switch f.Type {
			case "ready":
				once.Do(func() { close(tm.rdy) })
			case "output":
				tm.mu.Lock()
				tm.out.WriteString(f.Data)
				tm.mu.Unlock()
			case "closed", "error":
				tm.end <- f
				return
			}
		}
	}()
	auth.Type = "auth"
	if err := ws.WriteJSON(auth); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	return tm
}

func (tm *term) send(f remote.Frame) {
	if err := tm.ws.WriteJSON(f); err != nil {
		tm.t.Fatal(err)
	}
}

// expect waits for text in the output.
func (tm *term) expect(text string) {
	tm.t.Helper()
	testutil.EventuallyWithin(tm.t, 10*time.Second, fmt.Sprintf("%q in the terminal", text), func() bool {
		tm.mu.Lock()
		defer tm.mu.Unlock()
		return strings.Contains(tm.out.String(), text)
	})
}

func (tm *term) has(text string) bool {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	return strings.Contains(tm.out.String(), text)
}

func (tm *term) ready() {
	tm.t.Helper()
	select {
	case <-tm.rdy:
	case f := <-tm.end:
		tm.t.Fatalf("terminal ended before ready: %+v", f)
	case <-time.After(15 * time.Second):
		tm.t.Fatal("terminal not ready")
	}
}

func (tm *term) ended() remote.Frame {
	tm.t.Helper()
	select {
	case f := <-tm.end:
		return f
	case <-time.After(15 * time.Second):
		tm.t.Fatal("terminal did not end")
	}
	return remote.Frame{}
}

// linkRow reads a link's status and close reason from the database.
func linkRow(t *testing.T, d *db.DB, id int64) (int, string) {
	t.Helper()
	var st int
	var reason string
	if err := d.QueryRow(context.Background(), `SELECT status, close_reason FROM remote_link WHERE id = ?`, id).Scan(&st, &reason); err != nil {
		t.Fatal(err)
	}
	return st, reason
}

func TestRemoteAccess(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		env := apitest.New(t, d, func(c *config.Config) { c.NodeName = "node-solo" })
		w := newWorld(t, env, env.URL)
		ctx := context.Background()

		t.Run("who may open a link", func(t *testing.T) {
			v := w.status(t, w.engineer)
			if v.Link != nil || !v.CanSSH || !v.CanWeb || !v.SSHSupported || !v.WebSupported {
				t.Fatalf("engineer's status before any link %+v", v)
			}
			if v := w.status(t, w.webOnly); v.CanSSH || !v.CanWeb {
				t.Fatalf("web-only user's status %+v", v)
			}
			apitest.WantCode(t, w.none.Call("POST", "/api/auth/sys/dev/link/open", map[string]any{"deviceId": w.devID, "kind": "web"}), apperr.NoPermission)
			apitest.WantCode(t, w.webOnly.Call("POST", "/api/auth/sys/dev/link/open", map[string]any{"deviceId": w.devID, "kind": "ssh"}), apperr.NoPermission)
			apitest.WantCode(t, w.other.Call("POST", "/api/auth/sys/dev/link/open", map[string]any{"deviceId": w.devID, "kind": "ssh"}), apperr.NotFound)
			apitest.WantCode(t, w.other.Call("GET", "/api/auth/sys/dev/link/status", map[string]any{"deviceId": w.devID}), apperr.NotFound)
			apitest.WantCode(t, w.engineer.Call("POST", "/api/auth/sys/dev/link/open", map[string]any{"deviceId": w.devID, "kind": "ssh", "minutes": 500}), apperr.Invalid)
			apitest.WantCode(t, w.engineer.Call("POST", "/api/auth/sys/dev/link/open", map[string]any{"deviceId": w.devID, "kind": "vnc"}), apperr.Invalid)
			// A charger that is not connected: offline, and its link closed as failed.
			var dev struct{ ModelID, SiteID int64 }
			apitest.Must(t, w.root.Call("GET", "/api/auth/sys/dev/basic/detail", map[string]any{"id": w.devID})).Into(t, &dev)
			idle := id(t, w.root.Call("POST", "/api/auth/sys/dev/basic/add", map[string]any{"sn": w.sn + "-OFF", "name": "Remote off " + w.sn, "modelId": dev.ModelID, "siteId": dev.SiteID}))
			a := w.engineer.Call("POST", "/api/auth/sys/dev/link/open", map[string]any{"deviceId": idle, "kind": "ssh"})
			apitest.WantCode(t, a, apperr.DeviceOffline)
			failed := testutil.Count(t, d, `SELECT COUNT(*) FROM remote_link WHERE device_id = ? AND status = ? AND close_reason = ?`, idle, remote.StatusClosed, remote.ReasonFailed)
			if failed != 1 {
				t.Fatalf("offline charger's link: %d failed rows", failed)
			}
		})

		l := w.open(t, w.engineer, "ssh")
		t.Run("an open link", func(t *testing.T) {
			if l.Account != "root" || l.Minutes != remote.DefaultMinutes || l.RemainingSec < 1700 || l.RemainingSec > 1800 || l.Node != "node-solo" {
				t.Fatalf("link %+v", l)
			}
			if env.App.Remote.Tunnels() != 1 {
				t.Fatalf("node holds %d tunnels", env.App.Remote.Tunnels())
			}
			// The VPN start is a command like any remote operation; its record keeps the token masked.
			var cmds struct{ List []fleet.CommandView }
			apitest.Must(t, w.root.Call("POST", "/api/auth/sys/dev/control/list", map[string]any{"deviceId": w.devID})).Into(t, &cmds)
			if len(cmds.List) == 0 || cmds.List[0].ControlType != fleet.CtlVPNStart {
				t.Fatalf("commands %+v", cmds.List)
			}
			var prm fleet.Params
			_ = json.Unmarshal(cmds.List[0].Params, &prm)
			if !strings.Contains(prm.Data, `"token":"***"`) || !strings.Contains(prm.Data, "/remote/tunnel") {
				t.Fatalf("stored VPN start data %s", prm.Data)
			}
			// ... and so does the protocol log's frame.
			testutil.EventuallyWithin(t, 5*time.Second, "the VPN start in the protocol log", func() bool {
				var frame string
				_ = d.QueryRow(ctx, `SELECT data FROM protocol_log WHERE sn = ? AND data LIKE ?`, w.sn, "%VpnStart%").Scan(&frame)
				return strings.Contains(frame, `\"token\":\"***\"`)
			})
			// A tunnel without a valid one-time token is refused.
			if resp, _ := fetch(t, "GET", env.URL+remote.TunnelPath, nil); resp.StatusCode != http.StatusUnauthorized {
				t.Fatalf("tunnel without a token: %d", resp.StatusCode)
			}
			// Opening it again answers the same link; another kind is refused while it is open.
			if again := w.open(t, w.engineer, "ssh"); again.ID != l.ID {
				t.Fatalf("second open made link %d", again.ID)
			}
			apitest.WantCode(t, w.engineer.Call("POST", "/api/auth/sys/dev/link/open", map[string]any{"deviceId": w.devID, "kind": "web"}), apperr.Conflict)
			if v := w.status(t, w.engineer); v.Link == nil || v.Link.ID != l.ID || v.Link.Status != remote.StatusOpen {
				t.Fatalf("status %+v", v)
			}
		})

		t.Run("the charger's web page through the proxy", func(t *testing.T) {
			apitest.WantCode(t, w.other.Call("POST", "/api/auth/sys/dev/link/web", map[string]any{"deviceId": w.devID}), apperr.NotFound)
			// An SSH link's page needs the Only Root access: the web-only user is refused.
			apitest.WantCode(t, w.webOnly.Call("POST", "/api/auth/sys/dev/link/web", map[string]any{"deviceId": w.devID}), apperr.NoPermission)
			u := w.webURL(t, w.engineer)
			if !strings.HasPrefix(u, fmt.Sprintf("/remote/web/%d/", l.ID)) {
				t.Fatalf("web url %q", u)
			}
			resp, body := fetch(t, "GET", env.URL+u, nil)
			if resp.StatusCode != 200 || !strings.Contains(body, "Charger "+w.sn+" web admin") {
				t.Fatalf("page %d %.300s", resp.StatusCode, body)
			}
			csp := resp.Header.Get("Content-Security-Policy")
			if !strings.Contains(csp, "sandbox allow-scripts allow-forms allow-popups") || strings.Contains(csp, "allow-same-origin") {
				t.Fatalf("CSP %q", csp)
			}
			if len(resp.Header.Values("Set-Cookie")) != 0 {
				t.Fatalf("the charger's cookie came through: %v", resp.Header.Values("Set-Cookie"))
			}
			// A form posts through the proxy; the charger's redirect stays under the token's path.
			resp, _ = fetch(t, "POST", env.URL+u+"settings", url.Values{"HeartbeatInterval": {"120"}})
			loc := resp.Header.Get("Location")
			if resp.StatusCode != http.StatusSeeOther || loc != strings.TrimSuffix(u, "/")+"/?saved=1" {
				t.Fatalf("form answer %d, Location %q", resp.StatusCode, loc)
			}
			if _, body := fetch(t, "GET", env.URL+loc, nil); !strings.Contains(body, "Settings saved") || !strings.Contains(body, `value="120"`) {
				t.Fatalf("after saving: %.300s", body)
			}
			// The path without its slash redirects; a wrong token or link is not found.
			if resp, _ := fetch(t, "GET", env.URL+strings.TrimSuffix(u, "/"), nil); resp.StatusCode != http.StatusFound {
				t.Fatalf("no slash: %d", resp.StatusCode)
			}
			bad := fmt.Sprintf("/remote/web/%d/%s/", l.ID, strings.Repeat("0", 32))
			if resp, _ := fetch(t, "GET", env.URL+bad, nil); resp.StatusCode != http.StatusNotFound {
				t.Fatalf("wrong token: %d", resp.StatusCode)
			}
			other := strings.Replace(u, fmt.Sprintf("/%d/", l.ID), fmt.Sprintf("/%d/", l.ID+1000), 1)
			if resp, _ := fetch(t, "GET", env.URL+other, nil); resp.StatusCode != http.StatusNotFound {
				t.Fatalf("token of another link: %d", resp.StatusCode)
			}
		})

		t.Run("a command over SSH through the terminal", func(t *testing.T) {
			// Web-only access and another customer are refused before any WebSocket.
			apitest.WantCode(t, w.webOnly.Call("GET", "/api/auth/sys/dev/link/terminal", map[string]any{"deviceId": w.devID}), apperr.NoPermission)
			apitest.WantCode(t, w.other.Call("GET", "/api/auth/sys/dev/link/terminal", map[string]any{"deviceId": w.devID}), apperr.NotFound)
			tm := dialTerm(t, env, w.engineer, w.devID, remote.Frame{Username: "root", Password: sim.RemotePassword, Port: 22, Cols: 80, Rows: 24})
			tm.ready()
			tm.expect("root@" + w.sn)
			tm.send(remote.Frame{Type: "input", Data: "hostname\r"})
			tm.expect("hostname\r\n" + w.sn + "\r\n")
			tm.send(remote.Frame{Type: "input", Data: "uname -a\r"})
			tm.expect("Linux " + w.sn + " 5.10")
			// The charger applies a window change beside the input: ask until it shows.
			tm.send(remote.Frame{Type: "resize", Cols: 132, Rows: 40})
			testutil.EventuallyWithin(t, 10*time.Second, "the new window size", func() bool {
				tm.send(remote.Frame{Type: "input", Data: "stty size\r"})
				time.Sleep(200 * time.Millisecond)
				return tm.has("40 132")
			})
			tm.send(remote.Frame{Type: "input", Data: "exit\r"})
			if f := tm.ended(); f.Type != "closed" || f.Message != "Connection closed" {
				t.Fatalf("end frame %+v", f)
			}
		})

		t.Run("terminal refusals", func(t *testing.T) {
			tm := dialTerm(t, env, w.engineer, w.devID, remote.Frame{Username: "root", Password: "wrong", Port: 22})
			// the message names the cause (issue 30 item 12), not one "Connection failed"
			if f := tm.ended(); f.Type != "error" || f.Message != "Authentication failed: check the user name and password" {
				t.Fatalf("wrong password: %+v", f)
			}
			// nothing listens on this port of the charger: the charger closes the stream
			tm = dialTerm(t, env, w.engineer, w.devID, remote.Frame{Username: "root", Password: sim.RemotePassword, Port: 2222})
			if f := tm.ended(); f.Type != "error" || !strings.HasPrefix(f.Message, "The charger refused the connection on this port") {
				t.Fatalf("closed port: %+v", f)
			}
			// A refused first frame is no session: it is not recorded.
			tm = dialTerm(t, env, w.engineer, w.devID, remote.Frame{Username: "root", Password: sim.RemotePassword, Port: 70000})
			if f := tm.ended(); f.Type != "error" || f.Message != "Parameter error" {
				t.Fatalf("bad port: %+v", f)
			}
			// Another site's page cannot open it with the user's cookie.
			h := http.Header{"Cookie": {"chargeops_token=" + w.engineer.Cookie("chargeops_token")}, "Origin": {"https://evil.example"}}
			u := "ws" + strings.TrimPrefix(env.URL, "http") + "/api/auth/sys/dev/link/terminal?deviceId=" + fmt.Sprint(w.devID)
			if ws, _, err := websocket.DefaultDialer.Dial(u, h); err == nil {
				ws.Close()
				t.Fatal("a foreign Origin opened the terminal")
			}
		})

		t.Run("sessions are audited", func(t *testing.T) {
			// A terminal's rows are written as it ends, just after its last frame.
			testutil.EventuallyWithin(t, 5*time.Second, "three terminal action-log rows (the session, the wrong password, the closed port)", func() bool {
				var n int
				err := d.QueryRow(ctx, `SELECT COUNT(*) FROM action_log WHERE action = ? AND data LIKE ?`, remote.ActionTerminal, "%"+w.sn+"%").Scan(&n)
				return err == nil && n == 3
			})
			var list struct {
				Total int
				List  []remote.SessionView
			}
			apitest.Must(t, w.engineer.Call("POST", "/api/auth/sys/dev/link/session/list", map[string]any{"deviceId": w.devID, "pageSize": 50})).Into(t, &list)
			kinds := map[string]int{}
			var ssh *remote.SessionView
			for i, s := range list.List {
				kinds[s.Kind]++
				if s.Kind == "ssh" && strings.Contains(s.Input, "hostname") {
					ssh = &list.List[i]
				}
			}
			if kinds["link"] != 1 || kinds["web"] != 1 || kinds["ssh"] != 3 || ssh == nil {
				t.Fatalf("sessions %v %+v", kinds, list.List)
			}
			if ssh.EndedAt == 0 || !strings.Contains(ssh.Input, "uname -a\nstty size\n") || !strings.HasSuffix(ssh.Input, "exit\n") || ssh.UserName == "" {
				t.Fatalf("terminal session %+v", ssh)
			}
			// Without auth_logs_action the input is hidden; another customer sees none of it.
			apitest.Must(t, w.viewer.Call("POST", "/api/auth/sys/dev/link/session/list", map[string]any{"deviceId": w.devID})).Into(t, &list)
			for _, s := range list.List {
				if s.Input != "" || (s.Kind == "ssh" && !s.InputHidden) {
					t.Fatalf("viewer reads input %+v", s)
				}
			}
			apitest.Must(t, w.other.Call("POST", "/api/auth/sys/dev/link/session/list", map[string]any{})).Into(t, &list)
			if list.Total != 0 {
				t.Fatalf("another customer lists %d sessions", list.Total)
			}
		})

		t.Run("stop destroys the link", func(t *testing.T) {
			u := w.webURL(t, w.engineer)
			apitest.WantCode(t, w.webOnly.Call("POST", "/api/auth/sys/dev/link/close", map[string]any{"deviceId": w.devID}), apperr.NoPermission)
			apitest.Must(t, w.engineer.Call("POST", "/api/auth/sys/dev/link/close", map[string]any{"deviceId": w.devID}))
			if st, reason := linkRow(t, d, l.ID); st != remote.StatusClosed || reason != remote.ReasonStopped {
				t.Fatalf("after close: %d %q", st, reason)
			}
			testutil.EventuallyWithin(t, 5*time.Second, "the tunnel closed", func() bool { return env.App.Remote.Tunnels() == 0 })
			if resp, _ := fetch(t, "GET", env.URL+u, nil); resp.StatusCode != http.StatusNotFound {
				t.Fatalf("web page after close: %d", resp.StatusCode)
			}
			apitest.WantCode(t, w.engineer.Call("POST", "/api/auth/sys/dev/link/close", map[string]any{"deviceId": w.devID}), apperr.NotFound)
			if v := w.status(t, w.engineer); v.Link == nil || v.Link.Status != remote.StatusClosed || v.Link.CloseReason != remote.ReasonStopped {
				t.Fatalf("status after close %+v", v.Link)
			}
			if n := testutil.Count(t, d, `SELECT COUNT(*) FROM command WHERE device_id = ? AND control_type = ?`, w.devID, fleet.CtlVPNStop); n != 1 {
				t.Fatalf("%d VPN stop commands", n)
			}
			if n := testutil.Count(t, d, `SELECT COUNT(*) FROM action_log WHERE action = ? AND data LIKE ?`, remote.ActionLink, "%"+w.sn+"%"); n != 1 {
				t.Fatalf("%d link action-log rows", n)
			}
		})

		t.Run("restart replaces the link", func(t *testing.T) {
			first := w.open(t, w.webOnly, "web")
			if first.Account != "engineer" {
				t.Fatalf("web-only link account %q", first.Account)
			}
			var next remote.LinkView
			apitest.Must(t, w.webOnly.Call("POST", "/api/auth/sys/dev/basic/vpn/restart", map[string]any{"deviceId": w.devID})).Into(t, &next)
			if next.ID == first.ID || next.Status != remote.StatusOpen || next.Kind != "web" {
				t.Fatalf("restarted %+v", next)
			}
			if st, reason := linkRow(t, d, first.ID); st != remote.StatusClosed || reason != remote.ReasonRestarted {
				t.Fatalf("old link %d %q", st, reason)
			}
			// The web-only user reads a web link's page.
			if resp, body := fetch(t, "GET", env.URL+w.webURL(t, w.webOnly), nil); resp.StatusCode != 200 || !strings.Contains(body, "signed in as <b>engineer</b>") {
				t.Fatalf("web link page %d %.200s", resp.StatusCode, body)
			}
		})

		t.Run("expiry destroys the link", func(t *testing.T) {
			v := w.status(t, w.engineer)
			u := w.webURL(t, w.engineer)
			if _, err := d.Exec(ctx, `UPDATE remote_link SET expires_at = ? WHERE id = ?`, db.NowMS()-1, v.Link.ID); err != nil {
				t.Fatal(err)
			}
			env.App.Remote.Sweep(ctx)
			if st, reason := linkRow(t, d, v.Link.ID); st != remote.StatusClosed || reason != remote.ReasonExpired {
				t.Fatalf("after expiry: %d %q", st, reason)
			}
			testutil.EventuallyWithin(t, 5*time.Second, "the tunnel closed", func() bool { return env.App.Remote.Tunnels() == 0 })
			if resp, _ := fetch(t, "GET", env.URL+u, nil); resp.StatusCode != http.StatusNotFound {
				t.Fatalf("web page after expiry: %d", resp.StatusCode)
			}
		})

		t.Run("control types 7 and 8 sent as remote operations open and close the same link", func(t *testing.T) {
			var sent fleet.SendResult
			var a apitest.Answer
			// the expiry's VPN stop may still be running on the charger
			testutil.EventuallyWithin(t, 10*time.Second, "the charger free", func() bool {
				a = w.engineer.Call("POST", "/api/auth/sys/dev/control/send", map[string]any{"deviceIds": []int64{w.devID}, "controlType": fleet.CtlVPNStart,
					"params": map[string]any{"link": "ssh"}})
				return a.Code != apperr.DeviceBusy
			})
			apitest.Must(t, a).Into(t, &sent)
			v := w.status(t, w.engineer)
			if len(sent.Commands) != 1 || sent.Commands[0].ID == 0 || sent.Commands[0].Result != fleet.ResultSuccess || v.Link == nil ||
				v.Link.Status != remote.StatusOpen || v.Link.Kind != "ssh" || v.Link.CommandID != sent.Commands[0].ID {
				t.Fatalf("VPN start as a command: %+v, link %+v", sent, v.Link)
			}
			// an application bound to the engineer, through the OpenAPI, stops it
			app := env.NewApp(w.root, "remote ops", w.engineerID)
			apitest.Must(t, app.Call("POST", "/openapi/v1/commands", map[string]any{"deviceIds": []int64{w.devID}, "controlType": fleet.CtlVPNStop})).Into(t, &sent)
			if st, reason := linkRow(t, d, v.Link.ID); st != remote.StatusClosed || reason != remote.ReasonStopped || sent.Commands[0].Result != fleet.ResultSuccess {
				t.Fatalf("VPN stop through the OpenAPI: link %d %q, %+v", st, reason, sent)
			}
			apitest.WantCode(t, w.engineer.Call("POST", "/api/auth/sys/dev/control/send", map[string]any{"deviceIds": []int64{w.devID, w.devID + 1}, "controlType": fleet.CtlVPNStart}), apperr.Invalid)
			apitest.WantCode(t, w.none.Call("POST", "/api/auth/sys/dev/control/send", map[string]any{"deviceIds": []int64{w.devID}, "controlType": fleet.CtlVPNStart}), apperr.NoPermission)
		})

		t.Run("the audit is purged with the action log's retention", func(t *testing.T) {
			before := testutil.Count(t, d, `SELECT COUNT(*) FROM remote_session WHERE device_id = ? AND ended_at > 0`, w.devID)
			links := testutil.Count(t, d, `SELECT COUNT(*) FROM remote_link WHERE device_id = ? AND status = 3`, w.devID)
			if before == 0 || links == 0 {
				t.Fatalf("nothing to purge: %d sessions, %d links", before, links)
			}
			if n, err := env.App.Remote.Purge(ctx, 30); err != nil || n != 0 {
				t.Fatalf("recent audit purged: %d %v", n, err)
			}
			old := time.Now().AddDate(0, 0, -31).UnixMilli()
			for _, q := range []string{`UPDATE remote_session SET ended_at = ?, started_at = ? WHERE device_id = ? AND ended_at > 0`,
				`UPDATE remote_link SET expires_at = ?, opened_at = ? WHERE device_id = ? AND status = 3`} {
				if _, err := d.Exec(ctx, q, old, old, w.devID); err != nil {
					t.Fatal(err)
				}
			}
			if n, err := env.App.Remote.Purge(ctx, 30); err != nil || n != int64(before+links) {
				t.Fatalf("purged %d (%v), want %d", n, err, before+links)
			}
		})

		t.Run("a disabled device gets no link", func(t *testing.T) {
			apitest.Must(t, w.root.Call("POST", "/api/auth/sys/dev/basic/enable", map[string]any{"ids": []int64{w.devID}, "enabled": false}))
			apitest.WantCode(t, w.engineer.Call("POST", "/api/auth/sys/dev/link/open", map[string]any{"deviceId": w.devID, "kind": "ssh"}), apperr.DeviceDisabled)
		})
	})
}

// TestRemoteAcrossNodes: the console on node B, the charger's tunnel on node A (B's public URL
// points at A, as a load balancer may send it there): the web page, the terminal and the close
// go from B to A over the signed node-to-node calls. Without NATS the charger's OCPP socket is on
// B; with NATS (when one is reachable) it is on A, and the VPN start and stop cross over NATS too.
func TestRemoteAcrossNodes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		nats    bool
		ocppOnA bool
	}{
		{"OCPP socket on B, no NATS", false, false},
		{"OCPP socket on A, over NATS", true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			natsURL := ""
			if tc.nats {
				natsURL = testutil.NATS(t)
			}
			testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
				stamp := time.Now().UnixNano()
				nodeA, nodeB := fmt.Sprintf("node-a-%d", stamp), fmt.Sprintf("node-b-%d", stamp)
				a := apitest.New(t, d, func(c *config.Config) { c.NodeName, c.NATSURL = nodeA, natsURL })
				b := apitest.New(t, d, func(c *config.Config) { c.NodeName, c.NATSURL, c.PublicURL = nodeB, natsURL, a.URL })
				ocpp := b.URL
				if tc.ocppOnA {
					ocpp = a.URL
				}
				w := newWorld(t, b, ocpp)
				l := w.open(t, w.engineer, "ssh")
				if l.Node != nodeA || a.App.Remote.Tunnels() != 1 || b.App.Remote.Tunnels() != 0 {
					t.Fatalf("link %+v; tunnels A %d, B %d", l, a.App.Remote.Tunnels(), b.App.Remote.Tunnels())
				}
				var u remote.WebLink
				apitest.Must(t, w.engineer.Call("POST", "/api/auth/sys/dev/link/web", map[string]any{"deviceId": w.devID})).Into(t, &u)
				if resp, body := fetch(t, "GET", b.URL+u.URL, nil); resp.StatusCode != 200 || !strings.Contains(body, "Charger "+w.sn+" web admin") {
					t.Fatalf("page through node B: %d %.300s", resp.StatusCode, body)
				}
				tm := dialTerm(t, b, w.engineer, w.devID, remote.Frame{Username: "root", Password: sim.RemotePassword, Port: 22})
				tm.ready()
				tm.send(remote.Frame{Type: "input", Data: "hostname\r"})
				tm.expect("hostname\r\n" + w.sn + "\r\n")
				tm.send(remote.Frame{Type: "input", Data: "exit\r"})
				tm.ended()
				// A stream request not signed with the cluster's secret is refused.
				if resp, _ := fetch(t, "GET", fmt.Sprintf("%s/remote/relay/%d?port=22&ts=%d&sig=00", a.URL, l.ID, time.Now().UnixMilli()), nil); resp.StatusCode != http.StatusForbidden {
					t.Fatalf("unsigned relay: %d", resp.StatusCode)
				}
				apitest.Must(t, w.engineer.Call("POST", "/api/auth/sys/dev/link/close", map[string]any{"deviceId": w.devID}))
				testutil.EventuallyWithin(t, 5*time.Second, "node A closed the tunnel", func() bool { return a.App.Remote.Tunnels() == 0 })
				if st, reason := linkRow(t, d, l.ID); st != remote.StatusClosed || reason != remote.ReasonStopped {
					t.Fatalf("after close through B: %d %q", st, reason)
				}
				var n int
				_ = d.QueryRow(context.Background(), `SELECT COUNT(*) FROM command WHERE device_id = ? AND control_type IN (?, ?) AND result = ?`,
					w.devID, fleet.CtlVPNStart, fleet.CtlVPNStop, fleet.ResultSuccess).Scan(&n)
				if n != 2 {
					t.Fatalf("%d VPN start and stop commands succeeded, want 2", n)
				}
			})
		})
	}
}

// TestTerminalIdle: a terminal without input closes with "Connection closed" after the idle
// timeout, in the reader's language.
func TestTerminalIdle(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		env := apitest.New(t, d, func(c *config.Config) { c.RemoteIdle = 2 * time.Second })
		w := newWorld(t, env, env.URL)
		w.open(t, w.engineer, "ssh")
		w.engineer.Locale = "zh-CN"
		tm := dialTerm(t, env, w.engineer, w.devID, remote.Frame{Username: "root", Password: sim.RemotePassword})
		tm.ready()
		start := time.Now()
		if f := tm.ended(); f.Type != "closed" || f.Message != "连接已关闭" || time.Since(start) < 1500*time.Millisecond {
			t.Fatalf("idle end %+v after %s", f, time.Since(start))
		}
		testutil.EventuallyWithin(t, 5*time.Second, "the terminal's action-log row, result idle", func() bool {
			var data string
			err := d.QueryRow(context.Background(), `SELECT data FROM action_log WHERE action = ?`, remote.ActionTerminal).Scan(&data)
			return err == nil && strings.Contains(data, `"result":"idle"`)
		})
	})
}
