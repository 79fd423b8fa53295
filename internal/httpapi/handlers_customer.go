package httpapi

import (
	"chargeops/internal/customer"
	"chargeops/internal/db"
)

// Customers.

func (s *Server) customerList(c *Ctx, in customer.ListFilter) (db.List[customer.Customer], error) {
	return s.Customers.List(c, c.P, in)
}

func (s *Server) customerDetail(c *Ctx, in IDInput) (customer.Customer, error) {
	return s.Customers.Get(c, c.P, in.ID)
}

func (s *Server) customerAdd(c *Ctx, in customer.Input) (IDAnswer, error) {
	id, err := s.Customers.Add(c, c.P, in)
	return IDAnswer{ID: id}, err
}

func (s *Server) customerUpdate(c *Ctx, in customer.Input) (*Empty, error) {
	return nil, s.Customers.Update(c, c.P, in)
}

func (s *Server) customerDelete(c *Ctx, in IDsInput) (*Empty, error) {
	return nil, s.Customers.Delete(c, c.P, in.IDs)
}

func (s *Server) customerOptions(c *Ctx, _ Empty) ([]customer.Option, error) {
	return s.Customers.Options(c, c.P)
}
