package webhook

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"syscall"
	"time"
)

// Allowed destinations (docs/webhooks.md, "Allowed destinations"). A webhook must not let an
// application reach what only the server can: its loopback, the private network, link-local
// addresses and the cloud's metadata service. The check runs on the resolved address when the
// connection is made (net.Dialer.Control), so a name that resolves to a public address when the
// webhook is saved and to a private one later (DNS rebinding) is still refused; it also runs
// when a webhook is saved, for a clear error.

// Destinations is the operator's policy: AllowPrivate lets loopback, private (RFC 1918,
// fc00::/7), shared (100.64.0.0/10) and link-local addresses through, except the metadata
// addresses; Allow lists networks allowed whatever their kind (metadata addresses too, when
// listed). Unspecified, multicast, broadcast and reserved addresses are never allowed.
type Destinations struct {
	AllowPrivate bool
	Allow        []netip.Prefix
}

// ParseCIDRs reads a comma-separated list of networks (a bare address is one host).
func ParseCIDRs(s string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for part := range strings.SplitSeq(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		if !strings.Contains(part, "/") {
			a, err := netip.ParseAddr(part)
			if err != nil {
				return nil, fmt.Errorf("%q is neither a network nor an address", part)
			}
			out = append(out, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
			continue
		}
		p, err := netip.ParsePrefix(part)
		if err != nil {
			return nil, fmt.Errorf("%q is not a network such as 10.1.0.0/16: %v", part, err)
		}
		out = append(out, p.Masked())
	}
	return out, nil
}

// Kinds of refused addresses (the reason in errors and delivery logs).
const (
	KindUnspecified = "unspecified"
	KindMulticast   = "multicast"
	KindReserved    = "reserved"
	KindMetadata    = "metadata"
	KindLoopback    = "loopback"
	KindLinkLocal   = "link-local"
	KindPrivate     = "private"
	KindShared      = "shared (CGNAT)"
)

var (
	never = []struct {
		p    netip.Prefix
		kind string
	}{
		{netip.MustParsePrefix("0.0.0.0/8"), KindUnspecified},
		{netip.MustParsePrefix("::/128"), KindUnspecified},
		{netip.MustParsePrefix("224.0.0.0/4"), KindMulticast},
		{netip.MustParsePrefix("ff00::/8"), KindMulticast},
		{netip.MustParsePrefix("240.0.0.0/4"), KindReserved}, // with 255.255.255.255, the broadcast
	}
	metadata = []netip.Prefix{
		netip.MustParsePrefix("169.254.169.254/32"), // AWS, GCP, Azure, OpenStack, ...
		netip.MustParsePrefix("169.254.170.2/32"),   // AWS ECS task metadata
		netip.MustParsePrefix("100.100.100.200/32"), // Alibaba Cloud
		netip.MustParsePrefix("fd00:ec2::254/128"),  // AWS over IPv6
	}
	private = []struct {
		p    netip.Prefix
		kind string
	}{
		{netip.MustParsePrefix("127.0.0.0/8"), KindLoopback},
		{netip.MustParsePrefix("::1/128"), KindLoopback},
		{netip.MustParsePrefix("169.254.0.0/16"), KindLinkLocal},
		{netip.MustParsePrefix("fe80::/10"), KindLinkLocal},
		{netip.MustParsePrefix("10.0.0.0/8"), KindPrivate},
		{netip.MustParsePrefix("172.16.0.0/12"), KindPrivate},
		{netip.MustParsePrefix("192.168.0.0/16"), KindPrivate},
		{netip.MustParsePrefix("fc00::/7"), KindPrivate},
		{netip.MustParsePrefix("100.64.0.0/10"), KindShared},
	}
	nat64  = netip.MustParsePrefix("64:ff9b::/96")
	sixTo4 = netip.MustParsePrefix("2002::/16")
)

// RefusedError is a destination the policy refuses.
type RefusedError struct {
	Addr netip.Addr
	Kind string
}

func (e *RefusedError) Error() string {
	return fmt.Sprintf("webhook destination %s refused: %s address", e.Addr, e.Kind)
}

// ErrRefused matches every RefusedError (errors.Is).
var ErrRefused = errors.New("webhook destination refused")

func (e *RefusedError) Is(target error) bool { return target == ErrRefused }

// Check answers nil when a may be dialled, or a *RefusedError. IPv4 addresses inside IPv6
// (mapped, NAT64, 6to4) are checked as the IPv4 address they carry.
func (d Destinations) Check(a netip.Addr) error {
	a = embedded(a.Unmap()).WithZone("")
	for _, n := range never {
		if n.p.Contains(a) {
			return &RefusedError{Addr: a, Kind: n.kind}
		}
	}
	for _, p := range d.Allow {
		if p.Contains(a) {
			return nil
		}
	}
	for _, p := range metadata {
		if p.Contains(a) {
			return &RefusedError{Addr: a, Kind: KindMetadata}
		}
	}
	for _, n := range private {
		if n.p.Contains(a) {
			if d.AllowPrivate {
				return nil
			}
			return &RefusedError{Addr: a, Kind: n.kind}
		}
	}
	return nil
}

// embedded is the IPv4 address an IPv6 translation address carries, or a itself.
func embedded(a netip.Addr) netip.Addr {
	if !a.Is6() {
		return a
	}
	b := a.As16()
	switch {
	case nat64.Contains(a):
		return netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]})
	case sixTo4.Contains(a):
		return netip.AddrFrom4([4]byte{b[2], b[3], b[4], b[5]})
	}
	return a
}

// control is the dialer's check of the address it is about to connect to (after DNS).
func (d Destinations) control(_, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("webhook destination %q: %w", address, ErrRefused)
	}
	return d.Check(ap.Addr())
}

// Client is the HTTP client of deliveries: every connection is checked by the policy, no proxy
// from the environment (it would be dialled instead), no redirects (a 3xx is an answer that is
// not 2xx), at most timeout per attempt.
func (d Destinations) Client(timeout time.Duration) *http.Client {
	dialer := &net.Dialer{Timeout: timeout, KeepAlive: 30 * time.Second, Control: d.control}
	tr := &http.Transport{
		Proxy:                 nil,
		DialContext:           dialer.DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          64,
		MaxIdleConnsPerHost:   4,
		IdleConnTimeout:       60 * time.Second,
		TLSHandshakeTimeout:   timeout,
		ResponseHeaderTimeout: timeout,
	}
	return &http.Client{Transport: tr, Timeout: timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// MaxURL bounds a webhook's URL (bytes).
const MaxURL = 1000

// URL problems found when a webhook is saved.
var (
	errURLForm = errors.New("not an absolute http or https URL without user information or fragment")
)

// CheckURL checks a webhook URL when it is saved: an absolute http or https URL with a host,
// no user information and no fragment, whose host is not a refused address. A host name is
// resolved (at most a few seconds): one that resolves to a refused address is refused; one
// that does not resolve now is accepted, the check at dial time decides then.
func (d Destinations) CheckURL(ctx context.Context, raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil || len(raw) > MaxURL || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Hostname() == "" ||
		u.User != nil || u.Fragment != "" || strings.ContainsAny(raw, " \t\r\n") {
		return nil, errURLForm
	}
	host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	if a, err := netip.ParseAddr(host); err == nil {
		return u, d.Check(a)
	}
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return u, d.Check(netip.MustParseAddr("127.0.0.1"))
	}
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	addrs, err := net.DefaultResolver.LookupNetIP(ctx, "ip", host)
	if err != nil {
		return u, nil
	}
	for _, a := range addrs {
		if err := d.Check(a); err != nil {
			return u, err
		}
	}
	return u, nil
}
