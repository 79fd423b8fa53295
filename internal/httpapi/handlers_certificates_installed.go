package httpapi

import "chargeops/internal/fleet"

// installedCertificates lists the certificates a charger holds as its last answers to control
// types 22-24 named them (docs/security-profiles.md, "Certificates on the charger").
func (s *Server) installedCertificates(c *Ctx, in FleetDeviceQuery) ([]fleet.InstalledCertificate, error) {
	return s.Fleet.InstalledCertificates(c, c.P, in.DeviceID)
}
