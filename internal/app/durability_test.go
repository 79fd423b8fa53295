package app_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	ocpp "github.com/lorenzodonini/ocpp-go/ocpp1.6"
	"github.com/lorenzodonini/ocpp-go/ocpp1.6/core"
	"github.com/lorenzodonini/ocpp-go/ocpp1.6/types"
	ocppws "github.com/lorenzodonini/ocpp-go/ws"

	"chargeops/internal/app"
	"chargeops/internal/config"
	"chargeops/internal/db"
	"chargeops/internal/fleet"
	"chargeops/internal/fleet/fleettest"
	"chargeops/internal/testutil"
)

// The child-process server of the durability test: the test binary re-runs itself with these
// variables set and serves until it is killed.
const (
	childDSN  = "CHARGEOPS_CHILD_DSN"
	childDir  = "CHARGEOPS_CHILD_DIR"
	childAddr = "CHARGEOPS_CHILD_ADDR"
	// childGrace, when set, is the child's --shutdown-grace
	childGrace = "CHARGEOPS_CHILD_GRACE"
	// childLease, when set, is the child's --load-lease-ttl
	childLease = "CHARGEOPS_CHILD_LEASE"
)

func TestMain(m *testing.M) {
	if addr := os.Getenv(childAddr); addr != "" {
		if err := serveChild(addr, os.Getenv(childDSN), os.Getenv(childDir)); err != nil {
			fmt.Fprintln(os.Stderr, "child server:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func serveChild(addr, dsn, dir string) error {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	cfg := config.Default()
	cfg.RequireDeviceKeys = false // keyless test chargers
	cfg.DB, cfg.DataDir, cfg.Captcha, cfg.Addr = dsn, dir, false, addr
	cfg.MQTTAddr = "127.0.0.1:0" // several children at once, beside a broker on 1883
	if g, err := time.ParseDuration(os.Getenv(childGrace)); err == nil {
		cfg.ShutdownGrace = g
	}
	if l, err := time.ParseDuration(os.Getenv(childLease)); err == nil {
		cfg.LoadLeaseTTL = l
	}
	d, err := app.OpenDB(ctx, cfg)
	if err != nil {
		return err
	}
	defer d.Close()
	a, err := app.New(ctx, cfg, d, nil)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	return a.Serve(ctx, ln)
}

// child is a chargeops server process.
type child struct {
	cmd    *exec.Cmd
	addr   string
	exited chan struct{} // closed when it has exited (cmd.ProcessState is set)
}

// startChild starts a chargeops server in another process on the test's database and waits
// until it answers.
func startChild(t *testing.T, at testutil.Where, env ...string) *child {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childAddr+"="+addr, childDSN+"="+at.DSN, childDir+"="+at.DataDir, "CHARGEOPS_LOG_LEVEL=error")
	cmd.Env = append(cmd.Env, env...)
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }() // sets cmd.ProcessState
	t.Cleanup(func() { _ = cmd.Process.Kill(); <-exited })
	for deadline := time.Now().Add(20 * time.Second); ; {
		select {
		case <-exited:
			t.Fatal("the child server exited")
		default:
		}
		if r, err := http.Get("http://" + addr + "/healthz"); err == nil {
			r.Body.Close()
			if r.StatusCode == http.StatusOK {
				return &child{cmd, addr, exited}
			}
		}
		if time.Now().After(deadline) {
			t.Fatal("the child server did not start")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// acked is what the chargers saw acknowledged: the server promised these are stored.
type acked struct {
	mu      sync.Mutex
	started map[int]startedTx // transaction id → its start
	stopped map[int]bool
	meter   []meterAck
}

type startedTx struct {
	sn        string
	connector int
	at        time.Time
}

type meterAck struct {
	sn        string
	connector int
	at        time.Time
}

// charge runs sessions on one charger until the server goes away: start, meter values with
// the transaction, stop; every acknowledged message is noted.
func charge(cp ocpp.ChargePoint, sn string, base time.Time, a *acked) {
	if _, err := cp.BootNotification("Durability", "Test"); err != nil {
		return
	}
	tick := 0
	next := func() time.Time { tick++; return base.Add(time.Duration(tick) * time.Second) }
	for {
		at := next()
		st, err := cp.StartTransaction(1, "TAG", 1000, types.NewDateTime(at))
		if err != nil {
			return
		}
		a.mu.Lock()
		a.started[st.TransactionId] = startedTx{sn, 1, at}
		a.mu.Unlock()
		for range 5 {
			at := next()
			txID := st.TransactionId
			_, err := cp.MeterValues(1, []types.MeterValue{{Timestamp: types.NewDateTime(at), SampledValue: []types.SampledValue{
				{Value: "230.1", Measurand: types.MeasurandVoltage, Unit: types.UnitOfMeasureV},
				{Value: "7100", Measurand: types.MeasurandPowerActiveImport, Unit: types.UnitOfMeasureW}}}},
				func(r *core.MeterValuesRequest) { r.TransactionId = &txID })
			if err != nil {
				return
			}
			a.mu.Lock()
			a.meter = append(a.meter, meterAck{sn, 1, at})
			a.mu.Unlock()
		}
		if _, err := cp.StopTransaction(2000, types.NewDateTime(next()), st.TransactionId); err != nil {
			return
		}
		a.mu.Lock()
		a.stopped[st.TransactionId] = true
		a.mu.Unlock()
	}
}

// SIGKILL under load: every transaction message a charger saw acknowledged is in the database
// (its start, its meter values, its stop), and the server starts again on that database.
func TestSIGKILLUnderLoadLosesNothingAcknowledged(t *testing.T) {
	testutil.ForEachDBAt(t, func(t *testing.T, d *db.DB, at testutil.Where) {
		ctx := context.Background()
		o := fleettest.Seed(t, d)
		sns := fleettest.Devices(t, d, o, "KILL-", 30)
		srv := startChild(t, at)
		cmd, addr := srv.cmd, srv.addr

		a := &acked{started: map[int]startedTx{}, stopped: map[int]bool{}}
		base := time.Now().Add(-time.Hour).Truncate(time.Second)
		for i, sn := range sns {
			cp := fleettest.ChargePoint(sn, ocppws.NewClient())
			if err := cp.Start("ws://" + addr + "/ocpp"); err != nil {
				t.Fatalf("%s: %v", sn, err)
			}
			defer cp.Stop()
			go charge(cp, sn, base.Add(time.Duration(i)*time.Hour/100), a)
		}
		// under load: kill once enough is acknowledged (a busy machine takes longer to get there)
		for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
			a.mu.Lock()
			enough := len(a.started) >= 30 && len(a.meter) >= 100
			a.mu.Unlock()
			if enough || time.Now().After(deadline) {
				break
			}
		}
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		// nothing is acknowledged after the kill: what the chargers noted (a moment to note the
		// last answers) is final; their pending calls wait for a server that is gone
		time.Sleep(200 * time.Millisecond)
		a.mu.Lock()
		defer a.mu.Unlock()
		if len(a.started) < 30 || len(a.meter) < 100 {
			t.Fatalf("too little load before the kill: %d starts, %d meter values", len(a.started), len(a.meter))
		}
		ids := map[string]int64{}
		for _, sn := range sns {
			var id int64
			if err := d.QueryRow(ctx, `SELECT id FROM device WHERE sn = ?`, sn).Scan(&id); err != nil {
				t.Fatal(err)
			}
			ids[sn] = id
		}
		for txID, st := range a.started {
			var stoppedAt int64
			err := d.QueryRow(ctx, `SELECT stopped_at FROM device_transaction WHERE id = ? AND device_id = ? AND connector_id = ? AND started_at = ?`,
				txID, ids[st.sn], st.connector, st.at.UnixMilli()).Scan(&stoppedAt)
			if err != nil {
				t.Fatalf("acknowledged start of transaction %d lost: %v", txID, err)
			}
			if a.stopped[txID] && stoppedAt == 0 {
				t.Fatalf("acknowledged stop of transaction %d lost", txID)
			}
		}
		for _, m := range a.meter {
			var n int
			if err := d.QueryRow(ctx, `SELECT COUNT(*) FROM device_series WHERE device_id = ? AND connector_id = ? AND ts = ? AND name IN ('Voltage', 'Power.Active.Import')`,
				ids[m.sn], m.connector, m.at.UnixMilli()).Scan(&n); err != nil || n != 2 {
				t.Fatalf("acknowledged meter values of %s at %s: %d of 2 stored (%v)", m.sn, m.at, n, err)
			}
		}
		t.Logf("%s: killed after %d acknowledged starts, %d stops, %d meter values; all stored", d.Dialect(), len(a.started), len(a.stopped), len(a.meter))

		// and it starts again on what the kill left
		addr = startChild(t, at).addr
		cp := fleettest.ChargePoint(sns[0], ocppws.NewClient())
		if err := cp.Start("ws://" + addr + "/ocpp"); err != nil {
			t.Fatal(err)
		}
		defer cp.Stop()
		if _, err := cp.BootNotification("Durability", "Test"); err != nil {
			t.Fatalf("boot after the restart: %v", err)
		}
	})
}

// SIGTERM under load: every charger gets a close frame, what was queued is committed (every
// frame a charger saw answered is in the protocol log), and the process exits within 10 s.
func TestSIGTERMUnderLoadClosesFlushesAndExits(t *testing.T) {
	testutil.ForEachDBAt(t, func(t *testing.T, d *db.DB, at testutil.Where) {
		ctx := context.Background()
		o := fleettest.Seed(t, d)
		sns := fleettest.Devices(t, d, o, "TERM-", 50)
		srv := startChild(t, at)
		dialer := websocket.Dialer{Subprotocols: []string{"ocpp1.6"}}
		var answered atomic.Int64
		closes := make(chan int, len(sns))
		for _, sn := range sns {
			ws, _, err := dialer.Dial("ws://"+srv.addr+"/ocpp/"+sn, nil)
			if err != nil {
				t.Fatalf("%s: %v", sn, err)
			}
			defer ws.Close()
			go func() {
				for i := 0; ; i++ {
					frame := fmt.Sprintf(`[2,"%d","MeterValues",{"connectorId":1,"meterValue":[{"timestamp":"%s","sampledValue":[{"value":"%d","measurand":"Voltage"}]}]}]`,
						i, time.Now().UTC().Format(time.RFC3339Nano), i)
					if err := ws.WriteMessage(websocket.TextMessage, []byte(frame)); err != nil {
						return
					}
					if _, _, err := ws.ReadMessage(); err != nil {
						code := -1
						var ce *websocket.CloseError
						if errors.As(err, &ce) {
							code = ce.Code
						}
						closes <- code
						return
					}
					answered.Add(1)
				}
			}()
		}
		time.Sleep(1500 * time.Millisecond)
		start := time.Now()
		if err := srv.cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		for range sns {
			select {
			case code := <-closes:
				if code != websocket.CloseNormalClosure {
					t.Fatalf("a charger's connection ended with %d, not a close frame", code)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("a charger got no close frame within 10 s")
			}
		}
		select {
		case <-srv.exited:
		case <-time.After(10*time.Second - time.Since(start)):
			t.Fatal("the server did not exit within 10 s")
		}
		took := time.Since(start)
		if !srv.cmd.ProcessState.Success() {
			t.Fatalf("the server exited with %v", srv.cmd.ProcessState)
		}
		var received, sent int64
		if err := d.QueryRow(ctx, `SELECT COUNT(*) FROM protocol_log WHERE type = ? AND sn LIKE 'TERM-%'`, fleet.LogReceived).Scan(&received); err != nil {
			t.Fatal(err)
		}
		if err := d.QueryRow(ctx, `SELECT COUNT(*) FROM protocol_log WHERE type = ? AND sn LIKE 'TERM-%'`, fleet.LogSent).Scan(&sent); err != nil {
			t.Fatal(err)
		}
		if n := answered.Load(); n < 500 || received < n || sent < n {
			t.Fatalf("%d answers seen, %d received and %d sent frames logged", n, received, sent)
		}
		t.Logf("%s: %d answers under load; SIGTERM → exit in %s; %d received and %d sent frames logged", d.Dialect(), answered.Load(), took.Round(time.Millisecond), received, sent)
	})
}

// SIGTERM while a request runs past the shutdown grace (a body trickling a byte a second): the
// chargers' queued frames are committed first (every answered frame in the protocol log, every
// charger's disconnect stored), then the request is cut at the grace, and the process exits 0.
func TestSIGTERMWithLongRequestFlushesAndExits0(t *testing.T) {
	testutil.ForEachDBAt(t, func(t *testing.T, d *db.DB, at testutil.Where) {
		ctx := context.Background()
		o := fleettest.Seed(t, d)
		sns := fleettest.Devices(t, d, o, "LONG-", 20)
		const grace = 3 * time.Second
		srv := startChild(t, at, childGrace+"="+grace.String())
		dialer := websocket.Dialer{Subprotocols: []string{"ocpp1.6"}}
		var answered atomic.Int64
		for _, sn := range sns {
			ws, _, err := dialer.Dial("ws://"+srv.addr+"/ocpp/"+sn, nil)
			if err != nil {
				t.Fatalf("%s: %v", sn, err)
			}
			defer ws.Close()
			go func() {
				for i := 0; ; i++ {
					frame := fmt.Sprintf(`[2,"%d","MeterValues",{"connectorId":1,"meterValue":[{"timestamp":"%s","sampledValue":[{"value":"%d","measurand":"Voltage"}]}]}]`,
						i, time.Now().UTC().Format(time.RFC3339Nano), i)
					if ws.WriteMessage(websocket.TextMessage, []byte(frame)) != nil {
						return
					}
					if _, _, err := ws.ReadMessage(); err != nil {
						return
					}
					answered.Add(1)
				}
			}()
		}
		// the long request: a body of 100,000 bytes sent a byte a second (its read deadline,
		// 30 s + 12 s, is far past the grace)
		long, err := net.Dial("tcp", srv.addr)
		if err != nil {
			t.Fatal(err)
		}
		defer long.Close()
		if _, err := long.Write([]byte("POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{")); err != nil {
			t.Fatal(err)
		}
		go func() {
			for range time.Tick(time.Second) {
				if _, err := long.Write([]byte(" ")); err != nil {
					return
				}
			}
		}()
		time.Sleep(1500 * time.Millisecond)
		start := time.Now()
		if err := srv.cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		select {
		case <-srv.exited:
		case <-time.After(grace + 15*time.Second):
			t.Fatal("the server did not exit within the grace and 15 s")
		}
		took := time.Since(start)
		if !srv.cmd.ProcessState.Success() {
			t.Fatalf("the server exited with %v after %s", srv.cmd.ProcessState, took.Round(time.Millisecond))
		}
		if took < grace {
			t.Fatalf("the server exited after %s, before the long request's grace of %s", took.Round(time.Millisecond), grace)
		}
		var received, sent, online int64
		if err := d.QueryRow(ctx, `SELECT COUNT(*) FROM protocol_log WHERE type = ? AND sn LIKE 'LONG-%'`, fleet.LogReceived).Scan(&received); err != nil {
			t.Fatal(err)
		}
		if err := d.QueryRow(ctx, `SELECT COUNT(*) FROM protocol_log WHERE type = ? AND sn LIKE 'LONG-%'`, fleet.LogSent).Scan(&sent); err != nil {
			t.Fatal(err)
		}
		if err := d.QueryRow(ctx, `SELECT COUNT(*) FROM device_state s JOIN device d ON d.id = s.device_id WHERE s.online = 1 AND d.sn LIKE 'LONG-%'`).Scan(&online); err != nil {
			t.Fatal(err)
		}
		if n := answered.Load(); n < 200 || received < n || sent < n || online != 0 {
			t.Fatalf("%d answers seen, %d received and %d sent frames logged, %d chargers still online", n, received, sent, online)
		}
		t.Logf("%s: SIGTERM with a request running → exit 0 after %s (grace %s); %d answers, %d received and %d sent frames logged, every disconnect stored",
			d.Dialect(), took.Round(time.Millisecond), grace, answered.Load(), received, sent)
	})
}
