package ess

// The commands a storage unit takes, by their wire names (docs/mqtt.md, "Commands"). The
// console sends them as control types (fleet.CtlStoragePower ...); the MQTT adapter turns each
// into one of these names with its parameters, and the agent into Modbus writes.
const (
	CmdSetPower   = "setPower"   // params: powerW (+ discharge, - charge); the unit switches to manual mode
	CmdSetMode    = "setMode"    // params: mode (Modes)
	CmdRun        = "run"        // params: enable (true start, false stop)
	CmdFaultReset = "faultReset" // no params
	CmdGetConfig  = "getConfig"  // params: keys (empty: all); answer: items [{key, value, readonly}]
	CmdSetConfig  = "setConfig"  // params: items [{key, value}]; answer: items with their read-back values
	CmdReboot     = "reboot"     // params: hard
)

// The command statuses a unit answers with.
const (
	StatusAccepted     = "Accepted"     // done (and read back where it writes)
	StatusRejected     = "Rejected"     // refused by the unit (out of range, wrong state)
	StatusFailed       = "Failed"       // tried and failed (the write did not read back)
	StatusNotSupported = "NotSupported" // the unit has no such command or key
)

// Params are a command's parameters on the wire (only the command's own fields are set).
type Params struct {
	PowerW *float64 `json:"powerW,omitempty"`
	Mode   string   `json:"mode,omitempty"`
	Enable *bool    `json:"enable,omitempty"`
	Keys   []string `json:"keys,omitempty"`
	Items  []Item   `json:"items,omitempty"`
	Hard   bool     `json:"hard,omitempty"`
}

// Item is one configuration item of a unit: a key, its value, and whether it can be written.
type Item struct {
	Key      string `json:"key"`
	Value    string `json:"value"`
	Readonly bool   `json:"readonly,omitempty"`
}
