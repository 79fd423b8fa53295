package cpca

import (
	"crypto/sha256"
	"crypto/x509"
	"encoding/hex"
	"encoding/pem"
	"strings"
)

// What the console shows of the charge-point CAs (the device-access page's "Charge-point CA"
// tab; docs/security-profiles.md, "The charge-point CA"): the signing CA and the other CAs whose
// client certificates the gateway accepts (--ocpp-client-ca).

// CertInfo describes one CA certificate.
type CertInfo struct {
	Subject     string `json:"subject"`
	Issuer      string `json:"issuer"`
	Serial      string `json:"serial"` // hex
	NotBefore   int64  `json:"notBefore"`
	NotAfter    int64  `json:"notAfter"`
	Fingerprint string `json:"fingerprint"` // SHA-256 of the DER, hex
	KeyType     string `json:"keyType"`     // ECDSA, RSA, Ed25519
	PEM         string `json:"pem"`
}

// Status is the charge-point CA as an operator sees it.
type Status struct {
	Source       string     `json:"source"`  // SourceBuiltIn or SourceFiles
	CanSign      bool       `json:"canSign"` // this node holds the key
	ValidityDays int        `json:"validityDays"`
	CA           CertInfo   `json:"ca"`
	Trusted      []CertInfo `json:"trusted"` // the other CAs accepted for client certificates
}

// Trust adds CAs whose client certificates the gateway accepts besides this CA's (they sign
// nothing here).
func (c *CA) Trust(certs []*x509.Certificate) { c.extra = append(c.extra, certs...) }

// Pool is every CA a charger's client certificate may chain to: this one and the trusted ones.
func (c *CA) Pool() *x509.CertPool {
	pool := x509.NewCertPool()
	pool.AddCert(c.cert)
	for _, e := range c.extra {
		pool.AddCert(e)
	}
	return pool
}

// Status describes the CA and the CAs it trusts.
func (c *CA) Status() Status {
	st := Status{Source: c.source, CanSign: c.CanSign(), ValidityDays: int(c.validity.Hours() / 24), CA: describe(c.cert), Trusted: []CertInfo{}}
	for _, e := range c.extra {
		st.Trusted = append(st.Trusted, describe(e))
	}
	return st
}

func describe(c *x509.Certificate) CertInfo {
	sum := sha256.Sum256(c.Raw)
	return CertInfo{Subject: c.Subject.String(), Issuer: c.Issuer.String(), Serial: strings.ToUpper(c.SerialNumber.Text(16)),
		NotBefore: c.NotBefore.UnixMilli(), NotAfter: c.NotAfter.UnixMilli(), Fingerprint: hex.EncodeToString(sum[:]),
		KeyType: c.PublicKeyAlgorithm.String(), PEM: string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: c.Raw}))}
}
