package ocpp16

import (
	"encoding/base64"
	"encoding/pem"
	"net/url"
	"testing"
)

// FuzzParseCertHeader: a header from a proxy never panics the gateway
// (README: make fuzz).
func FuzzParseCertHeader(f *testing.F) {
	der := selfSigned(f, "SN-1")
	f.Add(url.QueryEscape(string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}))))
	f.Add(base64.StdEncoding.EncodeToString(der))
	f.Add("-----BEGIN CERTIFICATE----- AAAA -----END CERTIFICATE-----")
	f.Add("%")
	f.Fuzz(func(t *testing.T, v string) {
		chain, err := parseCertHeader(v)
		if err == nil && len(chain) == 0 {
			t.Fatal("no error and no certificate")
		}
	})
}
