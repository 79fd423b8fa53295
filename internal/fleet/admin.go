package fleet

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/kit"
)

// BlacklistEntry is a blacklisted SN.
type BlacklistEntry struct {
	ID              int64  `json:"id"`
	SN              string `json:"sn"`
	MAC             string `json:"mac"`
	ProtocolVersion string `json:"protocolVersion"`
	CreatedBy       string `json:"createdBy"`
	CreatedAt       int64  `json:"createdAt"`
}

// platformCaller reports whether p sees platform-level fleet data: unknown SNs, the node's
// gateway figures, platform files by default. That is root, or a caller who sees every
// customer (the route table's PlatformOnly; docs/gateway.md, "Who sees what").
func platformCaller(p *access.Principal) bool { return p.Root || p.Scope.AllCustomers }

// RequirePlatform refuses (20013) a caller without the full scope.
func (s *Service) RequirePlatform(p *access.Principal) error {
	if !platformCaller(p) {
		return apperr.ErrNoPermission
	}
	return nil
}

// snScope limits rows keyed by an SN (blacklist, refusals): the SN of a known device follows
// that device's customer and site; an unknown SN is platform-level.
func snScope(p *access.Principal, snCol string) (string, []any) {
	if p.Root || p.Scope.Everything() {
		return "1 = 1", nil
	}
	cond, args := p.Scope.SiteCond("d.customer_id", "d.site_id")
	known := `EXISTS (SELECT 1 FROM device d WHERE d.sn = ` + snCol + ` AND ` + cond + `)`
	if platformCaller(p) {
		return `(` + known + ` OR NOT EXISTS (SELECT 1 FROM device d WHERE d.sn = ` + snCol + `))`, args
	}
	return known, args
}

// BlacklistAdd puts an SN on the blacklist and drops its connection. The SN of a device must
// be in the caller's scope; an unknown SN needs a platform caller. Both refusals are "not
// found", so the answer does not tell another customer's SN from an unknown one.
func (s *Service) BlacklistAdd(ctx context.Context, p *access.Principal, sn, mac, proto string) (int64, error) {
	sn = strings.TrimSpace(sn)
	if sn == "" {
		return 0, apperr.InvalidField("sn", "err.required")
	}
	if len(sn) > 64 {
		return 0, apperr.InvalidField("sn", "err.invalid")
	}
	dev, err := s.DeviceBySN(ctx, sn)
	if err != nil {
		return 0, fmt.Errorf("fleet: blacklist add: %w", err)
	}
	if (dev == nil && !platformCaller(p)) || (dev != nil && !p.Scope.HasSite(dev.CustomerID, dev.SiteID)) {
		return 0, apperr.ErrNotFound
	}
	id, err := db.InsertID(ctx, s.db, `INSERT INTO device_blacklist (sn, mac, protocol_version, created_by, created_at) VALUES (?, ?, ?, ?, ?)`,
		sn, strings.TrimSpace(mac), strings.TrimSpace(proto), p.UserName, db.NowMS())
	if kit.IsClash(err, "device_blacklist_sn_key") {
		return 0, apperr.New(apperr.Conflict, "err.blacklist_exists")
	}
	if err != nil {
		return 0, fmt.Errorf("fleet: blacklist add: %w", err)
	}
	if _, err := s.db.Exec(ctx, `DELETE FROM device_pending WHERE sn = ?`, sn); err != nil {
		return id, fmt.Errorf("fleet: blacklist add: pending: %w", err)
	}
	s.Drop(sn, "blacklisted")
	return id, nil
}

// BlacklistInput filters the blacklist.
type BlacklistInput struct {
	db.Page
	SN string `json:"sn"`
}

// Blacklist lists the blacklisted SNs the caller may see (snScope).
func (s *Service) Blacklist(ctx context.Context, p *access.Principal, in BlacklistInput) (db.List[BlacklistEntry], error) {
	cond, args := snScope(p, "device_blacklist.sn")
	q := (&db.Query{From: "device_blacklist"}).And(cond, args...)
	if in.SN != "" {
		q.And(`sn LIKE ? ESCAPE '\'`, db.Contains(in.SN))
	}
	return db.Paged(ctx, s.db, q, "id, sn, mac, protocol_version, created_by, created_at", "id DESC", in.Page, func(r db.Scanner) (BlacklistEntry, error) {
		var b BlacklistEntry
		err := r.Scan(&b.ID, &b.SN, &b.MAC, &b.ProtocolVersion, &b.CreatedBy, &b.CreatedAt)
		return b, err
	})
}

// BlacklistDelete removes entries the caller may see, all or none: when any id is not one of
// them the call is "not found" and nothing is removed.
func (s *Service) BlacklistDelete(ctx context.Context, p *access.Principal, ids []int64) error {
	ids = slices.Compact(slices.Sorted(slices.Values(ids)))
	if len(ids) == 0 {
		return apperr.InvalidField("ids", "err.required")
	}
	cond, args := snScope(p, "device_blacklist.sn")
	return s.db.InTx(ctx, func(tx *db.Tx) error {
		res, err := tx.Exec(ctx, `DELETE FROM device_blacklist WHERE id IN (`+db.Placeholders(len(ids))+`) AND `+cond, append(db.Args(ids), args...)...)
		if err != nil {
			return fmt.Errorf("fleet: blacklist delete: %w", err)
		}
		if n, err := res.RowsAffected(); err != nil || n != int64(len(ids)) {
			return apperr.ErrNotFound // rolls the deletes back
		}
		return nil
	})
}

// PendingDevice is an unknown SN that tried to connect.
type PendingDevice struct {
	ID              int64  `json:"id"`
	SN              string `json:"sn"`
	RemoteAddr      string `json:"remoteAddr"`
	ProtocolVersion string `json:"protocolVersion"`
	Vendor          string `json:"vendor"`
	Model           string `json:"model"`
	FirmwareVersion string `json:"firmwareVersion"`
	Count           int64  `json:"count"`
	FirstSeen       int64  `json:"firstSeen"`
	LastSeen        int64  `json:"lastSeen"`
}

// PendingInput filters pending devices.
type PendingInput struct {
	db.Page
	SN string `json:"sn"`
}

// Pending lists unknown SNs (not yet added as devices, not blacklisted), latest first. They
// are platform-level: a caller without the full scope gets an empty list.
func (s *Service) Pending(ctx context.Context, p *access.Principal, in PendingInput) (db.List[PendingDevice], error) {
	if !platformCaller(p) {
		return db.List[PendingDevice]{List: []PendingDevice{}}, nil
	}
	q := (&db.Query{From: "device_pending p"}).
		And(`NOT EXISTS (SELECT 1 FROM device d WHERE d.sn = p.sn) AND NOT EXISTS (SELECT 1 FROM device_blacklist b WHERE b.sn = p.sn)`)
	if in.SN != "" {
		q.And(`p.sn LIKE ? ESCAPE '\'`, db.Contains(in.SN))
	}
	return db.Paged(ctx, s.db, q, "p.id, p.sn, p.remote_addr, p.protocol_version, p.vendor, p.model, p.firmware_version, p.count, p.first_seen, p.last_seen",
		"p.last_seen DESC, p.id DESC", in.Page, func(r db.Scanner) (PendingDevice, error) {
			var d PendingDevice
			err := r.Scan(&d.ID, &d.SN, &d.RemoteAddr, &d.ProtocolVersion, &d.Vendor, &d.Model, &d.FirmwareVersion, &d.Count, &d.FirstSeen, &d.LastSeen)
			return d, err
		})
}

// Refusal is a kept refused connection.
type Refusal struct {
	ID         int64  `json:"id"`
	SN         string `json:"sn"`
	Reason     string `json:"reason"`
	RemoteAddr string `json:"remoteAddr"`
	Protocols  string `json:"protocols"` // the sub-protocols offered, for reason unsupported_protocol
	Count      int64  `json:"count"`
	FirstSeen  int64  `json:"firstSeen"`
	LastSeen   int64  `json:"lastSeen"`
}

// Refusals lists the refused connections the caller may see (snScope), latest first.
func (s *Service) Refusals(ctx context.Context, p *access.Principal, in PendingInput) (db.List[Refusal], error) {
	cond, args := snScope(p, "device_refusal.sn")
	q := (&db.Query{From: "device_refusal"}).And(cond, args...)
	if in.SN != "" {
		q.And(`sn LIKE ? ESCAPE '\'`, db.Contains(in.SN))
	}
	return db.Paged(ctx, s.db, q, "id, sn, reason, remote_addr, protocols, count, first_seen, last_seen", "last_seen DESC, id DESC", in.Page, func(r db.Scanner) (Refusal, error) {
		var x Refusal
		err := r.Scan(&x.ID, &x.SN, &x.Reason, &x.RemoteAddr, &x.Protocols, &x.Count, &x.FirstSeen, &x.LastSeen)
		return x, err
	})
}

// FileListInput filters files.
type FileListInput struct {
	db.Page
	Kind     string `json:"kind"` // firmware or diagnostics
	DeviceID int64  `json:"deviceId"`
}

// Files lists the firmware files the caller may use (platform files and those of its
// customers), or a device's diagnostics files (device and file customer in scope), its
// security logs among them for a caller holding KeyCertificate.
func (s *Service) Files(ctx context.Context, p *access.Principal, in FileListInput) (db.List[FileInfo], error) {
	cond, args := p.Scope.CustomerCond("customer_id")
	q := (&db.Query{From: "fleet_file"}).And("kind = ?", FileFirmware).And("(customer_id = 0 OR "+cond+")", args...)
	if in.Kind == FileDiagnostics {
		if _, err := s.ScopedDevice(ctx, p, in.DeviceID); err != nil {
			return db.List[FileInfo]{List: []FileInfo{}}, err
		}
		kinds := []any{FileDiagnostics}
		if p.HasAny(KeyCertificate) {
			kinds = append(kinds, FileSecurityLog)
		}
		q = (&db.Query{From: "fleet_file"}).And("kind IN ("+db.Placeholders(len(kinds))+")", kinds...).And("device_id = ?", in.DeviceID).And(cond, args...)
	}
	return db.Paged(ctx, s.db, q, "id, kind, customer_id, device_id, name, size, sha256, complete, created_by, created_at, CASE WHEN signature = '' THEN 0 ELSE 1 END", "id DESC", in.Page, func(r db.Scanner) (FileInfo, error) {
		var f FileInfo
		var c, signed int
		err := r.Scan(&f.ID, &f.Kind, &f.CustomerID, &f.DeviceID, &f.Name, &f.Size, &f.SHA256, &c, &f.CreatedBy, &f.CreatedAt, &signed)
		f.Complete, f.Signed = c == 1, signed == 1
		return f, err
	})
}

// FileDownload returns the signed download path of a complete file the caller may see: a
// platform firmware file, or a file of a customer in scope (a diagnostics file: also of a
// device in scope). Any other file is "not found".
func (s *Service) FileDownload(ctx context.Context, p *access.Principal, id int64) (string, error) {
	var kind, name string
	var deviceID int64
	cond, args := p.Scope.CustomerCond("customer_id")
	err := s.db.QueryRow(ctx, `SELECT kind, name, device_id FROM fleet_file WHERE id = ? AND complete = 1 AND ((kind = ? AND customer_id = 0) OR `+cond+`)`,
		append([]any{id, FileFirmware}, args...)...).Scan(&kind, &name, &deviceID)
	if db.NotFound(err) {
		return "", apperr.ErrNotFound
	}
	if err != nil {
		return "", fmt.Errorf("fleet: file download: %w", err)
	}
	if kind == FileSecurityLog && !p.HasAny(KeyCertificate) {
		return "", apperr.ErrNotFound
	}
	if kind == FileDiagnostics || kind == FileSecurityLog {
		if _, err := s.ScopedDevice(ctx, p, deviceID); err != nil {
			return "", err
		}
	}
	return s.DownloadPath(id, name), nil
}
