package ocpp16_test

import (
	"context"
	"testing"

	ocpp2 "github.com/lorenzodonini/ocpp-go/ocpp2.0.1"
	ocppws "github.com/lorenzodonini/ocpp-go/ws"

	"chargeops/internal/db"
	"chargeops/internal/fleet"
	"chargeops/internal/fleet/fleettest"
	"chargeops/internal/testutil"
)

// TestUnsupportedProtocolIsListed: a charger offering only a sub-protocol the gateway does not
// speak (ocpp-go's OCPP 2.0.1 charging station) is refused, and the refusal list keeps its SN,
// address and what it offered (docs/gateway.md, "Admission"); one offering both gets 1.6.
func TestUnsupportedProtocolIsListed(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		const sn = "SN-V201-ONLY"
		env, org, _ := fleettest.Node(t, d, sn)
		t.Run("an ocpp2.0.1-only charger is refused and listed with what it offered", func(t *testing.T) {
			cs := ocpp2.NewChargingStation(sn, nil, nil)
			if err := cs.Start(wsBase(env)); httpCode(err) != 400 {
				t.Fatalf("a 2.0.1-only charger: %v, want HTTP 400", err)
			}
			var protocols, addr string
			var count int64
			waitFor(t, "the refusal row", func() bool {
				err := d.QueryRow(ctx, `SELECT protocols, remote_addr, count FROM device_refusal WHERE sn = ? AND reason = ?`, sn, fleet.RefuseProtocol).
					Scan(&protocols, &addr, &count)
				return err == nil
			})
			if protocols != "ocpp2.0.1" || addr != "127.0.0.1" || count != 1 {
				t.Fatalf("refusal: protocols %q, address %q, count %d", protocols, addr, count)
			}
		})
		t.Run("a charger offering both speaks 1.6", func(t *testing.T) {
			const both = "SN-V201-BOTH"
			fleettest.Device(t, d, org, org.CustomerA, org.SiteA, both)
			client := ocppws.NewClient()
			client.SetRequestedSubProtocol("ocpp2.0.1") // first; the 1.6 charge point adds ocpp1.6
			cp, _, err := startCPWith(t, client, wsBase(env), both, "")
			if err != nil {
				t.Fatalf("offering 2.0.1 and 1.6: %v", err)
			}
			if _, err := cp.BootNotification("AC", "V"); err != nil {
				t.Fatalf("boot: %v", err)
			}
		})
	})
}
