package httpapi

// logsRoutes are the error log and the log exports (docs/logs.md). The error log lists device
// events, so it is scoped by device (customer and site); the action-log export reads the rows
// of the users the caller may see, exactly like the action-log list.
func (s *Server) logsRoutes() []Route {
	sys := "/api/auth/sys/logs/"
	errKeys := []string{"auth_logs_error"}
	return []Route{
		{Method: "POST", Path: sys + "error/list", Objects: ByDevice, Access: Keys, Keys: errKeys, Tag: "logs",
			Summary: "Error log: alarms and faults of the devices in scope (site, device id or SN, level, status, time; sort type|status|time|created)", Handler: H(s.errorLogList)},
		{Method: "POST", Path: sys + "error/export", Objects: ByDevice, Access: Keys, Keys: errKeys, Tag: "logs",
			Summary: "Export the filtered error log to xlsx (at most 50,000 rows)", Handler: H(s.errorLogExport)},
		{Method: "POST", Path: sys + "action/export", Objects: ByCustomer, Access: Keys, Keys: []string{"auth_logs_action"}, Tag: "logs",
			Summary: "Export the filtered action log to xlsx (at most 50,000 rows)", Handler: H(s.actionLogExport)},
	}
}
