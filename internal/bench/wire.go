package bench

import (
	"encoding/json"
	"strconv"
	"time"
)

// OCPP-J message types.
const (
	msgCall       = 2
	msgCallResult = 3
	msgCallError  = 4
)

// callKind is a charger-initiated call the bench sends.
type callKind uint8

const (
	kindBoot      callKind = iota
	kindStatus             // StatusNotification, on a charger's first connection
	kindStart              // 1.6 StartTransaction; 2.0.1 TransactionEvent Started
	kindMeter              // MeterValues (the load, unless --load-message transaction-event)
	kindHeartbeat          // after a TriggerMessage(Heartbeat)
	kindTxUpdated          // 2.0.1 TransactionEvent Updated (--load-message transaction-event)
	nKinds
)

// Protocols the bench speaks (--protocol) and their WebSocket sub-protocols.
const (
	Protocol16  = "1.6"
	Protocol201 = "2.0.1"
)

// Load messages (--load-message).
const (
	LoadMeterValues      = "meter-values"
	LoadTransactionEvent = "transaction-event" // 2.0.1 only
)

// dialect is what differs between the protocols in how calls are named.
type dialect struct {
	subprotocol string
	actions     [nKinds]string // the OCPP action on the wire
	names       [nKinds]string // the name in the report (two kinds share TransactionEvent)
}

var (
	dialect16 = &dialect{subprotocol: "ocpp1.6",
		actions: [nKinds]string{"BootNotification", "StatusNotification", "StartTransaction", "MeterValues", "Heartbeat", "TransactionEvent"},
		names:   [nKinds]string{"BootNotification", "StatusNotification", "StartTransaction", "MeterValues", "Heartbeat", "TransactionEvent"}}
	dialect201 = &dialect{subprotocol: "ocpp2.0.1",
		actions: [nKinds]string{"BootNotification", "StatusNotification", "TransactionEvent", "MeterValues", "Heartbeat", "TransactionEvent"},
		names:   [nKinds]string{"BootNotification", "StatusNotification", "TransactionEvent Started", "MeterValues", "Heartbeat", "TransactionEvent Updated"}}
)

// dialectOf is the dialect of a --protocol value (nil: unknown).
func dialectOf(protocol string) *dialect {
	switch protocol {
	case "", Protocol16:
		return dialect16
	case Protocol201:
		return dialect201
	}
	return nil
}

// ocppTime is the timestamp format the bench sends (ISO 8601, UTC, milliseconds: the chargeops
// series keys samples by millisecond).
func ocppTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// callFrame is [2,"id","Action",payload].
func callFrame(buf []byte, id uint64, action string, payload []byte) []byte {
	buf = append(buf, `[2,"`...)
	buf = strconv.AppendUint(buf, id, 10)
	buf = append(buf, `","`...)
	buf = append(buf, action...)
	buf = append(buf, `",`...)
	buf = append(buf, payload...)
	return append(buf, ']')
}

// bootPayload is the OCPP 1.6 BootNotification of every bench charger (wire201.go has 2.0.1's).
var bootPayload = []byte(`{"chargePointVendor":"ChargeopsBench","chargePointModel":"BENCH-AC","firmwareVersion":"1.0.0"}`)

func statusPayload(now time.Time) []byte {
	return []byte(`{"connectorId":1,"errorCode":"NoError","status":"Charging","timestamp":"` + ocppTime(now) + `"}`)
}

func startPayload(now time.Time) []byte {
	return []byte(`{"connectorId":1,"idTag":"BENCH","meterStart":0,"timestamp":"` + ocppTime(now) + `"}`)
}

// measurands are the sampled values of a MeterValues, in order (--meter-values picks how many).
var measurands = []struct{ name, unit string }{
	{"Energy.Active.Import.Register", "Wh"},
	{"Power.Active.Import", "W"},
	{"Current.Import", "A"},
	{"Voltage", "V"},
	{"SoC", "Percent"},
	{"Temperature", "Celsius"},
}

// meterPayload is the k-th MeterValues of the run: connector 1 of transaction tx, values
// sampled values (the energy register grows with k).
func meterPayload(buf []byte, tx int64, k int64, values int, now time.Time) []byte {
	buf = append(buf, `{"connectorId":1,"transactionId":`...)
	buf = strconv.AppendInt(buf, tx, 10)
	buf = append(buf, `,"meterValue":[{"timestamp":"`...)
	buf = append(buf, ocppTime(now)...)
	buf = append(buf, `","sampledValue":[`...)
	for i := 0; i < values; i++ {
		if i > 0 {
			buf = append(buf, ',')
		}
		m := measurands[i%len(measurands)]
		buf = append(buf, `{"value":"`...)
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
		buf = append(buf, `","context":"Sample.Periodic","measurand":"`...)
		buf = append(buf, m.name...)
		buf = append(buf, `","unit":"`...)
		buf = append(buf, m.unit...)
		buf = append(buf, `"}`...)
	}
	return append(buf, `]}]}`...)
}

// frameHead reads the start of an OCPP-J frame without decoding it all: the message type, the
// message id and what follows the id (for a CALLRESULT: the payload and the closing bracket).
func frameHead(b []byte) (typ int, id string, rest []byte, ok bool) {
	i := 0
	skip := func() {
		for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
			i++
		}
	}
	expect := func(c byte) bool {
		skip()
		if i < len(b) && b[i] == c {
			i++
			return true
		}
		return false
	}
	if !expect('[') {
		return 0, "", nil, false
	}
	skip()
	if i >= len(b) || b[i] < '0' || b[i] > '9' {
		return 0, "", nil, false
	}
	typ = int(b[i] - '0')
	i++
	if !expect(',') || !expect('"') {
		return 0, "", nil, false
	}
	start := i
	for i < len(b) && b[i] != '"' {
		if b[i] == '\\' {
			return 0, "", nil, false // ids with escapes are not ours
		}
		i++
	}
	if i >= len(b) {
		return 0, "", nil, false
	}
	id = string(b[start:i])
	i++
	if !expect(',') {
		return 0, "", nil, false
	}
	return typ, id, b[i:], true
}

// resultPayload is the payload of a CALLRESULT from what frameHead left: `{...}]`.
func resultPayload(rest []byte) []byte {
	end := len(rest)
	for end > 0 && rest[end-1] != ']' {
		end--
	}
	if end == 0 {
		return nil
	}
	return rest[:end-1]
}

// callError decodes a CALLERROR's code and description from what frameHead left.
func callError(rest []byte) *CallError {
	var parts []json.RawMessage
	e := &CallError{Code: "GenericError"}
	body := append(append([]byte{'['}, resultPayload(rest)...), ']')
	if json.Unmarshal(body, &parts) == nil && len(parts) >= 2 {
		_ = json.Unmarshal(parts[0], &e.Code)
		_ = json.Unmarshal(parts[1], &e.Description)
	}
	return e
}

// CallError is a CALLERROR the server answered.
type CallError struct{ Code, Description string }

func (e *CallError) Error() string { return "CALLERROR " + e.Code + ": " + e.Description }

// serverCallAnswer is the bench charger's answer to an OCPP 1.6 call of the central system (a
// remote command; serverCallAnswer201 answers 2.0.1's): the CALLRESULT payload, or a CALLERROR code when the action is not simulated; and
// the message the charger sends after answering (TriggerMessage Heartbeat).
func serverCallAnswer(action string, payload json.RawMessage) (result []byte, errCode string, follow callKind, hasFollow bool) {
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
	case "GetConfiguration":
		return []byte(`{"configurationKey":[{"key":"HeartbeatInterval","readonly":false,"value":"60"},{"key":"MeterValueSampleInterval","readonly":false,"value":"60"}]}`), "", 0, false
	case "ChangeConfiguration", "Reset", "ChangeAvailability", "ClearCache", "DataTransfer", "RemoteStartTransaction", "RemoteStopTransaction":
		return []byte(`{"status":"Accepted"}`), "", 0, false
	}
	return nil, "NotImplemented", 0, false
}
