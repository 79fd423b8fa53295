package mqtt

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"chargeops/internal/devstate"
	"chargeops/internal/ess"
	"chargeops/internal/fleet"
	"chargeops/internal/mqttwire"
)

// Limits of a message's fields (docs/mqtt.md, "Payloads").
const (
	maxIDLength    = 64
	maxNameLength  = 64
	maxTextValue   = 64
	maxValues      = 64
	maxAlarms      = 100
	maxAlarmInfo   = 200
	maxPayloadSize = 1 << 20
)

// telemetry stores a message's readings and acknowledges it once they are committed; a
// malformed message is refused (ack ok:false with the reason) and nothing of it is stored.
func (a *Adapter) telemetry(ctx context.Context, sn string, payload []byte) {
	a.logIn(sn, mqttwire.KindTelemetry, payload)
	var t mqttwire.Telemetry
	err := decode(payload, &t)
	if err == nil {
		err = checkTelemetry(t)
	}
	if err != nil {
		a.refuse(ctx, sn, t.ID, mqttwire.KindTelemetry, err)
		return
	}
	dev := a.known(ctx, sn, nil)
	if dev == nil {
		a.ack(ctx, sn, t.ID, errors.New("device not registered"))
		return
	}
	l := a.holder(ctx, dev)
	var samples []fleet.Sample
	for i, r := range t.Readings {
		for _, name := range sortedNames(r.Values) {
			p, _ := ess.PointOf(name)
			samples = append(samples, fleet.Sample{Measurand: name, Unit: p.Unit, Value: valueText(r.Values[name]), At: r.TS, Element: i})
		}
	}
	if err := a.core.Meter(ctx, fleet.MeterReport{Device: dev, Samples: samples}); err != nil {
		// not acknowledged: the agent sends it again
		a.log.Warn("mqtt readings not stored", "sn", sn, "id", t.ID, "err", err)
		return
	}
	if l != nil {
		l.seen()
	}
	a.stats.Readings.Add(int64(len(t.Readings)))
	a.ack(ctx, sn, t.ID, nil)
}

// alarms opens and ends the unit's BMS and PCS alarms; a full report also ends every alarm of
// the model it does not list.
func (a *Adapter) alarms(ctx context.Context, sn string, payload []byte) {
	a.logIn(sn, mqttwire.KindAlarms, payload)
	var r mqttwire.AlarmReport
	err := decode(payload, &r)
	if err == nil {
		err = checkAlarms(r)
	}
	if err != nil {
		a.refuse(ctx, sn, r.ID, mqttwire.KindAlarms, err)
		return
	}
	dev := a.known(ctx, sn, nil)
	if dev == nil {
		a.ack(ctx, sn, r.ID, errors.New("device not registered"))
		return
	}
	a.holder(ctx, dev)
	var reports []fleet.ComponentEventReport
	listed := map[string]bool{}
	for _, al := range r.Alarms {
		code, _ := ess.AlarmOf(al.Code)
		listed[al.Code] = true
		reports = append(reports, fleet.ComponentEventReport{Device: dev, Problem: problem(code), Cleared: !al.Active, Info: al.Info, At: r.TS})
	}
	if r.Full {
		for _, code := range ess.Alarms {
			if !listed[code.Code] {
				reports = append(reports, fleet.ComponentEventReport{Device: dev, Problem: problem(code), Cleared: true, At: r.TS})
			}
		}
	}
	if err := a.core.ComponentEvents(ctx, reports); err != nil {
		a.log.Warn("mqtt alarms not stored", "sn", sn, "id", r.ID, "err", err)
		return
	}
	a.ack(ctx, sn, r.ID, nil)
}

// problem is the alarm (or fault: the unit stopped) the console opens for a code.
func problem(c ess.AlarmCode) fleet.Problem {
	kind := devstate.KindAlarm
	if c.Fault {
		kind = devstate.KindFault
	}
	return fleet.Problem{Kind: kind, Level: c.Level, Code: c.Code, Name: c.Name}
}

// refuse answers a malformed message: logged, counted, acknowledged with the reason so the
// agent drops it, nothing stored.
func (a *Adapter) refuse(ctx context.Context, sn, id, kind string, err error) {
	a.stats.Malformed.Add(1)
	a.log.Warn("mqtt message refused", "sn", sn, "kind", kind, "id", id, "err", err)
	a.ack(ctx, sn, id, err)
}

// decode reads a JSON payload strictly: one object, known fields only.
func decode(payload []byte, v any) error {
	if len(payload) > maxPayloadSize {
		return fmt.Errorf("payload of %d bytes is over %d", len(payload), maxPayloadSize)
	}
	d := json.NewDecoder(bytes.NewReader(payload))
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		return fmt.Errorf("not a valid payload: %w", err)
	}
	if d.More() {
		return errors.New("not a valid payload: data after the object")
	}
	return nil
}

func checkID(id string) error {
	switch {
	case id == "":
		return errors.New("id: required")
	case len(id) > maxIDLength:
		return fmt.Errorf("id: longer than %d characters", maxIDLength)
	}
	return nil
}

// checkTelemetry checks each field of a telemetry message, naming the first that is wrong.
func checkTelemetry(t mqttwire.Telemetry) error {
	if err := checkID(t.ID); err != nil {
		return err
	}
	if len(t.Readings) == 0 || len(t.Readings) > mqttwire.MaxReadings {
		return fmt.Errorf("readings: 1 to %d required", mqttwire.MaxReadings)
	}
	for i, r := range t.Readings {
		if r.TS <= 0 {
			return fmt.Errorf("readings[%d].ts: required (unix ms)", i)
		}
		if len(r.Values) == 0 || len(r.Values) > maxValues {
			return fmt.Errorf("readings[%d].values: 1 to %d required", i, maxValues)
		}
		for name, v := range r.Values {
			if !validName(name) {
				return fmt.Errorf("readings[%d].values: %q is not a value name", i, name)
			}
			if err := checkValue(name, v); err != nil {
				return fmt.Errorf("readings[%d].values[%q]: %w", i, name, err)
			}
		}
	}
	return nil
}

// checkValue: a number, or a text of at most maxTextValue characters for a value the model
// does not call numeric.
func checkValue(name string, v json.RawMessage) error {
	v = bytes.TrimSpace(v)
	if len(v) == 0 {
		return errors.New("empty")
	}
	p, known := ess.PointOf(name)
	if v[0] == '"' {
		var s string
		if err := json.Unmarshal(v, &s); err != nil {
			return errors.New("not a text")
		}
		if known && p.Numeric {
			return errors.New("a number is required")
		}
		if len(s) > maxTextValue {
			return fmt.Errorf("longer than %d characters", maxTextValue)
		}
		if known && name == ess.PCSState && !slices.Contains(ess.States, s) {
			return fmt.Errorf("%q is not a state", s)
		}
		if known && name == ess.PCSMode && !ess.ValidMode(s) {
			return fmt.Errorf("%q is not a mode", s)
		}
		return nil
	}
	var n json.Number
	if err := json.Unmarshal(v, &n); err != nil {
		return errors.New("not a number or a text")
	}
	if _, err := n.Float64(); err != nil {
		return errors.New("not a number")
	}
	if known && !p.Numeric {
		return errors.New("a text is required")
	}
	return nil
}

// validName: 1-64 letters, digits, '.', '_' or '-'.
func validName(s string) bool {
	if s == "" || len(s) > maxNameLength {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// checkAlarms checks each field of an alarm report.
func checkAlarms(r mqttwire.AlarmReport) error {
	if err := checkID(r.ID); err != nil {
		return err
	}
	if r.TS <= 0 {
		return errors.New("ts: required (unix ms)")
	}
	if len(r.Alarms) > maxAlarms {
		return fmt.Errorf("alarms: at most %d", maxAlarms)
	}
	for i, al := range r.Alarms {
		if !ess.ValidAlarmCode(al.Code) {
			return fmt.Errorf("alarms[%d].code: %q is not an alarm code (BMS.* or PCS.*)", i, al.Code)
		}
		if len(al.Info) > maxAlarmInfo {
			return fmt.Errorf("alarms[%d].info: longer than %d characters", i, maxAlarmInfo)
		}
	}
	return nil
}

// valueText is a checked value as the core stores it: a number's own text, a text unquoted.
func valueText(v json.RawMessage) string {
	v = bytes.TrimSpace(v)
	if len(v) > 0 && v[0] == '"' {
		var s string
		_ = json.Unmarshal(v, &s)
		return s
	}
	return string(v)
}

func sortedNames(m map[string]json.RawMessage) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
