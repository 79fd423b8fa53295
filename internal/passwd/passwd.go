// Package passwd hashes passwords with argon2id and checks the rules of docs/api.md#passwords-on-the-wire.
//
// What is hashed is sha256hex(password): the browser sends that for a password it checks
// (login), so the server never needs the plain text to verify one (docs/api.md).
package passwd

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"regexp"
	"strings"
	"unicode"

	"golang.org/x/crypto/argon2"
)

// argon2id parameters (RFC 9106 second recommended option, scaled for a 2-core server).
const (
	argonTime    = 3
	argonMemory  = 64 * 1024
	argonThreads = 2
	argonKeyLen  = 32
)

// cost is what Hash uses: the production parameters above, or the test cost.
type cost struct {
	time, memory uint32
	threads      uint8
}

var hashCost = cost{argonTime, argonMemory, argonThreads}

// SetTestCost makes Hash use argon2id's smallest parameters (one pass over 64 KiB), so tests
// that create users and sign in are fast. Only internal/testutil calls it, from its init: no
// flag, setting or environment variable of the binary reaches it. Hashes made at test cost
// still verify with Verify, which reads the parameters from the stored string.
func SetTestCost() {
	hashCost = cost{time: 1, memory: 64, threads: 1}
	dummyHash, _ = Hash(Digest("not-a-real-password"))
}

// Digest is what the browser sends for a checked password: sha256 of the password, in hex.
func Digest(plain string) string {
	sum := sha256.Sum256([]byte(plain))
	return hex.EncodeToString(sum[:])
}

// Hash returns an argon2id PHC string of digest.
func Hash(digest string) (string, error) {
	salt := make([]byte, 16)
	if _, err := rand.Read(salt); err != nil {
		return "", err
	}
	c := hashCost
	key := argon2.IDKey([]byte(digest), salt, c.time, c.memory, c.threads, argonKeyLen)
	b64 := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, c.memory, c.time, c.threads,
		b64.EncodeToString(salt), b64.EncodeToString(key)), nil
}

// Verify reports whether digest matches the stored PHC string.
func Verify(stored, digest string) bool {
	parts := strings.Split(stored, "$")
	if len(parts) != 6 || parts[1] != "argon2id" {
		return false
	}
	var m uint32
	var t uint32
	var p uint8
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &m, &t, &p); err != nil {
		return false
	}
	b64 := base64.RawStdEncoding
	salt, err1 := b64.DecodeString(parts[4])
	want, err2 := b64.DecodeString(parts[5])
	if err1 != nil || err2 != nil {
		return false
	}
	got := argon2.IDKey([]byte(digest), salt, t, m, p, uint32(len(want)))
	return subtle.ConstantTimeCompare(got, want) == 1
}

// dummyHash makes a check of an unknown user cost as much as one of a known user.
var dummyHash, _ = Hash(Digest("not-a-real-password"))

// VerifyDummy spends the time of a real verification.
func VerifyDummy(digest string) { Verify(dummyHash, digest) }

var userNameRule = regexp.MustCompile(`^[A-Za-z0-9_]{6,32}$`)

// ValidUserName: letters, digits, underscore, 6-32 characters.
func ValidUserName(s string) bool { return userNameRule.MatchString(s) }

// ValidPassword: 8-32 characters with upper and lower case letters, digits and special characters.
func ValidPassword(s string) bool {
	n := len([]rune(s))
	if n < 8 || n > 32 {
		return false
	}
	var upper, lower, digit, special bool
	for _, r := range s {
		switch {
		case unicode.IsUpper(r):
			upper = true
		case unicode.IsLower(r):
			lower = true
		case unicode.IsDigit(r):
			digit = true
		case unicode.IsSpace(r) || !unicode.IsPrint(r):
			return false
		default:
			special = true
		}
	}
	return upper && lower && digit && special
}
