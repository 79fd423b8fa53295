package httpapi

import "chargeops/internal/region"

// Regions for addresses: a fixed tree compiled in, in the caller's language.

func (s *Server) regionAll(c *Ctx, _ Empty) ([]region.Node, error) {
	return region.Tree(c.Locale), nil
}
