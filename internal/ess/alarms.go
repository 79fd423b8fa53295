package ess

import (
	"slices"
	"strings"
)

// Alarm levels: the console's OA (operational), MA (major) and CA (critical), devstate's 0-2.
const (
	LevelOA = 0
	LevelMA = 1
	LevelCA = 2
)

// AlarmCode is one BMS or PCS alarm a unit reports by its code ("BMS.CellOverTemperature"):
// the alarm the console opens, its level, and whether it is a fault (the unit stopped) rather
// than an alarm.
type AlarmCode struct {
	Code   string
	Name   string // English; the console shows it in the user's language from its code
	NameZh string
	Level  int
	Fault  bool
}

// Alarms are the codes the model knows. A code outside the table is still kept (as an alarm of
// level MA, named by its code), so an agent newer than the server loses nothing.
var Alarms = []AlarmCode{
	{"BMS.CellOverVoltage", "Cell over-voltage", "电芯过压", LevelCA, true},
	{"BMS.CellUnderVoltage", "Cell under-voltage", "电芯欠压", LevelMA, false},
	{"BMS.CellOverTemperature", "Cell over-temperature", "电芯过温", LevelCA, true},
	{"BMS.CellUnderTemperature", "Cell under-temperature", "电芯低温", LevelMA, false},
	{"BMS.CellImbalance", "Cell imbalance", "电芯不均衡", LevelOA, false},
	{"BMS.ChargeOverCurrent", "Charge over-current", "充电过流", LevelMA, false},
	{"BMS.DischargeOverCurrent", "Discharge over-current", "放电过流", LevelMA, false},
	{"BMS.InsulationFault", "Insulation fault", "绝缘故障", LevelCA, true},
	{"BMS.ContactorFault", "Contactor fault", "接触器故障", LevelCA, true},
	{"BMS.CommunicationLost", "BMS communication lost", "BMS 通信中断", LevelMA, false},
	{"PCS.GridOverVoltage", "Grid over-voltage", "电网过压", LevelMA, false},
	{"PCS.GridUnderVoltage", "Grid under-voltage", "电网欠压", LevelMA, false},
	{"PCS.GridOverFrequency", "Grid over-frequency", "电网过频", LevelMA, false},
	{"PCS.GridUnderFrequency", "Grid under-frequency", "电网欠频", LevelMA, false},
	{"PCS.DCOverVoltage", "DC over-voltage", "直流过压", LevelCA, true},
	{"PCS.OverTemperature", "Converter over-temperature", "变流器过温", LevelMA, false},
	{"PCS.GroundFault", "Ground fault", "接地故障", LevelCA, true},
	{"PCS.IslandingDetected", "Islanding detected", "检测到孤岛", LevelMA, false},
	{"PCS.FanFault", "Fan fault", "风扇故障", LevelOA, false},
	{"PCS.HardwareFault", "Converter hardware fault", "变流器硬件故障", LevelCA, true},
}

// AlarmOf finds a code in the table; an unknown code that names its source (BMS. or PCS.) and
// is a plain identifier is kept as a level MA alarm named by the code, ok false otherwise.
func AlarmOf(code string) (AlarmCode, bool) {
	if i := slices.IndexFunc(Alarms, func(a AlarmCode) bool { return a.Code == code }); i >= 0 {
		return Alarms[i], true
	}
	if !ValidAlarmCode(code) {
		return AlarmCode{}, false
	}
	return AlarmCode{Code: code, Name: code, NameZh: code, Level: LevelMA}, true
}

// ValidAlarmCode: "BMS." or "PCS." and 1-48 letters, digits or underscores.
func ValidAlarmCode(code string) bool {
	rest, ok := strings.CutPrefix(code, "BMS.")
	if !ok {
		rest, ok = strings.CutPrefix(code, "PCS.")
	}
	if !ok || rest == "" || len(rest) > 48 {
		return false
	}
	for _, c := range rest {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}
