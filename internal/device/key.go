package device

import (
	"context"
	"crypto/rand"
	"errors"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/devstate"
	"chargeops/internal/kit"
)

// KeyInput sets a device's key: the secret it signs in with (an OCPP charger's Basic-auth
// password, a storage unit's or site agent's MQTT password; docs/gateway.md "Keys",
// docs/mqtt.md). AuthKey empty: the server makes one. The field is named as a secret, so the
// action log masks it.
type KeyInput struct {
	ID      int64  `json:"id"`
	AuthKey string `json:"authKey"`
}

// KeyResult is the key the server made, shown once (never stored in clear); empty when the
// caller gave one.
type KeyResult struct {
	AuthKey string `json:"authKey"`
}

// madeKeyLength is the length of a key the server makes (keys are devstate.AuthKeyMin to
// AuthKeyMax characters, as a charger's AuthorizationKey).
const madeKeyLength = 24

func (in KeyInput) validate() error {
	if in.ID <= 0 {
		return apperr.InvalidField("id", "err.invalid")
	}
	if in.AuthKey == "" {
		return nil
	}
	if !devstate.ValidAuthKey(in.AuthKey) {
		return apperr.InvalidField("authKey", "err.device_key_length")
	}
	for _, c := range in.AuthKey {
		if c < 0x21 || c > 0x7e {
			return apperr.InvalidField("authKey", "err.device_key_chars")
		}
	}
	return nil
}

// KeyHasher is the fleet's keyed hash of a device key (fleet.Service.HashAuthKey): the one
// function that writes device.auth_key_hash.
type KeyHasher func(sn, key string) string

// SetKeyHasher connects the fleet's hash.
func (s *Service) SetKeyHasher(h KeyHasher) { s.hashKey = h }

// keyAlphabet: letters and digits only, so a made key is typed or pasted into any device's
// configuration without escaping.
const keyAlphabet = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789"

// SetKey gives a device in p's scope a new key (its hash only is stored). A device that had
// none is raised to security profile 1 (a key is then required of it). Its live connection is
// not dropped: the key is asked for at its next connection, as when a charger's key changes.
func (s *Service) SetKey(ctx context.Context, p *access.Principal, in KeyInput) (KeyResult, error) {
	if err := in.validate(); err != nil {
		return KeyResult{}, err
	}
	if s.hashKey == nil {
		return KeyResult{}, errors.New("device: set key: no key hasher")
	}
	var out KeyResult
	key := in.AuthKey
	if key == "" {
		key = madeKey()
		out.AuthKey = key
	}
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		d, err := s.get(ctx, tx, p, in.ID)
		if err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `UPDATE device SET auth_key_hash = ?, security_profile = CASE WHEN security_profile = 0 THEN 1 ELSE security_profile END,
			updated_at = ? WHERE id = ?`, s.hashKey(d.SN, key), db.NowMS(), in.ID)
		return err
	})
	if err != nil {
		return KeyResult{}, kit.Wrap("device", "set key", err)
	}
	s.changed(ctx, in.ID)
	return out, nil
}

// madeKey is madeKeyLength characters of keyAlphabet from crypto/rand (no modulo bias:
// rejection of bytes past the last whole multiple of the alphabet).
func madeKey() string {
	out := make([]byte, 0, madeKeyLength)
	limit := byte(256 - 256%len(keyAlphabet))
	var b [1]byte
	for len(out) < madeKeyLength {
		_, _ = rand.Read(b[:])
		if b[0] < limit {
			out = append(out, keyAlphabet[int(b[0])%len(keyAlphabet)])
		}
	}
	return string(out)
}
