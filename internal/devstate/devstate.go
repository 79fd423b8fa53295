// Package devstate holds the stored values of device data that more than one package writes or
// reads in SQL: device status, alarm status, event kinds, levels and states, command results
// and the control types of a restart (docs/gateway.md#status-alarms-events, docs/ocpp16.md#chargeops--charger, decisions §2). The fleet writes them and
// the dashboards (internal/stats) count them; both name them from here, never as literals.
package devstate

import "unicode/utf8"

// Protocols a charger connects with (device_state.protocol: the WebSocket sub-protocol the
// gateway took; docs/gateway.md, "Admission"), or mqtt for a storage unit behind a site agent
// (docs/mqtt.md).
const (
	ProtocolOCPP16  = "ocpp1.6"
	ProtocolOCPP201 = "ocpp2.0.1"
	ProtocolMQTT    = "mqtt"
)

// Device keys are 16 to 40 characters (the OCPP security whitepaper; docs/gateway.md, "Key
// guesses"), however they are set: ChangeConfiguration AuthorizationKey (fleet) or the
// register (device.SetKey).
const (
	AuthKeyMin = 16
	AuthKeyMax = 40
)

// ValidAuthKey reports whether key has an allowed length.
func ValidAuthKey(key string) bool {
	n := utf8.RuneCountInString(key)
	return n >= AuthKeyMin && n <= AuthKeyMax
}

// Protocols are the values the device list's protocol filter takes.
var Protocols = []string{ProtocolOCPP16, ProtocolOCPP201, ProtocolMQTT}

// Device status (device.status).
const (
	StatusOffline  = 0
	StatusIdle     = 1
	StatusWorking  = 2
	StatusFaulted  = 3
	StatusMaintain = 4
	StatusFirmware = 5
	StatusDisabled = 6
)

// Alarm status of a device (device.alarm_status): none, an alarm open, a fault open.
const (
	AlarmNone  = 0
	AlarmAlarm = 1
	AlarmFault = 2
)

// Event kinds (device_event.kind; docs/gateway.md#status-alarms-events fault types) and levels (OA/MA/CA).
const (
	KindOffline     = 0
	KindAlarm       = 1
	KindFault       = 2
	KindUnavailable = 3

	LevelOA = 0
	LevelMA = 1
	LevelCA = 2
)

// Security profiles (device.security_profile; docs/security-profiles.md): the least a
// device's connections must prove. The gateway checks and raises them, an operator sets them.
const (
	ProfileNone        = 0 // its SN alone (only with --require-device-keys=false)
	ProfileKey         = 1 // its key over plain ws
	ProfileKeyTLS      = 2 // its key over TLS
	ProfileCertificate = 3 // a client certificate over TLS
)

// Event states (device_event.status).
const (
	EventOpen  = 0
	EventEnded = 1
)

// Connector states (device_connector.state): what the status rule reads of a connector. An
// adapter sets one with each status it reports (ocpp16.StatusReport maps OCPP 1.6's names);
// the status name itself is stored beside it as the charger sent it, for the console.
const (
	ConnectorIdle        = 0 // free (OCPP 1.6 Available); also a name the adapter does not know
	ConnectorWorking     = 1 // taken: preparing, charging, suspended, finishing or reserved
	ConnectorFaulted     = 2
	ConnectorUnavailable = 3 // out of service (an Unavailable event while it lasts)
)

// The core's own words for a connector it marks itself (a charger restarting after a console
// Reset, docs/gateway.md "Commands"): the status and error code stored and shown until the
// charger reports the connector again. They read as OCPP 1.6's, so the console shows one
// vocabulary, but they are the core's: no adapter's name is decided on.
const (
	ConnectorUnavailableName = "Unavailable"
	ConnectorNoErrorName     = "NoError"
)

// Command results (command.result).
const (
	ResultWaiting = 1
	ResultSuccess = 2
	ResultFailed  = 3
	ResultTimeout = 4
	ResultOffline = 5
)

// Control types that restart a charger (command.control_type; docs/ocpp16.md#chargeops--charger).
const (
	CtlSoftReset = 1
	CtlHardReset = 2
)

// MaxClockAheadMS is how far ahead of the server's clock a stored time may be: a charger's
// timestamp further ahead is replaced by the server's time (decisions, "Charging sessions and
// energy"), so figures have no rows past now + MaxClockAheadMS.
const MaxClockAheadMS = 10 * 60 * 1000
