package app_test

import (
	"bufio"
	"fmt"
	"net"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"chargeops/internal/config"
	"chargeops/internal/db"
	"chargeops/internal/fleet"
	"chargeops/internal/fleet/fleettest"
)

// slowClient sends head at once, then one byte of trickle a second, and returns how long the
// server kept the connection open (at most limit).
func slowClient(t *testing.T, addr, head, trickle string, limit time.Duration) time.Duration {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	start := time.Now()
	if _, err := c.Write([]byte(head)); err != nil {
		t.Fatal(err)
	}
	closed := make(chan struct{})
	go func() { // the server's answer (408, 400) or its close ends the connection
		r := bufio.NewReader(c)
		for {
			if _, err := r.ReadByte(); err != nil {
				close(closed)
				return
			}
		}
	}()
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for i := 0; ; i++ {
		select {
		case <-closed:
			return time.Since(start)
		case <-tick.C:
		}
		if time.Since(start) > limit {
			return limit
		}
		if _, err := c.Write([]byte{trickle[i%len(trickle)]}); err != nil {
			<-closed
			return time.Since(start)
		}
	}
}

// Slow clients on every listener (--addr and --ocpp-addr): a body sent a byte a second is cut
// after --read-timeout, headers sent a byte a second after --read-header-timeout; a WebSocket
// of a charger idle for longer than both still works, on either listener.
func TestSlowClientsAreCut(t *testing.T) {
	ocppLn, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ocppAddr := ocppLn.Addr().String()
	ocppLn.Close()
	cfg := config.Default()
	cfg.MQTTAddr = "127.0.0.1:0"  // the embedded broker on a free port, beside any broker on 1883
	cfg.RequireDeviceKeys = false // keyless test chargers
	cfg.DataDir, cfg.OCPPAddr = t.TempDir(), ocppAddr
	cfg.ReadTimeout, cfg.ReadHeaderTimeout = 2*time.Second, 2*time.Second
	n := startNode(t, cfg)
	var d *db.DB = n.app.DB
	o := fleettest.Seed(t, d)
	sns := fleettest.Devices(t, d, o, "SLOW-", 2)

	const limit = 15 * time.Second // without the timeouts the connections stay open this long and more
	for name, addr := range map[string]string{"addr": n.addr, "ocpp-addr": ocppAddr} {
		t.Run(name, func(t *testing.T) {
			path := map[string]string{"addr": "/api/auth/login", "ocpp-addr": fleet.FilesPrefix + "x"}[name]
			body := slowClient(t, addr, fmt.Sprintf("POST %s HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{", path), `"a":1,`, limit)
			if body > 6*time.Second {
				t.Fatalf("a body sent a byte a second was held open %s (read timeout 2 s)", body.Round(time.Millisecond))
			}
			head := slowClient(t, addr, "GET /healthz HTTP/1.1\r\n", "X-Slow: aaaa\r\n", limit)
			if head > 6*time.Second {
				t.Fatalf("headers sent a byte a second were held open %s (read header timeout 2 s)", head.Round(time.Millisecond))
			}
			t.Logf("%s: slow body cut after %s, slow headers after %s", name, body.Round(time.Millisecond), head.Round(time.Millisecond))
		})
	}
	// WebSockets outlive both timeouts
	type charger struct {
		ws *websocket.Conn
		at string
	}
	var cs []charger
	for i, addr := range []string{n.addr, ocppAddr} {
		ws, _, err := (&websocket.Dialer{Subprotocols: []string{"ocpp1.6"}}).Dial("ws://"+addr+"/ocpp/"+sns[i], nil)
		if err != nil {
			t.Fatal(err)
		}
		defer ws.Close()
		cs = append(cs, charger{ws, addr})
	}
	time.Sleep(5 * time.Second)
	for _, c := range cs {
		if err := c.ws.WriteMessage(websocket.TextMessage, []byte(`[2,"1","Heartbeat",{}]`)); err != nil {
			t.Fatalf("%s: a WebSocket idle past the read timeouts was cut: %v", c.at, err)
		}
		_ = c.ws.SetReadDeadline(time.Now().Add(10 * time.Second))
		_, msg, err := c.ws.ReadMessage()
		if err != nil || len(msg) < 6 || string(msg[:6]) != `[3,"1"` {
			t.Fatalf("%s: a WebSocket idle past the read timeouts did not answer: %q %v", c.at, msg, err)
		}
	}
}
