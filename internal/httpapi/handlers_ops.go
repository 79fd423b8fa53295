package httpapi

import (
	"chargeops/internal/db"
	"chargeops/internal/fleet"
	"chargeops/internal/fleet/read"
)

func (s *Server) reservationList(c *Ctx, in fleet.ReservationListInput) (db.List[fleet.Reservation], error) {
	return s.Fleet.Reservations(c, c.P, in)
}

func (s *Server) connectorOperations(c *Ctx, in read.DeviceIDInput) ([]read.ConnectorOps, error) {
	return s.Reads.ConnectorOperations(c, c.P, in)
}
