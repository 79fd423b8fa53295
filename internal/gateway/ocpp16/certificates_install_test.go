package ocpp16_test

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"encoding/pem"
	"math/big"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lorenzodonini/ocpp-go/ocpp1.6/certificates"
	"github.com/lorenzodonini/ocpp-go/ocpp1.6/types"
	ocppws "github.com/lorenzodonini/ocpp-go/ws"
	"golang.org/x/crypto/ocsp"

	"chargeops/internal/db"
	"chargeops/internal/fleet"
	"chargeops/internal/fleet/fleettest"
	"chargeops/internal/i18n"
	"chargeops/internal/testutil"
	"chargeops/internal/testutil/apitest"
)

// rootStore is an ocpp-go charge point's certificate store (the Certificates profile): it keeps
// the hash data of the roots it holds per type, computed as OCSP does (golang.org/x/crypto/ocsp,
// not chargeops' code), and answers InstallCertificate with install (Accepted by default).
type rootStore struct {
	mu      sync.Mutex
	held    map[types.CertificateUse][]types.CertificateHashData
	install certificates.InstallCertificateStatus
	calls   []string // the actions received, in order
	pems    []string
	deletes []types.CertificateHashData
}

func (s *rootStore) note(action string) { s.calls = append(s.calls, action) }

func (s *rootStore) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.calls)
}

func (s *rootStore) OnInstallCertificate(r *certificates.InstallCertificateRequest) (*certificates.InstallCertificateResponse, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.note("InstallCertificate")
	s.pems = append(s.pems, r.Certificate)
	if s.install != certificates.CertificateStatusAccepted {
		return certificates.NewInstallCertificateResponse(s.install), nil
	}
	block, _ := pem.Decode([]byte(r.Certificate))
	cert, err := x509.ParseCertificate(block.Bytes)
	if err != nil {
		return certificates.NewInstallCertificateResponse(certificates.CertificateStatusFailed), nil
	}
	s.held[r.CertificateType] = append(s.held[r.CertificateType], ocspHash(cert))
	return certificates.NewInstallCertificateResponse(certificates.CertificateStatusAccepted), nil
}

func (s *rootStore) OnGetInstalledCertificateIds(r *certificates.GetInstalledCertificateIdsRequest) (*certificates.GetInstalledCertificateIdsResponse, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.note("GetInstalledCertificateIds")
	held := s.held[r.CertificateType]
	if len(held) == 0 {
		return certificates.NewGetInstalledCertificateIdsResponse(certificates.GetInstalledCertificateStatusNotFound), nil
	}
	res := certificates.NewGetInstalledCertificateIdsResponse(certificates.GetInstalledCertificateStatusAccepted)
	res.CertificateHashData = append([]types.CertificateHashData(nil), held...)
	return res, nil
}

func (s *rootStore) OnDeleteCertificate(r *certificates.DeleteCertificateRequest) (*certificates.DeleteCertificateResponse, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.note("DeleteCertificate")
	s.deletes = append(s.deletes, r.CertificateHashData)
	for typ, list := range s.held {
		for i, h := range list {
			if h == r.CertificateHashData {
				s.held[typ] = append(list[:i:i], list[i+1:]...)
				return certificates.NewDeleteCertificateResponse(certificates.DeleteCertificateStatusAccepted), nil
			}
		}
	}
	return certificates.NewDeleteCertificateResponse(certificates.DeleteCertificateStatusNotFound), nil
}

// ocspHash is a self-signed certificate's hash data as an OCSP request names it (SHA256).
func ocspHash(cert *x509.Certificate) types.CertificateHashData {
	der, err := ocsp.CreateRequest(cert, cert, &ocsp.RequestOptions{Hash: crypto.SHA256})
	if err != nil {
		panic(err)
	}
	req, err := ocsp.ParseRequest(der)
	if err != nil {
		panic(err)
	}
	return types.CertificateHashData{HashAlgorithm: types.SHA256, IssuerNameHash: hex.EncodeToString(req.IssuerNameHash),
		IssuerKeyHash: hex.EncodeToString(req.IssuerKeyHash), SerialNumber: req.SerialNumber.Text(16)}
}

// testCert makes a self-signed certificate (a CA when ca), PEM-encoded.
func testCert(t *testing.T, cn string, ca bool) (string, *x509.Certificate) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	serial, _ := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 120))
	tmpl := &x509.Certificate{SerialNumber: serial, Subject: pkix.Name{CommonName: cn, Organization: []string{"Test CSMS"}},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(365 * 24 * time.Hour),
		BasicConstraintsValid: true, IsCA: ca, KeyUsage: x509.KeyUsageDigitalSignature}
	if ca {
		tmpl.KeyUsage |= x509.KeyUsageCertSign
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	return string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})), cert
}

// randomHash is the hash data of a certificate chargeops knows nothing of.
func randomHash(t *testing.T) types.CertificateHashData {
	t.Helper()
	b := make([]byte, 72)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return types.CertificateHashData{HashAlgorithm: types.SHA256, IssuerNameHash: hex.EncodeToString(b[:32]),
		IssuerKeyHash: hex.EncodeToString(b[32:64]), SerialNumber: strings.TrimLeft(hex.EncodeToString(b[64:]), "0")}
}

func hashParams(h types.CertificateHashData) map[string]any {
	return map[string]any{"certificateHashData": map[string]any{"hashAlgorithm": string(h.HashAlgorithm),
		"issuerNameHash": h.IssuerNameHash, "issuerKeyHash": h.IssuerKeyHash, "serialNumber": h.SerialNumber}}
}

func asFleetHash(h types.CertificateHashData) fleet.CertificateHash {
	return fleet.CertificateHash{HashAlgorithm: string(h.HashAlgorithm), IssuerNameHash: h.IssuerNameHash, IssuerKeyHash: h.IssuerKeyHash, SerialNumber: h.SerialNumber}
}

// TestCertificatesOnTheCharger: an ocpp-go charge point with the Certificates profile is sent a
// root (control type 22), read (23) and asked to delete one (24); the device's list follows its
// answers (docs/security-profiles.md, "Certificates on the charger"). Bad parameters are refused
// before anything is sent, naming the field.
func TestCertificatesOnTheCharger(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		env := apitest.New(t, d, nil)
		org := fleettest.Seed(t, d)
		const sn = "SN-ROOTS-1"
		id := fleettest.Device(t, d, org, org.CustomerA, org.SiteA, sn)
		root := env.Root()
		store := &rootStore{held: map[types.CertificateUse][]types.CertificateHashData{}, install: certificates.CertificateStatusAccepted}
		cp := fleettest.ChargePoint(sn, ocppws.NewClient())
		cp.SetCoreHandler(&cpHandler{cp: cp, config: map[string]string{}})
		cp.SetCertificateHandler(store) // ocpp-go answers NotSupported without it
		if err := cp.Start(wsBase(env)); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(cp.Stop)
		waitFor(t, "the charger online", func() bool { _, ok := env.App.Fleet.Registry.Lookup(sn); return ok })
		installed := func(t *testing.T) []fleet.InstalledCertificate {
			t.Helper()
			var list []fleet.InstalledCertificate
			apitest.Must(t, root.Call("GET", "/api/auth/sys/dev/certificate/installed", map[string]any{"deviceId": id})).Into(t, &list)
			return list
		}
		find := func(list []fleet.InstalledCertificate, h types.CertificateHashData) *fleet.InstalledCertificate {
			for i := range list {
				if list[i].Hash == asFleetHash(h) {
					return &list[i]
				}
			}
			return nil
		}
		rootPEM, rootCert := testCert(t, "Test CSMS Root", true)
		leafPEM, _ := testCert(t, "not a CA", false)
		central := string(types.CentralSystemRootCertificate)
		manufacturer := string(types.ManufacturerRootCertificate)

		t.Run("bad parameters are refused before anything is sent, naming the field", func(t *testing.T) {
			good := ocspHash(rootCert)
			short := good
			short.IssuerKeyHash = short.IssuerKeyHash[:40]
			notHex := good
			notHex.IssuerNameHash = strings.Repeat("zz", 32)
			badAlg := good
			badAlg.HashAlgorithm = "MD5"
			longSerial := good
			longSerial.SerialNumber = strings.Repeat("a", 41)
			cases := []struct {
				name   string
				ct     int
				params map[string]any
				field  string
			}{
				{"not PEM", fleet.CtlInstallCertificate, map[string]any{"certificateType": central, "certificate": "MIIB not a certificate"}, "params.certificate"},
				{"PEM that is no certificate", fleet.CtlInstallCertificate, map[string]any{"certificateType": central,
					"certificate": string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: []byte("garbage")}))}, "params.certificate"},
				{"not a CA", fleet.CtlInstallCertificate, map[string]any{"certificateType": central, "certificate": leafPEM}, "params.certificate"},
				{"two certificates", fleet.CtlInstallCertificate, map[string]any{"certificateType": central, "certificate": rootPEM + rootPEM}, "params.certificate"},
				{"too long", fleet.CtlInstallCertificate, map[string]any{"certificateType": central, "certificate": rootPEM + strings.Repeat(" ", 5500)}, "params.certificate"},
				{"no certificate", fleet.CtlInstallCertificate, map[string]any{"certificateType": central}, "params.certificate"},
				{"wrong type to install", fleet.CtlInstallCertificate, map[string]any{"certificateType": "V2GRootCertificate", "certificate": rootPEM}, "params.certificateType"},
				{"wrong type to read", fleet.CtlGetCertificateIDs, map[string]any{"certificateType": "ClientCertificate"}, "params.certificateType"},
				{"no type to read", fleet.CtlGetCertificateIDs, map[string]any{}, "params.certificateType"},
				{"no hash data", fleet.CtlDeleteCertificate, map[string]any{}, "params.certificateHashData"},
				{"unknown hash algorithm", fleet.CtlDeleteCertificate, hashParams(badAlg), "params.certificateHashData.hashAlgorithm"},
				{"a hash too short", fleet.CtlDeleteCertificate, hashParams(short), "params.certificateHashData.issuerKeyHash"},
				{"a hash not hex", fleet.CtlDeleteCertificate, hashParams(notHex), "params.certificateHashData.issuerNameHash"},
				{"a serial number too long", fleet.CtlDeleteCertificate, hashParams(longSerial), "params.certificateHashData.serialNumber"},
			}
			for _, c := range cases {
				t.Run(c.name, func(t *testing.T) {
					a, _ := control(t, root, []int64{id}, c.ct, c.params)
					apitest.WantCode(t, a, 10001)
					if label := i18n.FieldName(i18n.EnUS, c.field); !strings.Contains(a.Message, label) {
						t.Fatalf("message %q does not name %s (%q)", a.Message, c.field, label)
					}
				})
			}
			if n := store.count(); n != 0 {
				t.Fatalf("the charger got %d calls", n)
			}
		})

		t.Run("an accepted root succeeds and is listed with its subject", func(t *testing.T) {
			v := sendOne(t, root, id, fleet.CtlInstallCertificate, map[string]any{"certificateType": central, "certificate": rootPEM})
			if v.Result != fleet.ResultSuccess {
				t.Fatalf("install: %+v", v)
			}
			store.mu.Lock()
			got := append([]string(nil), store.pems...)
			store.mu.Unlock()
			if len(got) != 1 || got[0] != rootPEM {
				t.Fatalf("the charger got %q", got)
			}
			list := installed(t)
			row := find(list, ocspHash(rootCert))
			if len(list) != 1 || row == nil {
				t.Fatalf("listed %+v, want the root under the hash data OCSP gives it %+v", list, ocspHash(rootCert))
			}
			if row.CertificateType != central || row.Subject != rootCert.Subject.String() || row.NotAfter != rootCert.NotAfter.UnixMilli() {
				t.Fatalf("row %+v", row)
			}
		})

		other := randomHash(t)
		t.Run("a read stores what the charger holds, keeping the subject of the root it was sent", func(t *testing.T) {
			store.mu.Lock()
			store.held[types.CentralSystemRootCertificate] = append(store.held[types.CentralSystemRootCertificate], other)
			store.held[types.ManufacturerRootCertificate] = []types.CertificateHashData{randomHash(t)}
			store.mu.Unlock()
			for _, typ := range []string{central, manufacturer} {
				if v := sendOne(t, root, id, fleet.CtlGetCertificateIDs, map[string]any{"certificateType": typ}); v.Result != fleet.ResultSuccess {
					t.Fatalf("read %s: %+v", typ, v)
				}
			}
			list := installed(t)
			if len(list) != 3 {
				t.Fatalf("listed %+v, want 3", list)
			}
			if r := find(list, ocspHash(rootCert)); r == nil || r.Subject != rootCert.Subject.String() {
				t.Fatalf("the installed root: %+v", r)
			}
			if r := find(list, other); r == nil || r.Subject != "" || r.CertificateType != central {
				t.Fatalf("the other root: %+v", r)
			}
		})

		t.Run("a second read replaces the rows of its type; NotFound empties it", func(t *testing.T) {
			third := randomHash(t)
			store.mu.Lock()
			store.held[types.CentralSystemRootCertificate] = []types.CertificateHashData{ocspHash(rootCert), third}
			delete(store.held, types.ManufacturerRootCertificate)
			store.mu.Unlock()
			for _, typ := range []string{central, manufacturer} {
				if v := sendOne(t, root, id, fleet.CtlGetCertificateIDs, map[string]any{"certificateType": typ}); v.Result != fleet.ResultSuccess {
					t.Fatalf("read %s: %+v", typ, v)
				}
			}
			list := installed(t)
			if len(list) != 2 || find(list, third) == nil || find(list, other) != nil || find(list, ocspHash(rootCert)).Subject == "" {
				t.Fatalf("listed %+v", list)
			}
		})

		t.Run("a deleted root's row is gone", func(t *testing.T) {
			h := ocspHash(rootCert)
			v := sendOne(t, root, id, fleet.CtlDeleteCertificate, hashParams(h))
			if v.Result != fleet.ResultSuccess {
				t.Fatalf("delete: %+v", v)
			}
			store.mu.Lock()
			last := store.deletes[len(store.deletes)-1]
			store.mu.Unlock()
			if last != h {
				t.Fatalf("the charger was asked to delete %+v, want %+v", last, h)
			}
			if list := installed(t); len(list) != 1 || find(list, h) != nil {
				t.Fatalf("listed %+v", list)
			}
		})

		t.Run("a root the charger does not hold fails with NotFound and its row goes", func(t *testing.T) {
			stale := randomHash(t)
			if err := env.App.Fleet.InstalledCertificatesRead(t.Context(), id, manufacturer, []fleet.CertificateHash{asFleetHash(stale)}); err != nil {
				t.Fatal(err)
			}
			v := sendOne(t, root, id, fleet.CtlDeleteCertificate, hashParams(stale))
			if v.Result != fleet.ResultFailed || !strings.Contains(v.Message, "NotFound") && !strings.Contains(v.Message, "Not found") {
				t.Fatalf("delete: %+v", v)
			}
			if find(installed(t), stale) != nil {
				t.Fatal("the row is still listed")
			}
		})

		t.Run("a charger answering Rejected fails the install and lists nothing new", func(t *testing.T) {
			store.mu.Lock()
			store.install = certificates.CertificateStatusRejected
			store.mu.Unlock()
			otherPEM, otherCert := testCert(t, "Refused Root", true)
			before := len(installed(t))
			v := sendOne(t, root, id, fleet.CtlInstallCertificate, map[string]any{"certificateType": manufacturer, "certificate": otherPEM})
			if v.Result != fleet.ResultFailed || !strings.Contains(v.Message, "Rejected") {
				t.Fatalf("install: %+v", v)
			}
			if list := installed(t); len(list) != before || find(list, ocspHash(otherCert)) != nil {
				t.Fatalf("listed %+v", list)
			}
		})
	})
}
