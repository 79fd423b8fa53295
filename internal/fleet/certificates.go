package fleet

import (
	"context"
	"crypto/sha256"
	"crypto/x509"
	"encoding/hex"
	"fmt"
	"log/slog"
	"strings"

	"chargeops/internal/access"
	"chargeops/internal/db"
)

// Device certificates (docs/security-profiles.md, "The charge-point CA"): the client
// certificates the charge-point CA signed for chargers, and whether each charger installed its.

// Certificate states (device_certificate.state).
const (
	CertSent        = 0 // CertificateSigned sent, no answer yet
	CertInstalled   = 1 // the charger answered Accepted
	CertRejected    = 2 // the charger answered Rejected
	CertUndelivered = 3 // the call failed (no answer, link closed)
)

// Certificate is a device's certificate as the console shows it.
type Certificate struct {
	ID          int64  `json:"id"`
	Serial      string `json:"serial"` // hex
	Subject     string `json:"subject"`
	Issuer      string `json:"issuer"`
	NotBefore   int64  `json:"notBefore"` // unix ms
	NotAfter    int64  `json:"notAfter"`
	Fingerprint string `json:"fingerprint"` // SHA-256 of the DER, hex
	State       int    `json:"state"`
	CreatedAt   int64  `json:"createdAt"`
}

// CertificateIssued records a certificate signed for dev and sent to it; it returns the row's
// id for CertificateAnswered.
func (s *Service) CertificateIssued(ctx context.Context, dev *Device, leaf *x509.Certificate) (int64, error) {
	sum := sha256.Sum256(leaf.Raw)
	now := db.NowMS()
	id, err := db.InsertID(ctx, s.db, `INSERT INTO device_certificate (device_id, serial, subject, issuer, not_before, not_after, fingerprint, state, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, dev.ID, strings.ToUpper(leaf.SerialNumber.Text(16)), leaf.Subject.String(), leaf.Issuer.String(),
		leaf.NotBefore.UnixMilli(), leaf.NotAfter.UnixMilli(), hex.EncodeToString(sum[:]), CertSent, now, now)
	if err != nil {
		return 0, fmt.Errorf("fleet: certificate issued: %w", err)
	}
	return id, nil
}

// CertificateAnswered records what became of a sent certificate (CertInstalled, CertRejected,
// CertUndelivered).
func (s *Service) CertificateAnswered(ctx context.Context, id int64, state int) error {
	if _, err := s.db.Exec(ctx, `UPDATE device_certificate SET state = ?, updated_at = ? WHERE id = ?`, state, db.NowMS(), id); err != nil {
		return fmt.Errorf("fleet: certificate answered: %w", err)
	}
	return nil
}

// maxCertificates bounds a device's certificate list: a charger renews yearly.
const maxCertificates = 100

// DeviceCertificates lists the certificates of a device in p's scope, newest first.
func (s *Service) DeviceCertificates(ctx context.Context, p *access.Principal, deviceID int64) ([]Certificate, error) {
	if _, err := s.ScopedDevice(ctx, p, deviceID); err != nil {
		return nil, err
	}
	list, err := db.All(ctx, s.db, (&db.Query{From: "device_certificate"}).And("device_id = ?", deviceID),
		"id, serial, subject, issuer, not_before, not_after, fingerprint, state, created_at", "id DESC", maxCertificates, 0,
		func(r db.Scanner) (Certificate, error) {
			var c Certificate
			err := r.Scan(&c.ID, &c.Serial, &c.Subject, &c.Issuer, &c.NotBefore, &c.NotAfter, &c.Fingerprint, &c.State, &c.CreatedAt)
			return c, err
		})
	if err != nil {
		return nil, fmt.Errorf("fleet: device certificates: %w", err)
	}
	return list, nil
}

// DeliverCertificate records a client certificate the charge-point CA signed for dev, has the
// adapter send it to the charger (send: its CertificateSigned call, accepted or not) and
// records what became of it: installed, rejected, or undelivered when the call failed. Adapters
// run it after the SignCertificate answer went out.
func DeliverCertificate(ctx context.Context, r Reports, dev *Device, leaf *x509.Certificate, send func(context.Context) (accepted bool, err error)) {
	id, err := r.CertificateIssued(ctx, dev, leaf)
	if err != nil {
		slog.Error("ocpp certificate not recorded; not sent", "sn", dev.SN, "err", err)
		return
	}
	state := CertUndelivered
	accepted, err := send(ctx)
	if err == nil {
		state = CertRejected
		if accepted {
			state = CertInstalled
		}
	}
	slog.Info("ocpp certificate sent", "sn", dev.SN, "serial", leaf.SerialNumber.Text(16), "notAfter", leaf.NotAfter, "state", state, "err", err)
	if err := r.CertificateAnswered(ctx, id, state); err != nil {
		slog.Warn("ocpp certificate answer not recorded", "sn", dev.SN, "err", err)
	}
}
