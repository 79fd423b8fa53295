package httpapi

// ticketRoutes are tickets ("issues" in the spec; docs/tickets.md). A ticket belongs to its
// customer and site like a device (BySite: the caller's customer and site scope, applied in
// SQL); the signed-out share calls act only through a share's 128-bit token.
func (s *Server) ticketRoutes() []Route {
	list := []string{"auth_issue_list"}
	add := []string{"auth_issue_add"}
	edit := []string{"auth_issue_edit"}
	share := []string{"auth_issue_share"}
	sys := "/api/auth/sys/issue/"
	token := "a share's 128-bit random token is the authority; unknown, revoked and expired tokens answer alike"
	return []Route{
		{Method: "POST", Path: sys + "list", Objects: BySite, Access: Keys, Keys: list, Tag: "issue", Summary: "Tickets in scope: tab open|closed|all, category, priority, device/SN, site, customer, text; paged, sorted", Handler: H(s.ticketList)},
		{Method: "GET", Path: sys + "detail", Objects: BySite, Access: Keys, Keys: list, Tag: "issue", Summary: "One ticket with its description and process (comments and every change)", Handler: H(s.ticketDetail)},
		{Method: "POST", Path: sys + "add", Objects: BySite, Access: Keys, Keys: add, Tag: "issue", Summary: "Add a ticket (a device's ticket takes the device's site and customer)", Handler: H(s.ticketAdd)},
		{Method: "POST", Path: sys + "update", Objects: BySite, Access: Keys, Keys: edit, Tag: "issue", Summary: "Change a ticket's fields (not a closed one); each change is a process entry", Handler: H(s.ticketUpdate)},
		{Method: "POST", Path: sys + "comment", Objects: BySite, Access: Keys, Keys: list, Tag: "issue", Summary: "Comment on a ticket (rich text, sanitised, not empty)", Handler: H(s.ticketComment)},
		{Method: "POST", Path: sys + "pending", Objects: BySite, Access: Keys, Keys: edit, Tag: "issue", Summary: "Set a ticket pending (from open or reopen; optional comment)", Handler: H(s.ticketPending)},
		{Method: "POST", Path: sys + "close", Objects: BySite, Access: Keys, Keys: edit, Tag: "issue", Summary: "Close a ticket with a comment (never empty)", Handler: H(s.ticketClose)},
		{Method: "POST", Path: sys + "reopen", Objects: BySite, Access: Keys, Keys: edit, Tag: "issue", Summary: "Reopen a closed ticket with a comment (never empty)", Handler: H(s.ticketReopen)},
		{Method: "POST", Path: sys + "share/add", Objects: BySite, Access: Keys, Keys: share, Tag: "issue", Summary: "Share a ticket anonymously: days (1-3650) or expiresAt, neither permanent; the link is shown once", Handler: H(s.ticketShareAdd)},
		{Method: "POST", Path: sys + "share/list", Objects: BySite, Access: Keys, Keys: share, Tag: "issue", Summary: "Anonymous shares of a ticket", Handler: H(s.ticketShareList)},
		{Method: "POST", Path: sys + "share/revoke", Objects: BySite, Access: Keys, Keys: share, Tag: "issue", Summary: "Revoke an anonymous share", Handler: H(s.ticketShareRevoke)},

		{Method: "POST", Path: "/api/unauth/issue/share/detail", Objects: NoObjects, Why: token, Access: Public, Reads: true, Tag: "issue", Summary: "Shared ticket: title, category, priority, state, device SN, times, description, process (signed out, rate-limited)", Handler: H(s.ticketPublicDetail)},
		{Method: "POST", Path: "/api/unauth/issue/share/comment", Objects: NoObjects, Why: token, Access: Public, Tag: "issue", Summary: "A visitor's comment under the name they type (signed out, rate-limited)", Handler: H(s.ticketPublicComment)},
	}
}
