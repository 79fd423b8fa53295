package httpapi_test

import (
	"fmt"
	"strings"
	"testing"

	"chargeops/internal/apperr"
	"chargeops/internal/config"
	"chargeops/internal/db"
	"chargeops/internal/testutil"
	"chargeops/internal/testutil/apitest"
)

// Issue 29 M2: the appId is not secret (webhook receivers see it), so wrong signatures must not
// lock the application itself out. They are counted per application and client address; past
// the limit only further wrong ones from that address are refused, and a right signature is
// never refused by the count, from any address.
func TestOpenAPIWrongSignaturesDoNotLockOutTheApplication(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		o := newOrgOn(t, apitest.New(t, d, func(c *config.Config) { c.TrustProxy = true }))
		app := newThirdParty(t, o, "Alpha billing", o.userA)
		app.from = "198.51.100.7"
		attacker := *app
		attacker.secret, attacker.from = "guess", "203.0.113.9"

		for i := 0; i < 20; i++ {
			attacker.do(t, "GET", "/openapi/v1/sites", nil, nil).want(t, apperr.SignatureMismatch, 401)
		}
		locked := attacker.do(t, "GET", "/openapi/v1/sites", nil, nil).want(t, apperr.SignatureLocked, 429)
		if locked.Message == "" {
			t.Error("the lock-out has no message")
		}

		t.Run("the application's right signatures still pass", func(t *testing.T) {
			for i := 0; i < 3; i++ {
				app.do(t, "GET", "/openapi/v1/sites", nil, nil).want(t, 0, 200)
			}
		})
		t.Run("a right signature passes even from the locked address", func(t *testing.T) {
			fromThere := *app
			fromThere.from = attacker.from
			fromThere.do(t, "GET", "/openapi/v1/sites", nil, nil).want(t, 0, 200)
			attacker.do(t, "GET", "/openapi/v1/sites", nil, nil).want(t, apperr.SignatureLocked, 429)
		})
		t.Run("another address has its own count", func(t *testing.T) {
			elsewhere := attacker
			elsewhere.from = "203.0.113.10"
			elsewhere.do(t, "GET", "/openapi/v1/sites", nil, nil).want(t, apperr.SignatureMismatch, 401)
		})
	})
}

// Issue 29 L5: the canonical query sorts and decodes, so a signature used to cover several
// queries a handler reads differently: duplicate keys in another order, ";" for "%3B". Such
// queries are refused before the signature is checked, with a localised message naming the key.
func TestOpenAPIAmbiguousQueryRefused(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		o := newOrg(t, d)
		app := newThirdParty(t, o, "Alpha billing", o.userA)
		detail := "/openapi/v1/devices/detail"

		t.Run("duplicate keys, in either order", func(t *testing.T) {
			for _, q := range []string{fmt.Sprintf("id=%d&id=%d", o.devA, o.devB), fmt.Sprintf("id=%d&id=%d", o.devB, o.devA)} {
				a := app.doRaw(t, "GET", detail, q, nil).want(t, apperr.Invalid, 400)
				if !strings.Contains(a.Message, `"id"`) {
					t.Errorf("%s: message %q does not name the key", q, a.Message)
				}
			}
		})
		t.Run("encodings that are not the canonical one", func(t *testing.T) {
			for _, q := range []string{
				"keyword=a;b",                 // ";" unescaped (Go's parser drops the pair; the signature kept it)
				"keyword=a+b",                 // "+" for a space
				"keyword=%2c",                 // lower-case hex
				"keyword=%41",                 // an unreserved character escaped
				"keyword=%zz",                 // an escape that does not decode
				"key%77ord=x",                 // the key escaped needlessly
				"keyword=x&&pageSize=20",      // an empty pair
				"=x",                          // no key
				"keyword=caf\u00e9",           // raw UTF-8
				"pageSize=20&keyword=a%3Bb;c", // one bad pair among good ones
			} {
				app.doRaw(t, "GET", "/openapi/v1/devices", q, nil).want(t, apperr.Invalid, 400)
			}
		})
		t.Run("the refusal is in the reader's language", func(t *testing.T) {
			zh := *app
			zh.lang = "zh-CN"
			a := zh.doRaw(t, "GET", detail, fmt.Sprintf("id=%d&id=%d", o.devA, o.devA), nil).want(t, apperr.Invalid, 400)
			if !strings.Contains(a.Message, "查询参数") {
				t.Errorf("zh-CN message: %q", a.Message)
			}
		})
		t.Run("canonical pairs in any order pass", func(t *testing.T) {
			app.doRaw(t, "GET", "/openapi/v1/devices", "pageSize=20&keyword=ALPHA%3B%20x", nil).want(t, 0, 200)
			app.doRaw(t, "GET", "/openapi/v1/devices", "keyword=ALPHA&pageSize=20", nil).want(t, 0, 200)
			app.doRaw(t, "GET", detail, fmt.Sprintf("id=%d", o.devA), nil).want(t, 0, 200)
		})
	})
}
