package httpapi

// opsRoutes are what the device page's operator actions read: the connectors with their open
// session and reservation, and the reservations of a device (control types 17 ReserveNow and 18
// CancelReservation are sent through control/send and POST /openapi/v1/commands; docs/gateway.md,
// "Reservations"): the console's list and the OpenAPI's.
func (s *Server) opsRoutes() []Route {
	read := []string{"auth_device_detail", "auth_device_info", "auth_device_edit"}
	return []Route{
		{Method: "GET", Path: "/api/auth/sys/dev/ops/connectors", Objects: ByDevice, Access: Keys, Keys: read, Tag: "fleet",
			Summary: "A device's connectors with the session charging on each and its open reservation (the device page's operator actions)", Handler: H(s.connectorOperations)},
		{Method: "GET", Path: "/api/auth/sys/dev/reservation/list", Objects: ByDevice, Access: Keys, Keys: read, Tag: "fleet",
			Summary: "A device's reservations, newest first (status requested, active, used, cancelled, expired, refused; open=true: requested and active)", Handler: H(s.reservationList)},
		{Method: "GET", Path: "/openapi/v1/reservations", Signed: true, Objects: ByDevice, Access: Keys, Keys: read, Tag: "openapi-v1",
			Summary: "A device's reservations, newest first (paged; open=true: requested and active)", Handler: H(s.reservationList)},
	}
}
