package httpapi

import (
	"time"

	"chargeops/internal/actionlog"
	"chargeops/internal/db"
	"chargeops/internal/fleet"
	"chargeops/internal/mail"
	"chargeops/internal/xlsxout"
)

// Logs: action log, protocol log, mail outbox.

func (s *Server) outboxList(c *Ctx, in db.Page) (db.List[mail.OutboxMail], error) {
	return s.Mailer.Outbox(c, in)
}

func (s *Server) actionLogList(c *Ctx, in actionlog.Filter) (db.List[actionlog.Entry], error) {
	return s.ActionLog.List(c, c.P, c.Locale, in)
}

func (s *Server) protocolLogList(c *Ctx, in fleet.LogListInput) (fleet.LogList, error) {
	return s.Fleet.ProtocolLogs(c, c.P, in)
}

// Error log and exports (docs/logs.md).

func (s *Server) errorLogList(c *Ctx, in fleet.ErrorLogInput) (db.List[fleet.EventView], error) {
	return s.Fleet.ErrorLog(c, c.P, in)
}

func (s *Server) errorLogExport(c *Ctx, in fleet.ErrorExportInput) (*File, error) {
	b, err := s.Fleet.ExportErrorLog(c, c.P, c.Locale, s.location(), in)
	return &File{Name: "error-log.xlsx", ContentType: xlsxout.ContentType, Body: b}, err
}

func (s *Server) actionLogExport(c *Ctx, in actionlog.ExportInput) (*File, error) {
	b, err := s.ActionLog.Export(c, c.P, c.Locale, s.location(), in)
	return &File{Name: "action-log.xlsx", ContentType: xlsxout.ContentType, Body: b}, err
}

// location is the console's time zone (--time-zone), UTC when unset or unknown.
func (s *Server) location() *time.Location {
	loc, err := time.LoadLocation(s.opt.TimeZone)
	if err != nil || s.opt.TimeZone == "" {
		return time.UTC
	}
	return loc
}
