package ocpp16_test

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/lorenzodonini/ocpp-go/ocpp1.6/core"
	ocppws "github.com/lorenzodonini/ocpp-go/ws"

	"chargeops/internal/db"
	"chargeops/internal/fleet"
	"chargeops/internal/fleet/fleettest"
	"chargeops/internal/gateway/ocpp16"
	"chargeops/internal/testutil"
	"chargeops/internal/testutil/apitest"
)

// TestSecurityProfile2OverTLS connects a profile-2 charger (HTTP Basic over TLS) to a gateway
// served with a real certificate, as the separate --ocpp-addr listener does.
func TestSecurityProfile2OverTLS(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		env := apitest.New(t, d, nil)
		org := fleettest.Seed(t, d)
		const sn, key = "SN-TLS-2", "tlsKey0000002"
		id := fleettest.Device(t, d, org, org.CustomerA, org.SiteA, sn)
		fleettest.Secure(t, d, id, env.App.Fleet.HashAuthKey(sn, key), 2)
		mux := http.NewServeMux()
		mux.Handle(ocpp16.Path, env.App.Gateway)
		srv := httptest.NewUnstartedServer(mux)
		srv.StartTLS()
		t.Cleanup(srv.Close)
		pool := x509.NewCertPool()
		pool.AddCert(srv.Certificate())
		base := "wss" + strings.TrimPrefix(srv.URL, "https") + "/ocpp"
		tlsClient := func() *ocppws.Client { return ocppws.NewTLSClient(&tls.Config{RootCAs: pool}) }

		if _, _, err := startCPWith(t, tlsClient(), base, sn, "wrongKey00000"); httpCode(err) != 401 {
			t.Fatalf("wrong key over TLS: %v", err)
		}
		cp, _, err := startCPWith(t, tlsClient(), base, sn, key)
		if err != nil {
			t.Fatalf("profile 2 over TLS refused: %v", err)
		}
		boot, err := cp.BootNotification("AC-22", "Test")
		if err != nil || boot.Status != core.RegistrationStatusAccepted {
			t.Fatalf("boot over TLS: %+v %v", boot, err)
		}
		waitFor(t, "online over TLS", func() bool {
			var st int
			_ = d.QueryRow(context.Background(), `SELECT status FROM device WHERE id = ?`, id).Scan(&st)
			return st == fleet.StatusIdle
		})
	})
}
