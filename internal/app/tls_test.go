package app_test

import (
	"crypto/ecdsa"
	"crypto/rsa"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"errors"
	"net/http"
	"testing"

	"github.com/gorilla/websocket"
	ocpp "github.com/lorenzodonini/ocpp-go/ocpp1.6"
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
	cfg.DataDir, cfg.OCPPAddr = t.TempDir(), ocppAddr
	cfg.OCPPTLSCert, cfg.OCPPTLSKey = ecPair.Cert+","+rsaPair.Cert, ecPair.Key+","+rsaPair.Key
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
		cp := ocpp.NewChargePoint(sn, nil, client)
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

// With --ocpp-client-ca the --ocpp-addr listener asks every client for a certificate without
// requiring one: a profile-3 charger (ocpp-go) boots with the certificate the CA issued to its
// SN, a profile-2 charger still connects without one, and a node without the option asks for
// none.
func TestOCPPListenerAsksForClientCertificates(t *testing.T) {
	dir := t.TempDir()
	pair, serverCert := tlstest.WritePair(t, dir, "ecdsa", tlstest.ECDSA(t), 1)
	ca := tlstest.NewCA(t, "Charge point CA")
	ocppAddr := testutil.FreeAddr(t)
	cfg := config.Default()
	cfg.DataDir, cfg.OCPPAddr = t.TempDir(), ocppAddr
	cfg.OCPPTLSCert, cfg.OCPPTLSKey, cfg.OCPPClientCA = pair.Cert, pair.Key, ca.WriteFile(t, dir, "cpca")
	n := startNode(t, cfg)
	d := n.app.DB
	o := fleettest.Seed(t, d)
	roots := x509.NewCertPool()
	roots.AddCert(serverCert)

	asked := func(t *testing.T, addr string) bool {
		t.Helper()
		var requested bool
		conn, err := tls.Dial("tcp", addr, &tls.Config{RootCAs: roots, ServerName: "127.0.0.1",
			GetClientCertificate: func(*tls.CertificateRequestInfo) (*tls.Certificate, error) {
				requested = true
				return &tls.Certificate{}, nil // none: the handshake goes on
			}})
		if err != nil {
			t.Fatalf("handshake without a certificate: %v", err)
		}
		conn.Close()
		return requested
	}
	t.Run("the listener asks for a client certificate and does without one", func(t *testing.T) {
		if !asked(t, ocppAddr) {
			t.Fatal("no certificate request with --ocpp-client-ca")
		}
	})
	t.Run("a profile-3 charger boots with its certificate", func(t *testing.T) {
		const sn = "TLS-CERT-3"
		id := fleettest.Device(t, d, o, o.CustomerA, o.SiteA, sn)
		fleettest.Secure(t, d, id, "", 3)
		client := ocppws.NewTLSClient(&tls.Config{RootCAs: roots, Certificates: []tls.Certificate{ca.IssueNow(t, sn)}})
		cp := ocpp.NewChargePoint(sn, nil, client)
		cp.SetCoreHandler(nil)
		if err := cp.Start("wss://" + ocppAddr + "/ocpp"); err != nil {
			t.Fatalf("profile 3 refused: %v", err)
		}
		defer cp.Stop()
		if boot, err := cp.BootNotification("AC-22", "Test"); err != nil || boot.Status != core.RegistrationStatusAccepted {
			t.Fatalf("boot at profile 3: %+v %v", boot, err)
		}
	})
	t.Run("a node without the option asks for none", func(t *testing.T) {
		plain := config.Default()
		plain.DataDir, plain.OCPPAddr = t.TempDir(), testutil.FreeAddr(t)
		plain.OCPPTLSCert, plain.OCPPTLSKey = pair.Cert, pair.Key
		startNode(t, plain)
		if asked(t, plain.OCPPAddr) {
			t.Fatal("a certificate request without --ocpp-client-ca")
		}
	})
}
