package httpapi

import (
	"chargeops/internal/fleet"
	"chargeops/internal/fleet/read"
	"chargeops/internal/i18n"
	"chargeops/internal/loadmgmt"
	"chargeops/internal/smartcharging"
)

// chargingProfileList is a device's stored profiles, each refusal's message in the caller's language.
func (s *Server) chargingProfileList(c *Ctx, in read.DeviceIDInput) ([]fleet.StoredProfile, error) {
	list, err := s.Reads.ChargingProfiles(c, c.P, in.DeviceID)
	for i := range list {
		list[i].Message = i18n.CommandMessage(c.Locale, list[i].Message)
	}
	return list, err
}

// chargingProfileInput is one profile for one charger's connector (0: the charger).
type chargingProfileInput struct {
	DeviceID    int64                 `json:"deviceId"`
	ConnectorID int                   `json:"connectorId"`
	Profile     smartcharging.Profile `json:"profile"`
}

// chargingProfileSet is control type 26 on one device, checked and recorded as control/send's.
func (s *Server) chargingProfileSet(c *Ctx, in chargingProfileInput) (fleet.SendResult, error) {
	return s.controlSend(c, fleet.SendInput{DeviceIDs: []int64{in.DeviceID}, ControlType: fleet.CtlSetChargingProfile,
		Params: fleet.Params{ConnectorID: in.ConnectorID, Profile: &in.Profile}})
}

func (s *Server) devicePowerGet(c *Ctx, in read.DeviceIDInput) (loadmgmt.DevicePower, error) {
	return s.LoadMgmt.DevicePower(c, c.P, in.DeviceID)
}

func (s *Server) devicePowerSet(c *Ctx, in loadmgmt.DevicePower) (struct{}, error) {
	return struct{}{}, s.LoadMgmt.SetDevicePower(c, c.P, in)
}

// siteIDInput names a site.
type siteIDInput struct {
	SiteID int64 `json:"siteId"`
}

// sitePowerGet is a site's power view, each refused profile's message in the caller's language.
func (s *Server) sitePowerGet(c *Ctx, in siteIDInput) (loadmgmt.SiteView, error) {
	v, err := s.LoadMgmt.Site(c, c.P, in.SiteID)
	for i := range v.Chargers {
		v.Chargers[i].Message = i18n.CommandMessage(c.Locale, v.Chargers[i].Message)
	}
	return v, err
}

func (s *Server) sitePowerSet(c *Ctx, in loadmgmt.SitePower) (struct{}, error) {
	return struct{}{}, s.LoadMgmt.SetSitePower(c, c.P, in)
}

// sitePowerHistoryInput is a site and a time range (unix ms).
type sitePowerHistoryInput struct {
	SiteID int64 `json:"siteId"`
	Start  int64 `json:"start"`
	End    int64 `json:"end"`
}

func (s *Server) sitePowerHistory(c *Ctx, in sitePowerHistoryInput) ([]loadmgmt.Sample, error) {
	return s.LoadMgmt.History(c, c.P, in.SiteID, in.Start, in.End)
}
