package httpapi

import (
	"chargeops/internal/db"
	"chargeops/internal/fleet/read"
	"chargeops/internal/xlsxout"
)

// SecurityAckAnswer says how many alarms an acknowledgement ended.
type SecurityAckAnswer struct {
	Ended int `json:"ended"`
}

func (s *Server) securityEventList(c *Ctx, in read.SecurityEventListInput) (db.List[read.SecurityEventView], error) {
	return s.Reads.SecurityEvents(c, c.P, in)
}

func (s *Server) securityEventExport(c *Ctx, in read.SecurityExportInput) (*File, error) {
	b, err := xlsxout.SecurityEvents(c, s.Reads, xlsxout.Export{P: c.P, Locale: c.Locale, Loc: s.location()}, in)
	return &File{Name: "security-events.xlsx", ContentType: xlsxout.ContentType, Body: b}, err
}

func (s *Server) securityEventAck(c *Ctx, in IDsInput) (SecurityAckAnswer, error) {
	n, err := s.Fleet.AckSecurityEvents(c, c.P, in.IDs)
	return SecurityAckAnswer{Ended: n}, err
}
