package openapi

import (
	"net/url"
	"reflect"
	"testing"
)

func TestCheckQuery(t *testing.T) {
	cases := []struct {
		name, raw string
		ok        bool
	}{
		{"empty", "", true},
		{"one pair", "pageSize=20", true},
		{"pairs in any order", "b=2&a=1", true},
		{"escaped reserved characters", "q=a%3Bb%26c%3Dd%20e%2B", true},
		{"UTF-8 escaped", "q=caf%C3%A9", true},
		{"empty value", "q=", true},
		{"key without =", "q", true},
		{"duplicate key", "a=1&a=2", false},
		{"duplicate key, one escaped", "a=1&%61=2", false},
		{"raw semicolon", "a=1;b=2", false},
		{"plus for space", "q=a+b", false},
		{"lower-case hex", "q=%3b", false},
		{"unreserved escaped", "q=%41", false},
		{"bad escape", "q=%zz", false},
		{"empty pair", "a=1&&b=2", false},
		{"trailing &", "a=1&", false},
		{"no key", "=1", false},
		{"raw UTF-8", "q=caf\u00e9", false},
		{"raw space", "q=a b", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if err := CheckQuery(c.raw); (err == nil) != c.ok {
				t.Fatalf("CheckQuery(%q) = %v, want ok=%v", c.raw, err, c.ok)
			}
		})
	}
}

// Two queries the guard accepts and the signature cannot tell apart mean the same to a handler
// (Go's url.ParseQuery, what every v1 handler reads).
func TestAcceptedQueriesMeanWhatTheySign(t *testing.T) {
	raws := []string{"a=1&b=2", "b=2&a=1", "a=1&a=2", "a=2&a=1", "a=1;b=2", "a=1%3Bb%3D2", "a=%25zz", "a=%zz", "a=b+c", "a=b%20c",
		"a=%41", "a=A", "a", "a=", "q=%3b", "q=%3B", "a=1&", "a=1"}
	for _, x := range raws {
		for _, y := range raws {
			if CheckQuery(x) != nil || CheckQuery(y) != nil || CanonicalQuery(x) != CanonicalQuery(y) {
				continue
			}
			qx, errx := url.ParseQuery(x)
			qy, erry := url.ParseQuery(y)
			if errx != nil || erry != nil || !reflect.DeepEqual(qx, qy) {
				t.Errorf("%q and %q sign alike but read as %v and %v", x, y, qx, qy)
			}
		}
	}
}
