package ocpp16

import (
	"context"
	"crypto/x509"
	"encoding/base64"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
)

// Client certificates behind a TLS-terminating proxy (docs/security-profiles.md, "Behind a
// proxy"): the proxy checks nothing for chargeops, it only passes on the certificate the
// charger showed, in a header (Options.CertHeader). That header is read only on connections
// from the proxies' addresses (Options.CertProxies); anyone else could write it.

// Bounds of a certificate header: a chain of a few certificates, URL-escaped PEM at most.
const (
	maxCertHeader = 16 << 10
	maxCertChain  = 4
)

// proxyChainKey keeps, in a request's context, the chain a trusted proxy passed on
// (withProxyChain), so the admission's checks and the file links' scheme read it once.
type proxyChainKey struct{}

// withProxyChain reads the certificate header once for the whole handshake: the chain a trusted
// proxy passed on goes into r's context; a header from any other address, or one that cannot
// be read, is logged and left out.
func (g *Gateway) withProxyChain(r *http.Request) *http.Request {
	if g.opt.CertHeader == "" || (r.TLS != nil && len(r.TLS.PeerCertificates) > 0) {
		return r
	}
	v := r.Header.Get(g.opt.CertHeader)
	if v == "" {
		return r
	}
	if !g.fromCertProxy(r) {
		slog.Warn("ocpp client certificate header ignored: not from a trusted proxy", "header", g.opt.CertHeader, "remote", r.RemoteAddr)
		return r
	}
	chain, err := parseCertHeader(v)
	if err != nil {
		slog.Info("ocpp client certificate header unreadable", "header", g.opt.CertHeader, "remote", r.RemoteAddr, "err", err)
		return r
	}
	return r.WithContext(context.WithValue(r.Context(), proxyChainKey{}, chain))
}

// peerCertificates is the chain the charger showed: the TLS connection's own, else the one a
// trusted proxy passed on (withProxyChain). fromProxy says it came from the header.
func (g *Gateway) peerCertificates(r *http.Request) (chain []*x509.Certificate, fromProxy bool) {
	if r.TLS != nil && len(r.TLS.PeerCertificates) > 0 {
		return r.TLS.PeerCertificates, false
	}
	chain, _ = r.Context().Value(proxyChainKey{}).([]*x509.Certificate)
	return chain, len(chain) > 0
}

// fromCertProxy reports whether r's connection comes from one of Options.CertProxies (the TCP
// peer's address: forwarded-for headers are not asked).
func (g *Gateway) fromCertProxy(r *http.Request) bool {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	addr, err := netip.ParseAddr(host)
	if err != nil {
		return false
	}
	addr = addr.Unmap()
	for _, p := range g.opt.CertProxies {
		if p.Contains(addr) {
			return true
		}
	}
	return false
}

// certHeaderError is why a certificate header could not be read.
type certHeaderError string

func (e certHeaderError) Error() string { return string(e) }

// parseCertHeader reads the chain a proxy passed on, leaf first, in the forms proxies write:
// URL-escaped PEM (nginx $ssl_client_escaped_cert), PEM whose line breaks became spaces, and
// base64 DER, several separated by commas (Traefik, HAProxy).
func parseCertHeader(v string) ([]*x509.Certificate, error) {
	if len(v) > maxCertHeader {
		return nil, certHeaderError("header too long")
	}
	if strings.Contains(v, "%") {
		u, err := url.QueryUnescape(v)
		if err != nil {
			return nil, certHeaderError("bad URL escape")
		}
		v = u
	}
	var ders [][]byte
	if strings.Contains(v, "-----BEGIN") {
		for _, part := range strings.Split(v, "-----END CERTIFICATE-----") {
			i := strings.Index(part, "-----BEGIN CERTIFICATE-----")
			if i < 0 {
				continue
			}
			body := part[i+len("-----BEGIN CERTIFICATE-----"):]
			der, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(body), ""))
			if err != nil {
				return nil, certHeaderError("bad PEM body")
			}
			ders = append(ders, der)
		}
	} else {
		for _, part := range strings.Split(v, ",") {
			der, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(part), ""))
			if err != nil {
				return nil, certHeaderError("bad base64")
			}
			ders = append(ders, der)
		}
	}
	if len(ders) == 0 || len(ders) > maxCertChain {
		return nil, certHeaderError("no certificate, or too many")
	}
	chain := make([]*x509.Certificate, 0, len(ders))
	for _, der := range ders {
		c, err := x509.ParseCertificate(der)
		if err != nil {
			return nil, certHeaderError("not a certificate: " + err.Error())
		}
		chain = append(chain, c)
	}
	return chain, nil
}
