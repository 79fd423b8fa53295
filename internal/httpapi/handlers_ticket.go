package httpapi

import (
	"chargeops/internal/db"
	"chargeops/internal/ticket"
)

// Tickets and their anonymous shares (docs/tickets.md).

func (s *Server) ticketList(c *Ctx, in ticket.ListInput) (db.List[*ticket.Ticket], error) {
	return s.Tickets.List(c, c.P, in)
}

func (s *Server) ticketDetail(c *Ctx, in IDInput) (*ticket.Ticket, error) {
	return s.Tickets.Detail(c, c.P, in.ID)
}

func (s *Server) ticketAdd(c *Ctx, in ticket.Input) (IDAnswer, error) {
	in.ID = 0
	id, err := s.Tickets.Add(c, c.P, in)
	return IDAnswer{ID: id}, err
}

func (s *Server) ticketUpdate(c *Ctx, in ticket.Input) (Empty, error) {
	return Empty{}, s.Tickets.Update(c, c.P, in)
}

func (s *Server) ticketComment(c *Ctx, in ticket.CommentInput) (Empty, error) {
	return Empty{}, s.Tickets.Comment(c, c.P, in)
}

func (s *Server) ticketPending(c *Ctx, in ticket.CommentInput) (Empty, error) {
	return Empty{}, s.Tickets.Pending(c, c.P, in)
}

func (s *Server) ticketClose(c *Ctx, in ticket.CommentInput) (Empty, error) {
	return Empty{}, s.Tickets.Close(c, c.P, in)
}

func (s *Server) ticketReopen(c *Ctx, in ticket.CommentInput) (Empty, error) {
	return Empty{}, s.Tickets.Reopen(c, c.P, in)
}

func (s *Server) ticketShareAdd(c *Ctx, in ticket.ShareInput) (ticket.Made, error) {
	in.Origin = s.shareOrigin(c)
	return s.Tickets.AddShare(c, c.P, in)
}

func (s *Server) ticketShareList(c *Ctx, in IDInput) ([]ticket.Share, error) {
	return s.Tickets.Shares(c, c.P, in.ID)
}

func (s *Server) ticketShareRevoke(c *Ctx, in IDInput) (Empty, error) {
	return Empty{}, s.Tickets.RevokeShare(c, c.P, in.ID)
}

func (s *Server) ticketPublicDetail(c *Ctx, in ticket.PublicTokenInput) (*ticket.Shared, error) {
	return s.Tickets.PublicDetail(c, in.Token, c.Client.IP)
}

func (s *Server) ticketPublicComment(c *Ctx, in ticket.PublicCommentInput) (Empty, error) {
	return Empty{}, s.Tickets.PublicComment(c, in, c.Client.IP)
}
