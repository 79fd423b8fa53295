package ocpp16_test

// OCPP 1.6 wire defects of issue 22 that an ocpp-go charge point (or a raw WebSocket) shows:
// DataTransfer answers, the generic "not supported" text, the default stop reason and a
// charger's own pings (docs/ocpp16.md). The malformed-frame cases are in
// e2e/tests/ocpp16-wire.test.mjs (ocpp-rpc in strict mode).

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	ocpperr "github.com/lorenzodonini/ocpp-go/ocpp"
	"github.com/lorenzodonini/ocpp-go/ocpp1.6/core"
	"github.com/lorenzodonini/ocpp-go/ocpp1.6/types"
	"github.com/lorenzodonini/ocpp-go/ocppj"
	ocppws "github.com/lorenzodonini/ocpp-go/ws"

	"chargeops/internal/config"
	"chargeops/internal/db"
	"chargeops/internal/fleet"
	"chargeops/internal/fleet/fleettest"
	"chargeops/internal/testutil"
	"chargeops/internal/testutil/apitest"
)

// noReset is a charge point that answers Reset with a NotImplemented CALLERROR.
type noReset struct{ *cpHandler }

func (noReset) OnReset(*core.ResetRequest) (*core.ResetConfirmation, error) {
	return nil, ocpperr.NewError(ocppj.NotImplemented, "reset is not implemented here", "")
}

func TestDataTransferFromAChargerNamesTheUnknownVendorOrMessage(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		env := apitest.New(t, d, func(c *config.Config) { c.DataDir = t.TempDir() })
		org := fleettest.Seed(t, d)
		fleettest.Device(t, d, org, org.CustomerA, org.SiteA, "SN-DT")
		cp, _, err := startCP(t, wsBase(env), "SN-DT", "")
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			name, vendor, message string
			want                  core.DataTransferStatus
		}{
			{"another vendor", "com.example.charger", "Hello", core.DataTransferStatusUnknownVendorId},
			{"a vendor differing only in case", "ChargeOps", "Hello", core.DataTransferStatusUnknownVendorId},
			{"chargeops with a message it does not know", "chargeops", "Hello", core.DataTransferStatusUnknownMessageId},
			{"chargeops without a message id", "chargeops", "", core.DataTransferStatusUnknownMessageId},
		} {
			t.Run(c.name, func(t *testing.T) {
				conf, err := cp.DataTransfer(c.vendor, func(r *core.DataTransferRequest) { r.MessageId = c.message })
				if err != nil {
					t.Fatal(err)
				}
				if conf.Status != c.want {
					t.Fatalf("status %s, want %s", conf.Status, c.want)
				}
			})
		}
		t.Run("the frames stay in the protocol log", func(t *testing.T) {
			waitFor(t, "DataTransfer frames logged", func() bool {
				var n int
				_ = d.QueryRow(context.Background(), `SELECT COUNT(*) FROM protocol_log WHERE sn = 'SN-DT' AND data LIKE '%DataTransfer%com.example.charger%'`).Scan(&n)
				return n == 1
			})
		})
	})
}

func TestNotImplementedResetIsNotReportedAsVPN(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		env := apitest.New(t, d, func(c *config.Config) { c.CommandTimeout, c.DataDir = 3*time.Second, t.TempDir() })
		org := fleettest.Seed(t, d)
		id := fleettest.Device(t, d, org, org.CustomerA, org.SiteA, "SN-NORESET")
		cp := fleettest.ChargePoint("SN-NORESET", ocppws.NewClient())
		cp.SetCoreHandler(noReset{&cpHandler{cp: cp, config: map[string]string{}}})
		if err := cp.Start(wsBase(env)); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(cp.Stop)
		if _, err := cp.BootNotification("AC-22", "Test"); err != nil {
			t.Fatal(err)
		}
		root := env.Root()
		waitFor(t, "online", func() bool { return online(d, id) })
		v := sendOne(t, root, id, fleet.CtlSoftReset, map[string]any{})
		if v.Result != fleet.ResultFailed {
			t.Fatalf("result %d, want failed", v.Result)
		}
		for _, c := range []struct{ locale, want string }{
			{"en-US", "Not supported by this device"},
			{"zh-CN", "该设备不支持此操作"},
		} {
			t.Run(c.locale, func(t *testing.T) {
				root.Locale = c.locale
				var got fleet.CommandView
				apitest.Must(t, root.Call("GET", "/api/auth/sys/dev/control/detail", map[string]any{"id": v.ID})).Into(t, &got)
				if got.Message != c.want {
					t.Fatalf("message %q, want %q", got.Message, c.want)
				}
			})
		}
	})
}

func TestStopTransactionWithoutReasonIsLocal(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		env := apitest.New(t, d, func(c *config.Config) { c.DataDir = t.TempDir() })
		org := fleettest.Seed(t, d)
		fleettest.Device(t, d, org, org.CustomerA, org.SiteA, "SN-STOP")
		cp, _, err := startCP(t, wsBase(env), "SN-STOP", "")
		if err != nil {
			t.Fatal(err)
		}
		for i, c := range []struct {
			name   string
			reason core.Reason
			want   string
		}{
			{"no reason", "", "Local"},
			{"a reason given", core.ReasonEVDisconnected, "EVDisconnected"},
		} {
			t.Run(c.name, func(t *testing.T) {
				// A start of its own (the same start again is a replay of the first).
				ts := types.NewDateTime(time.Now().Add(time.Duration(i-5) * time.Minute).Truncate(time.Second))
				st, err := cp.StartTransaction(1, "TAG1", 1000, ts)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := cp.StopTransaction(1500, types.NewDateTime(time.Now()), st.TransactionId, func(r *core.StopTransactionRequest) { r.Reason = c.reason }); err != nil {
					t.Fatal(err)
				}
				var reason string
				if err := d.QueryRow(context.Background(), `SELECT reason FROM device_transaction WHERE id = ?`, st.TransactionId).Scan(&reason); err != nil {
					t.Fatal(err)
				}
				if reason != c.want {
					t.Fatalf("reason %q, want %q", reason, c.want)
				}
			})
		}
	})
}

// TestChargerPingsAreLife: a charger that keeps its socket alive with its own WebSocket pings
// (and never answers the gateway's) stays connected past the read deadline (2 heartbeat
// intervals + the ping interval = 3 s here), gets its pongs, and its last-seen time moves on
// (the gateway refreshes it at most every 15 s).
func TestChargerPingsAreLife(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		env := apitest.New(t, d, func(c *config.Config) {
			c.DataDir, c.OCPPHeartbeat, c.OCPPPingInterval = t.TempDir(), time.Second, time.Second
		})
		org := fleettest.Seed(t, d)
		id := fleettest.Device(t, d, org, org.CustomerA, org.SiteA, "SN-PINGS")
		ws, _, err := dialRaw(wsBase(env), "SN-PINGS", "", "")
		if err != nil {
			t.Fatal(err)
		}
		defer ws.Close()
		ws.SetPingHandler(func(string) error { return nil }) // the gateway's pings go unanswered
		pongs := make(chan struct{}, 64)
		ws.SetPongHandler(func(string) error {
			select {
			case pongs <- struct{}{}:
			default:
			}
			return nil
		})
		frames := make(chan []byte, 16)
		closed := make(chan struct{})
		go func() {
			defer close(closed)
			for {
				_, data, err := ws.ReadMessage()
				if err != nil {
					return
				}
				frames <- data
			}
		}()
		var connected, first int64
		waitFor(t, "connection recorded", func() bool {
			return d.QueryRow(context.Background(), `SELECT connected_at, last_seen_at FROM device_state WHERE device_id = ? AND online = 1`, id).Scan(&connected, &first) == nil
		})
		deadline := time.Now().Add(30 * time.Second)
		ticker := time.NewTicker(300 * time.Millisecond)
		defer ticker.Stop()
		for refreshed := false; !refreshed; {
			select {
			case <-closed:
				t.Fatalf("the gateway closed a socket kept alive by the charger's pings after %s", time.Since(time.UnixMilli(connected)))
			case <-ticker.C:
			}
			if time.Now().After(deadline) {
				t.Fatal("last seen never moved on while the charger pinged")
			}
			if err := ws.WriteControl(websocket.PingMessage, []byte("alive"), time.Now().Add(time.Second)); err != nil {
				t.Fatalf("ping: %v", err)
			}
			var last int64
			_ = d.QueryRow(context.Background(), `SELECT last_seen_at FROM device_state WHERE device_id = ?`, id).Scan(&last)
			refreshed = last > first
		}
		t.Run("pongs answer the pings", func(t *testing.T) {
			select {
			case <-pongs:
			case <-time.After(5 * time.Second):
				t.Fatal("no pong")
			}
		})
		t.Run("the socket still carries calls", func(t *testing.T) {
			if err := ws.WriteMessage(websocket.TextMessage, []byte(`[2,"hb-1","Heartbeat",{}]`)); err != nil {
				t.Fatal(err)
			}
			select {
			case data := <-frames:
				var f []json.RawMessage
				if json.Unmarshal(data, &f) != nil || len(f) != 3 || string(f[0]) != "3" || string(f[1]) != `"hb-1"` {
					t.Fatalf("answer %s", data)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("no answer to Heartbeat")
			}
		})
	})
}

func online(d *db.DB, id int64) bool {
	var n int
	_ = d.QueryRow(context.Background(), `SELECT COUNT(*) FROM device_state WHERE device_id = ? AND online = 1`, id).Scan(&n)
	return n == 1
}
