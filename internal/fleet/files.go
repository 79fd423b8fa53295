package fleet

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"mime/multipart"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"chargeops/internal/db"
)

// Files are firmware images (uploaded by an operator, downloaded by chargers) and diagnostics
// files (uploaded by chargers, downloaded by operators). Every file URL is signed:
// /fleet/files/<action>/<id>?exp=<unix s>&sig=<hmac>, valid for LinkTTL.

// LinkTTL is how long a signed file link is valid (spec §9: signed link validity 3600 s).
const LinkTTL = time.Hour

// MaxFileBytes bounds one uploaded file.
const MaxFileBytes = 512 << 20

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

func (s *Service) checkSigned(r *http.Request) bool {
	exp, err := strconv.ParseInt(r.URL.Query().Get("exp"), 10, 64)
	if err != nil || time.Now().Unix() > exp {
		return false
	}
	return hmac.Equal([]byte(s.sign(r.URL.Path, exp)), []byte(r.URL.Query().Get("sig")))
}

func (s *Service) fileDir(kind string) string { return filepath.Join(s.opt.DataDir, "fleet", kind) }

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
	ID        int64  `json:"id"`
	Kind      string `json:"kind"`
	DeviceID  int64  `json:"deviceId"`
	Name      string `json:"name"`
	Size      int64  `json:"size"`
	SHA256    string `json:"sha256"`
	Complete  bool   `json:"complete"`
	CreatedBy string `json:"createdBy"`
	CreatedAt int64  `json:"createdAt"`
}

// NewFirmware records a firmware file to come and returns it with the signed upload path
// (PUT the raw bytes there).
func (s *Service) NewFirmware(ctx context.Context, name, user string) (FileInfo, string, error) {
	f := FileInfo{Kind: "firmware", Name: safeName(name), CreatedBy: user, CreatedAt: db.NowMS()}
	id, err := db.InsertID(ctx, s.db, `INSERT INTO fleet_file (kind, device_id, name, created_by, created_at) VALUES (?, 0, ?, ?, ?)`, f.Kind, f.Name, user, f.CreatedAt)
	if err != nil {
		return f, "", err
	}
	f.ID = id
	return f, s.SignedPath(fmt.Sprintf("%supload/%d", FilesPrefix, id), LinkTTL), nil
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

// FirmwareExists reports whether an uploaded firmware file is complete.
func (s *Service) FirmwareExists(ctx context.Context, id int64) bool {
	var n int
	_ = s.db.QueryRow(ctx, `SELECT COUNT(*) FROM fleet_file WHERE id = ? AND kind = 'firmware' AND complete = 1`, id).Scan(&n)
	return n > 0
}

// FilesHandler serves the signed file URLs.
func (s *Service) FilesHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.checkSigned(r) {
			http.Error(w, "link expired or invalid", http.StatusForbidden)
			return
		}
		parts := strings.Split(strings.TrimPrefix(r.URL.Path, FilesPrefix), "/")
		id := func(i int) int64 {
			if i >= len(parts) {
				return 0
			}
			n, _ := strconv.ParseInt(parts[i], 10, 64)
			return n
		}
		switch {
		case parts[0] == "upload" && r.Method == http.MethodPut:
			s.receive(w, r, id(1), "firmware", 0)
		case parts[0] == "diagnostics" && (r.Method == http.MethodPost || r.Method == http.MethodPut):
			s.receiveDiagnostics(w, r, id(1), id(2))
		case (parts[0] == "firmware" || parts[0] == "download") && (r.Method == http.MethodGet || r.Method == http.MethodHead):
			s.send(w, r, id(1), parts[0] == "firmware")
		default:
			http.Error(w, "not found", http.StatusNotFound)
		}
	})
}

func (s *Service) receive(w http.ResponseWriter, r *http.Request, fileID int64, kind string, deviceID int64) {
	var name string
	var complete int
	if err := s.db.QueryRow(r.Context(), `SELECT name, complete FROM fleet_file WHERE id = ? AND kind = ?`, fileID, kind).Scan(&name, &complete); err != nil || complete == 1 {
		http.Error(w, "not found", http.StatusNotFound)
		return
	}
	path, size, sum, err := s.store(kind, fileID, name, io.LimitReader(r.Body, MaxFileBytes+1))
	if err != nil || size > MaxFileBytes {
		http.Error(w, "upload failed", http.StatusBadRequest)
		return
	}
	if _, err := s.db.Exec(r.Context(), `UPDATE fleet_file SET path = ?, size = ?, sha256 = ?, complete = 1 WHERE id = ?`, path, size, sum, fileID); err != nil {
		http.Error(w, "upload failed", http.StatusInternalServerError)
		return
	}
	w.WriteHeader(http.StatusCreated)
}

func (s *Service) receiveDiagnostics(w http.ResponseWriter, r *http.Request, deviceID, commandID int64) {
	var sn string
	if err := s.db.QueryRow(r.Context(), `SELECT sn FROM device WHERE id = ?`, deviceID).Scan(&sn); err != nil {
		http.Error(w, "not found", http.StatusNotFound)
		return
	}
	body := io.Reader(io.LimitReader(r.Body, MaxFileBytes+1))
	name := r.URL.Query().Get("name")
	if mt, params, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err == nil && strings.HasPrefix(mt, "multipart/") {
		mr := multipart.NewReader(body, params["boundary"])
		for {
			p, err := mr.NextPart()
			if err != nil {
				http.Error(w, "no file in the upload", http.StatusBadRequest)
				return
			}
			if p.FileName() != "" {
				name, body = p.FileName(), p
				break
			}
		}
	}
	if name == "" {
		name = fmt.Sprintf("diagnostics-%s-%d.log", sn, commandID)
	}
	name = safeName(name)
	id, err := db.InsertID(r.Context(), s.db, `INSERT INTO fleet_file (kind, device_id, name, created_by, created_at) VALUES ('diagnostics', ?, ?, ?, ?)`, deviceID, name, sn, db.NowMS())
	if err != nil {
		http.Error(w, "upload failed", http.StatusInternalServerError)
		return
	}
	path, size, sum, err := s.store("diagnostics", id, name, body)
	if err != nil || size > MaxFileBytes {
		http.Error(w, "upload failed", http.StatusBadRequest)
		return
	}
	if _, err := s.db.Exec(r.Context(), `UPDATE fleet_file SET path = ?, size = ?, sha256 = ?, complete = 1 WHERE id = ?`, path, size, sum, id); err != nil {
		http.Error(w, "upload failed", http.StatusInternalServerError)
		return
	}
	slog.Info("diagnostics received", "sn", sn, "file", name, "bytes", size)
	w.WriteHeader(http.StatusCreated)
}

func (s *Service) store(kind string, id int64, name string, body io.Reader) (string, int64, string, error) {
	dir := s.fileDir(kind)
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return "", 0, "", err
	}
	path := filepath.Join(dir, fmt.Sprintf("%d-%s", id, name))
	f, err := os.Create(path)
	if err != nil {
		return "", 0, "", err
	}
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(f, h), body)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
		return "", 0, "", err
	}
	return path, n, hex.EncodeToString(h.Sum(nil)), nil
}

func (s *Service) send(w http.ResponseWriter, r *http.Request, id int64, firmwareOnly bool) {
	var name, path, kind string
	var complete int
	if err := s.db.QueryRow(r.Context(), `SELECT name, path, kind, complete FROM fleet_file WHERE id = ?`, id).Scan(&name, &path, &kind, &complete); err != nil ||
		complete == 0 || (firmwareOnly && kind != "firmware") {
		http.Error(w, "not found", http.StatusNotFound)
		return
	}
	f, err := os.Open(path)
	if err != nil {
		http.Error(w, "not found", http.StatusNotFound)
		return
	}
	defer f.Close()
	st, _ := f.Stat()
	w.Header().Set("Content-Type", "application/octet-stream")
	w.Header().Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": name}))
	http.ServeContent(w, r, name, st.ModTime(), f)
}
