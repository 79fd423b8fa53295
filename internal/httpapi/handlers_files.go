package httpapi

import (
	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/fleet"
)

// Firmware and diagnostics files.

// FirmwareAddInput names a firmware file to upload.
type FirmwareAddInput struct {
	Name string `json:"name"`
}

// FirmwareAddAnswer says where to PUT the file's bytes (signed, valid 3600 s).
type FirmwareAddAnswer struct {
	ID        int64  `json:"id"`
	UploadURL string `json:"uploadUrl"`
}

func (s *Server) firmwareAdd(c *Ctx, in FirmwareAddInput) (FirmwareAddAnswer, error) {
	if in.Name == "" || len(in.Name) > 200 {
		return FirmwareAddAnswer{}, apperr.InvalidField("name", "err.required")
	}
	f, path, err := s.Fleet.NewFirmware(c, in.Name, c.P.UserName)
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
