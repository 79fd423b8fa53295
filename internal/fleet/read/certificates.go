package read

import (
	"context"
	"fmt"
	"strings"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/fleet"
)

// The fleet's client certificates (docs/security-profiles.md, "The charge-point CA"): for each
// device in the caller's scope, the installed certificate that ends last (the one its expiry
// alarm watches), soonest expiry first, so an operator sees which chargers to renew.

// Bounds of the fleet certificate list's filter.
const (
	maxExpiringDays = 3650
	dayMS           = int64(24 * 60 * 60 * 1000)
)

// FleetCertificatesInput filters the list: ExpiringWithinDays > 0 keeps certificates whose
// validity ends within that many days from Now (expired ones included); SN an exact device.
type FleetCertificatesInput struct {
	db.Page
	ExpiringWithinDays int    `json:"expiringWithinDays"`
	SN                 string `json:"sn"`
	Now                int64  `json:"-"` // unix ms; 0: now
}

// DeviceCertificate is a device's installed certificate in the fleet list.
type DeviceCertificate struct {
	DeviceID   int64  `json:"deviceId"`
	SN         string `json:"sn"`
	DeviceName string `json:"deviceName"`
	fleet.Certificate
}

func (in *FleetCertificatesInput) validate() error {
	if in.ExpiringWithinDays < 0 || in.ExpiringWithinDays > maxExpiringDays {
		return apperr.InvalidField("expiringWithinDays", "err.invalid")
	}
	return nil
}

// FleetCertificates lists a page of the latest-ending installed certificate of each device p may see.
func (s *Service) FleetCertificates(ctx context.Context, p *access.Principal, in FleetCertificatesInput) (db.List[DeviceCertificate], error) {
	out := db.List[DeviceCertificate]{List: []DeviceCertificate{}}
	if err := in.validate(); err != nil {
		return out, err
	}
	if in.Now == 0 {
		in.Now = db.NowMS()
	}
	cond, args := p.Scope.SiteCond("d.customer_id", "d.site_id")
	conds := []string{cond, "c.state = ?",
		// the one the expiry alarm watches (fleet.CheckCertificateExpiry): the latest to end
		"c.id = (SELECT c2.id FROM device_certificate c2 WHERE c2.device_id = c.device_id AND c2.state = ? ORDER BY c2.not_after DESC, c2.id DESC LIMIT 1)"}
	args = append(args, fleet.CertInstalled, fleet.CertInstalled)
	if in.ExpiringWithinDays > 0 {
		conds, args = append(conds, "c.not_after < ?"), append(args, in.Now+int64(in.ExpiringWithinDays)*dayMS)
	}
	if sn := strings.TrimSpace(in.SN); sn != "" {
		conds, args = append(conds, "d.sn = ?"), append(args, sn)
	}
	from := ` FROM device_certificate c JOIN device d ON d.id = c.device_id` + access.Where(conds...)
	if err := s.db.QueryRow(ctx, `SELECT COUNT(*)`+from, args...).Scan(&out.Total); err != nil {
		return out, fmt.Errorf("read: fleet certificates: count: %w", err)
	}
	limit, offset := in.Page.LimitOffset()
	rows, err := s.db.Query(ctx, `SELECT d.id, d.sn, d.name, c.id, c.serial, c.subject, c.issuer, c.not_before, c.not_after, c.fingerprint, c.state, c.created_at`+
		from+fmt.Sprintf(` ORDER BY c.not_after, c.id LIMIT %d OFFSET %d`, limit, offset), args...)
	if err != nil {
		return out, fmt.Errorf("read: fleet certificates: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var f DeviceCertificate
		if err := rows.Scan(&f.DeviceID, &f.SN, &f.DeviceName, &f.ID, &f.Serial, &f.Subject, &f.Issuer, &f.NotBefore, &f.NotAfter,
			&f.Fingerprint, &f.State, &f.CreatedAt); err != nil {
			return out, fmt.Errorf("read: fleet certificates: %w", err)
		}
		out.List = append(out.List, f)
	}
	return out, rows.Err()
}
