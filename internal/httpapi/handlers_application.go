package httpapi

import (
	"chargeops/internal/application"
	"chargeops/internal/db"
)

// Applications (docs/applications.md). The secret is in the answers of add and rotate only.

func (s *Server) appList(c *Ctx, in application.ListFilter) (db.List[application.App], error) {
	return s.Apps.List(c, c.P, in)
}

func (s *Server) appDetail(c *Ctx, in IDInput) (application.App, error) {
	return s.Apps.Detail(c, c.P, in.ID)
}

func (s *Server) appAdd(c *Ctx, in application.Input) (application.Made, error) {
	return s.Apps.Add(c, c.P, in)
}

func (s *Server) appUpdate(c *Ctx, in application.Input) (Empty, error) {
	return Empty{}, s.Apps.Update(c, c.P, in)
}

func (s *Server) appStatus(c *Ctx, in application.StatusInput) (Empty, error) {
	return Empty{}, s.Apps.SetStatus(c, c.P, in)
}

func (s *Server) appDelete(c *Ctx, in IDsInput) (Empty, error) {
	return Empty{}, s.Apps.Delete(c, c.P, in.IDs)
}

func (s *Server) appRotate(c *Ctx, in IDInput) (application.Made, error) {
	return s.Apps.Rotate(c, c.P, in.ID)
}

func (s *Server) appUserOptions(c *Ctx, in application.UserOptionsInput) ([]application.UserOption, error) {
	return s.Apps.UserOptions(c, c.P, in)
}
