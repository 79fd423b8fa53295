// Package tlsconf is the TLS a listener serves (the OCPP gateway's --ocpp-addr): several
// certificate pairs, RSA and ECDSA, the one that fits each client chosen per handshake; TLS 1.2
// with the OCPP security whitepaper's cipher suites, and TLS 1.3; certificate files read again
// when they change, without a restart (docs/security-profiles.md).
package tlsconf

import (
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"time"
)

// Pair is one certificate chain file and its private key file (PEM).
type Pair struct {
	Cert, Key string
}

// Options configure a Store.
type Options struct {
	// Pairs in order of preference: the first one the client supports is served.
	Pairs []Pair
	// RSAKeyExchange also offers TLS_RSA_WITH_AES_128_GCM_SHA256 and _256_GCM_SHA384, which the
	// whitepaper lists for chargers without ECDHE. They have no forward secrecy: a recorded
	// session can be read later by whoever obtains the server's RSA key. Off by default.
	RSAKeyExchange bool
	// Check is how often, at most, the files are looked at for a change (at a handshake);
	// default 10 s.
	Check time.Duration
	// Now is the clock (tests); default time.Now.
	Now func() time.Time
}

// Suites are the TLS 1.2 cipher suites served: the whitepaper's ECDHE suites with AES-GCM.
// TLS 1.3 has its own suites (all AEAD), which Go does not let a server narrow.
var Suites = []uint16{
	tls.TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,
	tls.TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384,
	tls.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,
	tls.TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384,
}

// RSAKeyExchangeSuites are added to Suites by Options.RSAKeyExchange.
var RSAKeyExchangeSuites = []uint16{
	tls.TLS_RSA_WITH_AES_128_GCM_SHA256,
	tls.TLS_RSA_WITH_AES_256_GCM_SHA384,
}

// loaded is one pair as last read, with the files' bytes then.
type loaded struct {
	pair    Pair
	cert    *tls.Certificate
	certPEM []byte
	keyPEM  []byte
}

// Store holds the certificates a listener serves.
type Store struct {
	opt     Options
	mu      sync.Mutex
	pairs   []loaded
	checked time.Time
}

// Load reads every pair; a pair that does not load is an error naming its files.
func Load(opt Options) (*Store, error) {
	if len(opt.Pairs) == 0 {
		return nil, errors.New("tlsconf: no certificate")
	}
	if opt.Check <= 0 {
		opt.Check = 10 * time.Second
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	s := &Store{opt: opt, checked: opt.Now()}
	for _, p := range opt.Pairs {
		l, err := load(p)
		if err != nil {
			return nil, err
		}
		s.pairs = append(s.pairs, l)
	}
	return s, nil
}

// load reads a pair's files and parses them.
func load(p Pair) (loaded, error) {
	certPEM, keyPEM, err := readPair(p)
	if err != nil {
		return loaded{}, err
	}
	return parse(p, certPEM, keyPEM)
}

// readPair reads a pair's two files.
func readPair(p Pair) (certPEM, keyPEM []byte, err error) {
	if certPEM, err = os.ReadFile(p.Cert); err != nil {
		return nil, nil, fmt.Errorf("tlsconf: certificate: %w", err)
	}
	if keyPEM, err = os.ReadFile(p.Key); err != nil {
		return nil, nil, fmt.Errorf("tlsconf: key: %w", err)
	}
	return certPEM, keyPEM, nil
}

// parse makes a pair's certificate from the bytes of its files.
func parse(p Pair, certPEM, keyPEM []byte) (loaded, error) {
	c, err := tls.X509KeyPair(certPEM, keyPEM)
	if err != nil {
		return loaded{}, fmt.Errorf("tlsconf: pair %s, %s: %w", p.Cert, p.Key, err)
	}
	return loaded{pair: p, cert: &c, certPEM: certPEM, keyPEM: keyPEM}, nil
}

// Config is the server side of the TLS handshake: TLS 1.2 (Suites) and 1.3, the certificate
// chosen by getCertificate.
func (s *Store) Config() *tls.Config {
	suites := append([]uint16(nil), Suites...)
	if s.opt.RSAKeyExchange {
		suites = append(suites, RSAKeyExchangeSuites...)
	}
	return &tls.Config{
		MinVersion:     tls.VersionTLS12,
		CipherSuites:   suites,
		GetCertificate: s.getCertificate,
	}
}

// getCertificate serves the first pair the client supports (its signature schemes, curves and
// suites: an ECDSA certificate to a client that offers only RSA suites does not fit), after
// reading again the files that changed; the first pair when none fits.
func (s *Store) getCertificate(hello *tls.ClientHelloInfo) (*tls.Certificate, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if now := s.opt.Now(); now.Sub(s.checked) >= s.opt.Check {
		s.checked = now
		s.refresh()
	}
	for _, l := range s.pairs {
		if hello.SupportsCertificate(l.cert) == nil {
			return l.cert, nil
		}
	}
	// none fits (a client offering only suites not served): the first one, so that the
	// handshake fails on the suites with handshake_failure (40), as crypto/tls does
	return s.pairs[0].cert, nil
}

// refresh reads again each pair whose files changed (their bytes: a renewal that keeps the
// size and the second of the old file is still seen); a pair that no longer loads (a file half
// written, a key that does not match) keeps its previous certificate and is tried again at the
// next check.
func (s *Store) refresh() {
	for i, l := range s.pairs {
		c, k, err := readPair(l.pair)
		if err == nil && bytes.Equal(c, l.certPEM) && bytes.Equal(k, l.keyPEM) {
			continue
		}
		var next loaded
		if err == nil {
			next, err = parse(l.pair, c, k)
		}
		if err != nil {
			slog.Warn("tls certificate not reloaded; the previous one is still served", "cert", l.pair.Cert, "err", err)
			continue
		}
		s.pairs[i] = next
		slog.Info("tls certificate reloaded", "cert", l.pair.Cert, "notAfter", next.cert.Leaf.NotAfter)
	}
}

// LoadCerts reads CA certificates from PEM files (each may hold several): the other
// charge-point CAs whose client certificates prove security profile 3 (--ocpp-client-ca).
// A file without one is an error.
func LoadCerts(files []string) ([]*x509.Certificate, error) {
	var out []*x509.Certificate
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("tlsconf: CA file: %w", err)
		}
		n := len(out)
		for rest := b; ; {
			var blk *pem.Block
			if blk, rest = pem.Decode(rest); blk == nil {
				break
			}
			if blk.Type != "CERTIFICATE" {
				continue
			}
			c, err := x509.ParseCertificate(blk.Bytes)
			if err != nil {
				return nil, fmt.Errorf("tlsconf: CA file %s: %w", f, err)
			}
			out = append(out, c)
		}
		if len(out) == n {
			return nil, fmt.Errorf("tlsconf: CA file %s: no PEM certificate in it", f)
		}
	}
	return out, nil
}
