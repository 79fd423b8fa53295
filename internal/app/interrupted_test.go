package app_test

import (
	"context"
	"encoding/json"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/fleet"
	"chargeops/internal/fleet/fleettest"
	"chargeops/internal/testutil"
	"chargeops/internal/testutil/apitest"
)

// answerResets is a charger (raw OCPP-J frames) that accepts every Reset the server sends.
func answerResets(t *testing.T, url string) {
	t.Helper()
	ws, _, err := (&websocket.Dialer{Subprotocols: []string{"ocpp1.6"}}).Dial(url, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	go func() {
		for {
			_, msg, err := ws.ReadMessage()
			if err != nil {
				return
			}
			var call []json.RawMessage
			if json.Unmarshal(msg, &call) != nil || len(call) < 3 || string(call[0]) != "2" || string(call[2]) != `"Reset"` {
				continue
			}
			if err := ws.WriteMessage(websocket.TextMessage, []byte(`[3,`+string(call[1])+`,{"status":"Accepted"}]`)); err != nil {
				return
			}
		}
	}()
}

// Commands in flight when a node was killed (rows still waiting, sent by this node and by a
// node name of an earlier process): while they wait, the device is busy; when the node starts
// serving, they end at once as failed with err.command_interrupted ("Interrupted: the node that
// sent it stopped ..."), in both languages, and a new command to the device is accepted and
// runs.
func TestRestartEndsInterruptedCommands(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		env := apitest.New(t, d, nil)
		root := env.Root()
		o := fleettest.Seed(t, d)
		sns := fleettest.Devices(t, d, o, "INTR-", 2)
		ids := make([]int64, len(sns))
		now := db.NowMS()
		for i, sn := range sns {
			if err := d.QueryRow(ctx, `SELECT id FROM device WHERE sn = ?`, sn).Scan(&ids[i]); err != nil {
				t.Fatal(err)
			}
			node := []string{env.App.Fleet.Options().Node, "host-4242"}[i] // this node; an earlier process's name
			if _, err := d.Exec(ctx, `INSERT INTO command (device_id, sn, control_type, params, result, batch_id, user_id, user_name, deadline_at, created_at, node)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, ids[i], sn, 1, `{}`, fleet.ResultWaiting, "killed", 1, "root", now+30_000, now-1000, node); err != nil {
				t.Fatal(err)
			}
			answerResets(t, "ws"+strings.TrimPrefix(env.URL, "http")+"/ocpp/"+sn)
		}
		for _, sn := range sns {
			for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
				if _, ok := env.App.Fleet.Registry.Lookup(sn); ok {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("%s did not connect", sn)
				}
			}
		}
		send := func() fleet.SentCommand {
			var s struct {
				Commands []fleet.SentCommand `json:"commands"`
			}
			a := root.Call("POST", "/api/auth/sys/dev/control/send", map[string]any{"deviceIds": ids[:1], "controlType": 1, "params": map[string]any{}})
			if a.Code == apperr.DeviceBusy { // one device: the refusal is the answer's
				return fleet.SentCommand{Code: a.Code, Message: a.Message}
			}
			if len(a.Data) > 0 && string(a.Data) != "null" {
				a.Into(t, &s)
			}
			if len(s.Commands) != 1 {
				t.Fatalf("control/send: %d %s %s", a.Code, a.Message, a.Data)
			}
			return s.Commands[0]
		}
		if c := send(); c.Code != apperr.DeviceBusy {
			t.Fatalf("before the restart sweep the device should be busy with the killed command: %+v", c)
		}

		// the node starts serving: its start ends what it had in flight
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		sctx, stop := context.WithCancel(ctx)
		served := make(chan error, 1)
		started := time.Now()
		go func() { served <- env.App.Serve(sctx, ln) }()
		defer func() { stop(); <-served }()
		var waiting int
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
			if err := d.QueryRow(ctx, `SELECT COUNT(*) FROM command WHERE batch_id = 'killed' AND result = ?`, fleet.ResultWaiting).Scan(&waiting); err != nil {
				t.Fatal(err)
			}
			if waiting == 0 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%d interrupted commands still waiting 10 s after the start", waiting)
			}
		}
		ended := time.Since(started)
		for i, id := range ids {
			var result int
			var message string
			var finished int64
			if err := d.QueryRow(ctx, `SELECT result, message, finished_at FROM command WHERE device_id = ? AND batch_id = 'killed'`, id).Scan(&result, &message, &finished); err != nil {
				t.Fatal(err)
			}
			if result != fleet.ResultFailed || message != "err.command_interrupted" || finished < now {
				t.Fatalf("device %d: interrupted command ended with result %d, message %q, finished at %d", i, result, message, finished)
			}
		}
		var listed struct {
			List []fleet.CommandView `json:"list"`
		}
		for lang, want := range map[string]string{"en-US": "Interrupted: the node that sent it stopped before the device answered", "zh-CN": "已中断：发送命令的节点在设备应答前已停止"} {
			root.Locale = lang
			apitest.Must(t, root.Call("POST", "/api/auth/sys/dev/control/list", map[string]any{"deviceId": ids[0], "page": 1, "pageSize": 10})).Into(t, &listed)
			found := false
			for _, c := range listed.List {
				found = found || (c.BatchID == "killed" && c.Message == want)
			}
			if !found {
				t.Fatalf("%s: the command list does not show the interrupted command as %q: %+v", lang, want, listed.List)
			}
		}
		root.Locale = ""

		c := send()
		if c.Code != 0 || c.Result != fleet.ResultWaiting {
			t.Fatalf("a new command after the restart was not accepted: %+v", c)
		}
		var result int
		for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(30 * time.Millisecond) {
			if err := d.QueryRow(ctx, `SELECT result FROM command WHERE id = ?`, c.ID).Scan(&result); err != nil {
				t.Fatal(err)
			}
			if result != fleet.ResultWaiting || time.Now().After(deadline) {
				break
			}
		}
		if result != fleet.ResultSuccess {
			t.Fatalf("the new command ended with result %d", result)
		}
		t.Logf("%s: 2 interrupted commands ended %s after the start; the device took a new command at once", d.Dialect(), ended.Round(time.Millisecond))
	})
}
