package openapi

import (
	"net/url"
	"reflect"
	"slices"
	"strings"
	"testing"

	"chargeops/internal/apperr"
)

// FuzzCanonicalQuery feeds any raw query to the canonicalisation the signature covers
// (docs/openapi.md, "The query"; RFC 3986 percent-encoding). What must hold:
//   - the canonical query is canonical: only unreserved characters and upper-case %XX escapes,
//     one "=" per pair, pairs sorted, and canonicalising it again changes nothing;
//   - it passes CheckQuery, unless a key appears twice or is empty;
//   - a query CheckQuery accepts means to net/url what its canonical form means, and its
//     canonical form is its own pairs sorted: what is signed is what the handler reads.
func FuzzCanonicalQuery(f *testing.F) {
	for _, s := range []string{
		"", "pageSize=20&page=1", "b=2&a=1", "q=a%3Bb%26c%3Dd%20e%2B", "q=caf%C3%A9", "q=", "q",
		"a=1&a=2", "a=1&%61=2", "a=1;b=2", "q=a+b", "q=%3b", "q=%41", "q=%zz", "a=1&&b=2", "a=1&", "=1",
		"q=caf\u00e9", "q=a b", "k=v=w", "%=%", "a=%2", "~-._=~-._", "z=1&y=2&x=3&x=2",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		c := CanonicalQuery(raw)
		if again := CanonicalQuery(c); again != c {
			t.Fatalf("canonical query of %q is %q, canonicalised again %q", raw, c, again)
		}
		checkCanonical(t, raw, c)
		if err := CheckQuery(c); err != nil && !isDuplicate(err) && !strings.HasPrefix(c, "=") && !strings.Contains(c, "&=") {
			t.Fatalf("canonical query %q of %q refused: %v", c, raw, err)
		}
		if raw == "" || CheckQuery(raw) != nil {
			return
		}
		if err := CheckQuery(c); err != nil {
			t.Fatalf("%q accepted, its canonical query %q refused: %v", raw, c, err)
		}
		sent, err1 := url.ParseQuery(raw)
		signed, err2 := url.ParseQuery(c)
		if err1 != nil || err2 != nil || !reflect.DeepEqual(sent, signed) {
			t.Fatalf("accepted %q reads %v (%v), its canonical %q reads %v (%v)", raw, sent, err1, c, signed, err2)
		}
		var own []string
		for part := range strings.SplitSeq(raw, "&") {
			if !strings.Contains(part, "=") {
				part += "="
			}
			own = append(own, part)
		}
		slices.SortFunc(own, comparePairs)
		if strings.Join(own, "&") != c {
			t.Fatalf("accepted %q canonicalised to %q, not its own pairs sorted %q", raw, c, own)
		}
	})
}

func isDuplicate(err error) bool {
	e, ok := apperr.As(err)
	return ok && e.Key == ErrQueryDuplicate.Key
}

// comparePairs orders "k=v" pairs by key, then value, as CanonicalQuery does.
func comparePairs(a, b string) int {
	ak, av, _ := strings.Cut(a, "=")
	bk, bv, _ := strings.Cut(b, "=")
	if ak != bk {
		return strings.Compare(ak, bk)
	}
	return strings.Compare(av, bv)
}

func checkCanonical(t *testing.T, raw, c string) {
	t.Helper()
	if c == "" {
		return
	}
	for i := 0; i < len(c); i++ {
		switch ch := c[i]; {
		case 'A' <= ch && ch <= 'Z', 'a' <= ch && ch <= 'z', '0' <= ch && ch <= '9', strings.IndexByte("-._~=&", ch) >= 0:
		case ch == '%':
			if i+2 >= len(c) || !strings.ContainsRune("0123456789ABCDEF", rune(c[i+1])) || !strings.ContainsRune("0123456789ABCDEF", rune(c[i+2])) {
				t.Fatalf("canonical query %q of %q: bad escape at %d", c, raw, i)
			}
			i += 2
		default:
			t.Fatalf("canonical query %q of %q holds %q", c, raw, ch)
		}
	}
	pairs := strings.Split(c, "&")
	for _, p := range pairs {
		if strings.Count(p, "=") != 1 {
			t.Fatalf("canonical query %q of %q: pair %q", c, raw, p)
		}
	}
	if !slices.IsSortedFunc(pairs, comparePairs) {
		t.Fatalf("canonical query %q of %q is not sorted", c, raw)
	}
}

// FuzzSignature signs any request and checks it: the signature verifies under its secret (in
// either hex case), and not after a change to the body, the path or the query's meaning, nor
// under another secret. A path as net/url escapes it keeps the string to sign at eight lines.
func FuzzSignature(f *testing.F) {
	f.Add("GET", "/openapi/v1/devices", "page=1&pageSize=20", []byte(""), []byte("secret-secret-secret-secret-32by"))
	f.Add("post", "/openapi/v1/devices/%E4%B8%AD", "", []byte(`{"ids":[1,2]}`), []byte("s"))
	f.Add("PUT", "/a b\n/c", "q=%20&r", []byte("\x00\xff"), []byte{})
	f.Fuzz(func(t *testing.T, method, path, query string, body, secret []byte) {
		u := &url.URL{Path: path}
		r := Request{Method: method, Path: u.EscapedPath(), RawQuery: query, Body: body, AppID: "app-1",
			Timestamp: "1767225600", Nonce: "0123456789abcdef"}
		if !strings.Contains(method, "\n") {
			if n := strings.Count(StringToSign(r), "\n"); n != 7 {
				t.Fatalf("string to sign of %+v has %d line breaks", r, n)
			}
		}
		sig := Sign(secret, r)
		if !Verify(sig, r, secret) || !Verify(strings.ToUpper(sig), r, nil, secret) {
			t.Fatalf("signature of %+v does not verify", r)
		}
		if Verify(sig, r, append(slices.Clone(secret), 'x')) {
			t.Fatal("verifies under another secret")
		}
		changed := r
		changed.Body = append(slices.Clone(body), 'x')
		if Verify(sig, changed, secret) {
			t.Fatal("verifies after the body changed")
		}
		changed = r
		changed.Path += "x"
		if Verify(sig, changed, secret) {
			t.Fatal("verifies after the path changed")
		}
		if CheckQuery(query) == nil {
			changed = r
			changed.RawQuery = query + "&zz=1"
			if strings.Contains(query, "zz=") || query == "" {
				changed.RawQuery = "zzz" + strings.Repeat("z", len(query)) + "=2"
			}
			if Verify(sig, changed, secret) {
				t.Fatalf("verifies after the query %q became %q", query, changed.RawQuery)
			}
		}
	})
}
