package httpapi

import (
	"chargeops/internal/db"
	"chargeops/internal/fleet"
)

func (s *Server) reservationList(c *Ctx, in fleet.ReservationListInput) (db.List[fleet.Reservation], error) {
	return s.Fleet.Reservations(c, c.P, in)
}

func (s *Server) connectorOperations(c *Ctx, in fleet.DeviceIDInput) ([]fleet.ConnectorOps, error) {
	return s.Fleet.ConnectorOperations(c, c.P, in)
}
