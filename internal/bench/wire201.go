package bench

import (
	"encoding/json"
	"strconv"
	"time"
)

// OCPP 2.0.1 payloads of the bench chargers (--protocol 2.0.1), built by hand like wire.go's:
// the same load as 1.6, in 2.0.1's messages. TestPayloads201 checks each against ocpp-go's
// 2.0.1 types and their validation rules.

// ocppTimeLayout is ocppTime's layout, for appending without a string.
const ocppTimeLayout = "2006-01-02T15:04:05.000Z"

func appendTime(buf []byte, t time.Time) []byte { return t.UTC().AppendFormat(buf, ocppTimeLayout) }

// bootPayload201 is the 2.0.1 BootNotification of every bench charger.
var bootPayload201 = []byte(`{"reason":"PowerUp","chargingStation":{"model":"BENCH-AC","vendorName":"ChargeopsBench","firmwareVersion":"1.0.0"}}`)

// statusPayload201 reports connector 1 of EVSE 1 Occupied (its transaction makes it Charging).
func statusPayload201(now time.Time) []byte {
	buf := append([]byte(`{"timestamp":"`), ocppTime(now)...)
	return append(buf, `","connectorStatus":"Occupied","evseId":1,"connectorId":1}`...)
}

// txIDMax is 2.0.1's limit on a transactionId.
const txIDMax = 36

// txID201 is a charger's own name for its transaction, as JSON: its SN and the fleet's start
// (milliseconds, base 36), so that runs against one database start new sessions. A long SN
// loses its head to 2.0.1's 36 characters.
func txID201(sn string, runStart time.Time) []byte {
	id := sn + "-" + strconv.FormatInt(runStart.UnixMilli(), 36)
	if len(id) > txIDMax {
		id = id[len(id)-txIDMax:]
	}
	b, _ := json.Marshal(id)
	return b
}

// txStartedPayload201 is the TransactionEvent Started a charger sends on its first connection
// (seqNo 0), as 1.6's StartTransaction: EVSE 1 connector 1, idToken BENCH, charging.
func txStartedPayload201(txID []byte, now time.Time) []byte {
	buf := append([]byte(`{"eventType":"Started","timestamp":"`), ocppTime(now)...)
	buf = append(buf, `","triggerReason":"Authorized","seqNo":0,"transactionInfo":{"transactionId":`...)
	buf = append(buf, txID...)
	return append(buf, `,"chargingState":"Charging"},"evse":{"id":1,"connectorId":1},"idToken":{"idToken":"BENCH","type":"ISO14443"}}`...)
}

// appendMeterValue201 is one 2.0.1 MeterValue element: the k-th message's sampled values, the
// same measurands and values as 1.6's meterPayload, as JSON numbers with a unitOfMeasure.
func appendMeterValue201(buf []byte, k int64, values int, now time.Time) []byte {
	buf = append(buf, `[{"timestamp":"`...)
	buf = appendTime(buf, now)
	buf = append(buf, `","sampledValue":[`...)
	for i := 0; i < values; i++ {
		if i > 0 {
			buf = append(buf, ',')
		}
		m := measurands[i%len(measurands)]
		buf = append(buf, `{"value":`...)
		switch i % len(measurands) {
		case 0:
			buf = strconv.AppendInt(buf, 10*k, 10)
		case 1:
			buf = append(buf, "7400"...)
		case 2:
			buf = append(buf, "32.0"...)
		case 3:
			buf = append(buf, "230.0"...)
		case 4:
			buf = strconv.AppendInt(buf, k%100, 10)
		default:
			buf = append(buf, "35"...)
		}
		buf = append(buf, `,"measurand":"`...)
		buf = append(buf, m.name...)
		buf = append(buf, `","unitOfMeasure":{"unit":"`...)
		buf = append(buf, m.unit...)
		buf = append(buf, `"}}`...)
	}
	return append(buf, `]}]`...)
}

// meterPayload201 is the k-th 2.0.1 MeterValues of the run, on EVSE 1 (2.0.1's MeterValues
// names no transaction).
func meterPayload201(buf []byte, k int64, values int, now time.Time) []byte {
	buf = append(buf, `{"evseId":1,"meterValue":`...)
	buf = appendMeterValue201(buf, k, values, now)
	return append(buf, '}')
}

// txUpdatedPayload201 is the k-th load message as a TransactionEvent Updated of the charger's
// transaction (seqNo seq, MeterValuePeriodic), with meterPayload201's sampled values: how most
// 2.0.1 stations report during a transaction. The EVSE is left out, as 2.0.1 allows after the
// transaction's first event.
func txUpdatedPayload201(buf []byte, txID []byte, seq, k int64, values int, now time.Time) []byte {
	buf = append(buf, `{"eventType":"Updated","timestamp":"`...)
	buf = appendTime(buf, now)
	buf = append(buf, `","triggerReason":"MeterValuePeriodic","seqNo":`...)
	buf = strconv.AppendInt(buf, seq, 10)
	buf = append(buf, `,"transactionInfo":{"transactionId":`...)
	buf = append(buf, txID...)
	buf = append(buf, `,"chargingState":"Charging"},"meterValue":`...)
	buf = appendMeterValue201(buf, k, values, now)
	return append(buf, '}')
}

// variableValues are the values the bench charger reports for GetVariables, by variable name
// (anything else reads "1").
var variableValues = map[string]string{"HeartbeatInterval": "60", "TxUpdatedInterval": "60", "SampledDataTxUpdatedInterval": "60", "Interval": "60"}

// serverCallAnswer201 is serverCallAnswer for a 2.0.1 CSMS: Accepted-style answers that are
// valid for 2.0.1's schemas; GetVariables and SetVariables answer every item Accepted.
func serverCallAnswer201(action string, payload json.RawMessage) (result []byte, errCode string, follow callKind, hasFollow bool) {
	switch action {
	case "TriggerMessage":
		var req struct {
			RequestedMessage string `json:"requestedMessage"`
		}
		_ = json.Unmarshal(payload, &req)
		if req.RequestedMessage == "Heartbeat" {
			return []byte(`{"status":"Accepted"}`), "", kindHeartbeat, true
		}
		return []byte(`{"status":"NotImplemented"}`), "", 0, false
	case "GetVariables", "SetVariables":
		var req struct {
			Get []variableItem `json:"getVariableData"`
			Set []variableItem `json:"setVariableData"`
		}
		if json.Unmarshal(payload, &req) != nil || len(req.Get)+len(req.Set) == 0 {
			return nil, "FormatViolation", 0, false
		}
		type result struct {
			AttributeStatus string          `json:"attributeStatus"`
			AttributeType   string          `json:"attributeType,omitempty"`
			AttributeValue  string          `json:"attributeValue,omitempty"`
			Component       json.RawMessage `json:"component"`
			Variable        json.RawMessage `json:"variable"`
		}
		var out []result
		for _, it := range append(req.Get, req.Set...) {
			r := result{AttributeStatus: "Accepted", AttributeType: it.AttributeType, Component: it.Component, Variable: it.Variable}
			if action == "GetVariables" {
				var v struct {
					Name string `json:"name"`
				}
				_ = json.Unmarshal(it.Variable, &v)
				r.AttributeValue = "1"
				if val, ok := variableValues[v.Name]; ok {
					r.AttributeValue = val
				}
			}
			out = append(out, r)
		}
		key := "getVariableResult"
		if action == "SetVariables" {
			key = "setVariableResult"
		}
		b, err := json.Marshal(map[string]any{key: out})
		if err != nil {
			return nil, "FormatViolation", 0, false
		}
		return b, "", 0, false
	case "Reset", "ChangeAvailability", "ClearCache", "DataTransfer", "RequestStartTransaction", "RequestStopTransaction":
		return []byte(`{"status":"Accepted"}`), "", 0, false
	}
	return nil, "NotImplemented", 0, false
}

// variableItem is one item of a GetVariables or SetVariables request, its component and
// variable kept as sent so that the answer names them exactly.
type variableItem struct {
	AttributeType string          `json:"attributeType,omitempty"`
	Component     json.RawMessage `json:"component"`
	Variable      json.RawMessage `json:"variable"`
}
