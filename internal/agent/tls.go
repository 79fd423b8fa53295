package agent

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"os"
)

// tlsConfig is the TLS a unit's connection uses on an mqtts:// broker: the configured roots (or
// the system's) and the unit's client certificate, else the agent's shared one.
func tlsConfig(c TLSConfig, u UnitConfig) (*tls.Config, error) {
	cfg := &tls.Config{MinVersion: tls.VersionTLS12, InsecureSkipVerify: c.InsecureSkipVerify} //nolint:gosec // opt-in for test benches
	if c.CAFile != "" {
		pem, err := os.ReadFile(c.CAFile)
		if err != nil {
			return nil, fmt.Errorf("tls.caFile: %w", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("tls.caFile: no PEM certificate in %s", c.CAFile)
		}
		cfg.RootCAs = pool
	}
	certFile, keyFile, field := c.CertFile, c.KeyFile, "tls.certFile"
	if u.CertFile != "" {
		certFile, keyFile, field = u.CertFile, u.KeyFile, "certFile"
	}
	if certFile != "" {
		pair, err := tls.LoadX509KeyPair(certFile, keyFile)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", field, err)
		}
		cfg.Certificates = []tls.Certificate{pair}
	}
	return cfg, nil
}
