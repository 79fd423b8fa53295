package httpapi

import (
	"regexp"
	"strings"
	"time"

	"chargeops/internal/actionlog"
	"chargeops/internal/db"
	"chargeops/internal/fleet/read"
	"chargeops/internal/i18n"
	"chargeops/internal/mail"
	"chargeops/internal/xlsxout"
)

// Logs: action log, protocol log, mail outbox.

func (s *Server) outboxList(c *Ctx, in db.Page) (db.List[mail.OutboxMail], error) {
	return s.Mailer.Outbox(c, in)
}

func (s *Server) actionLogList(c *Ctx, in actionlog.Filter) (db.List[actionlog.Entry], error) {
	in.Names = s.actionName
	return s.ActionLog.List(c, c.P, c.Locale, in)
}

// actionName names an action-log row's "METHOD path" as the route table does, in locale: the
// route's Chinese name in zh-CN, its summary without the references meant for developers
// (parentheses naming docs/ or control types) in English; empty for no route (issue 30 item 19).
func (s *Server) actionName(locale, action string) string {
	method, path, ok := strings.Cut(action, " ")
	if !ok {
		return ""
	}
	for _, rt := range s.routes {
		if rt.Method == method && rt.Path == path {
			name, _ := i18n.InterfaceName(locale, rt.Method, rt.Path, rt.Summary)
			return plainSummary(name)
		}
	}
	return ""
}

// devNotes are the parenthesised notes of a route summary meant for developers.
var devNotes = regexp.MustCompile(`\s*[(（][^()（）]*(docs/|\.md|control type|spec §|issue \d)[^()（）]*[)）]`)

// plainSummary is a route's name without its notes for developers.
func plainSummary(s string) string { return strings.TrimSpace(devNotes.ReplaceAllString(s, "")) }

func (s *Server) protocolLogList(c *Ctx, in read.LogListInput) (read.LogList, error) {
	return s.Reads.ProtocolLogs(c, c.P, in)
}

// Error log and exports (docs/logs.md).

func (s *Server) errorLogList(c *Ctx, in read.ErrorLogInput) (db.List[read.EventView], error) {
	return s.Reads.ErrorLog(c, c.P, in)
}

func (s *Server) errorLogExport(c *Ctx, in read.ErrorExportInput) (*File, error) {
	b, err := xlsxout.ErrorLog(c, s.Reads, xlsxout.Export{P: c.P, Locale: c.Locale, Loc: s.location()}, in)
	return &File{Name: "error-log.xlsx", ContentType: xlsxout.ContentType, Body: b}, err
}

func (s *Server) actionLogExport(c *Ctx, in actionlog.ExportInput) (*File, error) {
	in.Names = s.actionName
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
