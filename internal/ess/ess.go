// Package ess is the storage data model (issue 26, docs/mqtt.md#storage-data-model): the names,
// units and meaning of what an energy-storage unit (a BMS and a PCS behind a site agent)
// reports, its operating modes, the BMS and PCS alarm codes with their levels, and the commands
// it takes. A leaf package: the MQTT adapter, the edge agent, the SunSpec device simulator, the
// demo and the console's contract all read it, so a name is spelt once.
package ess

import "slices"

// The values a storage unit reports (the data catalogue's "Energy storage" group). Signs: a
// battery's power and current are positive while it discharges and negative while it charges;
// grid power is positive while the site imports from the grid.
const (
	SoC             = "Battery.SoC"                   // state of charge, %
	SoH             = "Battery.SoH"                   // state of health, %
	BatteryPower    = "Battery.Power"                 // DC power, W (+ discharge, - charge)
	BatteryVoltage  = "Battery.Voltage"               // DC voltage, V
	BatteryCurrent  = "Battery.Current"               // DC current, A (+ discharge, - charge)
	CellVoltageMin  = "Cell.Voltage.Min"              // lowest cell voltage, V
	CellVoltageMax  = "Cell.Voltage.Max"              // highest cell voltage, V
	CellTempMin     = "Cell.Temperature.Min"          // lowest cell temperature, °C
	CellTempMax     = "Cell.Temperature.Max"          // highest cell temperature, °C
	PCSState        = "PCS.State"                     // the converter's state (States)
	PCSMode         = "PCS.Mode"                      // the operating mode (Modes)
	PCSPower        = "PCS.Power"                     // AC power, W (+ discharge to the site, - charge)
	PCSSetpoint     = "PCS.Setpoint"                  // the power setpoint in manual mode, W
	GridPower       = "Grid.Power"                    // the site's grid connection, W (+ import, - export)
	LoadPower       = "Load.Power"                    // the site's load, W
	EnergyCharged   = "Energy.Active.Import.Register" // energy into the battery, Wh (a register)
	EnergyDischarge = "Energy.Active.Export.Register" // energy out of the battery, Wh (a register)
	Capacity        = "Battery.Capacity"              // usable capacity, Wh (an attribute)
	RatedPower      = "PCS.RatedPower"                // the converter's rated power, W (an attribute)
)

// Point is one value of the model: its name, unit and whether it is a number.
type Point struct {
	Name    string
	Unit    string // as stored (fleet's units: W, Wh, V, A, %, Celsius)
	Numeric bool
}

// Points are the values of the model, in the order the console shows them.
var Points = []Point{
	{SoC, "Percent", true}, {SoH, "Percent", true},
	{BatteryPower, "W", true}, {BatteryVoltage, "V", true}, {BatteryCurrent, "A", true},
	{CellVoltageMin, "V", true}, {CellVoltageMax, "V", true},
	{CellTempMin, "Celsius", true}, {CellTempMax, "Celsius", true},
	{PCSState, "", false}, {PCSMode, "", false},
	{PCSPower, "W", true}, {PCSSetpoint, "W", true},
	{GridPower, "W", true}, {LoadPower, "W", true},
	{EnergyCharged, "Wh", true}, {EnergyDischarge, "Wh", true},
	{Capacity, "Wh", true}, {RatedPower, "W", true},
}

// PointOf finds a value of the model by name.
func PointOf(name string) (Point, bool) {
	i := slices.IndexFunc(Points, func(p Point) bool { return p.Name == name })
	if i < 0 {
		return Point{}, false
	}
	return Points[i], true
}

// The converter's states (PCS.State).
const (
	StateOff         = "off"
	StateStandby     = "standby"
	StateCharging    = "charging"
	StateDischarging = "discharging"
	StateFault       = "fault"
)

// States are the values of PCS.State.
var States = []string{StateOff, StateStandby, StateCharging, StateDischarging, StateFault}

// The operating modes (PCS.Mode, the SetMode command).
const (
	ModeSelfConsumption = "selfConsumption" // charge from surplus, discharge to cover the load
	ModePeakShaving     = "peakShaving"     // discharge when the grid import passes the peak limit
	ModeBackup          = "backup"          // hold the charge for a grid outage
	ModeManual          = "manual"          // follow the power setpoint
)

// Modes are the values of PCS.Mode.
var Modes = []string{ModeSelfConsumption, ModePeakShaving, ModeBackup, ModeManual}

// ValidMode reports whether m is one of Modes.
func ValidMode(m string) bool { return slices.Contains(Modes, m) }
