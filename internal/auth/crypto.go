package auth

import (
	"context"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"strings"
	"time"

	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/session"
)

// nonceTTL is how long a login key's nonce is good for (decisions §4).
const nonceTTL = 5 * time.Minute

// LoginKey is what the browser encrypts with.
type LoginKey struct {
	KeyID     string `json:"keyId"`
	PublicKey string `json:"publicKey"`
	Nonce     string `json:"nonce"`
}

// loadKey reads the cluster's RSA key pair from the settings, creating it on first start.
func (s *Service) loadKey(ctx context.Context) error {
	pemText, err := s.Settings.LoginKeyPEM(ctx)
	if err != nil {
		return err
	}
	block, _ := pem.Decode([]byte(pemText))
	if block == nil {
		return errors.New("stored login key is not PEM")
	}
	key, err := x509.ParsePKCS1PrivateKey(block.Bytes)
	if err != nil {
		return err
	}
	spki, err := x509.MarshalPKIXPublicKey(&key.PublicKey)
	if err != nil {
		return err
	}
	sum := sha256.Sum256(spki)
	s.key = key
	s.keyID = hex.EncodeToString(sum[:8])
	s.publicPEM = string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: spki}))
	return nil
}

// LoginKey hands out the public key and a fresh one-time nonce.
func (s *Service) LoginKey(ctx context.Context) (LoginKey, error) {
	nonce := session.RandomToken(18)
	if _, err := s.DB.Exec(ctx, `INSERT INTO login_nonce (nonce, expires_at) VALUES (?, ?)`, nonce, db.NowMS()+nonceTTL.Milliseconds()); err != nil {
		return LoginKey{}, err
	}
	return LoginKey{KeyID: s.keyID, PublicKey: s.publicPEM, Nonce: nonce}, nil
}

func (s *Service) decryptRaw(field string) (string, error) {
	ct, err := base64.StdEncoding.DecodeString(strings.TrimSpace(field))
	if err != nil {
		return "", apperr.ErrNonce
	}
	pt, err := rsa.DecryptOAEP(sha256.New(), nil, s.key, ct, nil)
	if err != nil {
		return "", apperr.ErrNonce
	}
	return string(pt), nil
}

// OpenSealed decrypts fields of the form base64(RSA-OAEP(nonce + ":" + value)), checks that
// they all carry one nonce, consumes that nonce (good once, for 5 minutes) and returns the values.
func (s *Service) OpenSealed(ctx context.Context, keyID string, fields ...string) ([]string, error) {
	if keyID != s.keyID || len(fields) == 0 {
		return nil, apperr.ErrNonce
	}
	values := make([]string, len(fields))
	nonce := ""
	for i, f := range fields {
		pt, err := s.decryptRaw(f)
		if err != nil {
			return nil, err
		}
		n, v, ok := strings.Cut(pt, ":")
		if !ok || n == "" || (nonce != "" && n != nonce) {
			return nil, apperr.ErrNonce
		}
		nonce, values[i] = n, v
	}
	res, err := s.DB.Exec(ctx, `DELETE FROM login_nonce WHERE nonce = ? AND expires_at > ?`, nonce, db.NowMS())
	if err != nil {
		return nil, err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return nil, apperr.ErrNonce
	}
	return values, nil
}
