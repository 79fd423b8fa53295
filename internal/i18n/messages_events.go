package i18n

import "fmt"

// eventsMessages: the one naming of device events and alarm levels on the server (alarm mail),
// the same names as the console's (web/src/locales/*/names.ts ocpp.error.*, fleet.ts
// event.level.*; names_test.go keeps them equal). event.name.<code> names an OCPP error code or
// connector status; the vendor's own code is shown beside it.
var eventsMessages = map[string][2]string{
	"event.name.ConnectorLockFailure": {"Connector lock failure", "充电枪锁止故障"},
	"event.name.EVCommunicationError": {"EV communication error", "车辆通信错误"},
	"event.name.GroundFailure":        {"Ground failure", "接地故障"},
	"event.name.HighTemperature":      {"High temperature", "温度过高"},
	"event.name.InternalError":        {"Internal error", "内部错误"},
	"event.name.LocalListConflict":    {"Local list conflict", "本地列表冲突"},
	"event.name.NoError":              {"No error", "无错误"},
	"event.name.OtherError":           {"Other error", "其他错误"},
	"event.name.OverCurrentFailure":   {"Over-current failure", "过流故障"},
	"event.name.OverVoltage":          {"Over-voltage", "过压"},
	"event.name.PowerMeterFailure":    {"Power meter failure", "电表故障"},
	"event.name.PowerSwitchFailure":   {"Power switch failure", "电源开关故障"},
	"event.name.ReaderFailure":        {"Card reader failure", "读卡器故障"},
	"event.name.ResetFailure":         {"Reset failure", "复位失败"},
	"event.name.UnderVoltage":         {"Under-voltage", "欠压"},
	"event.name.WeakSignal":           {"Weak signal", "信号弱"},
	"event.name.Offline":              {"Offline", "离线"},
	"event.name.Unavailable":          {"Unavailable", "不可用"},
	"event.name.Faulted":              {"Faulted", "故障"},
	"event.level.0":                   {"OA (ordinary)", "OA（一般）"},
	"event.level.1":                   {"MA (major)", "MA（重要）"},
	"event.level.2":                   {"CA (critical)", "CA（紧急）"},
}

func init() { register(eventsMessages) }

// EventName is a device event's name in locale: its code's name (event.name.<code>), else the
// stored name, else the code (a vendor's own code has no translation).
func EventName(locale, code, name string) string {
	if _, ok := messages["event.name."+code]; ok && code != "" {
		return T(locale, "event.name."+code, nil)
	}
	if name != "" {
		return name
	}
	return code
}

// LevelName is an alarm level 0-2 in locale, its code first ("CA (critical)").
func LevelName(locale string, level int) string {
	key := fmt.Sprintf("event.level.%d", level)
	if _, ok := messages[key]; ok {
		return T(locale, key, nil)
	}
	return fmt.Sprint(level)
}
