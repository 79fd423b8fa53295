package httpapi

import (
	"chargeops/internal/db"
	"chargeops/internal/fleet"
)

// Firmware and diagnostics files.

// FirmwareAddInput names a firmware file to upload and, optionally, the customer it belongs
// to (default: the platform for a full-scope caller, else the caller's customer).
type FirmwareAddInput struct {
	Name       string `json:"name"`
	CustomerID int64  `json:"customerId"`
}

// FirmwareAddAnswer says where to PUT the file's bytes (signed, valid 3600 s).
type FirmwareAddAnswer struct {
	ID        int64  `json:"id"`
	UploadURL string `json:"uploadUrl"`
}

func (s *Server) firmwareAdd(c *Ctx, in FirmwareAddInput) (FirmwareAddAnswer, error) {
	f, path, err := s.Fleet.NewFirmware(c, c.P, fleet.NewFirmwareInput{Name: in.Name, CustomerID: in.CustomerID})
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
