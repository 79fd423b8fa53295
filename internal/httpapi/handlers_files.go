package httpapi

import (
	"errors"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"chargeops/internal/db"
	"chargeops/internal/fleet"
)

// Firmware and diagnostics files.

// FirmwareAddInput names a firmware file to upload and, optionally, the customer it belongs
// to (default: the platform for a full-scope caller, else the caller's customer).
type FirmwareAddInput struct {
	Name       string `json:"name"`
	CustomerID int64  `json:"customerId"`
	// Optional, both or neither: the certificate the file was signed with (PEM X.509, at most
	// 5500 characters) and its signature (base64, at most 800); control type 5 then sends
	// SignedUpdateFirmware (docs/security-profiles.md, "Signed firmware and logs").
	SigningCertificate string `json:"signingCertificate,omitempty"`
	Signature          string `json:"signature,omitempty"`
}

// FirmwareAddAnswer says where to PUT the file's bytes (signed, valid 3600 s).
type FirmwareAddAnswer struct {
	ID        int64  `json:"id"`
	UploadURL string `json:"uploadUrl"`
}

func (s *Server) firmwareAdd(c *Ctx, in FirmwareAddInput) (FirmwareAddAnswer, error) {
	f, path, err := s.Fleet.NewFirmware(c, c.P, fleet.NewFirmwareInput{Name: in.Name, CustomerID: in.CustomerID,
		SigningCertificate: in.SigningCertificate, Signature: in.Signature})
	return FirmwareAddAnswer{ID: f.ID, UploadURL: path}, err
}

func (s *Server) firmwareList(c *Ctx, in fleet.FileListInput) (db.List[fleet.FileInfo], error) {
	in.Kind = "firmware"
	return s.Fleet.Files(c, c.P, in)
}

func (s *Server) diagnosticsList(c *Ctx, in fleet.FileListInput) (db.List[fleet.FileInfo], error) {
	in.Kind = "diagnostics"
	return s.Fleet.Files(c, c.P, in)
}

// FleetURLAnswer is a signed link.
type FleetURLAnswer struct {
	URL string `json:"url"`
}

func (s *Server) fileURL(c *Ctx, in IDInput) (FleetURLAnswer, error) {
	u, err := s.Fleet.FileDownload(c, c.P, in.ID)
	return FleetURLAnswer{URL: u}, err
}

// FilesHandler serves the fleet's signed file URLs (fleet.FilesPrefix; docs/gateway.md,
// "Files"): an operator's firmware upload (PUT upload/<id>), a charger's diagnostics upload
// (POST or PUT diagnostics/<device>/<command>) and downloads (GET firmware/<id>/... for
// chargers, download/<id>/<name> for operators). The fleet stores and reads the files; this
// is their HTTP side. The gateway's own listener mounts it too.
func FilesHandler(f *fleet.Service) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		if !f.CheckSigned(r.URL.Path, q.Get("exp"), q.Get("sig")) {
			http.Error(w, "link expired or invalid", http.StatusForbidden)
			return
		}
		parts := strings.Split(strings.TrimPrefix(r.URL.Path, fleet.FilesPrefix), "/")
		id := func(i int) int64 {
			if i >= len(parts) {
				return 0
			}
			n, _ := strconv.ParseInt(parts[i], 10, 64)
			return n
		}
		switch {
		case parts[0] == "upload" && r.Method == http.MethodPut:
			fileAnswer(w, f.ReceiveFirmware(r.Context(), id(1), r.Body))
		case parts[0] == "diagnostics" && (r.Method == http.MethodPost || r.Method == http.MethodPut):
			fileAnswer(w, f.ReceiveDiagnostics(r.Context(), fleet.DiagnosticsIn{DeviceID: id(1), CommandID: id(2), Length: r.ContentLength,
				ContentType: r.Header.Get("Content-Type"), Name: q.Get("name"), Body: r.Body}))
		case (parts[0] == "firmware" || parts[0] == "download") && (r.Method == http.MethodGet || r.Method == http.MethodHead):
			sendFile(w, r, f, id(1), parts[0] == "firmware")
		default:
			http.Error(w, "not found", http.StatusNotFound)
		}
	})
}

// fileAnswer answers an upload: 201 when stored, else the status of the fleet's error.
func fileAnswer(w http.ResponseWriter, err error) {
	switch {
	case err == nil:
		w.WriteHeader(http.StatusCreated)
	case errors.Is(err, fleet.ErrFileNotFound):
		http.Error(w, "not found", http.StatusNotFound)
	case errors.Is(err, fleet.ErrNoDiagnosticsJob):
		http.Error(w, "no diagnostics upload is expected", http.StatusNotFound)
	case errors.Is(err, fleet.ErrFileTooLarge):
		http.Error(w, "file too large", http.StatusRequestEntityTooLarge)
	case errors.Is(err, fleet.ErrFileType):
		http.Error(w, "unsupported file type", http.StatusUnsupportedMediaType)
	case errors.Is(err, fleet.ErrUploadRefused):
		http.Error(w, "upload failed", http.StatusBadRequest)
	default:
		http.Error(w, "upload failed", http.StatusInternalServerError)
	}
}

// sendFile sends a stored file as an attachment, with ranges when the store can seek.
func sendFile(w http.ResponseWriter, r *http.Request, f *fleet.Service, id int64, firmwareOnly bool) {
	d, err := f.OpenDownload(r.Context(), id, firmwareOnly)
	if err != nil {
		http.Error(w, "not found", http.StatusNotFound)
		return
	}
	defer d.Body.Close()
	w.Header().Set("Content-Type", "application/octet-stream")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": d.Name}))
	if rs, ok := d.Body.(io.ReadSeeker); ok {
		http.ServeContent(w, r, d.Name, d.ModTime, rs)
		return
	}
	_, _ = io.Copy(w, d.Body)
}
