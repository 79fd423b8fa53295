package tlsconf_test

import (
	"crypto/ecdsa"
	"crypto/rsa"
	"crypto/tls"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"chargeops/internal/tlsconf"
	"chargeops/internal/tlsconf/tlstest"
)

// serve runs a TLS listener on the store's config that completes handshakes and closes.
func serve(t *testing.T, s *tlsconf.Store) string {
	t.Helper()
	ln, err := tls.Listen("tcp", "127.0.0.1:0", s.Config())
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	t.Cleanup(func() { ln.Close(); wg.Wait() })
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			_ = c.(*tls.Conn).Handshake()
			c.Close()
		}
	}()
	return ln.Addr().String()
}

// dial handshakes with a client limited to the given version range and TLS 1.2 suites.
func dial(addr string, minV, maxV uint16, suites ...uint16) (tls.ConnectionState, error) {
	c, err := tls.Dial("tcp", addr, &tls.Config{InsecureSkipVerify: true, MinVersion: minV, MaxVersion: maxV, CipherSuites: suites})
	if err != nil {
		return tls.ConnectionState{}, err
	}
	defer c.Close()
	return c.ConnectionState(), nil
}

func first[A, B any](a A, _ B) A { return a }

func keyKind(st tls.ConnectionState) string {
	switch st.PeerCertificates[0].PublicKey.(type) {
	case *rsa.PublicKey:
		return "rsa"
	case *ecdsa.PublicKey:
		return "ecdsa"
	}
	return "other"
}

func TestServedTLS(t *testing.T) {
	dir := t.TempDir()
	pairs := []tlsconf.Pair{first(tlstest.WritePair(t, dir, "ecdsa", tlstest.ECDSA(t), 1)), first(tlstest.WritePair(t, dir, "rsa", tlstest.RSA(t), 2))}
	plain, err := tlsconf.Load(tlsconf.Options{Pairs: pairs})
	if err != nil {
		t.Fatal(err)
	}
	addr := serve(t, plain)

	t.Run("each client gets the certificate its suites take", func(t *testing.T) {
		for _, c := range []struct {
			name  string
			suite uint16
			want  string
		}{
			{"ECDHE-ECDSA AES-128-GCM", tls.TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256, "ecdsa"},
			{"ECDHE-ECDSA AES-256-GCM", tls.TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384, "ecdsa"},
			{"ECDHE-RSA AES-128-GCM", tls.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256, "rsa"},
			{"ECDHE-RSA AES-256-GCM", tls.TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384, "rsa"},
		} {
			t.Run(c.name, func(t *testing.T) {
				st, err := dial(addr, tls.VersionTLS12, tls.VersionTLS12, c.suite)
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				if st.CipherSuite != c.suite || keyKind(st) != c.want {
					t.Fatalf("got %s with a %s certificate, want %s", tls.CipherSuiteName(st.CipherSuite), keyKind(st), c.want)
				}
			})
		}
	})

	t.Run("TLS 1.3 is served", func(t *testing.T) {
		st, err := dial(addr, tls.VersionTLS13, tls.VersionTLS13)
		if err != nil || st.Version != tls.VersionTLS13 {
			t.Fatalf("TLS 1.3: %v, version %x", err, st.Version)
		}
	})

	t.Run("weak versions and suites are refused", func(t *testing.T) {
		if _, err := dial(addr, tls.VersionTLS10, tls.VersionTLS11); err == nil {
			t.Fatal("TLS 1.1 accepted")
		}
		if _, err := dial(addr, tls.VersionTLS12, tls.VersionTLS12, tls.TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA); err == nil {
			t.Fatal("a CBC suite accepted")
		}
	})

	t.Run("RSA key exchange only when asked for", func(t *testing.T) {
		for _, suite := range tlsconf.RSAKeyExchangeSuites {
			if _, err := dial(addr, tls.VersionTLS12, tls.VersionTLS12, suite); err == nil {
				t.Fatalf("%s accepted without RSAKeyExchange", tls.CipherSuiteName(suite))
			}
		}
		withRSA, err := tlsconf.Load(tlsconf.Options{Pairs: pairs, RSAKeyExchange: true})
		if err != nil {
			t.Fatal(err)
		}
		rsaAddr := serve(t, withRSA)
		for _, suite := range tlsconf.RSAKeyExchangeSuites {
			st, err := dial(rsaAddr, tls.VersionTLS12, tls.VersionTLS12, suite)
			if err != nil {
				t.Fatalf("%s refused with RSAKeyExchange: %v", tls.CipherSuiteName(suite), err)
			}
			if st.CipherSuite != suite || keyKind(st) != "rsa" {
				t.Fatalf("got %s with a %s certificate", tls.CipherSuiteName(st.CipherSuite), keyKind(st))
			}
		}
	})
}

func TestCertificatesReloadWithoutRestart(t *testing.T) {
	dir := t.TempDir()
	ecKey := tlstest.ECDSA(t)
	pair, _ := tlstest.WritePair(t, dir, "server", ecKey, 10)
	var mu sync.Mutex
	now := time.Now()
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	advance := func(d time.Duration) { mu.Lock(); now = now.Add(d); mu.Unlock() }
	s, err := tlsconf.Load(tlsconf.Options{Pairs: []tlsconf.Pair{pair}, Check: 10 * time.Second, Now: clock})
	if err != nil {
		t.Fatal(err)
	}
	addr := serve(t, s)
	serial := func() int64 {
		t.Helper()
		st, err := dial(addr, tls.VersionTLS12, tls.VersionTLS13)
		if err != nil {
			t.Fatal(err)
		}
		return st.PeerCertificates[0].SerialNumber.Int64()
	}
	if got := serial(); got != 10 {
		t.Fatalf("serial %d, want 10", got)
	}

	t.Run("a renewed certificate is served after the next check", func(t *testing.T) {
		tlstest.WritePair(t, dir, "server", ecKey, 11)
		if got := serial(); got != 10 {
			t.Fatalf("serial %d before the check interval, want 10", got)
		}
		advance(11 * time.Second)
		if got := serial(); got != 11 {
			t.Fatalf("serial %d after the check, want 11", got)
		}
	})

	t.Run("a broken file keeps the previous certificate", func(t *testing.T) {
		if err := os.WriteFile(pair.Cert, []byte("-----BEGIN CERTIFICATE-----\nbroken\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		advance(11 * time.Second)
		if got := serial(); got != 11 {
			t.Fatalf("serial %d with a broken file, want 11", got)
		}
		tlstest.WritePair(t, dir, "server", ecKey, 12)
		advance(11 * time.Second)
		if got := serial(); got != 12 {
			t.Fatalf("serial %d once mended, want 12", got)
		}
	})

	t.Run("a pair that does not load is an error at start", func(t *testing.T) {
		if _, err := tlsconf.Load(tlsconf.Options{Pairs: []tlsconf.Pair{{Cert: pair.Cert, Key: filepath.Join(dir, "missing.key")}}}); err == nil {
			t.Fatal("a missing key loaded")
		}
		if _, err := tlsconf.Load(tlsconf.Options{}); err == nil {
			t.Fatal("no pair loaded")
		}
	})
}
