package httpapi

import (
	"chargeops/internal/catalogue"
	"chargeops/internal/db"
)

// Data model catalogue: groups and data items.

func (s *Server) dataGroupList(c *Ctx, in catalogue.GroupFilter) (db.List[catalogue.Group], error) {
	return s.Catalogue.Groups(c, c.P, in)
}

func (s *Server) dataGroupAdd(c *Ctx, in catalogue.GroupInput) (IDAnswer, error) {
	id, err := s.Catalogue.AddGroup(c, c.P, in)
	return IDAnswer{ID: id}, err
}

func (s *Server) dataGroupUpdate(c *Ctx, in catalogue.GroupInput) (*Empty, error) {
	return nil, s.Catalogue.UpdateGroup(c, c.P, in)
}

func (s *Server) dataGroupDelete(c *Ctx, in IDsInput) (*Empty, error) {
	return nil, s.Catalogue.DeleteGroups(c, c.P, in.IDs)
}

func (s *Server) dataItemList(c *Ctx, in catalogue.ItemFilter) (db.List[catalogue.Item], error) {
	return s.Catalogue.Items(c, c.P, in)
}

func (s *Server) dataItemAdd(c *Ctx, in catalogue.ItemInput) (IDAnswer, error) {
	id, err := s.Catalogue.AddItem(c, c.P, in)
	return IDAnswer{ID: id}, err
}

func (s *Server) dataItemUpdate(c *Ctx, in catalogue.ItemInput) (*Empty, error) {
	return nil, s.Catalogue.UpdateItem(c, c.P, in)
}

func (s *Server) dataItemDelete(c *Ctx, in IDsInput) (*Empty, error) {
	return nil, s.Catalogue.DeleteItems(c, c.P, in.IDs)
}
