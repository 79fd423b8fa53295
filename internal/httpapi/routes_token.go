package httpapi

// tokenRoutes are the customers' tokens (idTags), their unknown-token policy and the chargers'
// local authorization lists (docs/tokens.md). A token belongs to one customer (ByCustomer: the
// caller's customer scope, applied in SQL); the local-list calls name a device (ByDevice).
func (s *Server) tokenRoutes() []Route {
	list := []string{"auth_token_list"}
	add := []string{"auth_token_add"}
	edit := []string{"auth_token_edit"}
	del := []string{"auth_token_delete"}
	imp := []string{"auth_token_import"}
	sys := "/api/auth/sys/token/"
	return []Route{
		{Method: "POST", Path: sys + "list", Objects: ByCustomer, Access: Keys, Keys: list, Tag: "token", Summary: "Tokens in scope: idTag or name, status (0 active, 1 blocked, 2 expired), customer, origin; paged, sorted", Handler: H(s.tokenList)},
		{Method: "GET", Path: sys + "detail", Objects: ByCustomer, Access: Keys, Keys: list, Tag: "token", Summary: "One token", Handler: H(s.tokenDetail)},
		{Method: "POST", Path: sys + "add", Objects: ByCustomer, Access: Keys, Keys: add, Tag: "token", Summary: "Add a token to a customer (idTag unique per customer, case-insensitive)", Handler: H(s.tokenAdd)},
		{Method: "POST", Path: sys + "update", Objects: ByCustomer, Access: Keys, Keys: edit, Tag: "token", Summary: "Change a token (idTag, parent, name, note, status, expiry; not its customer)", Handler: H(s.tokenUpdate)},
		{Method: "POST", Path: sys + "block", Objects: ByCustomer, Access: Keys, Keys: edit, Tag: "token", Summary: "Block tokens: all of them or none", Handler: H(s.tokenBlock)},
		{Method: "POST", Path: sys + "unblock", Objects: ByCustomer, Access: Keys, Keys: edit, Tag: "token", Summary: "Unblock tokens: all of them or none", Handler: H(s.tokenUnblock)},
		{Method: "POST", Path: sys + "expiry", Objects: ByCustomer, Access: Keys, Keys: edit, Tag: "token", Summary: "Set the expiry of tokens (0: never): all of them or none", Handler: H(s.tokenExpiry)},
		{Method: "POST", Path: sys + "delete", Objects: ByCustomer, Access: Keys, Keys: del, Tag: "token", Summary: "Delete tokens: all of them or none", Handler: H(s.tokenDelete)},
		{Method: "POST", Path: sys + "import", Objects: ByCustomer, Access: Keys, Keys: imp, MaxBody: 8 << 20, Tag: "token", Summary: "Import a customer's tokens from xlsx (base64); all rows or none, errors by row and field", Handler: H(s.tokenImport)},
		{Method: "GET", Path: sys + "import/template", Objects: NoObjects, Why: "an empty spreadsheet", Access: Keys, Keys: imp, Tag: "token", Summary: "The xlsx import template", Handler: H(s.tokenTemplate)},
		{Method: "GET", Path: sys + "policy", Objects: ByCustomer, Access: Keys, Keys: list, Reads: true, Tag: "token", Summary: "A customer's policy for unknown tokens (0 accept and record, 1 refuse) and its list version", Handler: H(s.tokenPolicy)},
		{Method: "POST", Path: sys + "policy/update", Objects: ByCustomer, Access: Keys, Keys: edit, Tag: "token", Summary: "Set a customer's policy for unknown tokens", Handler: H(s.tokenPolicyUpdate)},
		{Method: "GET", Path: sys + "locallist/state", Objects: ByDevice, Access: Keys, Keys: []string{"auth_token_list", "auth_device_detail"}, Reads: true, Tag: "token", Summary: "A charger's local list: the version it holds and its customer's current version", Handler: H(s.tokenListState)},
		{Method: "POST", Path: sys + "locallist/send", Objects: ByDevice, Access: Keys, Keys: edit, Tag: "token", Summary: "Send the local list to a charger (Full or Differential) through the command path; a list it would not take is refused", Handler: H(s.tokenListSend)},
	}
}
