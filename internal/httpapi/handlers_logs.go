package httpapi

import (
	"chargeops/internal/actionlog"
	"chargeops/internal/db"
	"chargeops/internal/fleet"
	"chargeops/internal/mail"
)

// Logs: action log, protocol log, mail outbox.

func (s *Server) outboxList(c *Ctx, in db.Page) (db.List[mail.OutboxMail], error) {
	return s.Mailer.Outbox(c, in)
}

func (s *Server) actionLogList(c *Ctx, in actionlog.Filter) (db.List[actionlog.Entry], error) {
	return s.ActionLog.List(c, c.P, in)
}

func (s *Server) protocolLogList(c *Ctx, in fleet.LogListInput) (fleet.LogList, error) {
	return s.Fleet.ProtocolLogs(c, c.P, in)
}
