package mqtt_test

import (
	"crypto/tls"
	"crypto/x509"
	"testing"

	"chargeops/internal/db"
	"chargeops/internal/devstate"
	"chargeops/internal/fleet"
	"chargeops/internal/fleet/fleettest"
	"chargeops/internal/gateway/mqtt"
	"chargeops/internal/testutil"
	"chargeops/internal/tlsconf"
	"chargeops/internal/tlsconf/tlstest"
)

// TestClientCertificateStandsInForTheKey: on the TLS listener a unit that shows a client
// certificate the charge-point CA issued to its SN connects without its key; a certificate of
// another SN, or of another CA, is refused with the gateway's reasons, and a unit without a
// certificate still needs its key.
func TestClientCertificateStandsInForTheKey(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		env, _, id := fleettest.Node(t, d, "ESS-T001")
		const key = "ess-key-tls-000001"
		fleettest.Secure(t, d, id, env.App.Fleet.HashAuthKey("ESS-T001", key), 1)
		ca, stranger := tlstest.NewCA(t, "Test CPO CA"), tlstest.NewCA(t, "Someone else")
		pair, serverCert := tlstest.WritePair(t, t.TempDir(), "server", tlstest.ECDSA(t), 1)
		certs, err := tlsconf.Load(tlsconf.Options{Pairs: []tlsconf.Pair{pair}})
		if err != nil {
			t.Fatal(err)
		}
		clientCAs := x509.NewCertPool()
		clientCAs.AddCert(ca.Cert)
		b, _ := start(t, env, func(o *mqtt.BrokerOptions) {
			o.Addr, o.TLSAddr, o.TLSConfig = "", "127.0.0.1:0", certs.Config()
			o.Admission.ClientCAs = clientCAs
		})
		roots := x509.NewCertPool()
		roots.AddCert(serverCert)
		dialTLS := func(sn, key string, cert *tls.Certificate) bool {
			cfg := &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12}
			if cert != nil {
				cfg.Certificates = []tls.Certificate{*cert}
			}
			conn, err := tls.Dial("tcp", b.TLSAddr(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			dev, ok := connect(t, conn, sn, key)
			if ok {
				dev.birth()
			}
			return ok
		}
		refusals := func(reason string) int {
			return testutil.Count(t, d, `SELECT COUNT(*) FROM device_refusal WHERE sn = ? AND reason = ?`, "ESS-T001", reason)
		}

		own := ca.IssueNow(t, "ESS-T001")
		if !dialTLS("ESS-T001", "", &own) {
			t.Fatal("the unit's own certificate was refused")
		}
		testutil.Eventually(t, "online over TLS with a certificate", func() bool {
			return testutil.Count(t, d, `SELECT COUNT(*) FROM device_state WHERE device_id = ? AND online = 1 AND protocol = ?`, id, devstate.ProtocolMQTT) == 1
		})
		other := ca.IssueNow(t, "ESS-T999")
		if dialTLS("ESS-T001", "", &other) {
			t.Fatal("a certificate of another SN was admitted")
		}
		testutil.Eventually(t, "refusal: another identity", func() bool { return refusals(fleet.RefuseCertIdentity) == 1 })
		foreign := stranger.IssueNow(t, "ESS-T001")
		if dialTLS("ESS-T001", key, &foreign) {
			t.Fatal("a certificate of an unknown CA was admitted")
		}
		testutil.Eventually(t, "refusal: untrusted", func() bool { return refusals(fleet.RefuseCertUntrusted) == 1 })
		if dialTLS("ESS-T001", "", nil) {
			t.Fatal("no certificate and no key was admitted")
		}
		if !dialTLS("ESS-T001", key, nil) {
			t.Fatal("the key over TLS was refused")
		}
	})
}
