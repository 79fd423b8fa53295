package attach

import (
	"context"
	"fmt"

	"chargeops/internal/db"
	"chargeops/internal/kit"
)

// DiagnosticsRoot is the top folder of chargers' diagnostics uploads; each device has
// diagnostics/<SN> under it (decisions §2).
const DiagnosticsRoot = "diagnostics"

// Diagnostics is one completed diagnostics upload of a charger (internal/fleet/files.go).
type Diagnostics struct {
	CustomerID int64
	SN         string
	Name       string
	ObjectKey  string
	Size       int64
	// SecurityLog: a charger's security log, read and downloaded at level 1 only
	// (securityLogLevel), not by every reader of the device
	SecurityLog bool
}

// Diagnostics attachments are read and downloaded at the lowest level (5), like the device's
// own diagnostics list, which every reader of the device sees; only level 0 changes them.
const (
	diagnosticsRead     = 5
	diagnosticsWrite    = 0
	diagnosticsDownload = 5
	// securityLogLevel reads and downloads a security log: what a charger says of attacks on it
	// is for the roles trusted with its certificates, not for every reader of the device
	securityLogLevel = 1
)

// RegisterDiagnostics files a charger's diagnostics upload as an attachment in
// diagnostics/<SN> of the device's customer (folders made on demand), pointing at the same
// object.
func (s *Service) RegisterDiagnostics(ctx context.Context, d Diagnostics) (int64, error) {
	if d.CustomerID == 0 {
		return 0, fmt.Errorf("attach: diagnostics of %s: the device has no customer", d.SN)
	}
	root, err := s.ensureFolder(ctx, d.CustomerID, 0, DiagnosticsRoot, DiagnosticsRoot)
	if err != nil {
		return 0, err
	}
	folder, err := s.ensureFolder(ctx, d.CustomerID, root, d.SN, DiagnosticsRoot+"/"+d.SN)
	if err != nil {
		return 0, err
	}
	read, download, what := diagnosticsRead, diagnosticsDownload, "diagnostics of "
	if d.SecurityLog {
		read, download, what = securityLogLevel, securityLogLevel, "security log of "
	}
	return db.InsertID(ctx, s.db, `INSERT INTO attach_file (folder_id, customer_id, name, object_key, size, content_type, description, read_level, write_level, download_level, created_by, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?)`, folder, d.CustomerID, d.Name, d.ObjectKey, d.Size, "application/octet-stream", what+d.SN,
		read, diagnosticsWrite, download, db.NowMS())
}

// ensureFolder returns the diagnostics folder at path of a customer, made when missing; a
// concurrent maker wins the unique index and its folder is used.
func (s *Service) ensureFolder(ctx context.Context, customer, parent int64, name, path string) (int64, error) {
	var id int64
	for range 2 {
		err := s.db.QueryRow(ctx, `SELECT id FROM attach_folder WHERE customer_id = ? AND path = ?`, customer, path).Scan(&id)
		if err == nil {
			return id, nil
		}
		if !db.NotFound(err) {
			return 0, err
		}
		id, err = db.InsertID(ctx, s.db, `INSERT INTO attach_folder (customer_id, parent_id, name, path, read_level, write_level, download_level, created_by, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?)`,
			customer, parent, name, path, diagnosticsRead, diagnosticsWrite, diagnosticsDownload, db.NowMS())
		if err == nil {
			return id, nil
		}
		if name, clash := kit.Clash(err); !clash || name != "uq_attach_folder_path" {
			return 0, err
		}
	}
	return 0, fmt.Errorf("attach: folder %s: not made", path)
}
