package httpapi

// authRoutes are the sign-in calls (docs/api.md): no session, or an optional one for sign-out
// and the session info. None reads a stored object of a customer: they hand out settings and
// one-time values, or act through a password or a mailed one-time token.
func (s *Server) authRoutes() []Route {
	base := "/api/unauth/"
	signIn := "settings and one-time values a sign-in needs; no stored object"
	reset := "acts only through a mailed one-time token; answers the same for unknown addresses"
	return []Route{
		{Method: "GET", Path: base + "config", Objects: NoObjects, Why: signIn, Access: Public, Tag: "auth", Summary: "Console settings before sign-in", Handler: H(s.publicConfig)},
		{Method: "GET", Path: base + "login/key", Objects: NoObjects, Why: signIn, Access: Public, Tag: "auth", Summary: "Login public key and one-time nonce", Handler: H(s.loginKey)},
		{Method: "GET", Path: base + "captcha", Objects: NoObjects, Why: signIn, Access: Public, Tag: "auth", Summary: "New image captcha", Handler: H(s.captcha)},
		{Method: "POST", Path: base + "login", Objects: NoObjects, Why: "signs in; answers the same for unknown names and wrong passwords", Access: Public, SelfLogged: true, Tag: "auth", Summary: "Sign in", Handler: H(s.login)},
		{Method: "POST", Path: base + "logout", Objects: OwnUser, Access: Public, OptionalSession: true, SelfLogged: true, Tag: "auth", Summary: "Sign out", Handler: H(s.logout)},
		{Method: "POST", Path: base + "info", Objects: OwnUser, Access: Public, OptionalSession: true, Reads: true, Tag: "auth", Summary: "Current user, keys, CSRF token and privacy state", Handler: H(s.info)},
		{Method: "POST", Path: base + "password/email", Objects: NoObjects, Why: reset, Access: Public, Tag: "auth", Summary: "Mail a password-reset link", Handler: H(s.resetMail)},
		{Method: "POST", Path: base + "password/valid", Objects: NoObjects, Why: reset, Access: Public, Tag: "auth", Summary: "Check a password-reset link", Handler: H(s.resetValid)},
		{Method: "POST", Path: base + "password/reset", Objects: NoObjects, Why: reset, Access: Public, Tag: "auth", Summary: "Set a new password through a reset link", Handler: H(s.resetPassword)},
	}
}
