package httpapi

// smartChargingRoutes are smart charging and site load management (issue 25,
// docs/smart-charging.md): the profiles chargeops set on a device (control types 26-28 are sent
// through control/send), a site's grid limit with its live allocations and power history, a
// charger's part in its site's plan, and the same for applications under /openapi/v1/.
func (s *Server) smartChargingRoutes() []Route {
	const v1 = "/openapi/v1/"
	read := []string{"auth_device_detail", "auth_device_info", "auth_device_edit"}
	power := []string{"auth_site_power"}
	edit := []string{"auth_site_power_edit"}
	return []Route{
		{Method: "GET", Path: "/api/auth/sys/dev/profile/list", Objects: ByDevice, Access: Keys, Keys: read, Tag: "fleet",
			Summary: "The charging profiles chargeops set on a device (operators', the OpenAPI's, the load manager's) with the charger's answer (state 0 sent, 1 installed, 2 refused)", Handler: H(s.chargingProfileList)},
		{Method: "GET", Path: "/api/auth/sys/dev/power", Objects: ByDevice, Access: Keys, Keys: append(power, edit...), Tag: "fleet",
			Summary: "A charger's part in its site's load management: phases (1 on phase 1-3, or 3), minimum and maximum A, priority", Handler: H(s.devicePowerGet)},
		{Method: "POST", Path: "/api/auth/sys/dev/power", Objects: ByDevice, Access: Keys, Keys: edit, Tag: "fleet",
			Summary: "Set a charger's part in its site's load management (the site's edit level)", Handler: H(s.devicePowerSet)},
		{Method: "GET", Path: "/api/auth/sys/site/power", Objects: BySite, Access: Keys, Keys: append(power, edit...), Tag: "site",
			Summary: "A site's grid limit and load management: the setting, the limit now, each charger's allocation and measured power, the planning node", Handler: H(s.sitePowerGet)},
		{Method: "POST", Path: "/api/auth/sys/site/power", Objects: BySite, Access: Keys, Keys: edit, Tag: "site",
			Summary: "Set a site's grid limit (kW or A per phase), time-of-day limits, minimum share and edit level; re-planned within seconds", Handler: H(s.sitePowerSet)},
		{Method: "GET", Path: "/api/auth/sys/site/power/history", Objects: BySite, Access: Keys, Keys: append(power, edit...), Tag: "site",
			Summary: "A site's power over time: limit, planned and measured W a minute (at most 31 days)", Handler: H(s.sitePowerHistory)},
		{Method: "GET", Path: v1 + "site-power", Signed: true, Objects: BySite, Access: Keys, Keys: append(power, edit...), Tag: "openapi-v1",
			Summary: "A site's grid limit, the limit now and each charger's allocation", Handler: H(s.sitePowerGet)},
		{Method: "POST", Path: v1 + "site-power", Signed: true, Objects: BySite, Access: Keys, Keys: edit, Tag: "openapi-v1",
			Summary: "Set a site's grid limit and time-of-day limits (an energy manager steering the site)", Handler: H(s.sitePowerSet)},
		{Method: "GET", Path: v1 + "charging-profiles", Signed: true, Objects: ByDevice, Access: Keys, Keys: read, Tag: "openapi-v1",
			Summary: "The charging profiles chargeops set on a device, with the charger's answer", Handler: H(s.chargingProfileList)},
		{Method: "POST", Path: v1 + "charging-profiles", Signed: true, Objects: ByDevice, Access: Keys, Keys: []string{"auth_device_chargingProfile"}, Tag: "openapi-v1",
			Summary: "Set a charging profile on a charger (control type 26); answers the command, whose result says whether the charger took it", Handler: H(s.chargingProfileSet)},
	}
}
