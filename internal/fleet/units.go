package fleet

import (
	"math"
	"strconv"
	"strings"
)

// Units of sampled values (docs/gateway.md, "Meter values"): energy is stored in Wh and power in
// W whatever unit the charger sends, so one series, one latest value and one session's energy
// never mix kWh and Wh. Every path that reads a charger's number goes through normalise.

// unitScale is a unit as stored and the factor from the unit sent.
type unitScale struct {
	unit   string
	factor float64
}

// unitTable maps the units of OCPP 1.6 (UnitOfMeasure, matched without case) to the stored
// ones. Units it does not list (A, V, Celsius, Fahrenheit, K, Percent, a vendor's own) are kept
// as sent, value and unit.
var unitTable = map[string]unitScale{
	"wh":    {"Wh", 1},
	"kwh":   {"Wh", 1000},
	"varh":  {"varh", 1},
	"kvarh": {"varh", 1000},
	"w":     {"W", 1},
	"kw":    {"W", 1000},
	"var":   {"var", 1},
	"kvar":  {"var", 1000},
	"va":    {"VA", 1},
	"kva":   {"VA", 1000},
}

// reading is a sampled value as stored: its unit normalised and, when it is a finite number,
// its value in that unit.
type reading struct {
	Value   string
	Unit    string
	Num     float64
	Numeric bool
}

// normalise converts a sampled value of measurand to the stored unit. A value without a unit
// is in Wh when its measurand is an energy (OCPP 1.6's default unit), else it stays unitless.
func normalise(measurand, value, unit string) reading {
	unit = strings.TrimSpace(unit)
	if unit == "" && IsEnergy(measurand) {
		unit = "Wh"
	}
	r := reading{Value: value, Unit: unit}
	v, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
	r.Numeric = err == nil && !math.IsNaN(v) && !math.IsInf(v, 0)
	sc, ok := unitTable[strings.ToLower(unit)]
	if !ok {
		r.Num = v
		return r
	}
	r.Unit = sc.unit
	if !r.Numeric {
		return r
	}
	r.Num = v
	if sc.factor != 1 {
		// rounded to a millionth of the stored unit: 12.345 kWh is 12345 Wh, not 12345.000000000002
		r.Num = math.Round(v*sc.factor*1e6) / 1e6
		r.Value = strconv.FormatFloat(r.Num, 'f', -1, 64)
	}
	return r
}

// IsEnergy reports whether a measurand ("" is the default register) counts energy.
func IsEnergy(measurand string) bool {
	return measurand == "" || strings.HasPrefix(measurand, "Energy.")
}

// registerWh reads an energy register sample as whole Wh; ok is false for a unit that is not an
// active energy (Wh, kWh, none) or a value that is not a non-negative number.
func registerWh(value, unit string) (int64, bool) {
	r := normalise(EnergyRegister, value, unit)
	if !r.Numeric || r.Unit != "Wh" || r.Num < 0 {
		return 0, false
	}
	return int64(math.Round(r.Num)), true
}
