// Package demo seeds a believable organisation into an empty database for `chargeops demo`:
// two customers with sites in Shenzhen and Hong Kong, AC, DC, storage and V2G models with
// their items, about fifty devices, and one user for each kind of role.
package demo

import (
	"context"
	"fmt"

	"chargeops/internal/access"
	"chargeops/internal/app"
	"chargeops/internal/customer"
	"chargeops/internal/db"
	"chargeops/internal/device"
	"chargeops/internal/devmodel"
	"chargeops/internal/role"
	"chargeops/internal/sim"
	"chargeops/internal/site"
	"chargeops/internal/user"
)

// Password of every demo user except the super admin.
const Password = "Demo#Pass123"

// Account is a demo sign-in.
type Account struct{ UserName, Role string }

type siteSpec struct {
	customer, name, code, address string
	models                        []string
	devices                       int
}

type modelSpec struct {
	name       string
	deviceType int
	vendor     string
	items      []devmodel.Item
}

var ocppParams = []devmodel.Item{
	{Kind: devmodel.KindParam, ConfigGroup: "Core", ConfigItem: "Heartbeat interval (s)", ProtocolKey: "HeartbeatInterval", DataType: "int", DataRange: "10~3600", ReadLevel: 4, WriteLevel: 2, Batch: true, DisplayPriority: 1},
	{Kind: devmodel.KindParam, ConfigGroup: "Core", ConfigItem: "Meter value sample interval (s)", ProtocolKey: "MeterValueSampleInterval", DataType: "int", DataRange: "5~3600", ReadLevel: 4, WriteLevel: 2, Batch: true, DisplayPriority: 2},
	{Kind: devmodel.KindParam, ConfigGroup: "Core", ConfigItem: "Connection timeout (s)", ProtocolKey: "ConnectionTimeOut", DataType: "int", DataRange: "10~600", ReadLevel: 4, WriteLevel: 2, Batch: true, DisplayPriority: 3},
	{Kind: devmodel.KindParam, ConfigGroup: "Authorization", ConfigItem: "Local authorize offline", ProtocolKey: "LocalAuthorizeOffline", DataType: "enum", DataRange: "Yes|true|boolean\nNo|false|boolean", ReadLevel: 4, WriteLevel: 1, DisplayPriority: 4},
	{Kind: devmodel.KindConfig, ConfigGroup: "Identity", ConfigItem: "Number of connectors", ProtocolKey: "NumberOfConnectors", DataType: "int", DataRange: "1~8", ReadLevel: 5, WriteLevel: 0, DisplayPriority: 1},
	{Kind: devmodel.KindConfig, ConfigGroup: "Metering", ConfigItem: "Sampled measurands", ProtocolKey: "MeterValuesSampledData", DataType: "string", DataRange: "0~500", ReadLevel: 4, WriteLevel: 1, DisplayPriority: 2},
}

// chargerOps are the operator actions (control types 12-20 and the smart-charging 26-28,
// docs/ocpp16.md) the demo's chargers offer; the storage unit has no connector a driver plugs into.
var chargerOps = []int{12, 13, 14, 15, 16, 17, 18, 19, 20, 26, 27, 28}

func controls(codes ...int) []devmodel.Item {
	names := map[int]string{1: "Soft reboot", 2: "Hard reboot", 3: "Disable system", 4: "Disable connector", 5: "Firmware upgrade",
		6: "Log upload", 7: "Remote link start", 8: "Remote link stop", 9: "Refresh configuration", 10: "Refresh runtime values", 11: "Set parameters",
		12: "Remote start", 13: "Remote stop", 14: "Unlock connector", 15: "Clear authorization cache", 16: "Data transfer",
		17: "Reserve connector", 18: "Cancel reservation", 19: "Send local list", 20: "Read local list version",
		26: "Set charging profile", 27: "Clear charging profiles", 28: "Get composite schedule",
		29: "Storage power setpoint", 30: "Set storage mode", 31: "Start or stop storage", 32: "Storage fault reset"}
	levels := map[int]int{1: 3, 2: 2, 3: 2, 4: 3, 5: 1, 6: 3, 7: 2, 8: 2, 9: 4, 10: 4, 11: 2, 12: 3, 13: 3, 14: 3, 15: 3, 16: 1, 17: 3, 18: 3, 19: 2, 20: 4,
		26: 2, 27: 2, 28: 4, 29: 2, 30: 2, 31: 2, 32: 3}
	out := []devmodel.Item{}
	for _, c := range codes {
		it := devmodel.Item{Kind: devmodel.KindControl, ControlName: names[c], ControlTypeCode: c, ControlLevel: levels[c]}
		if c == 4 {
			it.Param1Name = "Connector"
		}
		if c == 11 {
			it.Param1Name, it.Param2Name = "Key", "Value"
		}
		out = append(out, it)
	}
	return out
}

var models = []modelSpec{
	{"AC-7kW", devmodel.TypeACPile, "Greenway", append(append([]devmodel.Item{}, ocppParams...), controls(append([]int{1, 2, 3, 4, 5, 6, 9, 10, 11}, chargerOps...)...)...)},
	{"AC-22kW", devmodel.TypeACPile, "Greenway", append(append([]devmodel.Item{}, ocppParams...), controls(append([]int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, chargerOps...)...)...)},
	{"DC-120kW", devmodel.TypeChargingPile, "Voltra", append(append([]devmodel.Item{}, ocppParams...), controls(append([]int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, chargerOps...)...)...)},
	{"ESS-215kWh", devmodel.TypeEnergyPile, "Harbour Power", append(append([]devmodel.Item{}, ocppParams[:3]...), controls(1, 3, 5, 6, 7, 8, 9, 10, 11)...)},
	{"V2G-11kW", devmodel.TypeV2G, "Voltra", append(append([]devmodel.Item{}, ocppParams...), controls(append([]int{1, 2, 3, 4, 5, 6, 9, 10, 11}, chargerOps...)...)...)},
	// storage units behind a site agent, over MQTT (storage.go, docs/mqtt.md)
	{"BESS-200kWh", devmodel.TypePower, "Harbour Power", devmodel.StorageItems(false)},
	{"Home-ESS-10kWh", devmodel.TypeHomeEnergy, "Harbour Power", devmodel.StorageItems(false)},
}

var sites = []siteSpec{
	{"SZGC", "Futian CBD Parking", "SZ-FT-01", "Futian District, Shenzhen", []string{"AC-7kW", "DC-120kW"}, 12},
	{"SZGC", "Nanshan Science Park", "SZ-NS-01", "Nanshan District, Shenzhen", []string{"AC-22kW", "DC-120kW", "ESS-215kWh"}, 12},
	{"SZGC", "Bao'an Airport Depot", "SZ-BA-01", "Bao'an District, Shenzhen", []string{"DC-120kW", "ESS-215kWh"}, 8},
	{"HKHE", "Kowloon Bay Car Park", "HK-KB-01", "Kowloon Bay, Hong Kong", []string{"AC-7kW", "V2G-11kW"}, 10},
	{"HKHE", "Tsuen Wan Logistics Hub", "HK-TW-01", "Tsuen Wan, Hong Kong", []string{"DC-120kW", "ESS-215kWh", "V2G-11kW"}, 8},
}

// Remote links (control types 7 and 8, docs/remote-access.md): DC-120kW and ESS-215kWh support
// SSH and WEB, AC-22kW WEB only (AC models have no SSH); AC-7kW and V2G-11kW list no link.

// Seed fills an empty organisation and returns the demo accounts and the devices' SNs. It does
// nothing (and returns nothing) when customers already exist.
func Seed(ctx context.Context, a *app.App) ([]Account, []string, error) {
	rootScope := access.FullScope()
	root := &access.Principal{Root: true, Scope: rootScope}
	existing, err := a.Customers.List(ctx, root, customer.ListFilter{})
	if err != nil || existing.Total > 0 {
		return nil, nil, err
	}
	customers := map[string]int64{}
	for _, c := range []customer.Input{
		{Name: "Shenzhen Green Charge Co.", Code: "SZGC", Contact: "Li Wei", Telephone: "+86 755 8888 0001", Address: "Futian District, Shenzhen"},
		{Name: "Hong Kong Harbour Energy", Code: "HKHE", Contact: "Chan Tai Man", Telephone: "+852 2888 0002", Address: "Kwun Tong, Hong Kong"},
	} {
		if customers[c.Code], err = a.Customers.Add(ctx, root, c); err != nil {
			return nil, nil, fmt.Errorf("customer %s: %w", c.Code, err)
		}
	}
	modelIDs := map[string]int64{}
	for _, m := range models {
		id, err := a.Models.Add(ctx, root, devmodel.Input{Name: m.name, DeviceType: m.deviceType, Vendor: m.vendor, SupportsSSH: m.deviceType != devmodel.TypeACPile, SupportsWeb: true})
		if err != nil {
			return nil, nil, fmt.Errorf("model %s: %w", m.name, err)
		}
		modelIDs[m.name] = id
		for _, it := range m.items {
			it.ModelID = id
			if a.Cfg.DefaultLocale == "zh-CN" {
				it = inChinese(it)
			}
			if _, err := a.Models.AddItem(ctx, root, it); err != nil {
				return nil, nil, fmt.Errorf("model %s item %s%s: %w", m.name, it.ConfigItem, it.ControlName, err)
			}
		}
	}
	if _, err := a.Models.AddAlias(ctx, root, devmodel.AliasInput{ModelID: modelIDs["DC-120kW"], Alias: "VT-DC120"}); err != nil {
		return nil, nil, err
	}
	var sns []string
	siteIDs := map[string]int64{}
	for _, s := range sites {
		id, err := a.Sites.Add(ctx, root, site.Input{CustomerID: customers[s.customer], Name: s.name, Code: s.code, Address: s.address,
			ContactPerson: "Site office", ContactPhone: "+852 0000 0000", BuildDate: "2025-06-01"})
		if err != nil {
			return nil, nil, fmt.Errorf("site %s: %w", s.code, err)
		}
		siteIDs[s.code] = id
		for i := 1; i <= s.devices; i++ {
			model := s.models[(i-1)%len(s.models)]
			sn := fmt.Sprintf("%s-%02d", s.code, i)
			if _, err := a.Devices.Add(ctx, root, device.Input{SN: sn, Name: fmt.Sprintf("%s #%02d", s.name, i), ModelID: modelIDs[model], SiteID: id,
				SoftwareVersion: "1.4.2", InstallDate: "2025-07-01", ArrivalDate: "2025-06-15", MaintenanceCycle: 180}); err != nil {
				return nil, nil, fmt.Errorf("device %s: %w", sn, err)
			}
			sns = append(sns, sn)
		}
	}
	if err := seedStorage(ctx, a, root, modelIDs, siteIDs); err != nil {
		return nil, nil, fmt.Errorf("demo storage: %w", err)
	}
	accounts, err := seedUsers(ctx, a, root, customers, siteIDs)
	if err != nil {
		return nil, nil, err
	}
	if err := seedPower(ctx, a, root, siteIDs); err != nil {
		return nil, nil, fmt.Errorf("demo site power: %w", err)
	}
	if err := seedHistory(ctx, a, sns); err != nil {
		return nil, nil, fmt.Errorf("demo history: %w", err)
	}
	if err := seedAttachments(ctx, a, root, customers); err != nil {
		return nil, nil, fmt.Errorf("demo attachments: %w", err)
	}
	if err := seedDocs(ctx, a, root); err != nil {
		return nil, nil, fmt.Errorf("demo docs: %w", err)
	}
	return accounts, sns, nil
}

type roleSpec struct {
	name     string
	keys     []string
	settings access.RoleSettings
}

func seedUsers(ctx context.Context, a *app.App, root *access.Principal, customers, siteIDs map[string]int64) ([]Account, error) {
	operate := []string{"auth_home", "auth_my", "auth_site", "auth_site_list", "auth_site_detail", "auth_device", "auth_device_list",
		"auth_device_info", "auth_device_detail", "auth_message", "auth_message_list", "auth_message_setting", "auth_attach", "auth_attach_tree",
		"auth_docs", "auth_docs_home_list_all", "auth_docs_search", "auth_docs_detail", "auth_issue", "auth_issue_list", "auth_issue_add", "auth_issue_edit",
		"auth_token", "auth_token_list", "auth_session", "auth_session_list", "auth_site_power"}
	manage := append(append([]string{}, operate...), "auth_issue_share", "auth_session_export", "auth_site_add", "auth_site_edit", "auth_device_add", "auth_device_edit",
		"auth_device_remoteStart", "auth_device_unlock", "auth_device_reserve", "auth_device_chargingProfile", "auth_site_power_edit", "auth_device_storage",
		"auth_system", "auth_user", "auth_user_list", "auth_user_add", "auth_user_edit", "auth_user_detail", "auth_user_customerStationList",
		"auth_logs", "auth_logs_action", "auth_logs_protocol", "auth_logs_error",
		"auth_application", "auth_application_list", "auth_application_add", "auth_application_edit", "auth_application_detail", "auth_openapi_app",
		"auth_token_add", "auth_token_edit", "auth_token_delete", "auth_token_import")
	roles := []roleSpec{
		{"Platform administrator", access.AllKeys(), access.RoleSettings{WebSSHAccess: 1}},
		{"Customer staff", manage, access.RoleSettings{CustomerAccess: 1, WebSSHLevel: 2, CfgReadLevel: 2, CfgWriteLevel: 2, CfgDownloadLevel: 2, ParamLevel: 2, DocLevel: 2, AttachLevel: 2}},
		// The site admin runs remote operations (reboot, reset, ...) and edits the devices of
		// their own sites (auth_device_edit; scope keeps them to those sites) but deletes none.
		{"Site admin", append(append([]string{}, operate...), "auth_device_edit"), access.RoleSettings{CustomerAccess: 1, SiteAccess: 1, WebSSHLevel: 3, CfgReadLevel: 3, CfgWriteLevel: 4, CfgDownloadLevel: 3, ParamLevel: 3, DocLevel: 3, AttachLevel: 3, EmailAlarm: true}},
		{"Engineer", append(append([]string{}, operate...), "auth_device_edit", "auth_device_remoteStart", "auth_device_unlock", "auth_device_reserve", "auth_device_chargingProfile", "auth_device_storage", "auth_system", "auth_logs", "auth_logs_protocol", "auth_logs_error", "auth_deviceModel"),
			access.RoleSettings{CustomerAccess: 1, WebSSHAccess: 3, WebSSHLevel: 1, CfgReadLevel: 1, CfgWriteLevel: 1, CfgDownloadLevel: 1, ParamLevel: 1, DocLevel: 1, AttachLevel: 1}},
	}
	roleIDs := map[string]int64{}
	for _, r := range roles {
		id, err := a.Roles.Add(ctx, root, role.Input{Name: r.name})
		if err != nil {
			return nil, err
		}
		if err := a.Roles.SetKeys(ctx, root, id, r.keys); err != nil {
			return nil, err
		}
		if err := a.Roles.SetSettings(ctx, root, id, r.settings); err != nil {
			return nil, err
		}
		roleIDs[r.name] = id
	}
	users := []struct {
		name, nick, role, customer string
		sites                      []string
	}{
		{"platform_admin", "Platform Admin", "Platform administrator", "", nil},
		{"sz_staff", "Shenzhen Staff", "Customer staff", "SZGC", nil},
		{"hk_staff", "Hong Kong Staff", "Customer staff", "HKHE", nil},
		{"futian_admin", "Futian Site Admin", "Site admin", "SZGC", []string{"SZ-FT-01"}},
		{"hk_engineer", "HK Field Engineer", "Engineer", "HKHE", nil},
	}
	var accounts []Account
	for _, u := range users {
		id, err := a.Users.Create(ctx, user.CreateInput{UserName: u.name, Password: Password, NickName: u.nick, RoleID: roleIDs[u.role],
			CustomerID: customers[u.customer], Email: u.name + "@demo.chargeops.local"})
		if err != nil {
			return nil, fmt.Errorf("user %s: %w", u.name, err)
		}
		if len(u.sites) > 0 {
			var ids []int64
			for _, s := range u.sites {
				ids = append(ids, siteIDs[s])
			}
			if err := a.Users.Assign(ctx, root, user.Assignment{ID: id, SiteIDs: ids}); err != nil {
				return nil, err
			}
		}
		accounts = append(accounts, Account{UserName: u.name, Role: u.role})
	}
	return accounts, nil
}

// Profiles of the demo models: what their chargers report at boot and meter (rated power) and
// how busy a connector is on average, so the fleet shows a believable mix of Working and idle.
var profiles = map[string]sim.Profile{
	"AC-7kW":     {MaxPowerW: 7400, Busy: 0.3},
	"AC-22kW":    {MaxPowerW: 22000, Busy: 0.4},
	"DC-120kW":   {DC: true, MaxPowerW: 120000, Busy: 0.5},
	"ESS-215kWh": {DC: true, MaxPowerW: 100000, Busy: 0.2},
	"V2G-11kW":   {DC: true, MaxPowerW: 11000, Busy: 0.25},
}

// SimOptions are the options of the demo fleet's simulation on the gateway at url: the demo
// sites' chargers (at most 500), each reporting its own model and vendor with its model's
// figures, busy to a degree that varies from charger to charger, with faults and offline
// periods now and then. Every 5th charger speaks OCPP 2.0.1, the others 1.6J.
func SimOptions(ctx context.Context, a *app.App, url string) (sim.Options, error) {
	var codes []any
	for _, s := range sites {
		codes = append(codes, s.code)
	}
	// the storage units are not OCPP chargers: the simulated site agent runs them (RunStorage)
	rows, err := a.DB.Query(ctx, `SELECT d.sn, m.name FROM device d JOIN site s ON s.id = d.site_id JOIN device_model m ON m.id = d.model_id
		WHERE s.code IN (`+db.Placeholders(len(codes))+`) AND m.device_type NOT IN (?, ?) ORDER BY d.sn LIMIT 500`, append(codes, devmodel.TypePower, devmodel.TypeHomeEnergy)...)
	if err != nil {
		return sim.Options{}, fmt.Errorf("demo: fleet: %w", err)
	}
	defer rows.Close()
	o := sim.Options{URL: url, Profiles: map[string]sim.Profile{}, FaultChance: 0.08, OfflineChance: 0.03, Protocol201Every: 5}
	vendors := map[string]string{}
	for _, m := range models {
		vendors[m.name] = m.vendor
	}
	for i := 0; rows.Next(); i++ {
		var sn, model string
		if err := rows.Scan(&sn, &model); err != nil {
			return sim.Options{}, err
		}
		p := profiles[model]
		p.Vendor, p.Model = vendors[model], model
		// a quarter each at 0.5x, 0.75x, 1x and 1.25x the model's usual load
		p.Busy = min(0.9, p.Busy*(0.5+float64(i%4)*0.25))
		o.SNs = append(o.SNs, sn)
		o.Profiles[sn] = p
	}
	return o, rows.Err()
}

// SNs returns the devices of the demo sites (what `chargeops demo` simulates), at most 500.
func SNs(ctx context.Context, a *app.App) ([]string, error) {
	var codes []any
	for _, s := range sites {
		codes = append(codes, s.code)
	}
	return db.Column[string](ctx, a.DB, `SELECT d.sn FROM device d JOIN site s ON s.id = d.site_id JOIN device_model m ON m.id = d.model_id
		WHERE s.code IN (`+db.Placeholders(len(codes))+`) AND m.device_type NOT IN (?, ?) ORDER BY d.sn LIMIT 500`, append(codes, devmodel.TypePower, devmodel.TypeHomeEnergy)...)
}
