// Package tlstest writes self-signed server certificates for TLS tests, and makes a CA that
// issues client certificates.
package tlstest

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	"chargeops/internal/tlsconf"
)

// RSA is a new 2048-bit RSA key.
func RSA(t testing.TB) crypto.Signer {
	t.Helper()
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// ECDSA is a new P-256 key.
func ECDSA(t testing.TB) crypto.Signer {
	t.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// WritePair writes a self-signed certificate for 127.0.0.1 with the given key and serial to
// dir/name.crt and dir/name.key (PEM), valid for an hour, and returns the files and the
// certificate.
func WritePair(t testing.TB, dir, name string, key crypto.Signer, serial int64) (tlsconf.Pair, *x509.Certificate) {
	t.Helper()
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(serial),
		Subject:      pkix.Name{CommonName: "csms.test"},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(time.Hour),
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1)},
		KeyUsage:     x509.KeyUsageDigitalSignature | x509.KeyUsageKeyEncipherment,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, key.Public(), key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	p := tlsconf.Pair{Cert: filepath.Join(dir, name+".crt"), Key: filepath.Join(dir, name+".key")}
	if err := os.WriteFile(p.Cert, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p.Key, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}), 0o600); err != nil {
		t.Fatal(err)
	}
	return p, cert
}

// CA is a certificate authority for client-certificate tests (security profile 3): a
// self-signed P-256 CA valid for a day around now.
type CA struct {
	Cert *x509.Certificate
	PEM  []byte // the CA certificate, as --ocpp-client-ca reads it
	key  crypto.Signer
}

// NewCA makes a CA named name.
func NewCA(t testing.TB, name string) *CA {
	t.Helper()
	key := ECDSA(t)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: name}, NotBefore: time.Now().Add(-time.Hour),
		NotAfter: time.Now().Add(24 * time.Hour), IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, key.Public(), key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return &CA{Cert: cert, PEM: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), key: key}
}

// WriteFile writes the CA certificate to dir/name.crt and returns the path.
func (ca *CA) WriteFile(t testing.TB, dir, name string) string {
	t.Helper()
	p := filepath.Join(dir, name+".crt")
	if err := os.WriteFile(p, ca.PEM, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// Issue makes a client certificate (clientAuth) for common name cn, as a charger's: valid
// from notBefore to notAfter.
func (ca *CA) Issue(t testing.TB, cn string, notBefore, notAfter time.Time) tls.Certificate {
	t.Helper()
	key := ECDSA(t)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(time.Now().UnixNano()), Subject: pkix.Name{CommonName: cn, Organization: []string{"Test CPO"}},
		NotBefore: notBefore, NotAfter: notAfter, KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.Cert, key.Public(), ca.key)
	if err != nil {
		t.Fatal(err)
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}
}

// IssueNow is Issue valid from an hour ago to an hour ahead.
func (ca *CA) IssueNow(t testing.TB, cn string) tls.Certificate {
	return ca.Issue(t, cn, time.Now().Add(-time.Hour), time.Now().Add(time.Hour))
}
