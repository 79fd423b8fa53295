package httpapi

import (
	"encoding/json"
	"fmt"

	"chargeops/internal/fleet/read"
	"chargeops/internal/xlsxout"
)

// Charging sessions (docs/sessions.md).

func (s *Server) sessionList(c *Ctx, in read.SessionListInput) (read.SessionList, error) {
	return s.Reads.Sessions(c, c.P, in)
}

func (s *Server) sessionDetail(c *Ctx, in IDInput) (read.SessionDetail, error) {
	return s.Reads.Session(c, c.P, in.ID)
}

func (s *Server) sessionSignedDownload(c *Ctx, in IDInput) (*File, error) {
	v, err := s.Reads.SessionSigned(c, c.P, in.ID)
	if err != nil {
		return nil, err
	}
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("httpapi: signed values: %w", err)
	}
	return &File{Name: fmt.Sprintf("session-%d-signed.json", v.SessionID), ContentType: signedFileType, Body: b}, nil
}

func (s *Server) sessionExport(c *Ctx, in read.SessionExportInput) (*File, error) {
	b, err := xlsxout.Sessions(c, s.Reads, xlsxout.Export{P: c.P, Locale: c.Locale, Loc: s.location()}, in)
	return &File{Name: "charging-sessions.xlsx", ContentType: xlsxout.ContentType, Body: b}, err
}

// signedFileType is the media type of the signed values' file: JSON, but not the envelope's
// application/json, so a client tells the file from an error answer.
const signedFileType = "application/vnd.chargeops.signed-values+json"
