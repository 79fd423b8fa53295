package httpapi

// openapiConsoleRoutes are the console's OpenAPI screens (docs/openapi-console.md): the
// applications with their recent calls, and one application's request log and access
// statistics. An application belongs to its bound user's customer (ByCustomer); another
// customer's is not found.
func (s *Server) openapiConsoleRoutes() []Route {
	keys := []string{"auth_openapi_app"}
	base := "/api/auth/sys/openapi/"
	return []Route{
		{Method: "POST", Path: base + "app/list", Objects: ByCustomer, Access: Keys, Keys: keys, Tag: "openapi-console",
			Summary: "Applications in scope with calls today and in 7 days, errors in 7 days and the last call (name, status; paged)", Handler: H(s.openapiApps)},
		{Method: "POST", Path: base + "log/list", Objects: ByCustomer, Access: Keys, Keys: keys, Tag: "openapi-console",
			Summary: "Request log of one application, newest first (time range, endpoint, outcome ok|error; paged to 10,000 rows or by keyset cursor)", Handler: H(s.openapiRequests)},
		{Method: "POST", Path: base + "log/stats", Objects: ByCustomer, Access: Keys, Keys: keys, Reads: true, Tag: "openapi-console",
			Summary: "Access statistics of one application over whole days of the console's time zone (at most 92): calls and errors per day, per endpoint with p50/p90/p99 latency, totals", Handler: H(s.openapiStats)},
	}
}
