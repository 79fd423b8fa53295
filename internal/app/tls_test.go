package app_test

import (
	"crypto/ecdsa"
	"crypto/rsa"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"encoding/base64"
	"errors"
	"net/http"
	"slices"
	"testing"

	"github.com/gorilla/websocket"
	"github.com/lorenzodonini/ocpp-go/ocpp1.6/core"
	ocppws "github.com/lorenzodonini/ocpp-go/ws"

	"chargeops/internal/config"
	"chargeops/internal/fleet"
	"chargeops/internal/fleet/fleettest"
	"chargeops/internal/testutil"
	"chargeops/internal/tlsconf/tlstest"
)

// The --ocpp-addr listener over TLS with an ECDSA and an RSA certificate: ocpp-go's charge
// point at security profile 2 boots over wss://; each client gets the certificate its suites
// take; HTTP/2 is not offered; the same device on plain ws (--addr) is refused.
func TestOCPPListenerServesTLS(t *testing.T) {
	dir := t.TempDir()
	ecPair, ecCert := tlstest.WritePair(t, dir, "ecdsa", tlstest.ECDSA(t), 1)
	rsaPair, rsaCert := tlstest.WritePair(t, dir, "rsa", tlstest.RSA(t), 2)
	ocppAddr := testutil.FreeAddr(t)
	cfg := config.Default()
	cfg.MQTTAddr = "127.0.0.1:0" // the embedded broker on a free port, beside any broker on 1883
	cfg.DataDir, cfg.OCPPAddr = t.TempDir(), ocppAddr
	cfg.OCPPTLSCert, cfg.OCPPTLSKey = ecPair.Cert+","+rsaPair.Cert, ecPair.Key+","+rsaPair.Key
	cfg.OCPPConsole = true
	n := startNode(t, cfg)
	d := n.app.DB
	o := fleettest.Seed(t, d)
	const sn, key = "TLS-PAIR-1", "0123456789abcdef0123"
	id := fleettest.Device(t, d, o, o.CustomerA, o.SiteA, sn)
	fleettest.Secure(t, d, id, n.app.Fleet.HashAuthKey(sn, key), 2)
	roots := x509.NewCertPool()
	roots.AddCert(ecCert)
	roots.AddCert(rsaCert)

	t.Run("a profile-2 charger boots over wss", func(t *testing.T) {
		client := ocppws.NewTLSClient(&tls.Config{RootCAs: roots})
		client.SetBasicAuth(sn, key)
		cp := fleettest.ChargePoint(sn, client)
		cp.SetCoreHandler(nil)
		if err := cp.Start("wss://" + ocppAddr + "/ocpp"); err != nil {
			t.Fatalf("refused over TLS: %v", err)
		}
		defer cp.Stop()
		boot, err := cp.BootNotification("AC-22", "Test")
		if err != nil || boot.Status != core.RegistrationStatusAccepted {
			t.Fatalf("boot over TLS: %+v %v", boot, err)
		}
		testutil.Eventually(t, "the charger online", func() bool {
			return testutil.Count(t, d, `SELECT COUNT(*) FROM device WHERE id = ? AND status = ?`, id, fleet.StatusIdle) == 1
		})
	})

	t.Run("each client gets the certificate its suites take", func(t *testing.T) {
		for name, c := range map[string]struct {
			suite uint16
			rsa   bool
		}{
			"ECDHE-ECDSA": {tls.TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384, false},
			"ECDHE-RSA":   {tls.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256, true},
		} {
			conn, err := tls.Dial("tcp", ocppAddr, &tls.Config{RootCAs: roots, ServerName: "127.0.0.1", MaxVersion: tls.VersionTLS12,
				CipherSuites: []uint16{c.suite}, NextProtos: []string{"h2", "http/1.1"}})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			st := conn.ConnectionState()
			conn.Close()
			_, isRSA := st.PeerCertificates[0].PublicKey.(*rsa.PublicKey)
			_, isEC := st.PeerCertificates[0].PublicKey.(*ecdsa.PublicKey)
			if isRSA != c.rsa || isEC == c.rsa {
				t.Fatalf("%s: served a certificate with a %T key", name, st.PeerCertificates[0].PublicKey)
			}
			if st.NegotiatedProtocol == "h2" {
				t.Fatalf("%s: HTTP/2 negotiated; OCPP-J needs HTTP/1.1", name)
			}
		}
	})

	t.Run("with --ocpp-addr-console the console is served over the same TLS", func(t *testing.T) {
		c := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: roots, ServerName: "127.0.0.1"}}}
		resp, err := c.Get("https://" + ocppAddr + "/api/unauth/config")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || resp.TLS == nil {
			t.Fatalf("the console's API over the gateway's TLS: %d", resp.StatusCode)
		}
	})

	t.Run("the same charger on plain ws is refused", func(t *testing.T) {
		h := http.Header{}
		h.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(sn+":"+key)))
		_, resp, err := (&websocket.Dialer{Subprotocols: []string{"ocpp1.6"}}).Dial("ws://"+n.addr+"/ocpp/"+sn, h)
		if err == nil || resp == nil || resp.StatusCode != http.StatusUnauthorized {
			t.Fatalf("plain ws for a profile-2 device: %v %v", resp, err)
		}
		if !errors.Is(err, websocket.ErrBadHandshake) {
			t.Fatalf("plain ws: %v", err)
		}
	})
}

// The --ocpp-addr listener asks every client for a certificate without requiring one, naming
// the charge-point CAs: the built-in one and those of --ocpp-client-ca. A profile-3 charger
// (ocpp-go) boots with the certificate a --ocpp-client-ca CA issued to its SN.
func TestOCPPListenerAsksForClientCertificates(t *testing.T) {
	dir := t.TempDir()
	pair, serverCert := tlstest.WritePair(t, dir, "ecdsa", tlstest.ECDSA(t), 1)
	ca := tlstest.NewCA(t, "Operator CP CA")
	ocppAddr := testutil.FreeAddr(t)
	cfg := config.Default()
	cfg.MQTTAddr = "127.0.0.1:0" // the embedded broker on a free port, beside any broker on 1883
	cfg.DataDir, cfg.OCPPAddr = t.TempDir(), ocppAddr
	cfg.OCPPTLSCert, cfg.OCPPTLSKey, cfg.OCPPClientCA = pair.Cert, pair.Key, ca.WriteFile(t, dir, "cpca")
	n := startNode(t, cfg)
	d := n.app.DB
	o := fleettest.Seed(t, d)
	roots := x509.NewCertPool()
	roots.AddCert(serverCert)

	t.Run("the listener asks for a client certificate naming both CAs, and does without one", func(t *testing.T) {
		var names []string
		conn, err := tls.Dial("tcp", ocppAddr, &tls.Config{RootCAs: roots, ServerName: "127.0.0.1",
			GetClientCertificate: func(info *tls.CertificateRequestInfo) (*tls.Certificate, error) {
				for _, raw := range info.AcceptableCAs {
					var name pkix.RDNSequence
					if _, err := asn1.Unmarshal(raw, &name); err == nil {
						var n pkix.Name
						n.FillFromRDNSequence(&name)
						names = append(names, n.CommonName)
					}
				}
				return &tls.Certificate{}, nil // none: the handshake goes on
			}})
		if err != nil {
			t.Fatalf("handshake without a certificate: %v", err)
		}
		conn.Close()
		slices.Sort(names)
		want := []string{n.app.CA.Cert().Subject.CommonName, "Operator CP CA"}
		slices.Sort(want)
		if !slices.Equal(names, want) {
			t.Fatalf("CAs named in the request %q, want %q", names, want)
		}
	})
	t.Run("without --ocpp-addr-console the listener serves no console", func(t *testing.T) {
		c := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: roots, ServerName: "127.0.0.1"}}}
		resp, err := c.Get("https://" + ocppAddr + "/api/unauth/config")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusNotFound {
			t.Fatalf("the console's API on the gateway listener: %d, want 404", resp.StatusCode)
		}
	})
	t.Run("a profile-3 charger boots with its certificate", func(t *testing.T) {
		const sn = "TLS-CERT-3"
		id := fleettest.Device(t, d, o, o.CustomerA, o.SiteA, sn)
		fleettest.Secure(t, d, id, "", 3)
		client := ocppws.NewTLSClient(&tls.Config{RootCAs: roots, Certificates: []tls.Certificate{ca.IssueNow(t, sn)}})
		cp := fleettest.ChargePoint(sn, client)
		cp.SetCoreHandler(nil)
		if err := cp.Start("wss://" + ocppAddr + "/ocpp"); err != nil {
			t.Fatalf("profile 3 refused: %v", err)
		}
		defer cp.Stop()
		if boot, err := cp.BootNotification("AC-22", "Test"); err != nil || boot.Status != core.RegistrationStatusAccepted {
			t.Fatalf("boot at profile 3: %+v %v", boot, err)
		}
	})
}
