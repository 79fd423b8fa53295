package webhook

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"sync/atomic"
	"testing"
	"time"
)

func TestDestinationsCheck(t *testing.T) {
	cidrs, err := ParseCIDRs("10.20.0.0/16, 169.254.169.254")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, addr string
		strict     string // the kind refused by default ("" allowed)
		private    string // with AllowPrivate
		listed     string // with Allow = cidrs
	}{
		{"public IPv4", "93.184.215.14", "", "", ""},
		{"public IPv6", "2606:2800:21f:cb07:6820:80da:af6b:8b2c", "", "", ""},
		{"loopback", "127.0.0.1", KindLoopback, "", KindLoopback},
		{"loopback IPv6", "::1", KindLoopback, "", KindLoopback},
		{"loopback as mapped IPv6", "::ffff:127.0.0.1", KindLoopback, "", KindLoopback},
		{"RFC 1918 10/8", "10.1.2.3", KindPrivate, "", KindPrivate},
		{"RFC 1918 listed network", "10.20.3.4", KindPrivate, "", ""},
		{"RFC 1918 172.16/12", "172.31.255.1", KindPrivate, "", KindPrivate},
		{"RFC 1918 192.168/16", "192.168.1.1", KindPrivate, "", KindPrivate},
		{"unique local fc00::/7", "fd12:3456::1", KindPrivate, "", KindPrivate},
		{"CGNAT", "100.64.0.1", KindShared, "", KindShared},
		{"link-local", "169.254.10.1", KindLinkLocal, "", KindLinkLocal},
		{"link-local IPv6", "fe80::1", KindLinkLocal, "", KindLinkLocal},
		{"metadata", "169.254.169.254", KindMetadata, KindMetadata, ""},
		{"metadata (Alibaba)", "100.100.100.200", KindMetadata, KindMetadata, KindMetadata},
		{"metadata (AWS IPv6)", "fd00:ec2::254", KindMetadata, KindMetadata, KindMetadata},
		{"unspecified", "0.0.0.0", KindUnspecified, KindUnspecified, KindUnspecified},
		{"unspecified IPv6", "::", KindUnspecified, KindUnspecified, KindUnspecified},
		{"multicast", "224.0.0.251", KindMulticast, KindMulticast, KindMulticast},
		{"multicast IPv6", "ff02::1", KindMulticast, KindMulticast, KindMulticast},
		{"broadcast", "255.255.255.255", KindReserved, KindReserved, KindReserved},
		{"NAT64 of a private address", "64:ff9b::10.0.0.1", KindPrivate, "", KindPrivate},
		{"6to4 of loopback", "2002:7f00:1::1", KindLoopback, "", KindLoopback},
	} {
		t.Run(c.name, func(t *testing.T) {
			a := netip.MustParseAddr(c.addr)
			for _, p := range []struct {
				policy Destinations
				want   string
			}{{Destinations{}, c.strict}, {Destinations{AllowPrivate: true}, c.private}, {Destinations{Allow: cidrs}, c.listed}} {
				err := p.policy.Check(a)
				var refused *RefusedError
				switch {
				case p.want == "" && err != nil:
					t.Errorf("%+v refuses %s: %v", p.policy, a, err)
				case p.want != "" && (!errors.As(err, &refused) || refused.Kind != p.want):
					t.Errorf("%+v: %s got %v, want refused as %s", p.policy, a, err, p.want)
				}
			}
		})
	}
	if _, err := ParseCIDRs("10.0.0.0/33"); err == nil {
		t.Error("a bad network was accepted")
	}
}

func TestCheckURL(t *testing.T) {
	ctx := context.Background()
	strict := Destinations{}
	for _, c := range []struct {
		name, url string
		form      bool // refused for its form
		refused   bool // refused for its destination
	}{
		{"https with path and query", "https://203.0.113.7/hooks/in?x=1", false, false},
		{"http with port", "http://203.0.113.7:8080/", false, false},
		{"ftp", "ftp://203.0.113.7/x", true, false},
		{"relative", "/hooks", true, false},
		{"user information", "https://user:pw@203.0.113.7/", true, false},
		{"fragment", "https://203.0.113.7/#x", true, false},
		{"no host", "https:///x", true, false},
		{"loopback literal", "http://127.0.0.1:9000/hook", false, true},
		{"IPv6 loopback literal", "http://[::1]/hook", false, true},
		{"localhost name", "http://localhost:9000/hook", false, true},
		{"metadata", "http://169.254.169.254/latest/meta-data", false, true},
		{"private", "https://192.168.1.20/hook", false, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := strict.CheckURL(ctx, c.url)
			switch {
			case c.form && !errors.Is(err, errURLForm):
				t.Errorf("got %v, want a form error", err)
			case c.refused && !errors.Is(err, ErrRefused):
				t.Errorf("got %v, want a refused destination", err)
			case !c.form && !c.refused && err != nil:
				t.Errorf("refused: %v", err)
			}
		})
	}
	if _, err := (Destinations{AllowPrivate: true}).CheckURL(ctx, "http://127.0.0.1:9000/hook"); err != nil {
		t.Errorf("allowed loopback refused: %v", err)
	}
}

// The check runs when the connection is made, on the resolved address: a receiver on loopback
// is not reached without the operator's permission, also through a name.
func TestClientRefusesAtDialTime(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	defer srv.Close()
	t.Run("a loopback address or name is refused before the receiver is reached", func(t *testing.T) {
		for _, target := range []string{srv.URL, "http://localhost:" + srv.URL[len("http://127.0.0.1:"):]} {
			_, err := (Destinations{}).Client(2*time.Second).Post(target, "application/json", nil)
			if !errors.Is(err, ErrRefused) {
				t.Errorf("%s: got %v, want refused", target, err)
			}
		}
		if hits.Load() != 0 {
			t.Fatalf("the receiver was reached %d times", hits.Load())
		}
	})
	t.Run("private destinations pass when allowed", func(t *testing.T) {
		resp, err := (Destinations{AllowPrivate: true}).Client(2*time.Second).Post(srv.URL, "application/json", nil)
		if err != nil {
			t.Fatalf("allowed: %v", err)
		}
		resp.Body.Close()
		if hits.Load() != 1 {
			t.Fatalf("hits %d", hits.Load())
		}
	})
}

// A redirect is an answer, not followed: a public receiver cannot bounce a delivery inward.
func TestClientDoesNotFollowRedirects(t *testing.T) {
	var inner atomic.Int32
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { inner.Add(1) }))
	defer target.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target.URL, http.StatusTemporaryRedirect)
	}))
	defer srv.Close()
	resp, err := (Destinations{AllowPrivate: true}).Client(2*time.Second).Post(srv.URL, "application/json", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusTemporaryRedirect || inner.Load() != 0 {
		t.Fatalf("status %d, redirect target reached %d times", resp.StatusCode, inner.Load())
	}
}
