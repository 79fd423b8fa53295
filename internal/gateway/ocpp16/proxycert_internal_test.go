package ocpp16

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/pem"
	"math/big"
	"net/url"
	"strings"
	"testing"
	"time"
)

func selfSigned(t testing.TB, cn string) []byte {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tpl := &x509.Certificate{SerialNumber: big.NewInt(7), Subject: pkix.Name{CommonName: cn}, NotBefore: time.Now(), NotAfter: time.Now().Add(time.Hour)}
	der, err := x509.CreateCertificate(rand.Reader, tpl, tpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	return der
}

// TestParseCertHeader: each form proxies write is read, leaf first; anything else is refused.
func TestParseCertHeader(t *testing.T) {
	leaf, inter := selfSigned(t, "SN-1"), selfSigned(t, "Intermediate")
	pemOf := func(der []byte) string {
		return string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}))
	}
	chainPEM := pemOf(leaf) + pemOf(inter)
	ok := []struct{ name, value string }{
		{"nginx $ssl_client_escaped_cert (URL-escaped PEM)", url.QueryEscape(pemOf(leaf))},
		{"URL-escaped PEM chain", url.QueryEscape(chainPEM)},
		{"PEM with line breaks as spaces", strings.ReplaceAll(pemOf(leaf), "\n", " ")},
		{"base64 DER (HAProxy ssl_c_der,base64)", base64.StdEncoding.EncodeToString(leaf)},
		{"base64 DER chain, comma-separated (Traefik)", base64.StdEncoding.EncodeToString(leaf) + "," + base64.StdEncoding.EncodeToString(inter)},
	}
	for _, c := range ok {
		t.Run(c.name, func(t *testing.T) {
			chain, err := parseCertHeader(c.value)
			if err != nil {
				t.Fatal(err)
			}
			if chain[0].Subject.CommonName != "SN-1" {
				t.Fatalf("leaf %q, want SN-1", chain[0].Subject.CommonName)
			}
		})
	}
	bad := []struct{ name, value string }{
		{"not base64", "not a certificate"},
		{"base64 of something else", base64.StdEncoding.EncodeToString([]byte("hello"))},
		{"a bad URL escape", "%zz"},
		{"too long", strings.Repeat("A", maxCertHeader+1)},
		{"too many certificates", strings.Repeat(base64.StdEncoding.EncodeToString(leaf)+",", maxCertChain) + base64.StdEncoding.EncodeToString(leaf)},
	}
	for _, c := range bad {
		t.Run("refused: "+c.name, func(t *testing.T) {
			if _, err := parseCertHeader(c.value); err == nil {
				t.Fatal("read")
			}
		})
	}
}
