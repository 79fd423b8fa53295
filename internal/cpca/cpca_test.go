package cpca_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"chargeops/internal/cpca"
	"chargeops/internal/db"
	"chargeops/internal/setting"
	"chargeops/internal/testutil"
)

// csr is a charger's CSR for common name cn, PEM.
func csr(t *testing.T, cn string) string {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.CreateCertificateRequest(rand.Reader, &x509.CertificateRequest{Subject: pkix.Name{CommonName: cn, Organization: []string{"Example CPO"}}}, key)
	if err != nil {
		t.Fatal(err)
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE REQUEST", Bytes: der}))
}

// verify checks that chain's first certificate is a client certificate the CA issued.
func verify(t *testing.T, ca *cpca.CA, chain, cn string) {
	t.Helper()
	var certs []*x509.Certificate
	for rest := []byte(chain); ; {
		var b *pem.Block
		if b, rest = pem.Decode(rest); b == nil {
			break
		}
		c, err := x509.ParseCertificate(b.Bytes)
		if err != nil {
			t.Fatal(err)
		}
		certs = append(certs, c)
	}
	if len(certs) != 2 || !certs[1].Equal(ca.Cert()) {
		t.Fatalf("chain of %d certificates, want the charger's then the CA's", len(certs))
	}
	roots := x509.NewCertPool()
	roots.AddCert(ca.Cert())
	if _, err := certs[0].Verify(x509.VerifyOptions{Roots: roots, KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}}); err != nil {
		t.Fatalf("signed certificate does not verify: %v", err)
	}
	if certs[0].Subject.CommonName != cn {
		t.Fatalf("subject %s, want CN=%s", certs[0].Subject, cn)
	}
}

func TestBuiltInCA(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		store := setting.NewStore(d)
		dir := t.TempDir()
		kek := filepath.Join(dir, "cp-ca.kek")
		first, err := cpca.Open(ctx, store, cpca.Options{KEKFile: kek})
		if err != nil {
			t.Fatal(err)
		}
		t.Run("made once, with its key-encryption key file (0600) beside", func(t *testing.T) {
			st, err := os.Stat(kek)
			if err != nil || st.Mode().Perm() != 0o600 {
				t.Fatalf("kek file: %v %v", st, err)
			}
			again, err := cpca.Open(ctx, store, cpca.Options{KEKFile: kek})
			if err != nil || !again.Cert().Equal(first.Cert()) || !again.CanSign() {
				t.Fatalf("reopened: same CA %v, can sign %v (%v)", again != nil && again.Cert().Equal(first.Cert()), again != nil && again.CanSign(), err)
			}
			if !first.Cert().IsCA || first.Cert().NotAfter.Before(time.Now().AddDate(19, 0, 0)) {
				t.Fatalf("CA certificate: CA %v, until %s", first.Cert().IsCA, first.Cert().NotAfter)
			}
		})
		t.Run("its key is not in the database in the clear", func(t *testing.T) {
			v, _, err := store.Get(ctx, "cp_ca")
			if err != nil || v == "" || strings.Contains(v, "PRIVATE KEY") {
				t.Fatalf("stored CA %q (%v)", v, err)
			}
		})
		t.Run("a charger's CSR is signed for client authentication", func(t *testing.T) {
			chain, leaf, err := first.Sign(csr(t, "CP-0001"), "CP-0001")
			if err != nil {
				t.Fatal(err)
			}
			verify(t, first, chain, "CP-0001")
			if d := time.Until(leaf.NotAfter); d < 364*24*time.Hour || d > 366*24*time.Hour {
				t.Fatalf("valid for %s, want a year", d)
			}
		})
		t.Run("a CSR naming another charger is refused", func(t *testing.T) {
			if _, _, err := first.Sign(csr(t, "CP-0002"), "CP-0001"); !errors.Is(err, cpca.ErrIdentity) {
				t.Fatalf("got %v, want ErrIdentity", err)
			}
		})
		t.Run("a CSR that is not one is refused", func(t *testing.T) {
			good := csr(t, "CP-0001")
			broken := strings.Replace(good, good[len(good)/2:len(good)/2+8], "AAAAAAAA", 1)
			for name, in := range map[string]string{"empty": "", "not PEM": "hello", "a certificate": string(first.CertPEM()), "tampered": broken} {
				if _, _, err := first.Sign(in, "CP-0001"); !errors.Is(err, cpca.ErrCSR) {
					t.Errorf("%s: got %v, want ErrCSR", name, err)
				}
			}
		})
		t.Run("a node with another key-encryption key verifies but does not sign", func(t *testing.T) {
			other, err := cpca.Open(ctx, store, cpca.Options{KEKFile: filepath.Join(t.TempDir(), "other.kek")})
			if err != nil {
				t.Fatal(err)
			}
			if !other.Cert().Equal(first.Cert()) || other.CanSign() {
				t.Fatalf("same CA %v, can sign %v", other.Cert().Equal(first.Cert()), other.CanSign())
			}
			if _, _, err := other.Sign(csr(t, "CP-0001"), "CP-0001"); !errors.Is(err, cpca.ErrNoKey) {
				t.Fatalf("got %v, want ErrNoKey", err)
			}
		})
	})
}

func TestOperatorsCA(t *testing.T) {
	dir := t.TempDir()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(7), Subject: pkix.Name{CommonName: "Operator CP CA"}, NotBefore: time.Now().Add(-time.Hour),
		NotAfter: time.Now().AddDate(5, 0, 0), IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, _ := x509.MarshalPKCS8PrivateKey(key)
	certFile, keyFile := filepath.Join(dir, "ca.crt"), filepath.Join(dir, "ca.key")
	_ = os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600)
	_ = os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}), 0o600)
	ca, err := cpca.Open(context.Background(), nil, cpca.Options{CertFile: certFile, KeyFile: keyFile, Validity: 30 * 24 * time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	chain, leaf, err := ca.Sign(csr(t, "CP-0009"), "CP-0009")
	if err != nil {
		t.Fatal(err)
	}
	verify(t, ca, chain, "CP-0009")
	if d := time.Until(leaf.NotAfter); d > 31*24*time.Hour {
		t.Fatalf("valid for %s, want the 30 days asked", d)
	}
	t.Run("its status names the files' CA, and a trusted CA joins the pool", func(t *testing.T) {
		other, _ := x509.ParseCertificate(der) // any other CA certificate will do: here the same one parsed again
		ca.Trust([]*x509.Certificate{other})
		st := ca.Status()
		if st.Source != cpca.SourceFiles || !st.CanSign || st.ValidityDays != 30 || st.CA.Subject != "CN=Operator CP CA" || st.CA.Serial != "7" ||
			!strings.HasPrefix(st.CA.PEM, "-----BEGIN CERTIFICATE-----") || len(st.Trusted) != 1 || st.CA.KeyType != "ECDSA" {
			t.Fatalf("status %+v", st)
		}
		if _, err := leaf.Verify(x509.VerifyOptions{Roots: ca.Pool(), KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}}); err != nil {
			t.Fatalf("the signed certificate does not chain to the pool: %v", err)
		}
	})
}
