package ocpp201

import (
	"context"
	"strconv"
	"strings"

	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/diagnostics"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/provisioning"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/reservation"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/smartcharging"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/types"

	"chargeops/internal/fleet"
)

// The device model of a 2.0.1 charger (components and their variables) in the core's terms:
// a component/variable pair is a configuration key (docs/ocpp201.md, "Device model"):
//
//	Component[instance]@evse.connector/Variable[instance]
//
// with the parts in brackets and after @ only when the charger names them:
// "OCPPCommCtrlr/HeartbeatInterval", "EVSE@1/AvailabilityState", "Connector@1.2/Problem". A
// model lists its 2.0.1 config items under these keys.

// VariableKey is the configuration key of a component's variable.
func VariableKey(c types.Component, v types.Variable) string {
	var b strings.Builder
	b.WriteString(c.Name)
	if c.Instance != "" {
		b.WriteString("[" + c.Instance + "]")
	}
	if c.EVSE != nil {
		b.WriteString("@" + strconv.Itoa(c.EVSE.ID))
		if c.EVSE.ConnectorID != nil {
			b.WriteString("." + strconv.Itoa(*c.EVSE.ConnectorID))
		}
	}
	b.WriteString("/" + v.Name)
	if v.Instance != "" {
		b.WriteString("[" + v.Instance + "]")
	}
	return b.String()
}

// ParseVariableKey reads a configuration key back into its component and variable; false when
// it is not one (no "/", an empty name, a bad EVSE).
func ParseVariableKey(key string) (types.Component, types.Variable, bool) {
	comp, vari, ok := strings.Cut(key, "/")
	if !ok {
		return types.Component{}, types.Variable{}, false
	}
	var c types.Component
	var v types.Variable
	if at := strings.LastIndex(comp, "@"); at >= 0 {
		e, conn, hasConn := strings.Cut(comp[at+1:], ".")
		id, err := strconv.Atoi(e)
		if err != nil || id < 0 {
			return c, v, false
		}
		c.EVSE = &types.EVSE{ID: id}
		if hasConn {
			n, err := strconv.Atoi(conn)
			if err != nil || n < 0 {
				return c, v, false
			}
			c.EVSE.ConnectorID = &n
		}
		comp = comp[:at]
	}
	c.Name, c.Instance = splitInstance(comp)
	v.Name, v.Instance = splitInstance(vari)
	return c, v, c.Name != "" && v.Name != ""
}

// splitInstance reads "Name[instance]".
func splitInstance(s string) (name, instance string) {
	if i := strings.IndexByte(s, '['); i >= 0 && strings.HasSuffix(s, "]") {
		return s[:i], s[i+1 : len(s)-1]
	}
	return s, ""
}

// reportValues are the configuration values of a NotifyReport part: each variable's Actual
// value (read-only when its mutability says so). Write-only values (passwords) have none to
// keep and are left out.
func reportValues(data []provisioning.ReportData) []fleet.ConfigValue {
	var out []fleet.ConfigValue
	for _, rd := range data {
		for _, a := range rd.VariableAttribute {
			if (a.Type != "" && a.Type != types.AttributeActual) || a.Mutability == provisioning.MutabilityWriteOnly {
				continue
			}
			out = append(out, fleet.ConfigValue{Key: VariableKey(rd.Component, rd.Variable), Value: a.Value,
				Readonly: a.Mutability == provisioning.MutabilityReadOnly})
		}
	}
	return out
}

// problemVariables are the standard variables whose value true means the component has a
// problem (OCPP 2.0.1 Part 2, appendix "Standardized variables"): a NotifyEvent that sets one
// opens an alarm, one that clears it (false, or cleared) ends it.
var problemVariables = map[string]int{"Problem": fleet.LevelMA, "Tripped": fleet.LevelMA, "Fault": fleet.LevelMA}

// notifyEvent records the events of a NotifyEvent (docs/ocpp201.md, "Events"): a problem
// variable set, or a monitor's Alerting event, opens an alarm on the component's EVSE that its
// cleared event ends; other values (Delta, Periodic) are kept as the EVSE's latest values.
func (d *Dialect) notifyEvent(ctx context.Context, dev *fleet.Device, req *diagnostics.NotifyEventRequest) error {
	for _, ev := range req.EventData {
		r := componentEvent(dev, ev)
		if err := d.core.ComponentEvent(ctx, r); err != nil {
			return err
		}
	}
	return nil
}

// componentEvent is one event's report to the core.
func componentEvent(dev *fleet.Device, ev diagnostics.EventData) fleet.ComponentEventReport {
	key := VariableKey(ev.Component, ev.Variable)
	r := fleet.ComponentEventReport{Device: dev, At: ms(ev.Timestamp), Info: strings.TrimSpace(ev.TechCode + " " + ev.TechInfo)}
	if ev.Component.EVSE != nil {
		r.Connector = ev.Component.EVSE.ID
	}
	level, problemVar := problemVariables[ev.Variable.Name]
	switch {
	case problemVar:
		r.Problem = fleet.Problem{Kind: fleet.KindAlarm, Level: level, Code: key, Name: key}
		r.Cleared = ev.Cleared || !truthy(ev.ActualValue)
	case ev.Trigger == diagnostics.EventTriggerAlerting:
		r.Problem = fleet.Problem{Kind: fleet.KindAlarm, Level: fleet.LevelOA, Code: key, Name: key}
		r.Cleared = ev.Cleared
	default:
		r.Values = map[string]string{key: ev.ActualValue}
	}
	return r
}

func truthy(v string) bool { return strings.EqualFold(v, "true") || v == "1" }

// chargingLimit keeps a NotifyChargingLimit (an external limit: the grid, an EMS) as the EVSE's
// latest values: its source and whether it is grid-critical.
func (d *Dialect) chargingLimit(ctx context.Context, dev *fleet.Device, req *smartcharging.NotifyChargingLimitRequest) error {
	r := fleet.ComponentEventReport{Device: dev, Values: map[string]string{"ChargingLimit.Source": string(req.ChargingLimit.ChargingLimitSource)}}
	if req.EvseID != nil {
		r.Connector = *req.EvseID
	}
	if g := req.ChargingLimit.IsGridCritical; g != nil {
		r.Values["ChargingLimit.GridCritical"] = strconv.FormatBool(*g)
	}
	return d.core.ComponentEvent(ctx, r)
}

// reservationStatus records a ReservationStatusUpdate: the reservation expired or was removed
// at the charger.
func (d *Dialect) reservationStatus(ctx context.Context, dev *fleet.Device, req *reservation.ReservationStatusUpdateRequest) error {
	return d.core.ReservationEnded(ctx, dev, req.ReservationID, req.Status == reservation.ReservationUpdateStatusExpired)
}
