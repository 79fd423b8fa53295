package httpapi

import (
	"chargeops/internal/application"
	"chargeops/internal/db"
	"chargeops/internal/openapi"
)

// The console's OpenAPI screens: request log and access statistics (docs/openapi-console.md).

func (s *Server) openapiApps(c *Ctx, in application.ListFilter) (db.List[openapi.AppUsage], error) {
	return s.RequestReader.Apps(c, c.P, in)
}

func (s *Server) openapiRequests(c *Ctx, in openapi.RequestsInput) (openapi.RequestPage, error) {
	return s.RequestReader.Requests(c, c.P, in)
}

func (s *Server) openapiStats(c *Ctx, in openapi.StatsInput) (openapi.Stats, error) {
	return s.RequestReader.Stats(c, c.P, in)
}
