package sunspec

import (
	"slices"

	"chargeops/internal/ess"
)

// bitAlarm ties a bit of a SunSpec alarm bitfield to an ess alarm code.
type bitAlarm struct {
	Bit  uint
	Code string
}

// batteryEvt1 maps 802 Evt1 (json/model_802.json symbols) to the BMS codes. SunSpec reports
// battery events for the bank, not per cell, so the bank-level alarm stands for the cell one
// (OVER_VOLT_ALARM for BMS.CellOverVoltage), and an insulation fault is its GROUND_FAULT.
// The official events without an ess code keep a name of their own, so a real unit's report is
// not lost: ess keeps an unknown BMS.* code as a level MA alarm.
var batteryEvt1 = []bitAlarm{
	{0, "BMS.CommunicationLost"},    // COMMUNICATION_ERROR
	{1, "BMS.CellOverTemperature"},  // OVER_TEMP_ALARM
	{3, "BMS.CellUnderTemperature"}, // UNDER_TEMP_ALARM
	{5, "BMS.ChargeOverCurrent"},    // OVER_CHARGE_CURRENT_ALARM
	{7, "BMS.DischargeOverCurrent"}, // OVER_DISCHARGE_CURRENT_ALARM
	{9, "BMS.CellOverVoltage"},      // OVER_VOLT_ALARM
	{11, "BMS.CellUnderVoltage"},    // UNDER_VOLT_ALARM
	{17, "BMS.CellImbalance"},       // VOLTAGE_IMBALANCE_WARNING
	{20, "BMS.ContactorFault"},      // CONTACTOR_ERROR
	{22, "BMS.InsulationFault"},     // GROUND_FAULT

	{2, "BMS.OverTempWarning"},
	{4, "BMS.UnderTempWarning"},
	{6, "BMS.OverChargeCurrentWarning"},
	{8, "BMS.OverDischargeCurrentWarning"},
	{10, "BMS.OverVoltWarning"},
	{12, "BMS.UnderVoltWarning"},
	{13, "BMS.UnderSoCMinAlarm"},
	{14, "BMS.UnderSoCMinWarning"},
	{15, "BMS.OverSoCMaxAlarm"},
	{16, "BMS.OverSoCMaxWarning"},
	{18, "BMS.TemperatureImbalanceAlarm"},
	{19, "BMS.TemperatureImbalanceWarning"},
	{21, "BMS.FanError"},
	{23, "BMS.OpenDoorError"},
	{24, "BMS.CurrentImbalanceWarning"},
	{25, "BMS.OtherAlarm"},
	{26, "BMS.OtherWarning"},
	{28, "BMS.ConfigurationAlarm"},
	{29, "BMS.ConfigurationWarning"},
}

// vendorPCSAlrm maps the vendor model's PCSAlrm bits (vendor.go) to the PCS codes.
var vendorPCSAlrm = []bitAlarm{
	{0, "PCS.GridOverVoltage"},
	{1, "PCS.GridUnderVoltage"},
	{2, "PCS.GridOverFrequency"},
	{3, "PCS.GridUnderFrequency"},
	{4, "PCS.DCOverVoltage"},
	{5, "PCS.OverTemperature"},
	{6, "PCS.GroundFault"},
	{7, "PCS.IslandingDetected"},
	{8, "PCS.FanFault"},
	{9, "PCS.HardwareFault"},
}

// derAlrm maps 701 Alrm (json/model_701.json symbols) to the PCS codes that have an official
// bit, so a unit without the vendor model still reports them.
var derAlrm = []bitAlarm{
	{0, "PCS.GroundFault"},        // GROUND_FAULT
	{1, "PCS.DCOverVoltage"},      // DC_OVER_VOLT
	{7, "PCS.OverTemperature"},    // OVER_TEMP
	{8, "PCS.GridOverFrequency"},  // OVER_FREQUENCY
	{9, "PCS.GridUnderFrequency"}, // UNDER_FREQUENCY
	{10, "PCS.GridOverVoltage"},   // AC_OVER_VOLT
	{11, "PCS.GridUnderVoltage"},  // AC_UNDER_VOLT
	{15, "PCS.HardwareFault"},     // HW_TEST_FAILURE
}

// bitsToCodes lists the codes whose bits are set in v.
func bitsToCodes(table []bitAlarm, v uint32) []string {
	var codes []string
	for _, a := range table {
		if v&(1<<a.Bit) != 0 {
			codes = append(codes, a.Code)
		}
	}
	return codes
}

// codesToBits sets the bits of the active codes the table knows.
func codesToBits(table []bitAlarm, active map[string]bool) uint32 {
	var v uint32
	for _, a := range table {
		if active[a.Code] {
			v |= 1 << a.Bit
		}
	}
	return v
}

// knownAlarm reports whether the simulator can raise code (it has a bit somewhere).
func knownAlarm(code string) bool {
	has := func(a bitAlarm) bool { return a.Code == code }
	return slices.ContainsFunc(batteryEvt1, has) || slices.ContainsFunc(vendorPCSAlrm, has)
}

// isFault reports whether code stops the unit (ess AlarmCode.Fault).
func isFault(code string) bool {
	a, ok := ess.AlarmOf(code)
	return ok && a.Fault
}
