package fleet

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"time"

	"chargeops/internal/db"
	"chargeops/internal/fleet/ingest"
)

// Certificate expiry (docs/security-profiles.md, "Security events"): a device whose newest
// installed client certificate (device_certificate in state CertInstalled, the latest
// not_after) ends within CertificateExpiryWindow, or has ended, has an alarm (level MA,
// connector 0, code CertificateExpiringCode, source SourceCertificate); the alarm ends when the
// newest installed certificate is valid beyond the window again (renewed: the Security tab's
// Renew certificate, control type 21). A device without an installed certificate keeps an
// alarm it has. Every node runs the check at start and hourly; it is idempotent (openEvent keeps
// one open event per device, kind, connector and code, and ending an ended event changes
// nothing), so nodes running it at once do no harm.

const (
	// CertificateExpiringCode is the code of the certificate-expiry alarm.
	CertificateExpiringCode = "certificate.expiring"
	// CertificateExpiryWindow is how long before its end a certificate raises the alarm.
	CertificateExpiryWindow = 30 * 24 * time.Hour
	// certificateExpiryName is the alarm's stored name (shown where its code has no name).
	certificateExpiryName = "Certificate expiring"
	// expiryBatch devices are checked per query and ingest step.
	expiryBatch = 200
	// expiryEvery is the pause between two checks.
	expiryEvery = time.Hour
)

const (
	// each device's newest installed certificate, devices after a cursor, in id order (a device
	// whose newest certificates share a not_after comes once per certificate: the first wins)
	sqlNewestInstalled = `SELECT c.device_id, d.sn, d.customer_id, d.site_id, c.serial, c.not_after
		FROM device_certificate c JOIN device d ON d.id = c.device_id
		WHERE c.state = ? AND c.device_id > ?
		  AND c.not_after = (SELECT MAX(x.not_after) FROM device_certificate x WHERE x.device_id = c.device_id AND x.state = ?)
		ORDER BY c.device_id, c.id DESC LIMIT ?`
	// the devices of a batch with an open expiry alarm
	sqlOpenExpiry = `SELECT device_id FROM device_event WHERE status = ? AND kind = ? AND source = ? AND device_id IN (%s)`
)

// CertificateExpiry is what one check changed.
type CertificateExpiry struct {
	Opened, Ended int
}

// RunCertificateExpiry checks certificate expiry at once and then every hour until ctx ends.
func (s *Service) RunCertificateExpiry(ctx context.Context) {
	t := time.NewTicker(expiryEvery)
	defer t.Stop()
	for {
		if r, err := s.CheckCertificateExpiry(ctx); err != nil {
			if ctx.Err() == nil {
				slog.Warn("certificate expiry check", "err", err)
			}
		} else if r.Opened > 0 || r.Ended > 0 {
			slog.Info("certificate expiry alarms", "opened", r.Opened, "ended", r.Ended)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// expiringCert is a device's newest installed certificate.
type expiringCert struct {
	dev      Device
	serial   string
	notAfter int64
}

// CheckCertificateExpiry opens the expiry alarm of each device whose newest installed
// certificate ends within CertificateExpiryWindow (or has ended) and has none, and ends it for
// each device whose newest one is valid beyond the window; expiryBatch devices at a time.
func (s *Service) CheckCertificateExpiry(ctx context.Context) (CertificateExpiry, error) {
	var out CertificateExpiry
	var after int64
	for {
		certs, err := s.newestInstalled(ctx, after)
		if err != nil {
			return out, fmt.Errorf("fleet: certificate expiry: %w", err)
		}
		if len(certs) == 0 {
			return out, nil
		}
		after = certs[len(certs)-1].dev.ID
		r, err := s.checkExpiryBatch(ctx, certs)
		out.Opened += r.Opened
		out.Ended += r.Ended
		if err != nil {
			return out, fmt.Errorf("fleet: certificate expiry: %w", err)
		}
	}
}

// newestInstalled returns the newest installed certificate of up to expiryBatch devices after
// the device id after, in id order.
func (s *Service) newestInstalled(ctx context.Context, after int64) ([]expiringCert, error) {
	rows, err := s.db.Query(ctx, sqlNewestInstalled, CertInstalled, after, CertInstalled, expiryBatch)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []expiringCert
	for rows.Next() {
		var c expiringCert
		if err := rows.Scan(&c.dev.ID, &c.dev.SN, &c.dev.CustomerID, &c.dev.SiteID, &c.serial, &c.notAfter); err != nil {
			return nil, err
		}
		if n := len(out); n > 0 && out[n-1].dev.ID == c.dev.ID {
			continue
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// checkExpiryBatch opens and ends the alarms of one batch in one ingest step.
func (s *Service) checkExpiryBatch(ctx context.Context, certs []expiringCert) (CertificateExpiry, error) {
	var out CertificateExpiry
	ids := make([]int64, len(certs))
	for i, c := range certs {
		ids[i] = c.dev.ID
	}
	open, err := db.Column[int64](ctx, s.db, fmt.Sprintf(sqlOpenExpiry, db.Placeholders(len(ids))),
		append([]any{EventOpen, KindAlarm, SourceCertificate}, db.Args(ids)...)...)
	if err != nil {
		return out, err
	}
	now := db.NowMS()
	limit := now + CertificateExpiryWindow.Milliseconds()
	var toOpen, toEnd []expiringCert
	for _, c := range certs {
		expiring, alarmed := c.notAfter <= limit, slices.Contains(open, c.dev.ID)
		switch {
		case expiring && !alarmed:
			toOpen = append(toOpen, c)
		case !expiring && alarmed:
			toEnd = append(toEnd, c)
		}
	}
	if len(toOpen) == 0 && len(toEnd) == 0 {
		return out, nil
	}
	err = s.Ingest.Commit(ctx, &ingest.Unit{Step: func(ctx context.Context, b *ingest.Batch) error {
		for _, c := range toOpen {
			dev := c.dev
			info := fmt.Sprintf("serial %s, not after %s UTC", c.serial, time.UnixMilli(c.notAfter).UTC().Format("2006-01-02 15:04"))
			if err := s.openEvent(ctx, b, eventOpen{Device: &dev, Kind: KindAlarm, Level: LevelMA, Connector: 0, Code: CertificateExpiringCode,
				Name: certificateExpiryName, Info: info, Source: SourceCertificate, At: now}); err != nil {
				return err
			}
			if err := s.recompute(ctx, b, dev.ID); err != nil {
				return err
			}
		}
		for _, c := range toEnd {
			if err := s.endEvents(ctx, b, eventEnd{DeviceID: c.dev.ID, SN: c.dev.SN, Source: SourceCertificate, Kinds: []int{KindAlarm}, Connector: 0,
				At: now}); err != nil {
				return err
			}
			if err := s.recompute(ctx, b, c.dev.ID); err != nil {
				return err
			}
		}
		return nil
	}})
	if err != nil {
		return out, err
	}
	return CertificateExpiry{Opened: len(toOpen), Ended: len(toEnd)}, nil
}
