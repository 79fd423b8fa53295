package fleet

import (
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/x509"
	"encoding/asn1"
	"encoding/hex"
	"encoding/pem"
	"fmt"
	"log/slog"
	"strings"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/fleet/ingest"
)

// Certificates on the charger (docs/security-profiles.md, "Certificates on the charger"): the
// root certificates a charger holds, installed (control type 22, InstallCertificate), listed
// (23, GetInstalledCertificateIds) and deleted (24, DeleteCertificate); the checks of their
// parameters, and the device's list as the charger last named it (device_installed_certificate).

// Certificate types a charger holds roots of (OCPP 1.6 security extension CertificateUse).
const (
	CertCentralSystemRoot = "CentralSystemRootCertificate"
	CertManufacturerRoot  = "ManufacturerRootCertificate"
)

// CertificateTypes are the values params.certificateType accepts.
var CertificateTypes = []string{CertCentralSystemRoot, CertManufacturerRoot}

// Bounds of the certificate parameters and of a device's list.
const (
	maxCertificatePEM = 5500 // InstallCertificate.certificate: string[0..5500]
	maxSerialNumber   = 40   // CertificateHashDataType.serialNumber: string[0..40]
	// maxInstalledPerType bounds the rows one GetInstalledCertificateIds answer stores (a
	// charger holds a handful of roots); the device's list shows at most twice that.
	maxInstalledPerType = 100
)

// hashDigits are the hex digits of a hash of each algorithm of CertificateHashDataType.
var hashDigits = map[string]int{"SHA256": 64, "SHA384": 96, "SHA512": 128}

// InstalledCertificate is a certificate a charger holds, as the console shows it: its hash data
// (what DeleteCertificate names it by) and, when chargeops installed it, its subject and end.
type InstalledCertificate struct {
	ID              int64           `json:"id"`
	CertificateType string          `json:"certificateType"`
	Hash            CertificateHash `json:"certificateHashData"`
	Subject         string          `json:"subject"`  // '' when not known (installed by another)
	NotAfter        int64           `json:"notAfter"` // unix ms; 0 when not known
	UpdatedAt       int64           `json:"updatedAt"`
}

// validateCertificateParams checks the parameters of control types 22-24, one check per field,
// and drops those the type does not use.
func validateCertificateParams(ct int, p *Params) error {
	switch ct {
	case CtlInstallCertificate:
		p.CertificateHash = nil
		if err := checkCertificateType(p.CertificateType); err != nil {
			return err
		}
		_, err := parseRootPEM(p.Certificate)
		return err
	case CtlGetCertificateIDs:
		p.CertificateHash, p.Certificate = nil, ""
		return checkCertificateType(p.CertificateType)
	case CtlDeleteCertificate:
		p.Certificate, p.CertificateType = "", ""
		return checkCertificateHash(p.CertificateHash)
	}
	return nil
}

func checkCertificateType(t string) error {
	switch t {
	case "":
		return apperr.InvalidField("params.certificateType", "err.required")
	case CertCentralSystemRoot, CertManufacturerRoot:
		return nil
	}
	return apperr.InvalidField("params.certificateType", "err.certificate_type").With(map[string]any{"field": "params.certificateType"})
}

// parseRootPEM reads the certificate an InstallCertificate sends: one PEM-encoded X.509
// certificate of a CA, at most maxCertificatePEM characters.
func parseRootPEM(s string) (*x509.Certificate, error) {
	const field = "params.certificate"
	if strings.TrimSpace(s) == "" {
		return nil, apperr.InvalidField(field, "err.required")
	}
	if len(s) > maxCertificatePEM {
		return nil, tooLong(field, maxCertificatePEM)
	}
	block, rest := pem.Decode([]byte(s))
	if block == nil || block.Type != "CERTIFICATE" {
		return nil, apperr.InvalidField(field, "err.certificate_not_pem")
	}
	if len(bytes.TrimSpace(rest)) > 0 {
		return nil, apperr.InvalidField(field, "err.certificate_one")
	}
	cert, err := x509.ParseCertificate(block.Bytes)
	if err != nil {
		return nil, apperr.InvalidField(field, "err.certificate_not_pem")
	}
	if !cert.BasicConstraintsValid || !cert.IsCA {
		return nil, apperr.InvalidField(field, "err.certificate_not_ca")
	}
	return cert, nil
}

// checkCertificateHash: the hash data of a DeleteCertificate is complete: a known algorithm,
// both hashes hex of that algorithm's length, a serial number of printable characters.
func checkCertificateHash(h *CertificateHash) error {
	const field = "params.certificateHashData"
	if h == nil {
		return apperr.InvalidField(field, "err.required")
	}
	digits, ok := hashDigits[h.HashAlgorithm]
	if !ok {
		return apperr.InvalidField(field+".hashAlgorithm", "err.certificate_hash_algorithm").With(map[string]any{"field": field + ".hashAlgorithm"})
	}
	for _, x := range [...]struct{ name, v string }{{"issuerNameHash", h.IssuerNameHash}, {"issuerKeyHash", h.IssuerKeyHash}} {
		if _, err := hex.DecodeString(x.v); err != nil || len(x.v) != digits {
			f := field + "." + x.name
			return apperr.InvalidField(f, "err.certificate_hash").With(map[string]any{"field": f, "digits": digits, "algorithm": h.HashAlgorithm})
		}
	}
	switch f := field + ".serialNumber"; {
	case h.SerialNumber == "":
		return apperr.InvalidField(f, "err.required")
	case len(h.SerialNumber) > maxSerialNumber:
		return tooLong(f, maxSerialNumber)
	case strings.IndexFunc(h.SerialNumber, func(r rune) bool { return r <= 0x20 || r > 0x7e }) >= 0:
		return apperr.InvalidField(f, "err.invalid")
	}
	return nil
}

// CertificateHashOf is the hash data (SHA256) a charger names cert by, computed as the whitepaper
// says: the hash of the DER of its issuer's name, of its issuer's public key (the key's bits,
// without the BIT STRING's tag and length, as OCSP's CertID) and its serial number in hex
// without leading zeros. The issuer's key is known only for a self-signed certificate (a root):
// false for any other.
func CertificateHashOf(cert *x509.Certificate) (CertificateHash, bool) {
	if !bytes.Equal(cert.RawIssuer, cert.RawSubject) || cert.CheckSignature(cert.SignatureAlgorithm, cert.RawTBSCertificate, cert.Signature) != nil {
		return CertificateHash{}, false
	}
	var spki struct {
		Algorithm asn1.RawValue
		Key       asn1.BitString
	}
	if _, err := asn1.Unmarshal(cert.RawSubjectPublicKeyInfo, &spki); err != nil {
		return CertificateHash{}, false
	}
	name, key := sha256.Sum256(cert.RawIssuer), sha256.Sum256(spki.Key.Bytes)
	return CertificateHash{HashAlgorithm: "SHA256", IssuerNameHash: hex.EncodeToString(name[:]),
		IssuerKeyHash: hex.EncodeToString(key[:]), SerialNumber: cert.SerialNumber.Text(16)}, true
}

// sameCertificate: a and b name the same certificate: the same algorithm, issuer name hash and
// serial number (hex compared without case or leading zeros). The issuer key hash is left out:
// an issuer and a serial number name one certificate, and chargers differ in what they hash of
// the key (the key's bits, or its whole SubjectPublicKeyInfo).
func sameCertificate(a, b CertificateHash) bool {
	serial := func(s string) string { return strings.TrimLeft(strings.ToLower(s), "0") }
	return strings.EqualFold(a.HashAlgorithm, b.HashAlgorithm) && strings.EqualFold(a.IssuerNameHash, b.IssuerNameHash) &&
		serial(a.SerialNumber) == serial(b.SerialNumber)
}

// installedRow is a stored row as the writes below compare it.
type installedRow struct {
	id       int64
	typ      string
	hash     CertificateHash
	subject  string
	notAfter int64
}

const sqlInstalledInsert = `INSERT INTO device_installed_certificate (device_id, certificate_type, hash_algorithm, issuer_name_hash, issuer_key_hash, serial_number, subject, not_after, updated_at)
	VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`

// installedRows reads a device's stored rows inside a batch (bounded: a device has at most
// maxInstalledPerType of each type, and the roots installed since its last read).
func installedRows(ctx context.Context, tx *db.Tx, deviceID int64) ([]installedRow, error) {
	rows, err := tx.Query(ctx, `SELECT id, certificate_type, hash_algorithm, issuer_name_hash, issuer_key_hash, serial_number, subject, not_after
		FROM device_installed_certificate WHERE device_id = ? ORDER BY id LIMIT ?`, deviceID, 4*maxInstalledPerType)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []installedRow
	for rows.Next() {
		var r installedRow
		if err := rows.Scan(&r.id, &r.typ, &r.hash.HashAlgorithm, &r.hash.IssuerNameHash, &r.hash.IssuerKeyHash, &r.hash.SerialNumber, &r.subject, &r.notAfter); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// InstalledCertificatesRead keeps what a charger answered to GetInstalledCertificateIds for
// certType: its rows of that type are replaced by list, in one transaction (an empty list: it
// holds none). A certificate chargeops installed keeps its subject and end when the charger
// names it again.
func (s *Service) InstalledCertificatesRead(ctx context.Context, deviceID int64, certType string, list []CertificateHash) error {
	if len(list) > maxInstalledPerType {
		slog.Warn("installed certificates: list cut", "device", deviceID, "type", certType, "listed", len(list), "kept", maxInstalledPerType)
		list = list[:maxInstalledPerType]
	}
	now := db.NowMS()
	err := s.Ingest.Commit(ctx, &ingest.Unit{Step: func(ctx context.Context, b *ingest.Batch) error {
		known, err := installedRows(ctx, b.Tx, deviceID)
		if err != nil {
			return err
		}
		if _, err := b.Tx.Exec(ctx, `DELETE FROM device_installed_certificate WHERE device_id = ? AND certificate_type = ?`, deviceID, certType); err != nil {
			return err
		}
		var kept []CertificateHash
		for _, h := range list {
			if containsCertificate(kept, h) {
				continue // named twice
			}
			kept = append(kept, h)
			subject, notAfter := "", int64(0)
			for _, k := range known {
				if k.subject != "" && sameCertificate(k.hash, h) {
					subject, notAfter = k.subject, k.notAfter
					break
				}
			}
			if _, err := b.Tx.Exec(ctx, sqlInstalledInsert, deviceID, certType, h.HashAlgorithm, h.IssuerNameHash, h.IssuerKeyHash, h.SerialNumber,
				subject, notAfter, now); err != nil {
				return err
			}
		}
		return nil
	}})
	if err != nil {
		return fmt.Errorf("fleet: installed certificates: %w", err)
	}
	return nil
}

func containsCertificate(list []CertificateHash, h CertificateHash) bool {
	for _, x := range list {
		if sameCertificate(x, h) {
			return true
		}
	}
	return false
}

// CertificateInstalled records a root the charger accepted (InstallCertificate Accepted) with
// its subject and end, under the hash data it computes to (CertificateHashOf), so the
// charger's later GetInstalledCertificateIds answer is matched to it. A certificate whose hash
// data cannot be computed (not self-signed) is listed once the charger is read.
func (s *Service) CertificateInstalled(ctx context.Context, deviceID int64, certType, pemText string) error {
	cert, err := parseRootPEM(pemText)
	if err != nil {
		return nil // checked before it was sent
	}
	h, ok := CertificateHashOf(cert)
	if !ok {
		slog.Info("installed certificate not listed until the charger is read: not self-signed", "device", deviceID, "subject", cert.Subject.String())
		return nil
	}
	now := db.NowMS()
	err = s.Ingest.Commit(ctx, &ingest.Unit{Step: func(ctx context.Context, b *ingest.Batch) error {
		if err := deleteInstalled(ctx, b.Tx, deviceID, certType, h); err != nil {
			return err
		}
		_, err := b.Tx.Exec(ctx, sqlInstalledInsert, deviceID, certType, h.HashAlgorithm, h.IssuerNameHash, h.IssuerKeyHash, h.SerialNumber,
			cert.Subject.String(), cert.NotAfter.UnixMilli(), now)
		return err
	}})
	if err != nil {
		return fmt.Errorf("fleet: installed certificates: %w", err)
	}
	return nil
}

// CertificateRemoved removes the row of a certificate the charger deleted (DeleteCertificate
// Accepted) or does not hold (NotFound).
func (s *Service) CertificateRemoved(ctx context.Context, deviceID int64, h CertificateHash) error {
	err := s.Ingest.Commit(ctx, &ingest.Unit{Step: func(ctx context.Context, b *ingest.Batch) error {
		return deleteInstalled(ctx, b.Tx, deviceID, "", h)
	}})
	if err != nil {
		return fmt.Errorf("fleet: installed certificates: %w", err)
	}
	return nil
}

// deleteInstalled deletes the device's rows naming h (of certType; "" any type).
func deleteInstalled(ctx context.Context, tx *db.Tx, deviceID int64, certType string, h CertificateHash) error {
	rows, err := installedRows(ctx, tx, deviceID)
	if err != nil {
		return err
	}
	for _, r := range rows {
		if (certType == "" || r.typ == certType) && sameCertificate(r.hash, h) {
			if _, err := tx.Exec(ctx, `DELETE FROM device_installed_certificate WHERE id = ?`, r.id); err != nil {
				return err
			}
		}
	}
	return nil
}

// InstalledCertificates lists the certificates a device in p's scope holds, as its last
// answers named them: by type, then in the order stored.
func (s *Service) InstalledCertificates(ctx context.Context, p *access.Principal, deviceID int64) ([]InstalledCertificate, error) {
	if _, err := s.ScopedDevice(ctx, p, deviceID); err != nil {
		return nil, err
	}
	list, err := db.All(ctx, s.db, (&db.Query{From: "device_installed_certificate"}).And("device_id = ?", deviceID),
		"id, certificate_type, hash_algorithm, issuer_name_hash, issuer_key_hash, serial_number, subject, not_after, updated_at",
		"certificate_type, id", 2*maxInstalledPerType, 0,
		func(r db.Scanner) (InstalledCertificate, error) {
			var c InstalledCertificate
			err := r.Scan(&c.ID, &c.CertificateType, &c.Hash.HashAlgorithm, &c.Hash.IssuerNameHash, &c.Hash.IssuerKeyHash, &c.Hash.SerialNumber,
				&c.Subject, &c.NotAfter, &c.UpdatedAt)
			return c, err
		})
	if err != nil {
		return nil, fmt.Errorf("fleet: installed certificates: %w", err)
	}
	return list, nil
}
