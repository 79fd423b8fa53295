package testutil

import (
	"testing"

	"chargeops/internal/apperr"
)

// WantField fails unless err is the validation failure naming field with the message key
// (apperr.InvalidField); field "" wants no error.
func WantField(t testing.TB, err error, field, key string) {
	t.Helper()
	if field == "" {
		if err != nil {
			t.Fatalf("got %v, want no error", err)
		}
		return
	}
	e, ok := apperr.As(err)
	if !ok || e.Code != apperr.Invalid || e.Key != key || e.Args["field"] != field {
		t.Fatalf("got %v, want field %q with %s", err, field, key)
	}
}

// WantCode fails unless err is a business error of code (and of the message key, when given).
func WantCode(t testing.TB, err error, code int, key string) {
	t.Helper()
	e, ok := apperr.As(err)
	if !ok || e.Code != code || (key != "" && e.Key != key) {
		t.Fatalf("got %v, want %d %s", err, code, key)
	}
}

// Found reports whether a read found its object: true for no error, false for not found; any
// other error fails the test.
func Found(t testing.TB, err error) bool {
	t.Helper()
	if err != nil && !apperr.IsNotFound(err) {
		t.Fatal(err)
	}
	return err == nil
}
