package fleet

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"

	"chargeops/internal/apperr"
	"chargeops/internal/devstate"
)

// Device auth keys (OCPP security profiles 1 and 2) are stored as
// "hmac-sha256:" + hex(HMAC-SHA256(secret, SN + ":" + key)).
//
// Why not argon2id like user passwords: a charger key is a machine secret of 16-40 random
// characters, not a guessable human password, so a slow hash buys little; and every charger
// presents it on every connection, so after an outage thousands of handshakes arrive in the
// same second, and argon2id at ~64 MiB and tens of milliseconds each would stall the gateway
// (the very failure the reconnect-storm test guards against). The keyed hash (secret kept in
// the setting table, binding the SN) still means a dump of the device table alone neither
// reveals keys nor allows precomputed guesses.
const authKeyPrefix = "hmac-sha256:"

// HashAuthKey is the stored form of a device's auth key.
func (s *Service) HashAuthKey(sn, key string) string {
	m := hmac.New(sha256.New, s.secret)
	m.Write([]byte(strconv.Itoa(len(sn)) + ":" + sn + ":" + key))
	return authKeyPrefix + hex.EncodeToString(m.Sum(nil))
}

// CheckAuthKey reports whether key matches the stored hash (in constant time).
func (s *Service) CheckAuthKey(sn, key, stored string) bool {
	if !strings.HasPrefix(stored, authKeyPrefix) {
		return false
	}
	return hmac.Equal([]byte(s.HashAuthKey(sn, key)), []byte(stored))
}

// Charger keys are 16 to 40 characters (devstate.ValidAuthKey). A key set through
// ChangeConfiguration AuthorizationKey (control type 11, from the console, the OpenAPI or a
// parameter import) of any other length is refused.
const (
	AuthKeyMin = devstate.AuthKeyMin
	AuthKeyMax = devstate.AuthKeyMax
)

// ValidAuthKey reports whether key has an allowed length.
func ValidAuthKey(key string) bool { return devstate.ValidAuthKey(key) }

// checkAuthKeyItem refuses a ChangeConfiguration item that sets the AuthorizationKey (the key
// name compared as chargers do, without case) to a key of another length than 16-40.
func checkAuthKeyItem(i int, it KV) error {
	if !strings.EqualFold(it.Key, "AuthorizationKey") || ValidAuthKey(it.Value) {
		return nil
	}
	return &apperr.Error{Code: apperr.Invalid, Key: "err.auth_key_length",
		Args: map[string]any{"field": fmt.Sprintf("params.items[%d].value", i), "min": AuthKeyMin, "max": AuthKeyMax}}
}
