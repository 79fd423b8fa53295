package httpapi

// regionRoutes are the regions addresses name (internal/region; docs/logs.md, "Location"): a
// fixed list compiled into the binary, the same for every signed-in user.
func (s *Server) regionRoutes() []Route {
	return []Route{
		{Method: "GET", Path: "/api/auth/sys/dict/region/all", Objects: NoObjects, Why: "a fixed list of regions compiled into the binary, the same for everyone", Access: Session, Tag: "catalogue", Summary: "Every region (countries; China's provinces and, for some, cities) in the caller's language", Handler: H(s.regionAll)},
	}
}
