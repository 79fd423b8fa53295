package httpapi

import (
	"chargeops/internal/apperr"
	"chargeops/internal/cpca"
	"chargeops/internal/db"
	"chargeops/internal/fleet/read"
)

// caRoutes are the charge-point CA and the fleet's client certificates, on the device-access
// page (docs/security-profiles.md, "The charge-point CA"). The CA is platform data; the
// certificates are scoped by device.
func (s *Server) caRoutes() []Route {
	sys := "/api/auth/sys/dev/"
	keys := []string{"auth_black_device"}
	return []Route{
		{Method: "GET", Path: sys + "ca/detail", Objects: PlatformOnly, Access: Keys, Keys: keys, Tag: "fleet",
			Summary: "The charge-point CA (source, whether this node can sign, its certificate in PEM) and the other CAs trusted for client certificates", Handler: H(s.caDetail)},
		{Method: "POST", Path: sys + "certificate/fleet", Objects: ByDevice, Access: Keys, Keys: keys, Reads: true, Tag: "fleet",
			Summary: "The installed client certificate of each device in scope that ends last, soonest expiry first (expiringWithinDays, sn; paged)", Handler: H(s.fleetCertificates)},
	}
}

func (s *Server) caDetail(c *Ctx, _ struct{}) (cpca.Status, error) {
	if s.CA == nil {
		return cpca.Status{}, apperr.ErrNotFound
	}
	return s.CA.Status(), nil
}

func (s *Server) fleetCertificates(c *Ctx, in read.FleetCertificatesInput) (db.List[read.DeviceCertificate], error) {
	return s.Reads.FleetCertificates(c, c.P, in)
}
