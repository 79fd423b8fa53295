package ocpp16_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lorenzodonini/ocpp-go/ocpp1.6/core"
	"github.com/lorenzodonini/ocpp-go/ocpp1.6/extendedtriggermessage"
	"github.com/lorenzodonini/ocpp-go/ocpp1.6/security"
	"github.com/lorenzodonini/ocpp-go/ocpp1.6/types"
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

// TestSecurityProfile3ClientCertificates connects ocpp-go charge points with TLS client
// certificates to a gateway given a charge-point CA (--ocpp-client-ca) that requires keys
// (serve's default), and checks each refusal the whitepaper asks for, with its reason in the
// refusal list.
func TestSecurityProfile3ClientCertificates(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		ca, other := tlstest.NewCA(t, "Charge point CA"), tlstest.NewCA(t, "Someone else's CA")
		caFile := ca.WriteFile(t, t.TempDir(), "cpca")
		env := apitest.New(t, d, func(c *config.Config) { c.OCPPClientCA, c.RequireDeviceKeys = caFile, true })
		org := fleettest.Seed(t, d)
		wss, roots := certGateway(t, env)
		withCert := func(c tls.Certificate) *ocppws.Client {
			return ocppws.NewTLSClient(&tls.Config{RootCAs: roots, Certificates: []tls.Certificate{c}})
		}
		noCert := func() *ocppws.Client { return ocppws.NewTLSClient(&tls.Config{RootCAs: roots}) }
		now := time.Now()
		valid := func(cn string) tls.Certificate { return ca.IssueNow(t, cn) }
		profile := func(t *testing.T, id int64) int {
			t.Helper()
			var p int
			if err := d.QueryRow(ctx, `SELECT security_profile FROM device WHERE id = ?`, id).Scan(&p); err != nil {
				t.Fatal(err)
			}
			return p
		}
		refused := func(t *testing.T, sn, reason string) {
			t.Helper()
			waitFor(t, sn+" refused for "+reason, func() bool {
				var n int
				_ = d.QueryRow(ctx, `SELECT COUNT(*) FROM device_refusal WHERE sn = ? AND reason = ?`, sn, reason).Scan(&n)
				return n > 0
			})
		}
		device := func(t *testing.T, sn, key string, p int) int64 {
			t.Helper()
			id := fleettest.Device(t, d, org, org.CustomerA, org.SiteA, sn)
			hash := ""
			if key != "" {
				hash = env.App.Fleet.HashAuthKey(sn, key)
			}
			fleettest.Secure(t, d, id, hash, p)
			return id
		}

		t.Run("a certificate the CA issued to the SN proves profile 3", func(t *testing.T) {
			const sn = "SN-P3-OK"
			device(t, sn, "", 3)
			cp, _, err := startCPWith(t, withCert(valid(sn)), wss, sn, "")
			if err != nil {
				t.Fatalf("profile 3 with its certificate refused: %v", err)
			}
			if boot, err := cp.BootNotification("AC-22", "Test"); err != nil || boot.Status != core.RegistrationStatusAccepted {
				t.Fatalf("boot: %+v %v", boot, err)
			}
		})
		t.Run("without a certificate profile 3 is refused, its key or not, over TLS or plain ws", func(t *testing.T) {
			const sn, key = "SN-P3-NOCERT", "p3Key0000000000001"
			device(t, sn, key, 3)
			if _, _, err := startCPWith(t, noCert(), wss, sn, key); httpCode(err) != 401 {
				t.Fatalf("key over TLS at profile 3: %v", err)
			}
			if _, _, err := startCP(t, wsBase(env), sn, key); httpCode(err) != 401 {
				t.Fatalf("plain ws at profile 3: %v", err)
			}
			refused(t, sn, fleet.RefuseProfile)
		})
		for _, c := range []struct {
			name, sn, reason string
			cert             func(sn string) tls.Certificate
		}{
			{"a certificate of another CA is refused", "SN-P3-OTHERCA", fleet.RefuseCertUntrusted,
				func(sn string) tls.Certificate { return other.Issue(t, sn, now.Add(-time.Hour), now.Add(time.Hour)) }},
			{"an expired certificate is refused", "SN-P3-EXPIRED", fleet.RefuseCertExpired,
				func(sn string) tls.Certificate { return ca.Issue(t, sn, now.Add(-48*time.Hour), now.Add(-time.Hour)) }},
			{"a certificate issued to another SN is refused", "SN-P3-WRONGSN", fleet.RefuseCertIdentity,
				func(string) tls.Certificate { return valid("SN-P3-OK") }},
		} {
			t.Run(c.name, func(t *testing.T) {
				device(t, c.sn, "", 3)
				if _, _, err := startCPWith(t, withCert(c.cert(c.sn)), wss, c.sn, ""); httpCode(err) != 401 {
					t.Fatalf("admitted or not refused with 401: %v", err)
				}
				refused(t, c.sn, c.reason)
			})
		}
		t.Run("below profile 3 a certificate of another CA is ignored and the key decides", func(t *testing.T) {
			const sn, key = "SN-P2-FACTORY", "p2Key0000000000002"
			id := device(t, sn, key, 2)
			factory := other.IssueNow(t, sn) // a manufacturer's certificate the charger shows when asked
			if _, _, err := startCPWith(t, withCert(factory), wss, sn, "wrongKey0000000000"); httpCode(err) != 401 {
				t.Fatalf("wrong key with a foreign certificate: %v", err)
			}
			_, h, err := startCPWith(t, withCert(factory), wss, sn, key)
			if err != nil {
				t.Fatalf("its key with a foreign certificate: %v", err)
			}
			h.stop()
			if p := profile(t, id); p != 2 {
				t.Fatalf("recorded profile %d, want 2 (a foreign certificate proves nothing)", p)
			}
		})
		t.Run("a charger moves up with a certificate and cannot come back down", func(t *testing.T) {
			const sn, key = "SN-P2-UP", "p2Key0000000000001"
			id := device(t, sn, key, 2)
			_, h, err := startCPWith(t, withCert(valid(sn)), wss, sn, key)
			if err != nil {
				t.Fatalf("profile 2 charger showing its certificate: %v", err)
			}
			h.stop()
			if p := profile(t, id); p != 3 {
				t.Fatalf("recorded profile %d after a certificate, want 3", p)
			}
			if _, _, err := startCPWith(t, noCert(), wss, sn, key); httpCode(err) != 401 {
				t.Fatalf("back at profile 2 after moving to 3: %v", err)
			}
		})
		t.Run("keys required: a keyless device is refused without a certificate, admitted with one", func(t *testing.T) {
			const sn = "SN-P0-CERT"
			id := device(t, sn, "", 0)
			if _, _, err := startCPWith(t, noCert(), wss, sn, ""); httpCode(err) != 401 {
				t.Fatalf("keyless, no certificate: %v", err)
			}
			refused(t, sn, fleet.RefuseNoKey)
			_, h, err := startCPWith(t, withCert(valid(sn)), wss, sn, "")
			if err != nil {
				t.Fatalf("keyless with its certificate: %v", err)
			}
			h.stop()
			if p := profile(t, id); p != 3 {
				t.Fatalf("recorded profile %d after a certificate, want 3", p)
			}
		})
		t.Run("a profile-1 charger over TLS is raised to 2; plain ws is then refused", func(t *testing.T) {
			const sn, key = "SN-P1-UP", "p1Key0000000000001"
			id := device(t, sn, key, 1)
			_, h, err := startCPWith(t, noCert(), wss, sn, key)
			if err != nil {
				t.Fatalf("profile 1 charger over TLS: %v", err)
			}
			h.stop()
			if p := profile(t, id); p != 2 {
				t.Fatalf("recorded profile %d after TLS, want 2", p)
			}
			if _, _, err := startCP(t, wsBase(env), sn, key); httpCode(err) != 401 {
				t.Fatalf("plain ws after moving to TLS: %v", err)
			}
		})
	})
}

// certReceiver is an ocpp-go charge point's security handler: it keeps the chain it is sent,
// and asked for a new certificate (ExtendedTriggerMessage SignChargePointCertificate) it says
// so on triggered, to send its CSR after answering.
type certReceiver struct{ chains, triggered chan string }

func (h certReceiver) OnCertificateSigned(req *security.CertificateSignedRequest) (*security.CertificateSignedResponse, error) {
	h.chains <- req.CertificateChain
	return security.NewCertificateSignedResponse(security.CertificateSignedStatusAccepted), nil
}

func (h certReceiver) OnExtendedTriggerMessage(req *extendedtriggermessage.ExtendedTriggerMessageRequest) (*extendedtriggermessage.ExtendedTriggerMessageResponse, error) {
	h.triggered <- string(req.RequestedMessage)
	return extendedtriggermessage.NewExtendedTriggerMessageResponse(extendedtriggermessage.ExtendedTriggerMessageStatusAccepted), nil
}

// receive takes what the charger was sent (what), failing the test after 10 s without it.
func receive(t *testing.T, ch <-chan string, what string) string {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(10 * time.Second):
		t.Fatalf("no %s within 10 s", what)
		return ""
	}
}

// TestSignCertificate: a charger (ocpp-go) sends a CSR, the charge-point CA signs it and the
// gateway sends the chain back; renewal from the console asks it for a new CSR; the charger
// then connects at profile 3 with its certificate, and the device's certificates are recorded
// installed. A CSR naming another charger is rejected.
func TestSignCertificate(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		env := apitest.New(t, d, nil)
		org := fleettest.Seed(t, d)
		const sn, key = "SN-CSR-1", "csrKey000000000001"
		id := fleettest.Device(t, d, org, org.CustomerA, org.SiteA, sn)
		fleettest.Secure(t, d, id, env.App.Fleet.HashAuthKey(sn, key), 1)
		chargerKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		csrFor := func(cn string) string {
			der, err := x509.CreateCertificateRequest(rand.Reader, &x509.CertificateRequest{Subject: pkix.Name{CommonName: cn, Organization: []string{"Test CPO"}}}, chargerKey)
			if err != nil {
				t.Fatal(err)
			}
			return string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE REQUEST", Bytes: der}))
		}
		client := ocppws.NewClient()
		client.SetBasicAuth(sn, key)
		cp := fleettest.ChargePoint(sn, client)
		h := &cpHandler{cp: cp, config: map[string]string{}}
		cp.SetCoreHandler(h)
		recv := certReceiver{chains: make(chan string, 2), triggered: make(chan string, 1)}
		cp.SetSecurityHandler(recv)
		cp.SetExtendedTriggerMessageHandler(recv)
		if err := cp.Start(wsBase(env)); err != nil {
			t.Fatal(err)
		}
		var once sync.Once
		stop := func() { once.Do(cp.Stop) } // ocpp-go's Stop may run once
		t.Cleanup(stop)

		t.Run("a CSR naming another charger is rejected", func(t *testing.T) {
			res, err := cp.SignCertificate(csrFor("SN-CSR-OTHER"))
			if err != nil || res.Status != types.GenericStatusRejected {
				t.Fatalf("got %+v %v, want Rejected", res, err)
			}
		})
		var chain string
		t.Run("its own CSR is accepted and the signed chain follows", func(t *testing.T) {
			res, err := cp.SignCertificate(csrFor(sn))
			if err != nil || res.Status != types.GenericStatusAccepted {
				t.Fatalf("got %+v %v, want Accepted", res, err)
			}
			chain = receive(t, recv.chains, "CertificateSigned")
			waitFor(t, "the certificate recorded installed", func() bool {
				var n int
				_ = d.QueryRow(ctx, `SELECT COUNT(*) FROM device_certificate WHERE device_id = ? AND state = ?`, id, fleet.CertInstalled).Scan(&n)
				return n == 1
			})
		})
		t.Run("renewal (control type 21) asks the charger for a new CSR, which is signed and sent", func(t *testing.T) {
			v := sendOne(t, env.Root(), id, fleet.CtlRenewCertificate, nil)
			if v.Result != fleet.ResultSuccess {
				t.Fatalf("renewal command: %+v", v)
			}
			if what := receive(t, recv.triggered, "ExtendedTriggerMessage"); what != "SignChargePointCertificate" {
				t.Fatalf("asked for %q", what)
			}
			if res, err := cp.SignCertificate(csrFor(sn)); err != nil || res.Status != types.GenericStatusAccepted {
				t.Fatalf("renewal CSR: %+v %v", res, err)
			}
			chain = receive(t, recv.chains, "the second CertificateSigned")
			waitFor(t, "two certificates recorded installed", func() bool {
				var n int
				_ = d.QueryRow(ctx, `SELECT COUNT(*) FROM device_certificate WHERE device_id = ? AND state = ?`, id, fleet.CertInstalled).Scan(&n)
				return n == 2
			})
		})
		t.Run("asking for the log upload's status (control type 10) goes by ExtendedTriggerMessage", func(t *testing.T) {
			v := sendOne(t, env.Root(), id, fleet.CtlTriggerMessage, map[string]any{"message": fleet.TriggerLogStatusNotification})
			if v.Result != fleet.ResultSuccess {
				t.Fatalf("trigger command: %+v", v)
			}
			if what := receive(t, recv.triggered, "ExtendedTriggerMessage"); what != "LogStatusNotification" {
				t.Fatalf("asked for %q", what)
			}
		})
		t.Run("with the signed certificate the charger connects at profile 3", func(t *testing.T) {
			keyDER, err := x509.MarshalPKCS8PrivateKey(chargerKey)
			if err != nil {
				t.Fatal(err)
			}
			cert, err := tls.X509KeyPair([]byte(chain), pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}))
			if err != nil {
				t.Fatalf("the chain and the charger's key: %v", err)
			}
			wss, roots := certGateway(t, env)
			stop()
			_, h3, err := startCPWith(t, ocppws.NewTLSClient(&tls.Config{RootCAs: roots, Certificates: []tls.Certificate{cert}}), wss, sn, "")
			if err != nil {
				t.Fatalf("profile 3 with the signed certificate: %v", err)
			}
			h3.stop()
			var p int
			if err := d.QueryRow(ctx, `SELECT security_profile FROM device WHERE id = ?`, id).Scan(&p); err != nil || p != 3 {
				t.Fatalf("profile %d (%v), want raised to 3", p, err)
			}
		})
	})
}

// certGateway serves env's gateway over TLS asking for client certificates, as the --ocpp-addr
// listener does; it returns the wss:// base and the roots that trust its certificate.
func certGateway(t *testing.T, env *apitest.Env) (wss string, roots *x509.CertPool) {
	t.Helper()
	mux := http.NewServeMux()
	mux.Handle(ocpp16.Path, env.App.Gateway)
	srv := httptest.NewUnstartedServer(mux)
	srv.TLS = &tls.Config{ClientAuth: tls.RequestClientCert}
	srv.StartTLS()
	t.Cleanup(srv.Close)
	roots = x509.NewCertPool()
	roots.AddCert(srv.Certificate())
	return "wss" + strings.TrimPrefix(srv.URL, "https") + "/ocpp", roots
}
