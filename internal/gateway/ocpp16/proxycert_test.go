package ocpp16_test

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"testing"

	"github.com/lorenzodonini/ocpp-go/ocpp1.6/core"
	ocppws "github.com/lorenzodonini/ocpp-go/ws"

	"chargeops/internal/config"
	"chargeops/internal/db"
	"chargeops/internal/fleet"
	"chargeops/internal/fleet/fleettest"
	"chargeops/internal/gateway/ocpp16"
	"chargeops/internal/testutil"
	"chargeops/internal/testutil/apitest"
	"chargeops/internal/tlsconf/tlstest"
)

// TestClientCertificateFromTrustedProxy: behind a TLS-terminating proxy, a profile-3 charger's
// certificate arrives in --ocpp-client-cert-header, and counts only from --ocpp-trusted-proxies.
// The test's own loopback connections play the proxy (docs/security-profiles.md, "Behind a proxy").
func TestClientCertificateFromTrustedProxy(t *testing.T) {
	t.Parallel()
	const header = "X-SSL-Client-Cert"
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		ca := tlstest.NewCA(t, "Charge point CA")
		caFile := ca.WriteFile(t, t.TempDir(), "cpca")
		env := apitest.New(t, d, func(c *config.Config) {
			c.OCPPClientCA, c.OCPPClientCertHeader, c.OCPPTrustedProxies, c.RequireDeviceKeys = caFile, header, "127.0.0.0/8", true
		})
		org := fleettest.Seed(t, d)
		// nginx's $ssl_client_escaped_cert: the URL-escaped PEM
		nginx := func(c tls.Certificate) string {
			return url.QueryEscape(string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: c.Certificate[0]})))
		}
		viaProxy := func(value string) *ocppws.Client {
			c := ocppws.NewClient()
			c.SetHeaderValue(header, value)
			return c
		}
		device := func(t *testing.T, sn string) int64 {
			t.Helper()
			id := fleettest.Device(t, d, org, org.CustomerA, org.SiteA, sn)
			fleettest.Secure(t, d, id, "", fleet.ProfileCertificate)
			return id
		}
		refused := func(t *testing.T, sn, reason string) {
			t.Helper()
			waitFor(t, sn+" refused for "+reason, func() bool {
				var n int
				_ = d.QueryRow(ctx, `SELECT COUNT(*) FROM device_refusal WHERE sn = ? AND reason = ?`, sn, reason).Scan(&n)
				return n > 0
			})
		}

		t.Run("the certificate a trusted proxy passes on proves profile 3", func(t *testing.T) {
			const sn = "SN-PROXY-OK"
			device(t, sn)
			cp, _, err := startCPWith(t, viaProxy(nginx(ca.IssueNow(t, sn))), wsBase(env), sn, "")
			if err != nil {
				t.Fatalf("profile 3 through the proxy refused: %v", err)
			}
			if boot, err := cp.BootNotification("AC-22", "Test"); err != nil || boot.Status != core.RegistrationStatusAccepted {
				t.Fatalf("boot: %+v %v", boot, err)
			}
		})
		t.Run("another SN's certificate through the proxy is refused", func(t *testing.T) {
			const sn = "SN-PROXY-WRONGSN"
			device(t, sn)
			if _, _, err := startCPWith(t, viaProxy(nginx(ca.IssueNow(t, "SN-PROXY-OK"))), wsBase(env), sn, ""); httpCode(err) != 401 {
				t.Fatalf("another SN's certificate: %v", err)
			}
			refused(t, sn, fleet.RefuseCertIdentity)
		})
		t.Run("the header from an address that is not a trusted proxy is ignored", func(t *testing.T) {
			const sn = "SN-PROXY-SPOOF"
			device(t, sn)
			pool := x509.NewCertPool()
			pool.AddCert(ca.Cert)
			gw := ocpp16.New(env.App.Fleet, ocpp16.Options{ClientCAs: pool, CertHeader: header,
				CertProxies: []netip.Prefix{netip.MustParsePrefix("192.0.2.0/24")}})
			mux := http.NewServeMux()
			mux.Handle(ocpp16.Path, gw)
			srv := httptest.NewServer(mux)
			t.Cleanup(srv.Close)
			base := "ws" + strings.TrimPrefix(srv.URL, "http") + "/ocpp"
			if _, _, err := startCPWith(t, viaProxy(nginx(ca.IssueNow(t, sn))), base, sn, ""); httpCode(err) != 401 {
				t.Fatalf("a certificate header from an untrusted address: %v", err)
			}
			refused(t, sn, fleet.RefuseProfile)
		})
	})
}
