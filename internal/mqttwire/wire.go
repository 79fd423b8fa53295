// Package mqttwire is the MQTT topic and payload scheme of chargeops, version 1
// (docs/mqtt.md): what a device or a site agent publishes and subscribes, and what each
// payload holds. The MQTT adapter (internal/gateway/mqtt) and the edge agent (internal/agent)
// both speak it from here; it imports the storage model and the device register's SN rule.
package mqttwire

import (
	"encoding/json"
	"strings"

	"chargeops/internal/device"
	"chargeops/internal/ess"
)

// Prefix is every topic's first two levels: chargeops/v1/{sn}/...
const Prefix = "chargeops/v1/"

// The last levels of a device's topics.
const (
	KindStatus    = "status"    // device → chargeops, retained: birth (online) and last will (offline)
	KindTelemetry = "telemetry" // device → chargeops, QoS 1: readings, batched after an outage
	KindAlarms    = "alarms"    // device → chargeops, QoS 1: alarms raised and cleared
	KindAck       = "ack"       // chargeops → device, QoS 1: telemetry and alarms stored
	KindCmd       = "cmd"       // chargeops → device, QoS 1: a command request
	KindCmdRes    = "cmd/res"   // device → chargeops, QoS 1: a command's answer (cmd/res/{node})
)

// Topic is a device's topic of a kind: chargeops/v1/{sn}/{kind}.
func Topic(sn, kind string) string { return Prefix + sn + "/" + kind }

// ReplyTopic is where a device answers a command of node: chargeops/v1/{sn}/cmd/res/{node}.
func ReplyTopic(sn, node string) string { return Prefix + sn + "/" + KindCmdRes + "/" + node }

// Parse splits a topic into its device and kind (for a command answer, kind is KindCmdRes and
// node the node it answers); ok is false for a topic outside the scheme.
func Parse(topic string) (sn, kind, node string, ok bool) {
	rest, found := strings.CutPrefix(topic, Prefix)
	if !found {
		return "", "", "", false
	}
	sn, kind, found = strings.Cut(rest, "/")
	if !found || !device.ValidSN(sn) {
		return "", "", "", false
	}
	switch kind {
	case KindStatus, KindTelemetry, KindAlarms, KindAck, KindCmd:
		return sn, kind, "", true
	}
	if n, isRes := strings.CutPrefix(kind, KindCmdRes+"/"); isRes && n != "" && !strings.Contains(n, "/") {
		return sn, KindCmdRes, n, true
	}
	return "", "", "", false
}

// MayPublish reports whether the device sn may publish to topic: its own status, telemetry,
// alarms and command answers, nothing else (docs/mqtt.md, "Credentials and ACL").
func MayPublish(sn, topic string) bool {
	s, kind, _, ok := Parse(topic)
	if !ok || s != sn {
		return false
	}
	return kind == KindStatus || kind == KindTelemetry || kind == KindAlarms || kind == KindCmdRes
}

// MaySubscribe reports whether the device sn may subscribe to filter: its own commands and
// acknowledgements, exactly (no wildcards).
func MaySubscribe(sn, filter string) bool {
	return filter == Topic(sn, KindCmd) || filter == Topic(sn, KindAck)
}

// Status is the retained payload of {sn}/status: online with the device's attributes when it
// connects (birth), {"online":false} as its last will.
type Status struct {
	Online     bool        `json:"online"`
	TS         int64       `json:"ts,omitempty"` // unix ms
	Attributes *Attributes `json:"attributes,omitempty"`
}

// Attributes describe the device; sent with the birth.
type Attributes struct {
	Vendor       string  `json:"vendor"`
	Model        string  `json:"model"`
	SerialNumber string  `json:"serialNumber,omitempty"`
	Firmware     string  `json:"firmware,omitempty"`
	Agent        string  `json:"agent,omitempty"`      // the agent's name and version
	CapacityWh   float64 `json:"capacityWh,omitempty"` // usable capacity
	RatedPowerW  float64 `json:"ratedPowerW,omitempty"`
}

// Telemetry is the payload of {sn}/telemetry: one or more readings under one id the ack names.
// After an outage an agent sends what it buffered, in order, up to MaxReadings a message.
type Telemetry struct {
	ID       string    `json:"id"`
	Readings []Reading `json:"readings"`
}

// MaxReadings is the most readings one telemetry message may carry.
const MaxReadings = 500

// Reading is the values of one moment: name (ess.Points) → a number or a string.
type Reading struct {
	TS     int64                      `json:"ts"` // unix ms
	Values map[string]json.RawMessage `json:"values"`
}

// AlarmReport is the payload of {sn}/alarms: alarms raised or cleared. Full: the list is every
// alarm active now, so chargeops ends the unit's others (sent after each birth).
type AlarmReport struct {
	ID     string  `json:"id"`
	TS     int64   `json:"ts"`
	Full   bool    `json:"full,omitempty"`
	Alarms []Alarm `json:"alarms"`
}

// Alarm is one alarm code (ess.Alarms) raised (Active) or cleared.
type Alarm struct {
	Code   string `json:"code"`
	Active bool   `json:"active"`
	Info   string `json:"info,omitempty"`
}

// Ack is the payload of {sn}/ack: the message with this id is stored (OK), or refused with the
// reason (then nothing of it was stored, and sending it again will not help).
type Ack struct {
	ID    string `json:"id"`
	OK    bool   `json:"ok"`
	Error string `json:"error,omitempty"`
}

// Command is the payload of {sn}/cmd: a command the device answers on ReplyTo.
type Command struct {
	ID      string     `json:"id"`
	Name    string     `json:"name"` // ess.Cmd*
	Params  ess.Params `json:"params"`
	ReplyTo string     `json:"replyTo"`
	Expires int64      `json:"expires"` // unix ms: an answer after this is not read
}

// CommandResult is the payload of a command's answer.
type CommandResult struct {
	ID      string                     `json:"id"`
	Status  string                     `json:"status"` // ess.Status*
	Message string                     `json:"message,omitempty"`
	Items   []ess.Item                 `json:"items,omitempty"`  // getConfig, setConfig
	Values  map[string]json.RawMessage `json:"values,omitempty"` // read-back values after a write
}
