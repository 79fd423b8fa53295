// Package fleet is the protocol-independent device core: device status (decisions §2),
// alarms/faults/events, runtime values and series, command records, protocol logs, files and
// the registry of live connections. Protocol adapters (internal/gateway/ocpp16, later MQTT or
// OCPP 2.0.1) feed it events and execute its commands through the Link interface.
package fleet

import "chargeops/internal/devstate"

// Device status in the API (decisions §2), alarm status, event kinds and levels, command
// results: the stored values of package code, named here for the fleet's callers.
const (
	StatusOffline  = devstate.StatusOffline
	StatusIdle     = devstate.StatusIdle
	StatusWorking  = devstate.StatusWorking
	StatusFaulted  = devstate.StatusFaulted
	StatusMaintain = devstate.StatusMaintain
	StatusFirmware = devstate.StatusFirmware
	StatusDisabled = devstate.StatusDisabled

	AlarmNone  = devstate.AlarmNone
	AlarmAlarm = devstate.AlarmAlarm
	AlarmFault = devstate.AlarmFault

	KindOffline     = devstate.KindOffline
	KindAlarm       = devstate.KindAlarm
	KindFault       = devstate.KindFault
	KindUnavailable = devstate.KindUnavailable

	ProfileNone        = devstate.ProfileNone
	ProfileKey         = devstate.ProfileKey
	ProfileKeyTLS      = devstate.ProfileKeyTLS
	ProfileCertificate = devstate.ProfileCertificate

	LevelOA = devstate.LevelOA
	LevelMA = devstate.LevelMA
	LevelCA = devstate.LevelCA

	ResultWaiting = devstate.ResultWaiting
	ResultSuccess = devstate.ResultSuccess
	ResultFailed  = devstate.ResultFailed
	ResultTimeout = devstate.ResultTimeout
	ResultOffline = devstate.ResultOffline

	ConnectorIdle        = devstate.ConnectorIdle
	ConnectorWorking     = devstate.ConnectorWorking
	ConnectorFaulted     = devstate.ConnectorFaulted
	ConnectorUnavailable = devstate.ConnectorUnavailable
)

// Protocol-log communication types (docs/gateway.md#protocol-logs-and-backpressure).
const (
	LogOpen     = 0
	LogClose    = 1
	LogReceived = 2
	LogSent     = 3
)

// StatusInput is what the status rule looks at.
type StatusInput struct {
	Enabled     bool
	Online      bool
	FirmwareJob bool
	Maintain    bool
	Connectors  []int // the connectors' states (Connector*)
}

// ComputeStatus applies the rule of decisions §2, highest first: Disabled > Offline >
// Firmware Update > Maintain > Faulted > Working > Idle.
func ComputeStatus(in StatusInput) int {
	switch {
	case !in.Enabled:
		return StatusDisabled
	case !in.Online:
		return StatusOffline
	case in.FirmwareJob:
		return StatusFirmware
	case in.Maintain:
		return StatusMaintain
	}
	working := false
	for _, c := range in.Connectors {
		switch c {
		case ConnectorFaulted:
			return StatusFaulted
		case ConnectorWorking:
			working = true
		}
	}
	if working {
		return StatusWorking
	}
	return StatusIdle
}

// The codes (and names) of the events the core opens of its own accord.
const (
	EventOffline     = "Offline"
	EventUnavailable = "Unavailable"
)
