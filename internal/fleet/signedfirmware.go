package fleet

import (
	"context"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"fmt"
	"math"
	"strings"

	"chargeops/internal/apperr"
	"chargeops/internal/db"
)

// Signed firmware (OCPP 1.6 security whitepaper, SignedUpdateFirmware; docs/security-profiles.md,
// "Signed firmware and logs"): a firmware file may carry the certificate its maker signed it
// with and the signature, both or neither. Control type 5 on a signed file sends them to the
// charger, which checks the signature before installing; the core does not check it.

// Bounds of the signing fields (the whitepaper's SignedUpdateFirmware.req).
const (
	maxSigningCertificate = 5500 // firmware.signingCertificate: a PEM X.509 certificate
	maxFirmwareSignature  = 800  // firmware.signature: base64
)

// FirmwareSigning is how a firmware file was signed; empty fields: an unsigned file.
type FirmwareSigning struct {
	Certificate string // PEM X.509
	Signature   string // base64
}

// Signed reports whether the file carries a signature (and so its certificate).
func (f FirmwareSigning) Signed() bool { return f.Certificate != "" && f.Signature != "" }

// checkFirmwareSigning trims the signing fields of a new firmware file and checks them, one
// check per field: the certificate PEM X.509 of at most 5500 characters, the signature base64 of
// at most 800, and both or neither.
func checkFirmwareSigning(in *NewFirmwareInput) error {
	in.SigningCertificate = strings.TrimSpace(in.SigningCertificate)
	in.Signature = strings.TrimSpace(in.Signature)
	cert, sig := in.SigningCertificate, in.Signature
	if cert != "" && (len(cert) > maxSigningCertificate || !isPEMCertificate(cert)) {
		return apperr.InvalidField("signingCertificate", "err.firmware_certificate").
			With(map[string]any{"field": "signingCertificate", "max": maxSigningCertificate})
	}
	if sig != "" && (len(sig) > maxFirmwareSignature || !isBase64(sig)) {
		return apperr.InvalidField("signature", "err.firmware_signature").
			With(map[string]any{"field": "signature", "max": maxFirmwareSignature})
	}
	switch {
	case cert != "" && sig == "":
		return apperr.InvalidField("signature", "err.firmware_signing_pair")
	case sig != "" && cert == "":
		return apperr.InvalidField("signingCertificate", "err.firmware_signing_pair")
	}
	return nil
}

// isPEMCertificate: one or more PEM CERTIFICATE blocks, each an X.509 certificate, and nothing
// else.
func isPEMCertificate(s string) bool {
	rest := []byte(s)
	n := 0
	for {
		var b *pem.Block
		b, rest = pem.Decode(rest)
		if b == nil {
			break
		}
		if b.Type != "CERTIFICATE" {
			return false
		}
		if _, err := x509.ParseCertificate(b.Bytes); err != nil {
			return false
		}
		n++
	}
	return n > 0 && strings.TrimSpace(string(rest)) == ""
}

// isBase64: standard base64 (padded or not) of at least one byte.
func isBase64(s string) bool {
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding} {
		if b, err := enc.DecodeString(s); err == nil && len(b) > 0 {
			return true
		}
	}
	return false
}

// FirmwareSigning reads the signing certificate and signature of a firmware file (empty: an
// unsigned file, or none such).
func (s *Service) FirmwareSigning(ctx context.Context, fileID int64) (FirmwareSigning, error) {
	var f FirmwareSigning
	err := s.db.QueryRow(ctx, `SELECT signing_certificate, signature FROM fleet_file WHERE id = ? AND kind = ?`, fileID, FileFirmware).
		Scan(&f.Certificate, &f.Signature)
	if err != nil && !db.NotFound(err) {
		return f, fmt.Errorf("fleet: firmware signing: %w", err)
	}
	return f, nil
}

// RequestID is the OCPP requestId of a command (SignedUpdateFirmware, GetLog): its id. The
// schemas leave the integer unbounded, but chargers commonly keep it in 32 bits, so an id past
// 2^31-1 wraps; the reports that name it are matched to the device's latest command of its kind
// (logs.go), where a wrap cannot mistake one command for another.
func RequestID(commandID int64) int { return int(commandID & math.MaxInt32) }
