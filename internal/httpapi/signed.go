package httpapi

import (
	"time"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/openapi"
)

// The OpenAPI's signed calls (docs/openapi.md): the guard proves the application and gives its
// bound user as the caller; everything after that (keys, read-only customers, scope in the
// services, the action log) is the console's own code.

// signedCaller checks the request's signature and sets the caller: c.App and its bound user c.P.
// A refusal that named a known application still sets c.App, so the call is in its request log.
func (s *Server) signedCaller(c *Ctx) error {
	if s.Signatures == nil {
		return apperr.ErrNotFound
	}
	caller, err := s.Signatures.Check(c.R.Context(), c.R, c.body, c.Client.IP)
	if caller.App.ID != 0 {
		c.App = &caller.App
	}
	if err != nil {
		return err
	}
	c.P = caller.P
	c.Context = access.WithPrincipal(c.Context, caller.P)
	return nil
}

// logSigned adds a call of a known application to the request log.
func (s *Server) logSigned(c *Ctx, rt Route, code int, took time.Duration) {
	if c.App == nil || s.RequestLog == nil {
		return
	}
	s.RequestLog.Add(openapi.Record{AppID: c.App.ID, CustomerID: c.App.CustomerID, Endpoint: rt.Method + " " + rt.Path,
		Query: maskQuery(c.R.URL.Query()), Status: openapi.HTTPStatus(code), Code: code, Latency: took, IP: c.Client.IP, At: time.Now()})
}
