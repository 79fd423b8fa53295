package app_test

import (
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

	"github.com/gorilla/websocket"

	"chargeops/internal/app"
	"chargeops/internal/config"
	"chargeops/internal/db"
	"chargeops/internal/testutil"
)

// Helpers of the fault tests (outage_test.go, diskfull_test.go): an in-process node, chargers
// that note every frame they sent and when it was answered, and the check that every answered
// frame is stored.

// node is a chargeops node serving in this process.
type node struct {
	app  *app.App
	addr string
	stop func() // ends Serve and waits for it
}

// startNode opens cfg's database (migrated), builds the node and serves it on a loopback port.
func startNode(t *testing.T, cfg config.Config) *node {
	t.Helper()
	ctx := context.Background()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	cfg.Addr, cfg.Captcha = ln.Addr().String(), false
	d, err := app.OpenDB(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	a, err := app.New(ctx, cfg, d, nil)
	if err != nil {
		d.Close()
		t.Fatal(err)
	}
	sctx, cancel := context.WithCancel(ctx)
	served := make(chan error, 1)
	go func() { served <- a.Serve(sctx, ln) }()
	var once sync.Once
	n := &node{app: a, addr: ln.Addr().String()}
	n.stop = func() {
		once.Do(func() {
			cancel()
			select {
			case err := <-served:
				if err != nil {
					t.Errorf("Serve: %v", err)
				}
			case <-time.After(30 * time.Second):
				t.Error("the node did not stop within 30 s")
			}
			d.Close()
		})
	}
	t.Cleanup(n.stop)
	if cfg.OCPPAddr != "" { // Serve opens the gateway's own listener as it starts
		testutil.Eventually(t, "the --ocpp-addr listener up", func() bool {
			c, err := net.Dial("tcp", cfg.OCPPAddr)
			if err == nil {
				c.Close()
			}
			return err == nil
		})
	}
	return n
}

// health is /healthz's status code and body.
func (n *node) health(t *testing.T) (int, map[string]any) {
	t.Helper()
	c := http.Client{Timeout: 10 * time.Second}
	r, err := c.Get("http://" + n.addr + "/healthz")
	if err != nil {
		t.Fatalf("healthz: %v", err)
	}
	defer r.Body.Close()
	var body map[string]any
	_ = json.NewDecoder(r.Body).Decode(&body)
	return r.StatusCode, body
}

// waitHealth polls /healthz until it answers code, and returns the body it answered with.
func (n *node) waitHealth(t *testing.T, code int, within time.Duration) map[string]any {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		got, body := n.health(t)
		if got == code {
			return body
		}
		if time.Now().After(deadline) {
			t.Fatalf("/healthz answered %d %v, not %d, within %s", got, body, code, within)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// metric reads one sample of /metrics (loopback is allowed to read it).
func (n *node) metric(t *testing.T, name string) string {
	t.Helper()
	r, err := http.Get("http://" + n.addr + "/metrics")
	if err != nil {
		t.Fatalf("metrics: %v", err)
	}
	defer r.Body.Close()
	b, _ := io.ReadAll(r.Body)
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, name+" "); ok {
			return v
		}
	}
	t.Fatalf("metric %s not on /metrics", name)
	return ""
}

// frame is one MeterValues a charger sent: its sample time, when it was sent and answered.
type frame struct {
	sn       string
	at       time.Time
	sent     time.Time
	answered time.Time // zero: no answer yet
	ok       bool      // answered with a CALLRESULT (an acknowledgement)
}

// fleetLoad is chargers sending MeterValues one after the other (one open call each) over raw
// WebSocket frames, noting every frame.
type fleetLoad struct {
	mu     sync.Mutex
	frames []*frame
	stopc  chan struct{}
	halted sync.Once
	wg     sync.WaitGroup
}

// drive connects every charger to n's gateway and starts sending; stop ends it.
func drive(t *testing.T, addr string, sns []string) *fleetLoad {
	t.Helper()
	l := &fleetLoad{stopc: make(chan struct{})}
	dialer := websocket.Dialer{Subprotocols: []string{"ocpp1.6"}}
	base := time.Now().Add(-time.Hour).Truncate(time.Second)
	for _, sn := range sns {
		ws, _, err := dialer.Dial("ws://"+addr+"/ocpp/"+sn, nil)
		if err != nil {
			t.Fatalf("%s: %v", sn, err)
		}
		t.Cleanup(func() { ws.Close() })
		l.wg.Add(1)
		go func() {
			defer l.wg.Done()
			l.charger(ws, sn, base)
		}()
	}
	return l
}

func (l *fleetLoad) charger(ws *websocket.Conn, sn string, base time.Time) {
	for i := 1; ; i++ {
		select {
		case <-l.stopc:
			return
		default:
		}
		f := &frame{sn: sn, at: base.Add(time.Duration(i) * time.Millisecond), sent: time.Now()}
		msg := fmt.Sprintf(`[2,"%d","MeterValues",{"connectorId":1,"meterValue":[{"timestamp":"%s","sampledValue":[{"value":"%d","measurand":"Voltage","unit":"V"}]}]}]`,
			i, f.at.UTC().Format("2006-01-02T15:04:05.000Z"), i)
		l.mu.Lock()
		l.frames = append(l.frames, f)
		l.mu.Unlock()
		if err := ws.WriteMessage(websocket.TextMessage, []byte(msg)); err != nil {
			return
		}
		_, answer, err := ws.ReadMessage()
		if err != nil {
			return
		}
		l.mu.Lock()
		f.answered, f.ok = time.Now(), strings.HasPrefix(string(answer), fmt.Sprintf(`[3,"%d"`, i))
		l.mu.Unlock()
	}
}

// halt tells the chargers to send nothing after the frame each one waits on.
func (l *fleetLoad) halt() { l.halted.Do(func() { close(l.stopc) }) }

// stop ends the sending and waits for the chargers' last answers (bounded: a charger still
// waiting is closed by the test's clean-up).
func (l *fleetLoad) stop() {
	l.halt()
	done := make(chan struct{})
	go func() { l.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
	}
}

// snapshot copies the frames noted so far.
func (l *fleetLoad) snapshot() []frame {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]frame, len(l.frames))
	for i, f := range l.frames {
		out[i] = *f
	}
	return out
}

// checkStored fails the test unless every acknowledged frame's sample is in the series, and
// unless every answer was an acknowledgement (no frame refused or dropped). It returns how
// many frames were acknowledged.
func checkStored(t *testing.T, d *db.DB, frames []frame) int {
	t.Helper()
	ctx := context.Background()
	ids := map[string]int64{}
	acked := 0
	for _, f := range frames {
		if f.answered.IsZero() {
			continue
		}
		if !f.ok {
			t.Fatalf("%s: the frame sent at %s was answered with an error, not stored", f.sn, f.sent.Format(time.StampMilli))
		}
		acked++
		id, ok := ids[f.sn]
		if !ok {
			if err := d.QueryRow(ctx, `SELECT id FROM device WHERE sn = ?`, f.sn).Scan(&id); err != nil {
				t.Fatal(err)
			}
			ids[f.sn] = id
		}
		var n int
		if err := d.QueryRow(ctx, `SELECT COUNT(*) FROM device_series WHERE device_id = ? AND connector_id = 1 AND name = 'Voltage' AND ts = ?`,
			id, f.at.UnixMilli()).Scan(&n); err != nil || n != 1 {
			t.Fatalf("%s: acknowledged frame of %s (sent %s, answered %s) not stored: %d rows (%v)", f.sn, f.at.Format(time.StampMilli),
				f.sent.Format(time.StampMilli), f.answered.Format(time.StampMilli), n, err)
		}
	}
	return acked
}
