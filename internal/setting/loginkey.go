package setting

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
)

// LoginKey is the setting that holds the login key pair: the RSA private key the console's
// sealed sign-in fields are encrypted to (PKCS #1, PEM), made on first use.
const LoginKey = "login.rsa_private_key"

// NewLoginKeyPEM makes a login key pair: RSA 2048, PKCS #1, PEM.
func NewLoginKeyPEM() (string, error) {
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return "", err
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(k)})), nil
}

// LoginKeyPEM returns the stored login key pair, made and stored on first use.
func (s *Store) LoginKeyPEM(ctx context.Context) (string, error) {
	return s.GetOrCreate(ctx, LoginKey, NewLoginKeyPEM)
}
