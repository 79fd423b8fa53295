package httpapi

import (
	"chargeops/internal/db"
	"chargeops/internal/fleet"
)

// Blacklist, pending devices and refused connections.

// BlacklistAddInput is the body of blacklist/add.
type BlacklistAddInput struct {
	SN              string `json:"sn"`
	MAC             string `json:"mac"`
	ProtocolVersion string `json:"protocolVersion"`
}

func (s *Server) blacklistAdd(c *Ctx, in BlacklistAddInput) (IDAnswer, error) {
	id, err := s.Fleet.BlacklistAdd(c, c.P, in.SN, in.MAC, in.ProtocolVersion)
	return IDAnswer{ID: id}, err
}

func (s *Server) blacklistList(c *Ctx, in fleet.BlacklistInput) (db.List[fleet.BlacklistEntry], error) {
	return s.Fleet.Blacklist(c, c.P, in)
}

func (s *Server) blacklistDelete(c *Ctx, in IDsInput) (Empty, error) {
	return Empty{}, s.Fleet.BlacklistDelete(c, c.P, in.IDs)
}

func (s *Server) pendingList(c *Ctx, in fleet.PendingInput) (db.List[fleet.PendingDevice], error) {
	return s.Fleet.Pending(c, c.P, in)
}

func (s *Server) refusalList(c *Ctx, in fleet.PendingInput) (db.List[fleet.Refusal], error) {
	return s.Fleet.Refusals(c, c.P, in)
}
