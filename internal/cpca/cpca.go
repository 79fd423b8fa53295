// Package cpca is the charge-point CA (docs/security-profiles.md, "The charge-point CA"): it
// signs the client certificates of chargers at security profile 3 from the CSRs they send
// (OCPP 1.6 security extension: SignCertificate, then CertificateSigned), and its certificate
// is what the gateway checks their certificates against.
//
// It is built in by default: made once, on a node's first start, and kept in the database
// (setting cp_ca) with its private key sealed (AES-256-GCM) under a key-encryption key that
// is not in the database, a file on the node (--cp-ca-kek-file; every node that signs needs
// the same one). Or it is the operator's own CA (--cp-ca-cert and --cp-ca-key files).
package cpca

import (
	"context"
	"crypto"
	"crypto/aes"
	"crypto/cipher"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"time"

	"chargeops/internal/setting"
)

// Errors of Sign: the CSR cannot be used (ErrCSR), names another charger (ErrIdentity), or
// this node cannot sign (ErrNoKey: the built-in CA's key is sealed under another node's
// key-encryption key).
var (
	ErrCSR      = errors.New("cpca: the CSR is not a valid PKCS#10 request")
	ErrIdentity = errors.New("cpca: the CSR's common name is not the charger's SN")
	ErrNoKey    = errors.New("cpca: this node cannot open the CA key (another --cp-ca-kek-file)")
)

// Options say which CA it is.
type Options struct {
	CertFile, KeyFile string        // the operator's CA (both or neither)
	KEKFile           string        // the built-in CA's key-encryption key; made when absent
	Validity          time.Duration // of the certificates it signs; default a year
	Organization      string        // the built-in CA's O (default "chargeops")
}

// CA signs chargers' CSRs.
type CA struct {
	cert     *x509.Certificate
	certPEM  []byte
	key      crypto.Signer // nil: this node cannot sign
	validity time.Duration
	now      func() time.Time
	source   string              // SourceBuiltIn or SourceFiles
	extra    []*x509.Certificate // other CAs trusted for client certificates (Trust)
}

// Where the CA comes from (Status.Source).
const (
	SourceBuiltIn = "built-in" // made by chargeops, kept in the database
	SourceFiles   = "files"    // the operator's, --cp-ca-cert and --cp-ca-key
)

// settingKey holds the built-in CA: its certificate and its sealed key.
const settingKey = "cp_ca"

type stored struct {
	Cert      string `json:"cert"`      // PEM
	SealedKey string `json:"sealedKey"` // hex: nonce, then AES-GCM of the PKCS#8 key
}

// Open loads the operator's CA from files, or the built-in one from the database (making it
// on first use).
func Open(ctx context.Context, settings *setting.Store, o Options) (*CA, error) {
	if o.Validity <= 0 {
		o.Validity = 365 * 24 * time.Hour
	}
	if o.CertFile != "" || o.KeyFile != "" {
		return fromFiles(o)
	}
	kek, err := readKEK(o.KEKFile)
	if err != nil {
		return nil, err
	}
	v, err := settings.GetOrCreate(ctx, settingKey, func() (string, error) { return newBuiltIn(kek, o.Organization) })
	if err != nil {
		return nil, fmt.Errorf("cpca: built-in CA: %w", err)
	}
	var s stored
	if err := json.Unmarshal([]byte(v), &s); err != nil {
		return nil, fmt.Errorf("cpca: built-in CA unreadable: %w", err)
	}
	cert, err := parseCert([]byte(s.Cert))
	if err != nil {
		return nil, err
	}
	ca := &CA{cert: cert, certPEM: []byte(s.Cert), validity: o.Validity, now: time.Now, source: SourceBuiltIn}
	if key, err := unseal(kek, s.SealedKey); err == nil {
		ca.key = key
	}
	return ca, nil
}

func fromFiles(o Options) (*CA, error) {
	pair, err := tls.LoadX509KeyPair(o.CertFile, o.KeyFile)
	if err != nil {
		return nil, fmt.Errorf("cpca: cp-ca-cert and cp-ca-key: %w", err)
	}
	cert, err := x509.ParseCertificate(pair.Certificate[0])
	if err != nil {
		return nil, fmt.Errorf("cpca: cp-ca-cert: %w", err)
	}
	if !cert.IsCA {
		return nil, fmt.Errorf("cpca: cp-ca-cert %s is not a CA certificate", o.CertFile)
	}
	key, ok := pair.PrivateKey.(crypto.Signer)
	if !ok {
		return nil, fmt.Errorf("cpca: cp-ca-key: not a signing key")
	}
	return &CA{cert: cert, certPEM: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: cert.Raw}), key: key, validity: o.Validity, now: time.Now, source: SourceFiles}, nil
}

// Cert is the CA's certificate; CertPEM the same in PEM.
func (c *CA) Cert() *x509.Certificate { return c.cert }
func (c *CA) CertPEM() []byte         { return c.certPEM }

// CanSign tells whether this node holds the CA's key.
func (c *CA) CanSign() bool { return c.key != nil }

// Sign checks a charger's CSR (PEM, PKCS#10, self-signed by its key; common name = sn) and
// signs a client certificate for it: subject as requested, clientAuth, valid for the CA's
// validity. It returns the chain as the charger installs it (the certificate, then the CA's)
// and the certificate.
func (c *CA) Sign(csrPEM, sn string) (chain string, leaf *x509.Certificate, err error) {
	if c.key == nil {
		return "", nil, ErrNoKey
	}
	block, _ := pem.Decode([]byte(csrPEM))
	if block == nil || block.Type != "CERTIFICATE REQUEST" {
		return "", nil, ErrCSR
	}
	csr, err := x509.ParseCertificateRequest(block.Bytes)
	if err != nil || csr.CheckSignature() != nil {
		return "", nil, ErrCSR
	}
	if csr.Subject.CommonName != sn {
		return "", nil, ErrIdentity
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 127))
	if err != nil {
		return "", nil, fmt.Errorf("cpca: serial: %w", err)
	}
	now := c.now()
	tmpl := &x509.Certificate{SerialNumber: serial, Subject: csr.Subject, NotBefore: now.Add(-5 * time.Minute), NotAfter: now.Add(c.validity),
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageKeyAgreement, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, c.cert, csr.PublicKey, c.key)
	if err != nil {
		return "", nil, fmt.Errorf("cpca: sign: %w", err)
	}
	leaf, err = x509.ParseCertificate(der)
	if err != nil {
		return "", nil, fmt.Errorf("cpca: sign: %w", err)
	}
	var b strings.Builder
	_ = pem.Encode(&b, &pem.Block{Type: "CERTIFICATE", Bytes: der})
	b.Write(c.certPEM)
	return b.String(), leaf, nil
}

// newBuiltIn makes the built-in CA: a P-256 key, a self-signed CA certificate for 20 years
// that signs end certificates only, and the key sealed under kek.
func newBuiltIn(kek []byte, org string) (string, error) {
	if org == "" {
		org = "chargeops"
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return "", err
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 127))
	if err != nil {
		return "", err
	}
	now := time.Now()
	tmpl := &x509.Certificate{SerialNumber: serial, Subject: pkix.Name{CommonName: org + " charge-point CA", Organization: []string{org}},
		NotBefore: now.Add(-time.Hour), NotAfter: now.AddDate(20, 0, 0), IsCA: true, BasicConstraintsValid: true, MaxPathLenZero: true,
		KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageCRLSign}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return "", err
	}
	sealed, err := seal(kek, key)
	if err != nil {
		return "", err
	}
	v, err := json.Marshal(stored{Cert: string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})), SealedKey: sealed})
	return string(v), err
}

// aad binds a sealed key to its use.
var aad = []byte("chargeops cp-ca key v1")

func seal(kek []byte, key crypto.Signer) (string, error) {
	der, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return "", err
	}
	g, err := gcm(kek)
	if err != nil {
		return "", err
	}
	nonce := make([]byte, g.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return "", err
	}
	return hex.EncodeToString(g.Seal(nonce, nonce, der, aad)), nil
}

func unseal(kek []byte, sealed string) (crypto.Signer, error) {
	raw, err := hex.DecodeString(sealed)
	if err != nil {
		return nil, err
	}
	g, err := gcm(kek)
	if err != nil {
		return nil, err
	}
	if len(raw) < g.NonceSize() {
		return nil, ErrNoKey
	}
	der, err := g.Open(nil, raw[:g.NonceSize()], raw[g.NonceSize():], aad)
	if err != nil {
		return nil, ErrNoKey
	}
	k, err := x509.ParsePKCS8PrivateKey(der)
	if err != nil {
		return nil, err
	}
	s, ok := k.(crypto.Signer)
	if !ok {
		return nil, ErrNoKey
	}
	return s, nil
}

func gcm(kek []byte) (cipher.AEAD, error) {
	block, err := aes.NewCipher(kek)
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(block)
}

// readKEK reads the key-encryption key (64 hex digits), making the file (0600) when absent.
func readKEK(path string) ([]byte, error) {
	if path == "" {
		return nil, errors.New("cpca: no key-encryption key file (--cp-ca-kek-file)")
	}
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		k := make([]byte, 32)
		if _, err := rand.Read(k); err != nil {
			return nil, err
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return nil, fmt.Errorf("cpca: make %s: %w", path, err)
		}
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, os.ErrExist) {
			return readKEK(path) // another process made it meanwhile
		}
		if err != nil {
			return nil, fmt.Errorf("cpca: make %s: %w", path, err)
		}
		_, werr := f.WriteString(hex.EncodeToString(k) + "\n")
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			return nil, fmt.Errorf("cpca: write %s: %w", path, werr)
		}
		return k, nil
	}
	if err != nil {
		return nil, fmt.Errorf("cpca: read %s: %w", path, err)
	}
	k, err := hex.DecodeString(strings.TrimSpace(string(b)))
	if err != nil || len(k) != 32 {
		return nil, fmt.Errorf("cpca: %s does not hold 64 hex digits", path)
	}
	return k, nil
}

func parseCert(b []byte) (*x509.Certificate, error) {
	block, _ := pem.Decode(b)
	if block == nil {
		return nil, errors.New("cpca: no PEM certificate")
	}
	c, err := x509.ParseCertificate(block.Bytes)
	if err != nil {
		return nil, fmt.Errorf("cpca: certificate: %w", err)
	}
	return c, nil
}
