package fleet

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/pem"
	"math/big"
	"strings"
	"testing"
	"time"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
)

// signingPEM is a self-signed certificate as a firmware maker's signing certificate.
func signingPEM(t *testing.T) string {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(7), Subject: pkix.Name{CommonName: "Firmware signer"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), KeyUsage: x509.KeyUsageDigitalSignature}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, key.Public(), key)
	if err != nil {
		t.Fatal(err)
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}))
}

// The signing fields of a new firmware file: both or neither, the certificate PEM X.509 of at
// most 5500 characters, the signature base64 of at most 800; each failure names its field.
func TestFirmwareSigningFields(t *testing.T) {
	cert := signingPEM(t)
	sig := base64.StdEncoding.EncodeToString([]byte("a 64-byte ECDSA signature would be here, any bytes will do......"))
	notCert := string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: []byte("not DER")}))
	key := string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: []byte("x")}))
	for _, c := range []struct {
		name       string
		cert, sig  string
		field, key string // "" when accepted
	}{
		{"neither: an unsigned file", "", "", "", ""},
		{"both: a signed file", cert, sig, "", ""},
		{"both with blanks around them", "\n " + cert + "\n", " " + sig + "\n", "", ""},
		{"an unpadded signature", cert, strings.TrimRight(sig, "="), "", ""},
		{"a chain of two certificates", cert + cert, sig, "", ""},
		{"a certificate without its signature", cert, "", "signature", "err.firmware_signing_pair"},
		{"a signature without its certificate", "", sig, "signingCertificate", "err.firmware_signing_pair"},
		{"a certificate that is not PEM", "MIIB...", sig, "signingCertificate", "err.firmware_certificate"},
		{"a PEM block that is not X.509", notCert, sig, "signingCertificate", "err.firmware_certificate"},
		{"a PEM block of another type", key, sig, "signingCertificate", "err.firmware_certificate"},
		{"a certificate followed by text", cert + "trailing", sig, "signingCertificate", "err.firmware_certificate"},
		{"a certificate over 5500 characters", strings.Repeat(cert, 5500/len(cert)+1), sig, "signingCertificate", "err.firmware_certificate"},
		{"a signature that is not base64", cert, "not base64!", "signature", "err.firmware_signature"},
		{"a signature over 800 characters", cert, base64.StdEncoding.EncodeToString(make([]byte, 601)), "signature", "err.firmware_signature"},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := NewFirmwareInput{Name: "fw.bin", SigningCertificate: c.cert, Signature: c.sig}
			err := checkFirmwareSigning(&in)
			if c.field == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				if in.SigningCertificate != strings.TrimSpace(c.cert) || in.Signature != strings.TrimSpace(c.sig) {
					t.Fatalf("not trimmed: %q %q", in.SigningCertificate, in.Signature)
				}
				return
			}
			e, ok := apperr.As(err)
			if !ok || e.Code != apperr.Invalid || e.Key != c.key || e.Args["field"] != c.field {
				t.Fatalf("error %v (%+v), want %s on %s", err, e, c.key, c.field)
			}
		})
	}
}

// params.logType and params.retries of a GetLog, and who may ask for which log: a security log
// needs auth_device_certificate, a diagnostics log nothing beyond control/send.
func TestGetLogParams(t *testing.T) {
	for _, c := range []struct {
		name       string
		p          Params
		field, key string
	}{
		{"a diagnostics log", Params{LogType: LogDiagnostics}, "", ""},
		{"a security log with retries", Params{LogType: LogSecurity, Retries: 3}, "", ""},
		{"no log type", Params{}, "params.logType", "err.invalid"},
		{"an unknown log type", Params{LogType: "DataCollectorLog"}, "params.logType", "err.invalid"},
		{"the log types are case-sensitive", Params{LogType: "securitylog"}, "params.logType", "err.invalid"},
		{"negative retries", Params{LogType: LogDiagnostics, Retries: -1}, "params.retries", "err.invalid"},
		{"too many retries", Params{LogType: LogDiagnostics, Retries: maxUploadRetries + 1}, "params.retries", "err.invalid"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := validateParams(CtlGetLog, &c.p)
			if c.field == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			e, ok := apperr.As(err)
			if !ok || e.Code != apperr.Invalid || e.Key != c.key || e.Args["field"] != c.field {
				t.Fatalf("error %v, want %s on %s", err, c.key, c.field)
			}
		})
	}

	operator := &access.Principal{Keys: map[string]bool{}}
	certs := &access.Principal{Keys: map[string]bool{KeyCertificate: true}}
	for _, c := range []struct {
		name    string
		p       *access.Principal
		log     string
		allowed bool
	}{
		{"an operator may ask for a diagnostics log", operator, LogDiagnostics, true},
		{"an operator without the certificate key may not ask for the security log", operator, LogSecurity, false},
		{"the certificate key allows the security log", certs, LogSecurity, true},
		{"root may ask for the security log", &access.Principal{Root: true}, LogSecurity, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := checkOperationAccess(c.p, CtlGetLog, Params{LogType: c.log}, 2)
			if c.allowed != (err == nil) {
				t.Fatalf("allowed %v, error %v", c.allowed, err)
			}
			if !c.allowed && err != apperr.ErrNoPermission {
				t.Fatalf("error %v, want no permission", err)
			}
		})
	}
}

// The name an upload is kept under says which log it is; a GetDiagnostics upload keeps its own.
func TestUploadName(t *testing.T) {
	long := strings.Repeat("x", 120) + ".tar.gz"
	for _, c := range []struct{ name, kind, given, want string }{
		{"a diagnostics upload keeps the charger's name", "", "diag.log", "diag.log"},
		{"a diagnostics upload without a name", "", "", "diagnostics-SN-1-42.log"},
		{"a security log says so", LogSecurity, "log.tar", "SecurityLog-log.tar"},
		{"a diagnostics log says so", LogDiagnostics, "log.tar", "DiagnosticsLog-log.tar"},
		{"a security log without a name", LogSecurity, "", "SecurityLog-SN-1-42.log"},
		{"unsafe characters are replaced", LogSecurity, "../a b.log", "SecurityLog-a_b.log"},
		{"a long name keeps the kind and the tail", LogSecurity, long, "SecurityLog-" + long[len(long)-(100-len("SecurityLog-")):]},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := uploadName(c.kind, c.given, "SN-1", 42); got != c.want {
				t.Fatalf("%q, want %q", got, c.want)
			}
		})
	}
}

// A command id is its requestId while it fits in 32 bits, and wraps past it.
func TestRequestID(t *testing.T) {
	for _, c := range []struct {
		name string
		id   int64
		want int
	}{
		{"a small id", 42, 42},
		{"the largest int32", 1<<31 - 1, 1<<31 - 1},
		{"2^31 wraps to 0", 1 << 31, 0},
		{"2^31+5 wraps to 5", 1<<31 + 5, 5},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := RequestID(c.id); got != c.want {
				t.Fatalf("%d, want %d", got, c.want)
			}
		})
	}
}
