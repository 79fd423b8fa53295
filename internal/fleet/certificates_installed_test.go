package fleet_test

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/ocsp"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/fleet"
	"chargeops/internal/fleet/fleettest"
	"chargeops/internal/setting"
	"chargeops/internal/testutil"
)

// caCert makes a CA certificate of cn, self-signed when parent is nil, PEM-encoded.
func caCert(t *testing.T, cn string, parent *x509.Certificate, parentKey *ecdsa.PrivateKey) (string, *x509.Certificate, *ecdsa.PrivateKey) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(time.Now().UnixNano()), Subject: pkix.Name{CommonName: cn},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour).Truncate(time.Second),
		BasicConstraintsValid: true, IsCA: true, KeyUsage: x509.KeyUsageCertSign}
	if parent == nil {
		parent, parentKey = tmpl, key
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, parent, &key.PublicKey, parentKey)
	if err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	return string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})), cert, key
}

// anyHash is the hash data of a certificate nobody installed through chargeops.
func anyHash(i int) fleet.CertificateHash {
	return fleet.CertificateHash{HashAlgorithm: "SHA256", IssuerNameHash: fmt.Sprintf("%064x", i), IssuerKeyHash: fmt.Sprintf("%064x", i+1), SerialNumber: fmt.Sprintf("%x", 1000+i)}
}

// TestInstalledCertificatesStore: the device's list of certificates on the charger, on both
// databases (docs/security-profiles.md, "Certificates on the charger").
func TestInstalledCertificatesStore(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		o := fleettest.Seed(t, d)
		s, err := fleet.New(ctx, d, setting.NewStore(d), fleet.Options{DataDir: t.TempDir(), Location: time.UTC})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		all := &access.Principal{Scope: access.FullScope()}
		id := fleettest.Device(t, d, o, o.CustomerA, o.SiteA, "ROOTS-STORE-1")
		list := func(t *testing.T) []fleet.InstalledCertificate {
			t.Helper()
			l, err := s.InstalledCertificates(ctx, all, id)
			if err != nil {
				t.Fatal(err)
			}
			return l
		}
		rootPEM, root, rootKey := caCert(t, "Store Root", nil, nil)

		t.Run("the hash data of a root is what OCSP names it by", func(t *testing.T) {
			h, ok := fleet.CertificateHashOf(root)
			der, err := ocsp.CreateRequest(root, root, &ocsp.RequestOptions{Hash: crypto.SHA256})
			if err != nil {
				t.Fatal(err)
			}
			req, err := ocsp.ParseRequest(der)
			if err != nil {
				t.Fatal(err)
			}
			want := fleet.CertificateHash{HashAlgorithm: "SHA256", IssuerNameHash: hex.EncodeToString(req.IssuerNameHash),
				IssuerKeyHash: hex.EncodeToString(req.IssuerKeyHash), SerialNumber: req.SerialNumber.Text(16)}
			if !ok || h != want {
				t.Fatalf("got %+v %v, want %+v", h, ok, want)
			}
		})

		t.Run("an installed root is listed with its subject and end", func(t *testing.T) {
			if err := s.CertificateInstalled(ctx, id, fleet.CertCentralSystemRoot, rootPEM); err != nil {
				t.Fatal(err)
			}
			// installed twice: still one row
			if err := s.CertificateInstalled(ctx, id, fleet.CertCentralSystemRoot, rootPEM); err != nil {
				t.Fatal(err)
			}
			l := list(t)
			if len(l) != 1 || l[0].Subject != root.Subject.String() || l[0].NotAfter != root.NotAfter.UnixMilli() || l[0].CertificateType != fleet.CertCentralSystemRoot {
				t.Fatalf("listed %+v", l)
			}
		})

		t.Run("a CA that is not self-signed waits for a read", func(t *testing.T) {
			subPEM, _, _ := caCert(t, "Store Intermediate", root, rootKey)
			if err := s.CertificateInstalled(ctx, id, fleet.CertCentralSystemRoot, subPEM); err != nil {
				t.Fatal(err)
			}
			if l := list(t); len(l) != 1 {
				t.Fatalf("listed %+v", l)
			}
		})

		h, _ := fleet.CertificateHashOf(root)
		t.Run("a read replaces its type's rows; the root keeps its subject however the charger writes its hex", func(t *testing.T) {
			if err := s.InstalledCertificatesRead(ctx, id, fleet.CertManufacturerRoot, []fleet.CertificateHash{anyHash(1)}); err != nil {
				t.Fatal(err)
			}
			shouted := fleet.CertificateHash{HashAlgorithm: "SHA256", IssuerNameHash: strings.ToUpper(h.IssuerNameHash),
				IssuerKeyHash: strings.ToUpper(h.IssuerKeyHash), SerialNumber: "00" + strings.ToUpper(h.SerialNumber)}
			if err := s.InstalledCertificatesRead(ctx, id, fleet.CertCentralSystemRoot, []fleet.CertificateHash{shouted, anyHash(2), anyHash(2)}); err != nil {
				t.Fatal(err)
			}
			l := list(t)
			if len(l) != 3 {
				t.Fatalf("listed %+v, want 3 (a certificate named twice is one row)", l)
			}
			byType := map[string]int{}
			for _, c := range l {
				byType[c.CertificateType]++
				if c.Hash == shouted && c.Subject != root.Subject.String() {
					t.Fatalf("the root lost its subject: %+v", c)
				}
			}
			if byType[fleet.CertCentralSystemRoot] != 2 || byType[fleet.CertManufacturerRoot] != 1 {
				t.Fatalf("by type %v", byType)
			}
			if err := s.InstalledCertificatesRead(ctx, id, fleet.CertManufacturerRoot, nil); err != nil {
				t.Fatal(err)
			}
			if l := list(t); len(l) != 2 || l[0].CertificateType != fleet.CertCentralSystemRoot || l[1].CertificateType != fleet.CertCentralSystemRoot {
				t.Fatalf("after an empty read of the manufacturer roots: %+v", l)
			}
		})

		t.Run("a long answer is cut to 100 rows", func(t *testing.T) {
			many := make([]fleet.CertificateHash, 150)
			for i := range many {
				many[i] = anyHash(100 + i)
			}
			if err := s.InstalledCertificatesRead(ctx, id, fleet.CertManufacturerRoot, many); err != nil {
				t.Fatal(err)
			}
			if l := list(t); len(l) != 102 {
				t.Fatalf("listed %d, want 2 + 100", len(l))
			}
			if err := s.InstalledCertificatesRead(ctx, id, fleet.CertManufacturerRoot, nil); err != nil {
				t.Fatal(err)
			}
		})

		t.Run("a removed certificate's row goes, matched without case or leading zeros", func(t *testing.T) {
			h2 := anyHash(2)
			h2.SerialNumber = "000" + strings.ToUpper(h2.SerialNumber)
			if err := s.CertificateRemoved(ctx, id, h2); err != nil {
				t.Fatal(err)
			}
			if err := s.CertificateRemoved(ctx, id, anyHash(77)); err != nil { // not listed: nothing changes
				t.Fatal(err)
			}
			l := list(t)
			if len(l) != 1 || l[0].Subject != root.Subject.String() {
				t.Fatalf("listed %+v", l)
			}
		})

		t.Run("another customer's device is not found", func(t *testing.T) {
			other := &access.Principal{UserID: 9, Scope: access.Scope{CustomerIDs: []int64{o.CustomerB}, AllSites: true}}
			if _, err := s.InstalledCertificates(ctx, other, id); !errors.Is(err, apperr.ErrNotFound) {
				t.Fatalf("got %v, want not found", err)
			}
		})
	})
}
