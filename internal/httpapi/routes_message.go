package httpapi

// messageRoutes are the message centre and reception settings (docs/messages.md). Every call
// reads or changes only the caller's own messages and setting (OwnUser). Keys are those of
// api/permissions.json.
func (s *Server) messageRoutes() []Route {
	list := []string{"auth_message", "auth_message_list"}
	setting := []string{"auth_message", "auth_message_setting"}
	return []Route{
		{Method: "POST", Path: "/api/auth/sys/message/list", Objects: OwnUser, Access: Keys, Keys: list, Tag: "message", Summary: "My messages, newest (latest repeat) first; sort lastAt or startedAt, order desc or asc (filters: kind, read, processed, recovered as 0/1)", Handler: H(s.messageList)},
		{Method: "GET", Path: "/api/auth/sys/message/unread", Objects: OwnUser, Access: Keys, Keys: list, Tag: "message", Summary: "How many of my messages are unread", Handler: H(s.messageUnread)},
		{Method: "POST", Path: "/api/auth/sys/message/read", Objects: OwnUser, Access: Keys, Keys: list, Tag: "message", Summary: "Mark my messages read (no ids: all of them)", Handler: H(s.messageRead)},
		{Method: "POST", Path: "/api/auth/sys/message/process", Objects: OwnUser, Access: Keys, Keys: list, Tag: "message", Summary: "Mark my messages processed (and read)", Handler: H(s.messageProcess)},
		{Method: "GET", Path: "/api/auth/sys/message/stream", Objects: OwnUser, Access: Keys, Keys: list, Tag: "message", Summary: "Server-sent events: my unread count whenever it changes (the console polls every 15 s without it)", Handler: s.messageStream()},
		{Method: "GET", Path: "/api/auth/sys/message/setting", Objects: OwnUser, Access: Keys, Keys: setting, Tag: "message", Summary: "My reception setting (defaults when none is saved)", Handler: H(s.messageSetting)},
		{Method: "POST", Path: "/api/auth/sys/message/setting/save", Objects: OwnUser, Access: Keys, Keys: setting, Tag: "message", Summary: "Save my reception setting: kinds, levels, sites, console, mail, frequency", Handler: H(s.messageSettingSave)},
	}
}
