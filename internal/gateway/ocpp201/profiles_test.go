package ocpp201_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/provisioning"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/security"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/types"
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

// TestSecurityProfilesApplyTo201: security profiles 1-3 (docs/security-profiles.md) hold for a
// 2.0.1 station exactly as for a 1.6 charger, on the same admission: its key over ws (1), its
// key over TLS (2), a client certificate of the charge-point CA (3); a wrong key, a missing
// certificate or a lower profile is refused with its reason in the refusal list.
func TestSecurityProfilesApplyTo201(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ca := tlstest.NewCA(t, "Charge point CA 201")
		env := apitest.New(t, d, func(c *config.Config) {
			c.DataDir, c.OCPPClientCA, c.RequireDeviceKeys = t.TempDir(), ca.WriteFile(t, t.TempDir(), "cpca"), true
		})
		org := fleettest.Seed(t, d)
		mux := http.NewServeMux()
		mux.Handle(ocpp16.Path, env.App.Gateway)
		srv := httptest.NewUnstartedServer(mux)
		srv.TLS = &tls.Config{ClientAuth: tls.RequestClientCert}
		srv.StartTLS()
		t.Cleanup(srv.Close)
		roots := x509.NewCertPool()
		roots.AddCert(srv.Certificate())
		wss := "wss" + strings.TrimPrefix(srv.URL, "https") + "/ocpp"
		ws := fleettest.WSBase(env)

		device := func(t *testing.T, sn, key string, profile int) {
			t.Helper()
			id := fleettest.Device(t, d, org, org.CustomerA, org.SiteA, sn)
			hash := ""
			if key != "" {
				hash = env.App.Fleet.HashAuthKey(sn, key)
			}
			fleettest.Secure(t, d, id, hash, profile)
		}
		client := func(key, sn string, tlsConf *tls.Config) *ocppws.Client {
			c := ocppws.NewClient()
			if tlsConf != nil {
				c = ocppws.NewTLSClient(tlsConf)
			}
			if key != "" {
				c.SetBasicAuth(sn, key)
			}
			return c
		}
		boots := func(t *testing.T, base, sn string, c *ocppws.Client) {
			t.Helper()
			st, err := startStation(t, base, sn, c)
			if err != nil {
				t.Fatalf("%s refused: %v", sn, err)
			}
			res, err := st.cs.BootNotification(provisioning.BootReasonPowerUp, "AC", "V")
			if err != nil || res.Status != provisioning.RegistrationStatusAccepted {
				t.Fatalf("%s boot: %+v %v", sn, res, err)
			}
		}
		refused := func(t *testing.T, base, sn string, c *ocppws.Client, reason string) {
			t.Helper()
			_, err := startStation(t, base, sn, c)
			var he ocppws.HttpConnectionError
			if !errors.As(err, &he) || he.HttpCode != http.StatusUnauthorized {
				t.Fatalf("%s: %v, want HTTP 401", sn, err)
			}
			testutil.Eventually(t, sn+" refused for "+reason, func() bool {
				var n int
				_ = d.QueryRow(t.Context(), `SELECT COUNT(*) FROM device_refusal WHERE sn = ? AND reason = ?`, sn, reason).Scan(&n)
				return n > 0
			})
		}
		const key = "profileKey201-0000001"

		t.Run("profile 1: its key over ws; a wrong key is refused", func(t *testing.T) {
			device(t, "SN-201-P1", key, fleet.ProfileKey)
			refused(t, ws, "SN-201-P1", client("wrongKey201-00000001", "SN-201-P1", nil), fleet.RefuseWrongKey)
			boots(t, ws, "SN-201-P1", client(key, "SN-201-P1", nil))
		})
		t.Run("profile 2: its key over TLS; over plain ws it is refused", func(t *testing.T) {
			device(t, "SN-201-P2", key, fleet.ProfileKeyTLS)
			refused(t, ws, "SN-201-P2", client(key, "SN-201-P2", nil), fleet.RefuseProfile)
			boots(t, wss, "SN-201-P2", client(key, "SN-201-P2", &tls.Config{RootCAs: roots}))
		})
		t.Run("SignCertificate: the CA signs the station's own CSR and sends the chain; another's is rejected", func(t *testing.T) {
			const sn = "SN-201-CSR"
			device(t, sn, key, fleet.ProfileKey)
			chains := make(chan string, 1)
			st, err := startStation(t, ws, sn, client(key, sn, nil))
			if err != nil {
				t.Fatal(err)
			}
			st.cs.SetSecurityHandler(chainReceiver(chains))
			k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
			if err != nil {
				t.Fatal(err)
			}
			csr := func(cn string) string {
				der, err := x509.CreateCertificateRequest(rand.Reader, &x509.CertificateRequest{Subject: pkix.Name{CommonName: cn}}, k)
				if err != nil {
					t.Fatal(err)
				}
				return string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE REQUEST", Bytes: der}))
			}
			if res, err := st.cs.SignCertificate(csr("SN-201-OTHER")); err != nil || res.Status != types.GenericStatusRejected {
				t.Fatalf("another station's CSR: %+v %v", res, err)
			}
			if res, err := st.cs.SignCertificate(csr(sn)); err != nil || res.Status != types.GenericStatusAccepted {
				t.Fatalf("its own CSR: %+v %v", res, err)
			}
			select {
			case chain := <-chains:
				if !strings.Contains(chain, "BEGIN CERTIFICATE") {
					t.Fatalf("chain %q", chain)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("no CertificateSigned")
			}
			testutil.Eventually(t, "the certificate recorded as installed", func() bool {
				var n int
				_ = d.QueryRow(t.Context(), `SELECT COUNT(*) FROM device_certificate c JOIN device dv ON dv.id = c.device_id WHERE dv.sn = ? AND c.state = ?`,
					sn, fleet.CertInstalled).Scan(&n)
				return n == 1
			})
		})
		t.Run("profile 3: a certificate the CA issued to the SN; without one it is refused", func(t *testing.T) {
			device(t, "SN-201-P3", "", fleet.ProfileCertificate)
			refused(t, wss, "SN-201-P3", client(key, "SN-201-P3", &tls.Config{RootCAs: roots}), fleet.RefuseProfile)
			cert := ca.IssueNow(t, "SN-201-P3")
			boots(t, wss, "SN-201-P3", client("", "", &tls.Config{RootCAs: roots, Certificates: []tls.Certificate{cert}}))
		})
	})
}

// chainReceiver is a station's security handler that passes on the chains it is sent.
type chainReceiver chan string

func (c chainReceiver) OnCertificateSigned(req *security.CertificateSignedRequest) (*security.CertificateSignedResponse, error) {
	c <- req.CertificateChain
	return security.NewCertificateSignedResponse(security.CertificateSignedStatusAccepted), nil
}
