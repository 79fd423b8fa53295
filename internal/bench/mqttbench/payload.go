package mqttbench

import (
	"encoding/json"
	"strconv"

	"chargeops/internal/ess"
	"chargeops/internal/mqttwire"
)

// ValuesPerReading is how many values each reading carries (Reading); NumericValues of them
// are numbers, so each reading adds that many rows to device_series and ValuesPerReading to
// device_runtime's latest values.
const (
	ValuesPerReading = 15
	NumericValues    = 13
)

// appendReading appends one reading of unit i's k-th message as JSON: the values a storage
// unit's agent reports (internal/ess), moving a little from message to message.
func appendReading(b []byte, ts int64, i, k int) []byte {
	soc := 20 + float64((i*7+k)%600)/10 // 20.0 .. 79.9 %
	power := int64((i*37+k*11)%40000) - 20000
	state := ess.StateCharging
	switch {
	case power > 0:
		state = ess.StateDischarging
	case power == 0:
		state = ess.StateStandby
	}
	volt := 760 + float64((i+k)%200)/10
	cur := float64(power) / volt
	num := func(name string, v float64, prec int) {
		b = append(b, '"')
		b = append(b, name...)
		b = append(b, `":`...)
		b = strconv.AppendFloat(b, v, 'f', prec, 64)
		b = append(b, ',')
	}
	txt := func(name, v string) {
		b = append(b, '"')
		b = append(b, name...)
		b = append(b, `":"`...)
		b = append(b, v...)
		b = append(b, `",`...)
	}
	b = append(b, `{"ts":`...)
	b = strconv.AppendInt(b, ts, 10)
	b = append(b, `,"values":{`...)
	num(ess.SoC, soc, 1)
	num(ess.SoH, 98.2, 1)
	num(ess.BatteryPower, float64(power), 0)
	num(ess.BatteryVoltage, volt, 1)
	num(ess.BatteryCurrent, cur, 2)
	num(ess.CellVoltageMin, 3.281, 3)
	num(ess.CellVoltageMax, 3.312, 3)
	num(ess.CellTempMin, 24.5, 1)
	num(ess.CellTempMax, 27.1, 1)
	txt(ess.PCSState, state)
	txt(ess.PCSMode, ess.ModeSelfConsumption)
	num(ess.PCSPower, float64(power)*0.97, 0)
	num(ess.GridPower, float64(8000-power), 0)
	num(ess.LoadPower, 8000, 0)
	num(ess.EnergyCharged, float64(1_000_000+i*1000+k*3), 0)
	b[len(b)-1] = '}' // the last value's comma
	return append(b, '}')
}

// appendTelemetry appends a telemetry payload (mqttwire.Telemetry) with id and readings
// readings, the last at ts and the others spaced by step ms before it.
func appendTelemetry(b []byte, id string, ts, step int64, readings, i, k int) []byte {
	b = append(b, `{"id":`...)
	b = strconv.AppendQuote(b, id)
	b = append(b, `,"readings":[`...)
	for r := range readings {
		if r > 0 {
			b = append(b, ',')
		}
		b = appendReading(b, ts-int64(readings-1-r)*step, i, k*readings+r)
	}
	return append(b, "]}"...)
}

// birth is a unit's retained birth on {sn}/status.
func birth(sn string, ts int64) []byte {
	b, _ := json.Marshal(mqttwire.Status{Online: true, TS: ts, Attributes: &mqttwire.Attributes{
		Vendor: "Bench", Model: "BESS-100", SerialNumber: sn, Firmware: "1.0.0", Agent: "chargeops bench mqtt",
		CapacityWh: 200_000, RatedPowerW: 100_000}})
	return b
}

// will is a unit's last will on {sn}/status.
func will() []byte {
	b, _ := json.Marshal(mqttwire.Status{Online: false})
	return b
}
