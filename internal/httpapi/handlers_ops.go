package httpapi

import (
	"chargeops/internal/db"
	"chargeops/internal/fleet"
)

func (s *Server) reservationList(c *Ctx, in fleet.ReservationListInput) (db.List[fleet.Reservation], error) {
	return s.Fleet.Reservations(c, c.P, in)
}
