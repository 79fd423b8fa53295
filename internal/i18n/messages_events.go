package i18n

import (
	"fmt"
	"sort"
	"strings"
)

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
	// an event in one line, as the console's live notice says it (web/src/locales/*/message.ts
	// message.notice.*): mail subjects and lines
	"event.title":        {"{device} at {site}: {what}", "{site} 的 {device}：{what}"},
	"event.title.noSite": {"{device}: {what}", "设备 {device}：{what}"},
	"event.levelled":     {"{alarm} ({level})", "{alarm}（级别 {level}）"},
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

// levelCodes are the short level codes, the same in every language (web/src/utils/eventNames.ts
// LEVEL_CODES).
var levelCodes = [...]string{"OA", "MA", "CA"}

// LevelCode is a level 0-2 as its short code ("MA"); the number itself when out of range.
func LevelCode(level int) string {
	if level >= 0 && level < len(levelCodes) {
		return levelCodes[level]
	}
	return fmt.Sprint(level)
}

// EventCodes are the codes the server names (event.name.<code>), sorted.
func EventCodes() []string {
	var out []string
	for k := range eventsMessages {
		if c, ok := strings.CutPrefix(k, "event.name."); ok {
			out = append(out, c)
		}
	}
	sort.Strings(out)
	return out
}

// EventLabel is an event as every screen shows it (the console's eventLabel): its name in
// locale, and the code kept beside it: the vendor's own code before the OCPP code, "" when the
// name already is that code.
func EventLabel(locale, code, name, vendorCode string) (label, beside string) {
	label = EventName(locale, code, name)
	beside = vendorCode
	if beside == "" {
		beside = code
	}
	if beside == label {
		beside = ""
	}
	return label, beside
}

// Levelled reports whether events of kind carry a level (alarms 1 and faults 2).
func Levelled(kind int) bool { return kind == 1 || kind == 2 }

// EventTitle is an event in one line in locale, as the console's live notice says it:
// "HK-KB-01-08 at Kowloon Bay: High temperature (CA) · HighTemperature" (the level for alarms
// and faults only, the vendor's or OCPP code beside the name).
func EventTitle(locale, device, site string, kind, level int, code, name, vendorCode string) string {
	label, beside := EventLabel(locale, code, name, vendorCode)
	what := label
	if Levelled(kind) {
		what = T(locale, "event.levelled", map[string]any{"alarm": label, "level": LevelCode(level)})
	}
	if beside != "" {
		what += " · " + beside // as the console's EventName: the same in every language
	}
	if site == "" {
		return T(locale, "event.title.noSite", map[string]any{"device": device, "what": what})
	}
	return T(locale, "event.title", map[string]any{"device": device, "site": site, "what": what})
}

// LevelName is an alarm level 0-2 in locale, its code first ("CA (critical)").
func LevelName(locale string, level int) string {
	key := fmt.Sprintf("event.level.%d", level)
	if _, ok := messages[key]; ok {
		return T(locale, key, nil)
	}
	return fmt.Sprint(level)
}
