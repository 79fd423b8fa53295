package natsreg_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lorenzodonini/ocpp-go/ocpp1.6/core"
	ocppws "github.com/lorenzodonini/ocpp-go/ws"

	"chargeops/internal/config"
	"chargeops/internal/db"
	"chargeops/internal/fleet"
	"chargeops/internal/fleet/fleettest"
	"chargeops/internal/fleet/natsreg"
	"chargeops/internal/testutil/apitest"
)

// Fault tests of the cluster (docs/gateway.md, "Scale-out"): each starts its own nats-server
// (the real server binary, NATS_SERVER_BIN or nats-server on PATH) so that it can stop and
// restart it, runs two in-process nodes on it and uses ocpp-go's charge point as the charger.

// natsServer is a nats-server process the test starts, stops and starts again on one port.
type natsServer struct {
	t    *testing.T
	bin  string
	port int
	cmd  *exec.Cmd
}

func startNATS(t *testing.T) *natsServer {
	t.Helper()
	bin := os.Getenv("NATS_SERVER_BIN")
	if bin == "" {
		var err error
		if bin, err = exec.LookPath("nats-server"); err != nil {
			t.Skipf("SKIP: no nats-server binary (set NATS_SERVER_BIN): %v", err)
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	_ = ln.Close()
	s := &natsServer{t: t, bin: bin, port: port}
	s.start()
	t.Cleanup(s.stop)
	return s
}

func (s *natsServer) url() string { return "nats://127.0.0.1:" + strconv.Itoa(s.port) }

// start runs the server and waits until it accepts connections.
func (s *natsServer) start() {
	s.t.Helper()
	s.cmd = exec.Command(s.bin, "-a", "127.0.0.1", "-p", strconv.Itoa(s.port))
	if err := s.cmd.Start(); err != nil {
		s.t.Fatalf("start nats-server: %v", err)
	}
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if c, err := net.DialTimeout("tcp", "127.0.0.1:"+strconv.Itoa(s.port), time.Second); err == nil {
			_ = c.Close()
			return
		}
	}
	s.t.Fatal("nats-server did not start")
}

// stop kills the server (no goodbye to its clients) and waits for it to end.
func (s *natsServer) stop() {
	if s.cmd == nil {
		return
	}
	_ = s.cmd.Process.Kill()
	_ = s.cmd.Wait()
	s.cmd = nil
}

// cpHandler is the ocpp-go charge point's side of remote operations: it accepts everything
// and counts the resets it got.
type cpHandler struct {
	fleettest.AcceptingCharger
	resets atomic.Int64
}

func (h *cpHandler) OnReset(*core.ResetRequest) (*core.ResetConfirmation, error) {
	h.resets.Add(1)
	return core.NewResetConfirmation(core.ResetStatusAccepted), nil
}

// cluster is two nodes on one database and one NATS, and what the tests ask of them.
type cluster struct {
	t     *testing.T
	d     *db.DB
	org   fleettest.Org
	nodes []*apitest.Env
	names []string
}

// newCluster starts nodes a and b on d, a on NATS at urlA and b at urlB.
func newCluster(t *testing.T, d *db.DB, prefix, urlA, urlB string) *cluster {
	t.Helper()
	c := &cluster{t: t, d: d, org: fleettest.Seed(t, d)}
	for i, url := range []string{urlA, urlB} {
		name := fmt.Sprintf("%s-%c-%d", prefix, 'a'+i, time.Now().UnixNano()%1e9)
		c.names = append(c.names, name)
		c.nodes = append(c.nodes, apitest.New(t, d, func(cfg *config.Config) {
			cfg.NATSURL, cfg.NodeName, cfg.CommandTimeout, cfg.DataDir = url, name, 5*time.Second, t.TempDir()
		}))
	}
	return c
}

// linkCut is a TCP relay to a NATS server that the test can cut (every relayed connection
// closed, new ones refused) and heal on the same port: one node's own partition from the bus
// while the other node keeps it.
type linkCut struct {
	t      *testing.T
	target string
	addr   string
	mu     sync.Mutex
	ln     net.Listener
	conns  []net.Conn
}

func newLinkCut(t *testing.T, target string) *linkCut {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &linkCut{t: t, target: strings.TrimPrefix(target, "nats://"), addr: ln.Addr().String(), ln: ln}
	go p.serve(ln)
	t.Cleanup(p.cut)
	return p
}

func (p *linkCut) url() string { return "nats://" + p.addr }

func (p *linkCut) serve(ln net.Listener) {
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		s, err := net.Dial("tcp", p.target)
		if err != nil {
			_ = c.Close()
			continue
		}
		p.mu.Lock()
		p.conns = append(p.conns, c, s)
		p.mu.Unlock()
		go func() { _, _ = io.Copy(s, c); _ = s.Close() }()
		go func() { _, _ = io.Copy(c, s); _ = c.Close() }()
	}
}

// cut closes the relay's listener and every connection through it.
func (p *linkCut) cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ln != nil {
		_ = p.ln.Close()
		p.ln = nil
	}
	for _, c := range p.conns {
		_ = c.Close()
	}
	p.conns = nil
}

// heal listens again on the same address.
func (p *linkCut) heal() {
	p.t.Helper()
	ln, err := net.Listen("tcp", p.addr)
	if err != nil {
		p.t.Fatalf("heal: %v", err)
	}
	p.mu.Lock()
	p.ln = ln
	p.mu.Unlock()
	go p.serve(ln)
}

func (c *cluster) registry(i int) *natsreg.Registry {
	return c.nodes[i].App.Fleet.Registry.(*natsreg.Registry)
}

func (c *cluster) ws(i int) string {
	return "ws" + strings.TrimPrefix(c.nodes[i].URL, "http") + "/ocpp"
}

// charger connects an ocpp-go charge point as sn to node i and boots it.
func (c *cluster) charger(i int, sn string) *cpHandler {
	c.t.Helper()
	cp := fleettest.ChargePoint(sn, ocppws.NewClient())
	h := &cpHandler{}
	cp.SetCoreHandler(h)
	if err := cp.Start(c.ws(i)); err != nil {
		c.t.Fatalf("connect %s to node %d: %v", sn, i, err)
	}
	var once sync.Once
	c.t.Cleanup(func() { once.Do(cp.Stop) })
	if _, err := cp.BootNotification("AC-22", "Test"); err != nil {
		c.t.Fatalf("boot %s: %v", sn, err)
	}
	return h
}

// state is the device's recorded connection.
func (c *cluster) state(id int64) (online bool, node, conn string) {
	var o int
	_ = c.d.QueryRow(context.Background(), `SELECT online, node, conn_id FROM device_state WHERE device_id = ?`, id).Scan(&o, &node, &conn)
	return o == 1, node, conn
}

// send sends a soft reset through node i and waits for its end.
func (c *cluster) send(i int, id int64) (fleet.SentCommand, fleet.CommandView) {
	c.t.Helper()
	return c.sendAs(c.nodes[i].Root(), id)
}

// sendAs sends a soft reset as root (a root client of one node) and waits for its end.
func (c *cluster) sendAs(root *apitest.Client, id int64) (fleet.SentCommand, fleet.CommandView) {
	c.t.Helper()
	var res fleet.SendResult
	apitest.Must(c.t, root.Call("POST", "/api/auth/sys/dev/control/send", map[string]any{"deviceIds": []int64{id}, "controlType": fleet.CtlSoftReset})).Into(c.t, &res)
	var v fleet.CommandView
	waitFor(c.t, 20*time.Second, "command result", func() bool {
		apitest.Must(c.t, root.Call("GET", "/api/auth/sys/dev/control/detail", map[string]any{"id": res.Commands[0].ID})).Into(c.t, &v)
		return v.Result != fleet.ResultWaiting
	})
	return res.Commands[0], v
}

func waitFor(t *testing.T, bound time.Duration, what string, cond func() bool) time.Duration {
	t.Helper()
	start := time.Now()
	for end := start.Add(bound); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if cond() {
			return time.Since(start)
		}
	}
	t.Fatalf("timed out after %s: %s", bound, what)
	return 0
}

// logCapture collects what slog writes while a test runs.
type logCapture struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logCapture) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *logCapture) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

func captureLogs(t *testing.T) *logCapture {
	l := &logCapture{}
	prev := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(l, &slog.HandlerOptions{Level: slog.LevelInfo})))
	t.Cleanup(func() { slog.SetDefault(prev) })
	return l
}
