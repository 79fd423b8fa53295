package fleet

import (
	"context"
	"strings"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
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

// BlacklistAdd puts an SN on the blacklist and drops its connection.
func (s *Service) BlacklistAdd(ctx context.Context, p *access.Principal, sn, mac, proto string) (int64, error) {
	sn = strings.TrimSpace(sn)
	if sn == "" || len(sn) > 64 {
		return 0, apperr.InvalidField("sn", "err.required")
	}
	id, err := db.InsertID(ctx, s.db, `INSERT INTO device_blacklist (sn, mac, protocol_version, created_by, created_at) VALUES (?, ?, ?, ?, ?)`,
		sn, strings.TrimSpace(mac), strings.TrimSpace(proto), p.UserName, db.NowMS())
	if db.IsUniqueViolation(err) {
		return 0, apperr.New(apperr.Conflict, "err.blacklist_exists")
	}
	if err != nil {
		return 0, err
	}
	_, _ = s.db.Exec(ctx, `DELETE FROM device_pending WHERE sn = ?`, sn)
	s.Drop(sn, "blacklisted")
	return id, nil
}

// BlacklistInput filters the blacklist.
type BlacklistInput struct {
	db.Page
	SN string `json:"sn"`
}

// Blacklist lists blacklisted SNs.
func (s *Service) Blacklist(ctx context.Context, in BlacklistInput) (db.List[BlacklistEntry], error) {
	q := &db.Query{From: "device_blacklist"}
	if in.SN != "" {
		q.And(`sn LIKE ? ESCAPE '\'`, db.Contains(in.SN))
	}
	return db.Paged(ctx, s.db, q, "id, sn, mac, protocol_version, created_by, created_at", "id DESC", in.Page, func(r db.Scanner) (BlacklistEntry, error) {
		var b BlacklistEntry
		err := r.Scan(&b.ID, &b.SN, &b.MAC, &b.ProtocolVersion, &b.CreatedBy, &b.CreatedAt)
		return b, err
	})
}

// BlacklistDelete removes entries.
func (s *Service) BlacklistDelete(ctx context.Context, ids []int64) error {
	if len(ids) == 0 {
		return apperr.InvalidField("ids", "err.required")
	}
	_, err := s.db.Exec(ctx, `DELETE FROM device_blacklist WHERE id IN (`+db.Placeholders(len(ids))+`)`, db.Args(ids)...)
	return err
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

// Pending lists unknown SNs (not yet added as devices, not blacklisted), latest first.
func (s *Service) Pending(ctx context.Context, in PendingInput) (db.List[PendingDevice], error) {
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
	Count      int64  `json:"count"`
	FirstSeen  int64  `json:"firstSeen"`
	LastSeen   int64  `json:"lastSeen"`
}

// Refusals lists refused connections, latest first.
func (s *Service) Refusals(ctx context.Context, in PendingInput) (db.List[Refusal], error) {
	q := &db.Query{From: "device_refusal"}
	if in.SN != "" {
		q.And(`sn LIKE ? ESCAPE '\'`, db.Contains(in.SN))
	}
	return db.Paged(ctx, s.db, q, "id, sn, reason, remote_addr, count, first_seen, last_seen", "last_seen DESC, id DESC", in.Page, func(r db.Scanner) (Refusal, error) {
		var x Refusal
		err := r.Scan(&x.ID, &x.SN, &x.Reason, &x.RemoteAddr, &x.Count, &x.FirstSeen, &x.LastSeen)
		return x, err
	})
}

// FileListInput filters files.
type FileListInput struct {
	db.Page
	Kind     string `json:"kind"` // firmware or diagnostics
	DeviceID int64  `json:"deviceId"`
}

// Files lists firmware files, or a device's diagnostics files (device in scope).
func (s *Service) Files(ctx context.Context, p *access.Principal, in FileListInput) (db.List[FileInfo], error) {
	q := (&db.Query{From: "fleet_file"}).And("kind = 'firmware'")
	if in.Kind == "diagnostics" {
		if _, err := s.ScopedDevice(ctx, p, in.DeviceID); err != nil {
			return db.List[FileInfo]{List: []FileInfo{}}, err
		}
		q = (&db.Query{From: "fleet_file"}).And("kind = 'diagnostics' AND device_id = ?", in.DeviceID)
	}
	return db.Paged(ctx, s.db, q, "id, kind, device_id, name, size, sha256, complete, created_by, created_at", "id DESC", in.Page, func(r db.Scanner) (FileInfo, error) {
		var f FileInfo
		var c int
		err := r.Scan(&f.ID, &f.Kind, &f.DeviceID, &f.Name, &f.Size, &f.SHA256, &c, &f.CreatedBy, &f.CreatedAt)
		f.Complete = c == 1
		return f, err
	})
}

// FileDownload returns the signed download path of a file the caller may see (diagnostics
// files: of a device in scope).
func (s *Service) FileDownload(ctx context.Context, p *access.Principal, id int64) (string, error) {
	var kind, name string
	var deviceID int64
	var complete int
	if err := s.db.QueryRow(ctx, `SELECT kind, name, device_id, complete FROM fleet_file WHERE id = ?`, id).Scan(&kind, &name, &deviceID, &complete); err != nil {
		if db.NotFound(err) {
			return "", apperr.ErrNotFound
		}
		return "", err
	}
	if kind == "diagnostics" {
		if _, err := s.ScopedDevice(ctx, p, deviceID); err != nil {
			return "", err
		}
	}
	if complete == 0 {
		return "", apperr.ErrNotFound
	}
	return s.DownloadPath(id, name), nil
}
