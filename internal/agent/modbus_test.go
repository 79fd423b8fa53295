package agent

import (
	"encoding/json"
	"strconv"
	"testing"
	"time"

	"chargeops/internal/ess"
	"chargeops/internal/mqttwire"
	"chargeops/internal/sunspec"
)

// TestModbusEndToEnd: the agent as shipped (DialModbus, no Dial override) against the SunSpec
// simulator and a real broker: the birth carries what discovery found, readings carry the
// storage model's values, an alarm set on the device is reported, and setPower is written
// and read back.
func TestModbusEndToEnd(t *testing.T) {
	sim, err := sunspec.StartSim(sunspec.SimOptions{Serial: "SIM-0042"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sim.Close() })
	c := newCloud(t)
	a := startAgent(t, c.url(), t.TempDir(), nil, func(cfg *Config, o *Options) {
		cfg.Units[0].Modbus = sim.URL()
		cfg.Units[0].Interval = 100 * time.Millisecond
		o.Dial = nil
	})

	status := mqttwire.Topic(testSN, mqttwire.KindStatus)
	var birth mqttwire.Status
	waitFor(t, 5*time.Second, "a birth with the discovered attributes", func() bool {
		return json.Unmarshal(c.retained(status), &birth) == nil && birth.Attributes != nil
	})
	if at := birth.Attributes; at.SerialNumber != "SIM-0042" || at.Vendor == "" || at.CapacityWh != 100_000 || at.RatedPowerW != 50_000 {
		t.Errorf("attributes = %+v", *at)
	}

	waitFor(t, 5*time.Second, "a reading with the state of charge", func() bool {
		for _, m := range c.telemetry(testSN) {
			for _, r := range m.Readings {
				if soc, err := strconv.ParseFloat(string(r.Values[ess.SoC]), 64); err == nil && soc > 0 && soc <= 100 {
					return true
				}
			}
		}
		return false
	})

	waitFor(t, 5*time.Second, "the first Full alarm report", func() bool { return len(c.alarmReports(testSN)) > 0 })
	sim.SetAlarm("BMS.CellImbalance", true)
	waitFor(t, 5*time.Second, "the raised alarm reported", func() bool {
		for _, r := range c.alarmReports(testSN) {
			for _, al := range r.Alarms {
				if al.Code == "BMS.CellImbalance" && al.Active {
					return true
				}
			}
		}
		return false
	})

	power := -10_000.0
	c.command(testSN, mqttwire.Command{ID: "e2e-power", Name: ess.CmdSetPower, Params: ess.Params{PowerW: &power},
		ReplyTo: mqttwire.ReplyTopic(testSN, "node-1"), Expires: time.Now().Add(10 * time.Second).UnixMilli()})
	waitFor(t, 5*time.Second, "the setPower answer", func() bool { return len(c.answersTo("e2e-power")) > 0 })
	res := c.answersTo("e2e-power")[0].res
	if res.Status != ess.StatusAccepted || string(res.Values[ess.PCSSetpoint]) != "-10000" {
		t.Errorf("setPower answer = %+v (values %s)", res, res.Values)
	}
	a.stop()
	if s := a.stats(); s.Acked == 0 || s.Dropped != 0 {
		t.Errorf("stats = %+v", s)
	}
}
