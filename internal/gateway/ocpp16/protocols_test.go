package ocpp16_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/gorilla/websocket"
	ocppws "github.com/lorenzodonini/ocpp-go/ws"

	"chargeops/internal/db"
	"chargeops/internal/fleet"
	"chargeops/internal/fleet/fleettest"
	"chargeops/internal/testutil"
)

// TestSubProtocolNegotiation: the sub-protocol a charger gets (docs/gateway.md, "Admission"):
// on auto the newest both sides speak (ocpp2.0.1 when it offers both), on a device set to one
// only that one; a charger offering none the gateway speaks, or not the one its device is set
// to, is refused, and the refusal list keeps its SN, address and what it offered.
func TestSubProtocolNegotiation(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		const sn = "SN-PROTO-1"
		env, _, id := fleettest.Node(t, d, sn)
		// dial offers protocols as sn and returns the chosen one, or the HTTP status of a refusal.
		dial := func(t *testing.T, sn string, protocols ...string) (string, int) {
			t.Helper()
			ws, resp, err := (&websocket.Dialer{Subprotocols: protocols}).Dial(wsBase(env)+"/"+sn, nil)
			if err != nil {
				if resp == nil {
					t.Fatal(err)
				}
				return "", resp.StatusCode
			}
			defer ws.Close()
			return ws.Subprotocol(), http.StatusSwitchingProtocols
		}
		refusal := func(t *testing.T, sn string) (protocols string, count int64) {
			t.Helper()
			var addr string
			testutil.Eventually(t, "the refusal row of "+sn, func() bool {
				err := d.QueryRow(ctx, `SELECT protocols, remote_addr, count FROM device_refusal WHERE sn = ? AND reason = ?`, sn, fleet.RefuseProtocol).
					Scan(&protocols, &addr, &count)
				return err == nil
			})
			if addr != "127.0.0.1" {
				t.Fatalf("refusal address %q", addr)
			}
			return protocols, count
		}
		setProtocol := func(t *testing.T, p string) {
			t.Helper()
			if _, err := d.Exec(ctx, `UPDATE device SET ocpp_protocol = ? WHERE id = ?`, p, id); err != nil {
				t.Fatal(err)
			}
		}

		t.Run("auto: a charger offering both gets ocpp2.0.1, one offering 1.6 or nothing gets ocpp1.6", func(t *testing.T) {
			if p, code := dial(t, sn, "ocpp1.6", "ocpp2.0.1"); p != "ocpp2.0.1" {
				t.Fatalf("offering both: %q (HTTP %d)", p, code)
			}
			if p, code := dial(t, sn, "ocpp1.6"); p != "ocpp1.6" {
				t.Fatalf("offering 1.6: %q (HTTP %d)", p, code)
			}
			if p, code := dial(t, sn); p != "" || code != http.StatusSwitchingProtocols {
				t.Fatalf("offering none: %q (HTTP %d), want admitted as 1.6 without a header", p, code)
			}
		})
		t.Run("an unknown sub-protocol is refused and listed with what it offered", func(t *testing.T) {
			if _, code := dial(t, "SN-PROTO-X", "ocpp2.1", "ocpp3"); code != http.StatusBadRequest {
				t.Fatalf("HTTP %d, want 400", code)
			}
			if protocols, n := refusal(t, "SN-PROTO-X"); protocols != "ocpp2.1,ocpp3" || n != 1 {
				t.Fatalf("refusal: %q ×%d", protocols, n)
			}
		})
		t.Run("a device set to 1.6 speaks 1.6 with a charger offering both (ocpp-go's 1.6 charge point)", func(t *testing.T) {
			setProtocol(t, "ocpp1.6")
			client := ocppws.NewClient()
			client.SetRequestedSubProtocol("ocpp2.0.1") // first; the 1.6 charge point adds ocpp1.6
			cp, h, err := startCPWith(t, client, wsBase(env), sn, "")
			if err != nil {
				t.Fatalf("offering 2.0.1 and 1.6: %v", err)
			}
			if _, err := cp.BootNotification("AC", "V"); err != nil {
				t.Fatalf("boot: %v", err)
			}
			h.stop()
		})
		t.Run("a device set to 2.0.1 refuses a 1.6-only charger", func(t *testing.T) {
			setProtocol(t, "ocpp2.0.1")
			if _, code := dial(t, sn, "ocpp1.6"); code != http.StatusBadRequest {
				t.Fatalf("HTTP %d, want 400", code)
			}
			if protocols, _ := refusal(t, sn); protocols != "ocpp1.6" {
				t.Fatalf("refusal: %q", protocols)
			}
			if p, _ := dial(t, sn, "ocpp1.6", "ocpp2.0.1"); p != "ocpp2.0.1" {
				t.Fatalf("offering both: %q", p)
			}
		})
	})
}
