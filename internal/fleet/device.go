package fleet

import (
	"context"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
)

// Device is what the gateway and the core need of a device row.
type Device struct {
	ID              int64
	SN              string
	CustomerID      int64
	SiteID          int64
	ModelID         int64
	Enabled         bool
	Maintain        bool
	AuthKeyHash     string
	SecurityProfile int
	// Protocol is the sub-protocol the device is admitted with: "" (auto: the newest both
	// sides speak), devstate.ProtocolOCPP16 or devstate.ProtocolOCPP201 (migration 0055).
	Protocol string
}

const deviceCols = `d.id, d.sn, d.customer_id, d.site_id, d.model_id, d.enabled, d.maintain_mode, d.auth_key_hash, d.security_profile, d.ocpp_protocol`

func scanDevice(row interface{ Scan(...any) error }) (*Device, error) {
	var d Device
	var en, mt int
	if err := row.Scan(&d.ID, &d.SN, &d.CustomerID, &d.SiteID, &d.ModelID, &en, &mt, &d.AuthKeyHash, &d.SecurityProfile, &d.Protocol); err != nil {
		return nil, err
	}
	d.Enabled, d.Maintain = en == 1, mt == 1
	return &d, nil
}

// withTail scans a device row followed by more columns: scanDevice fills the device's, the
// tail takes the rest.
type withTail struct {
	row  interface{ Scan(...any) error }
	tail []any
}

func (w withTail) Scan(dest ...any) error { return w.row.Scan(append(dest, w.tail...)...) }

// DeviceBySN returns the device, or nil when the SN is unknown.
func (s *Service) DeviceBySN(ctx context.Context, sn string) (*Device, error) {
	d, err := scanDevice(s.db.QueryRow(ctx, `SELECT `+deviceCols+` FROM device d WHERE d.sn = ?`, sn))
	if db.NotFound(err) {
		return nil, nil
	}
	return d, err
}

// DeviceByID returns the device, or nil when there is none.
func (s *Service) DeviceByID(ctx context.Context, id int64) (*Device, error) {
	d, err := scanDevice(s.db.QueryRow(ctx, `SELECT `+deviceCols+` FROM device d WHERE d.id = ?`, id))
	if db.NotFound(err) {
		return nil, nil
	}
	return d, err
}

// ScopedDevice returns a device the caller may see, else not found.
func (s *Service) ScopedDevice(ctx context.Context, p *access.Principal, id int64) (*Device, error) {
	cond, args := p.Scope.SiteCond("d.customer_id", "d.site_id")
	d, err := scanDevice(s.db.QueryRow(ctx, `SELECT `+deviceCols+` FROM device d WHERE d.id = ? AND `+cond, append([]any{id}, args...)...))
	if db.NotFound(err) {
		return nil, apperr.ErrNotFound
	}
	return d, err
}

// Drop closes a device's live connection on this node (disabled, blacklisted).
func (s *Service) Drop(sn, reason string) {
	if l, ok := s.Registry.Lookup(sn); ok {
		l.Close(reason)
	}
}
