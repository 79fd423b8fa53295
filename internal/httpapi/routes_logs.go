package httpapi

// logsRoutes are the action log, the error log, the log exports (docs/logs.md) and the mail
// outbox. The error log lists device events, so it is scoped by device (customer and site); the
// action log and its export read the rows of the users the caller may see.
func (s *Server) logsRoutes() []Route {
	sys := "/api/auth/sys/logs/"
	errKeys := []string{"auth_logs_error"}
	return []Route{
		{Method: "POST", Path: "/api/auth/sys/mail/outbox/list", Objects: PlatformOnly, Access: Root, Tag: "system", Summary: "Mails kept in the outbox (no SMTP configured)", Handler: H(s.outboxList)},
		{Method: "POST", Path: sys + "action/list", Objects: ByCustomer, Access: Keys, Keys: []string{"auth_logs_action"}, Tag: "logs", Summary: "Action log", Handler: H(s.actionLogList)},
		{Method: "POST", Path: sys + "error/list", Objects: ByDevice, Access: Keys, Keys: errKeys, Tag: "logs",
			Summary: "Error log: alarms and faults of the devices in scope (site, device id or SN, level, status, time; sort type|status|time|created)", Handler: H(s.errorLogList)},
		{Method: "POST", Path: sys + "error/export", Objects: ByDevice, Access: Keys, Keys: errKeys, Tag: "logs",
			Summary: "Export the filtered error log to xlsx (at most 50,000 rows)", Handler: H(s.errorLogExport)},
		{Method: "POST", Path: sys + "action/export", Objects: ByCustomer, Access: Keys, Keys: []string{"auth_logs_action"}, Tag: "logs",
			Summary: "Export the filtered action log to xlsx (at most 50,000 rows)", Handler: H(s.actionLogExport)},
	}
}
