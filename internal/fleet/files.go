package fleet

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"mime/multipart"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/storage"
)

// Files are firmware images (uploaded by an operator, downloaded by chargers) and diagnostics
// files (uploaded by chargers, downloaded by operators). Every file URL is signed:
// /fleet/files/<action>/<id>?exp=<unix s>&sig=<hmac>, valid for LinkTTL. Every file belongs
// to a customer, or to the platform (customer 0) for firmware every caller may use
// (docs/gateway.md, "Files").

// File kinds.
const (
	FileFirmware    = "firmware"
	FileDiagnostics = "diagnostics"
	// FileSecurityLog is a charger's security log (GetLog SecurityLog): listed and downloaded
	// only by callers holding KeyCertificate, as asking for it needs (logs.go, logAccess)
	FileSecurityLog = "security_log"
)

// LinkTTL is how long a signed file link is valid (docs/configuration.md#configuration-reference: signed link validity 3600 s).
const LinkTTL = time.Hour

// MaxFileBytes bounds one uploaded firmware file.
const MaxFileBytes = 512 << 20

// MaxDiagnosticsBytes bounds one diagnostics file a charger uploads.
const MaxDiagnosticsBytes = 64 << 20

// diagnosticsTypes are the Content-Types a diagnostics upload may have (logs and archives, raw
// or in a multipart form); an upload of any other type is refused.
var diagnosticsTypes = map[string]bool{
	"": true, "application/octet-stream": true, "text/plain": true, "multipart/form-data": true,
	"application/zip": true, "application/x-zip-compressed": true, "application/gzip": true,
	"application/x-gzip": true, "application/x-tar": true, "application/x-compressed-tar": true,
}

// FilesPrefix is where the files handler is mounted.
const FilesPrefix = "/fleet/files/"

func (s *Service) sign(path string, exp int64) string {
	m := hmac.New(sha256.New, s.secret)
	m.Write([]byte(path + "|" + strconv.FormatInt(exp, 10)))
	return hex.EncodeToString(m.Sum(nil))
}

// SignedPath returns path with a signature valid for ttl.
func (s *Service) SignedPath(path string, ttl time.Duration) string {
	exp := time.Now().Add(ttl).Unix()
	return path + "?exp=" + strconv.FormatInt(exp, 10) + "&sig=" + s.sign(path, exp)
}

// CheckSigned reports whether sig signs path until exp (unix seconds, as the query of a signed
// link carries them) and exp has not passed.
func (s *Service) CheckSigned(path, exp, sig string) bool {
	e, err := strconv.ParseInt(exp, 10, 64)
	if err != nil || time.Now().Unix() > e {
		return false
	}
	return hmac.Equal([]byte(s.sign(path, e)), []byte(sig))
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

func safeName(name string) string {
	name = unsafeName.ReplaceAllString(filepath.Base(name), "_")
	if name == "" || name == "." || name == ".." {
		name = "file"
	}
	if len(name) > 100 {
		name = name[len(name)-100:]
	}
	return name
}

// FileInfo is a firmware or diagnostics file.
type FileInfo struct {
	ID         int64  `json:"id"`
	Kind       string `json:"kind"`
	CustomerID int64  `json:"customerId"` // 0: a platform file
	DeviceID   int64  `json:"deviceId"`
	Name       string `json:"name"`
	Size       int64  `json:"size"`
	SHA256     string `json:"sha256"`
	Complete   bool   `json:"complete"`
	CreatedBy  string `json:"createdBy"`
	CreatedAt  int64  `json:"createdAt"`
	Signed     bool   `json:"signed"` // a firmware file with a signing certificate and signature (signedfirmware.go)
}

// NewFirmwareInput names a firmware file to upload and, optionally, its customer.
type NewFirmwareInput struct {
	Name       string `json:"name"`
	CustomerID int64  `json:"customerId"` // 0: the default owner (see firmwareOwner)
	// Optional, both or neither: the certificate the file was signed with (PEM X.509) and its
	// signature (base64); control type 5 then sends SignedUpdateFirmware (signedfirmware.go).
	SigningCertificate string `json:"signingCertificate"`
	Signature          string `json:"signature"`
}

// NewFirmware records a firmware file to come and returns it with the signed upload path
// (PUT the raw bytes there).
func (s *Service) NewFirmware(ctx context.Context, p *access.Principal, in NewFirmwareInput) (FileInfo, string, error) {
	name := strings.TrimSpace(in.Name)
	if name == "" {
		return FileInfo{}, "", apperr.InvalidField("name", "err.required")
	}
	if len(name) > 200 {
		return FileInfo{}, "", apperr.InvalidField("name", "err.invalid")
	}
	if err := checkFirmwareSigning(&in); err != nil {
		return FileInfo{}, "", err
	}
	owner, err := firmwareOwner(p, in.CustomerID)
	if err != nil {
		return FileInfo{}, "", err
	}
	f := FileInfo{Kind: FileFirmware, CustomerID: owner, Name: safeName(name), CreatedBy: p.UserName, CreatedAt: db.NowMS(), Signed: in.Signature != ""}
	f.ID, err = db.InsertID(ctx, s.db, `INSERT INTO fleet_file (kind, customer_id, device_id, name, created_by, created_at, signing_certificate, signature) VALUES (?, ?, 0, ?, ?, ?, ?, ?)`,
		f.Kind, f.CustomerID, f.Name, f.CreatedBy, f.CreatedAt, in.SigningCertificate, in.Signature)
	if err != nil {
		return f, "", fmt.Errorf("fleet: new firmware: %w", err)
	}
	return f, s.SignedPath(fmt.Sprintf("%supload/%d", FilesPrefix, f.ID), LinkTTL), nil
}

// firmwareOwner is the customer a new firmware file belongs to: the chosen one (in the
// caller's scope), else the platform (0) for a caller who sees every customer, else the
// caller's own customer (or the only customer of its scope).
func firmwareOwner(p *access.Principal, chosen int64) (int64, error) {
	switch {
	case chosen < 0:
		return 0, apperr.InvalidField("customerId", "err.invalid")
	case chosen > 0 && !p.Scope.HasCustomer(chosen):
		return 0, apperr.ErrNotFound
	case chosen > 0:
		return chosen, nil
	case platformCaller(p):
		return 0, nil
	case p.CustomerID > 0 && p.Scope.HasCustomer(p.CustomerID):
		return p.CustomerID, nil
	case len(p.Scope.CustomerIDs) == 1:
		return p.Scope.CustomerIDs[0], nil
	}
	return 0, apperr.InvalidField("customerId", "err.required")
}

// FirmwareURL is the signed download URL of a firmware file for a charger reaching base.
func (s *Service) FirmwareURL(base string, fileID int64) string {
	return strings.TrimSuffix(base, "/") + s.SignedPath(fmt.Sprintf("%sfirmware/%d/firmware.bin", FilesPrefix, fileID), 24*time.Hour)
}

// DiagnosticsURL is the signed upload URL a charger sends its diagnostics to (POST or PUT,
// raw or multipart).
func (s *Service) DiagnosticsURL(base string, deviceID, commandID int64) string {
	return strings.TrimSuffix(base, "/") + s.SignedPath(fmt.Sprintf("%sdiagnostics/%d/%d", FilesPrefix, deviceID, commandID), 24*time.Hour)
}

// DownloadPath is the signed path an operator downloads a file from.
func (s *Service) DownloadPath(id int64, name string) string {
	return s.SignedPath(fmt.Sprintf("%sdownload/%d/%s", FilesPrefix, id, url.PathEscape(name)), LinkTTL)
}

// FirmwareUsable reports whether a firmware file is complete and may be installed on a device
// of deviceCustomerID: a platform file, or a file of that customer.
func (s *Service) FirmwareUsable(ctx context.Context, firmwareID, deviceCustomerID int64) bool {
	var n int
	if err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM fleet_file WHERE id = ? AND kind = ? AND complete = 1 AND customer_id IN (0, ?)`,
		firmwareID, FileFirmware, deviceCustomerID).Scan(&n); err != nil {
		slog.Warn("fleet: firmware usable", "id", firmwareID, "err", err)
		return false
	}
	return n > 0
}

// OpenDiagnosticsJob makes commandID the device's GetDiagnostics job: its upload URL may then
// deliver one file. A later job replaces it.
func (s *Service) OpenDiagnosticsJob(ctx context.Context, deviceID, commandID int64) error {
	if _, err := s.db.Exec(ctx, `UPDATE device_state SET diagnostics_job = ? WHERE device_id = ?`, commandID, deviceID); err != nil {
		return fmt.Errorf("fleet: open diagnostics job: %w", err)
	}
	return nil
}

// EndDiagnosticsJob closes the job commandID (the GetDiagnostics call failed); a later job
// stays open.
func (s *Service) EndDiagnosticsJob(ctx context.Context, deviceID, commandID int64) {
	if err := s.Ingest.Exec(ctx, `UPDATE device_state SET diagnostics_job = 0 WHERE device_id = ? AND diagnostics_job = ?`, deviceID, commandID); err != nil {
		slog.Warn("fleet: end diagnostics job", "device", deviceID, "err", err)
	}
}

// Errors of the file transfers (the HTTP side, httpapi's files handler, answers each with its
// own status).
var (
	ErrFileNotFound     = errors.New("fleet: file not found")
	ErrFileTooLarge     = errors.New("fleet: file too large")
	ErrFileType         = errors.New("fleet: unsupported file type")
	ErrNoDiagnosticsJob = errors.New("fleet: no diagnostics upload is expected")
	ErrUploadRefused    = errors.New("fleet: upload refused")
)

// ReceiveFirmware stores the bytes of the firmware file fileID recorded by NewFirmware (at
// most MaxFileBytes) and marks it complete. An unknown or already complete file is
// ErrFileNotFound; a failed or oversized upload is ErrUploadRefused.
func (s *Service) ReceiveFirmware(ctx context.Context, fileID int64, body io.Reader) error {
	var name string
	var complete int
	if err := s.db.QueryRow(ctx, `SELECT name, complete FROM fleet_file WHERE id = ? AND kind = ?`, fileID, FileFirmware).Scan(&name, &complete); err != nil || complete == 1 {
		return ErrFileNotFound
	}
	path := fmt.Sprintf("firmware/%d-%s", fileID, name)
	size, sum, err := s.store(ctx, path, body, MaxFileBytes)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrUploadRefused, err)
	}
	if _, err := s.db.Exec(ctx, `UPDATE fleet_file SET path = ?, size = ?, sha256 = ?, complete = 1 WHERE id = ?`, path, size, sum, fileID); err != nil {
		return fmt.Errorf("fleet: firmware complete: %w", err)
	}
	return nil
}

// DiagnosticsIn is one diagnostics upload of a charger to the signed URL of its job.
type DiagnosticsIn struct {
	DeviceID, CommandID int64
	Length              int64  // the declared length (-1: unknown)
	ContentType         string // as sent
	Name                string // the file name the charger gave in the link's query, if any
	Body                io.Reader
}

// ReceiveDiagnostics takes the one file of the device's open GetDiagnostics job (in.CommandID):
// at most MaxDiagnosticsBytes (else ErrFileTooLarge), of a log or archive type (else
// ErrFileType). Taking it closes the job, so the signed URL delivers nothing more
// (ErrNoDiagnosticsJob); a failed upload (ErrUploadRefused) reopens it for the charger's retry.
func (s *Service) ReceiveDiagnostics(ctx context.Context, in DiagnosticsIn) error {
	deviceID, commandID := in.DeviceID, in.CommandID
	if in.Length > MaxDiagnosticsBytes {
		return ErrFileTooLarge
	}
	var mt string
	var params map[string]string
	if ct := in.ContentType; ct != "" {
		var err error
		if mt, params, err = mime.ParseMediaType(ct); err != nil {
			mt = "invalid"
		}
	}
	if !diagnosticsTypes[mt] {
		return ErrFileType
	}
	var sn string
	var customerID int64
	if err := s.db.QueryRow(ctx, `SELECT sn, customer_id FROM device WHERE id = ?`, deviceID).Scan(&sn, &customerID); err != nil {
		return ErrFileNotFound
	}
	res, err := s.db.Exec(ctx, `UPDATE device_state SET diagnostics_job = 0 WHERE device_id = ? AND diagnostics_job = ? AND diagnostics_job <> 0`, deviceID, commandID)
	if db.Affected(res, err, apperr.ErrNotFound) != nil {
		return ErrNoDiagnosticsJob
	}
	id, size, err := s.storeDiagnostics(ctx, diagnosticsFile{in: in, sn: sn, customerID: customerID, mediaType: mt, params: params,
		kind: s.uploadKind(ctx, deviceID, commandID)})
	if err != nil {
		// Reopen the job (unless a newer one replaced it) so that the charger may retry.
		if _, rerr := s.db.Exec(context.WithoutCancel(ctx), `UPDATE device_state SET diagnostics_job = ? WHERE device_id = ? AND diagnostics_job = 0`, commandID, deviceID); rerr != nil {
			slog.Warn("fleet: reopen diagnostics job", "sn", sn, "err", rerr)
		}
		slog.Info("diagnostics upload refused", "sn", sn, "err", err)
		return fmt.Errorf("%w: %w", ErrUploadRefused, err)
	}
	slog.Info("diagnostics received", "sn", sn, "file", id, "bytes", size)
	return nil
}

// diagnosticsFile is an accepted diagnostics upload with what was read of its device and type.
type diagnosticsFile struct {
	in         DiagnosticsIn
	sn         string
	customerID int64
	mediaType  string
	params     map[string]string
	kind       string // the log of a GetLog job (LogSecurity, LogDiagnostics; logs.go), "" for GetDiagnostics
}

// storeDiagnostics keeps the uploaded file as a diagnostics file of the device's customer.
func (s *Service) storeDiagnostics(ctx context.Context, f diagnosticsFile) (int64, int64, error) {
	ctx = context.WithoutCancel(ctx)
	sn, customerID, deviceID, commandID := f.sn, f.customerID, f.in.DeviceID, f.in.CommandID
	body := io.Reader(io.LimitReader(f.in.Body, MaxDiagnosticsBytes+1))
	name := f.in.Name
	if f.mediaType == "multipart/form-data" {
		mr := multipart.NewReader(body, f.params["boundary"])
		for {
			p, err := mr.NextPart()
			if err != nil {
				return 0, 0, fmt.Errorf("no file in the upload: %w", err)
			}
			if p.FileName() != "" {
				name, body = p.FileName(), p
				break
			}
		}
	}
	name = uploadName(f.kind, name, sn, commandID)
	kind := FileDiagnostics
	if f.kind == LogSecurity {
		kind = FileSecurityLog
	}
	id, err := db.InsertID(ctx, s.db, `INSERT INTO fleet_file (kind, customer_id, device_id, name, created_by, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
		kind, customerID, deviceID, name, sn, db.NowMS())
	if err != nil {
		return 0, 0, fmt.Errorf("fleet: diagnostics file: %w", err)
	}
	path := fmt.Sprintf("diagnostics/%s/%s-%d-%s", safeName(sn), time.Now().UTC().Format("20060102T150405Z"), id, name)
	size, sum, err := s.store(ctx, path, body, MaxDiagnosticsBytes)
	if err == nil {
		_, err = s.db.Exec(ctx, `UPDATE fleet_file SET path = ?, size = ?, sha256 = ?, complete = 1 WHERE id = ?`, path, size, sum, id)
	}
	if err != nil {
		if _, derr := s.db.Exec(ctx, `DELETE FROM fleet_file WHERE id = ?`, id); derr != nil {
			slog.Warn("fleet: incomplete diagnostics file left", "id", id, "err", derr)
		}
		return 0, 0, err
	}
	s.diagnosticsStored(ctx, DiagnosticsUpload{FileID: id, CustomerID: customerID, DeviceID: deviceID, SN: sn, Name: name, ObjectKey: path, Size: size,
		SecurityLog: kind == FileSecurityLog})
	return id, size, nil
}

// store keeps body (at most limit bytes) in the file store under key and returns its size and
// SHA-256; a failed or oversized upload leaves nothing stored.
func (s *Service) store(ctx context.Context, key string, body io.Reader, limit int64) (int64, string, error) {
	h := sha256.New()
	lr := &cappedReader{r: io.TeeReader(body, h), left: limit}
	info, err := s.opt.Files.Put(ctx, lr, storage.PutSpec{Key: key, Size: -1, ContentType: "application/octet-stream"})
	if err != nil {
		return 0, "", fmt.Errorf("fleet: store %s: %w", key, err)
	}
	return info.Size, hex.EncodeToString(h.Sum(nil)), nil
}

// cappedReader fails once more than left bytes were read, so a store never keeps a file that
// is too large.
type cappedReader struct {
	r    io.Reader
	left int64
}

func (c *cappedReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.left -= int64(n)
	if c.left < 0 {
		return n, fmt.Errorf("more than the allowed bytes")
	}
	return n, err
}

// openFile opens a stored file: a key of the file store, or (files stored before the store
// existed) an absolute path on this node's disk.
func (s *Service) openFile(ctx context.Context, path string) (io.ReadCloser, time.Time, error) {
	if filepath.IsAbs(path) {
		f, err := os.Open(path)
		if err != nil {
			return nil, time.Time{}, err
		}
		st, err := f.Stat()
		if err != nil {
			f.Close()
			return nil, time.Time{}, err
		}
		return f, st.ModTime(), nil
	}
	rc, info, err := s.opt.Files.Open(ctx, path)
	return rc, info.ModTime, err
}

// Download is a stored file opened for sending.
type Download struct {
	Name    string
	ModTime time.Time
	Body    io.ReadCloser // an io.ReadSeeker when the store allows ranges
}

// OpenDownload opens the complete file id for download (only a firmware file when
// firmwareOnly: the chargers' link); anything else is ErrFileNotFound. The caller closes Body.
func (s *Service) OpenDownload(ctx context.Context, id int64, firmwareOnly bool) (Download, error) {
	var name, path, kind string
	var complete int
	if err := s.db.QueryRow(ctx, `SELECT name, path, kind, complete FROM fleet_file WHERE id = ?`, id).Scan(&name, &path, &kind, &complete); err != nil ||
		complete == 0 || (firmwareOnly && kind != FileFirmware) {
		return Download{}, ErrFileNotFound
	}
	f, modTime, err := s.openFile(ctx, path)
	if err != nil {
		return Download{}, ErrFileNotFound
	}
	return Download{Name: name, ModTime: modTime, Body: f}, nil
}
