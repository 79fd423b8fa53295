package httpapi_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"strings"
	"testing"
	"time"

	"chargeops/internal/config"
	"chargeops/internal/db"
	"chargeops/internal/fleet"
	"chargeops/internal/fleet/fleettest"
	"chargeops/internal/i18n"
	"chargeops/internal/testutil"
	"chargeops/internal/testutil/apitest"
)

// TestCertificateOperationsNeedWebSSH: installing, listing and deleting a charger's certificates
// (control types 22-24) need auth_device_certificate and the WEB/SSH rule
// (access.CanManageCertificates; docs/security-profiles.md, "Certificates on the charger"): a
// role without WEB/SSH access, or whose WEB/SSH level does not reach the control item, is
// refused with err.certificate_not_allowed and the charger gets nothing.
func TestCertificateOperationsNeedWebSSH(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		env := apitest.New(t, d, func(c *config.Config) { c.CommandTimeout, c.DataDir = 3*time.Second, t.TempDir() })
		org := fleettest.Seed(t, d)
		dev := fleettest.Device(t, d, org, org.CustomerA, org.SiteA, "CERT-LEVEL-1")
		for _, code := range []int{fleet.CtlInstallCertificate, fleet.CtlGetCertificateIDs, fleet.CtlDeleteCertificate} {
			lvControl(t, d, org.ModelID, code, 3)
		}
		root := env.Root()
		ch := lvConnect(t, env, "CERT-LEVEL-1", lvConfig())
		user := func(name string, keys []string, settings map[string]any) *apitest.Client {
			_, roleID := env.CreateUser(root, name, "Level#Pass123", keys...)
			body := map[string]any{"id": roleID, "customerAccess": 0, "siteAccess": 0, "webSshAccess": 0, "webSshLevel": 5,
				"cfgReadLevel": 5, "cfgWriteLevel": 5, "cfgDownloadLevel": 5, "paramLevel": 5, "docLevel": 5, "attachLevel": 5}
			for k, v := range settings {
				body[k] = v
			}
			apitest.Must(t, root.Call("POST", "/api/auth/sys/role/auth/data", body))
			return env.Client().MustLogin(name, "Level#Pass123")
		}
		certKeys := []string{"auth_device_edit", "auth_device_detail", "auth_device_certificate"}
		// parameters each type accepts, so only the rule can refuse them
		params := map[int]map[string]any{
			fleet.CtlInstallCertificate: {"certificateType": fleet.CertCentralSystemRoot, "certificate": testRootPEM(t)},
			fleet.CtlGetCertificateIDs:  {"certificateType": fleet.CertCentralSystemRoot},
			fleet.CtlDeleteCertificate: {"certificateHashData": map[string]any{"hashAlgorithm": "SHA256", "issuerNameHash": strings.Repeat("ab", 32),
				"issuerKeyHash": strings.Repeat("cd", 32), "serialNumber": "1f"}},
		}
		sent := func() int {
			return len(ch.got("InstallCertificate")) + len(ch.got("GetInstalledCertificateIds")) + len(ch.got("DeleteCertificate"))
		}
		refused := func(t *testing.T, c *apitest.Client, key string) {
			t.Helper()
			for _, ct := range []int{fleet.CtlInstallCertificate, fleet.CtlGetCertificateIDs, fleet.CtlDeleteCertificate} {
				a, _ := lvSend(t, c, dev, ct, params[ct])
				apitest.WantCode(t, a, 20013)
				if want := i18n.T(i18n.EnUS, key, nil); key != "" && a.Message != want {
					t.Fatalf("control type %d: message %q, want %q", ct, a.Message, want)
				}
			}
			if n := sent(); n != 0 {
				t.Fatalf("the charger got %d certificate calls", n)
			}
		}

		t.Run("WEB/SSH access disabled: err.certificate_not_allowed for 22-24", func(t *testing.T) {
			refused(t, user("cert_no_web", certKeys, nil), "err.certificate_not_allowed")
		})
		t.Run("a WEB/SSH level that does not reach the control item: err.certificate_not_allowed", func(t *testing.T) {
			refused(t, user("cert_low_web", certKeys, map[string]any{"webSshAccess": 3, "webSshLevel": 4}), "err.certificate_not_allowed")
		})
		t.Run("WEB/SSH access without auth_device_certificate: no permission", func(t *testing.T) {
			refused(t, user("cert_no_key", []string{"auth_device_edit", "auth_device_detail"}, map[string]any{"webSshAccess": 3, "webSshLevel": 3}), "")
		})
		t.Run("the key and a WEB/SSH level reaching the item: the charger is read", func(t *testing.T) {
			c := user("cert_engineer", certKeys, map[string]any{"webSshAccess": 3, "webSshLevel": 3})
			_, v := lvSend(t, c, dev, fleet.CtlGetCertificateIDs, params[fleet.CtlGetCertificateIDs])
			if v.Result != fleet.ResultSuccess || len(ch.got("GetInstalledCertificateIds")) != 1 {
				t.Fatalf("read: %+v, calls %d", v, len(ch.got("GetInstalledCertificateIds")))
			}
		})
	})
}

// testRootPEM is a self-signed CA certificate, PEM-encoded.
func testRootPEM(t *testing.T) string {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(42), Subject: pkix.Name{CommonName: "Level Root"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), BasicConstraintsValid: true, IsCA: true, KeyUsage: x509.KeyUsageCertSign}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}))
}
