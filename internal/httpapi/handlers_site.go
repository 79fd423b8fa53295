package httpapi

import (
	"chargeops/internal/db"
	"chargeops/internal/site"
)

// Sites.

func (s *Server) siteList(c *Ctx, in site.ListFilter) (db.List[site.Site], error) {
	return s.Sites.List(c, c.P, in)
}

func (s *Server) siteDetail(c *Ctx, in IDInput) (site.Site, error) {
	return s.Sites.Get(c, c.P, in.ID)
}

func (s *Server) siteAdd(c *Ctx, in site.Input) (IDAnswer, error) {
	id, err := s.Sites.Add(c, c.P, in)
	return IDAnswer{ID: id}, err
}

func (s *Server) siteUpdate(c *Ctx, in site.Input) (*Empty, error) {
	return nil, s.Sites.Update(c, c.P, in)
}

func (s *Server) siteStatus(c *Ctx, in StatusInput) (*Empty, error) {
	return nil, s.Sites.SetStatus(c, c.P, in.IDs, in.Status)
}

func (s *Server) siteDelete(c *Ctx, in IDsInput) (*Empty, error) {
	return nil, s.Sites.Delete(c, c.P, in.IDs)
}

func (s *Server) siteOverview(c *Ctx, in IDInput) (site.Overview, error) {
	return s.Sites.OverviewOf(c, c.P, in.ID)
}

// SiteOptionsInput narrows site options to a customer.
type SiteOptionsInput struct {
	CustomerID int64 `json:"customerId"`
}

func (s *Server) siteOptions(c *Ctx, in SiteOptionsInput) ([]site.Option, error) {
	return s.Sites.Options(c, c.P, in.CustomerID)
}
