package fleet

import (
	"context"
	"encoding/json"
	"errors"
	"sync"

	"chargeops/internal/smartcharging"
)

// ErrLinkClosed is returned by a Link whose connection ended while a command was in flight.
var ErrLinkClosed = errors.New("connection closed")

// ErrClusterUnavailable is returned by a Link of a device this node does not hold when the
// other nodes cannot be asked (the cluster bus, NATS, is down): the device may well be online
// on another node, so it is neither offline nor a device failure (docs/gateway.md, "Scale-out").
var ErrClusterUnavailable = errors.New("cluster link unavailable")

// Unreachable is the Link a cluster registry's Lookup gives for a device held on no node it
// can see while the cluster bus is down: every use fails with ErrClusterUnavailable, and the
// command path answers "cluster link unavailable, try again" instead of "offline".
type Unreachable struct{ SN string }

func (Unreachable) Execute(context.Context, Command) (Outcome, error) {
	return Outcome{}, ErrClusterUnavailable
}
func (Unreachable) Close(string)                {}
func (Unreachable) ConnID() string              { return "" }
func (Unreachable) Adopt(context.Context) error { return ErrClusterUnavailable }

// Command is what a protocol adapter executes: a control type (docs/ocpp16.md#chargeops--charger) and its parameters.
type Command struct {
	ID          int64
	DeviceID    int64
	SN          string
	ControlType int
	Params      Params
}

// Params of a command. Which fields matter depends on the control type.
type Params struct {
	ConnectorID   int      `json:"connectorId,omitempty"`   // 4: connector N; 10: trigger for a connector
	Enable        bool     `json:"enable,omitempty"`        // 3, 4: true makes it Operative again
	FirmwareID    int64    `json:"firmwareId,omitempty"`    // 5: an uploaded firmware file
	Retries       int      `json:"retries,omitempty"`       // 5, 6, 25 (25: 0-100)
	Keys          []string `json:"keys,omitempty"`          // 9: keys to read (empty: all)
	Message       Trigger  `json:"message,omitempty"`       // 10: the message to trigger (Triggers; default TriggerMeterValues)
	Items         []KV     `json:"items,omitempty"`         // 11: key/value pairs to set
	VendorID      string   `json:"vendorId,omitempty"`      // 7, 8: DataTransfer vendor (default "chargeops")
	Link          string   `json:"link,omitempty"`          // 7, 8: "web" (default) or "ssh" (access.LinkWeb, access.LinkSSH)
	Data          string   `json:"data,omitempty"`          // 7, 8: DataTransfer data, written by the core from Link and the caller's role; 16: the engineer's data
	IDTag         string   `json:"idTag,omitempty"`         // 12, 17: the token to start or reserve with
	ParentIDTag   string   `json:"parentIdTag,omitempty"`   // 17
	TransactionID int64    `json:"transactionId,omitempty"` // 13: the session to stop (device_transaction.id)
	MessageID     string   `json:"messageId,omitempty"`     // 16: DataTransfer messageId
	ExpiryDate    int64    `json:"expiryDate,omitempty"`    // 17: when the reservation ends (unix ms)
	ReservationID int64    `json:"reservationId,omitempty"` // 17 (set by the core), 18: the reservation to cancel
	UpdateType    string   `json:"updateType,omitempty"`    // 19: Full or Differential
	// 22: CentralSystemRootCertificate or ManufacturerRootCertificate; 23: the same, to list
	CertificateType string `json:"certificateType,omitempty"`
	Certificate     string `json:"certificate,omitempty"` // 22: the certificate to install (PEM)
	// 24: the certificate to delete, as GetInstalledCertificateIds named it
	CertificateHash *CertificateHash `json:"certificateHashData,omitempty"`
	LogType         string           `json:"logType,omitempty"` // 25: DiagnosticsLog or SecurityLog
	// 26: the profile to set on params.connectorId (its Tx profile's transactionId is the
	// session's device_transaction.id)
	Profile *smartcharging.Profile `json:"profile,omitempty"`
	// 27: which profiles to clear
	Clear *smartcharging.ClearFilter `json:"clear,omitempty"`
	// 28: the composite schedule's length in seconds and unit (A, W; '': the charger's choice)
	Duration int    `json:"duration,omitempty"`
	RateUnit string `json:"rateUnit,omitempty"`
	// 29: the storage unit's power setpoint in W (+ discharge, - charge)
	PowerW *float64 `json:"powerW,omitempty"`
	// 30: the storage unit's operating mode (ess.Modes)
	Mode string `json:"mode,omitempty"`
	// Filled by the core for the adapter, not by the caller.
	Location string `json:"location,omitempty"` // 5: signed download URL; 6: upload URL
}

// CertificateHash names an installed certificate (OCPP CertificateHashDataType): the hashes of
// its issuer's name and key and its serial number, hex.
type CertificateHash struct {
	HashAlgorithm  string `json:"hashAlgorithm"` // SHA256, SHA384 or SHA512
	IssuerNameHash string `json:"issuerNameHash"`
	IssuerKeyHash  string `json:"issuerKeyHash"`
	SerialNumber   string `json:"serialNumber"`
}

// Trigger is a message a TriggerMessage command (control type 10) asks the charger to send:
// params.message of the API, whose values are the contract's; the adapter maps each to its
// protocol's (ocpp16: a MessageTrigger).
type Trigger string

// The messages a TriggerMessage may ask for.
const (
	TriggerBootNotification              Trigger = "BootNotification"
	TriggerDiagnosticsStatusNotification Trigger = "DiagnosticsStatusNotification"
	TriggerFirmwareStatusNotification    Trigger = "FirmwareStatusNotification"
	TriggerHeartbeat                     Trigger = "Heartbeat"
	TriggerMeterValues                   Trigger = "MeterValues"
	TriggerStatusNotification            Trigger = "StatusNotification"
	// LogStatusNotification: the state of a GetLog upload (control type 25); OCPP 1.6 asks for
	// it with the security extension's ExtendedTriggerMessage
	TriggerLogStatusNotification Trigger = "LogStatusNotification"
)

// Triggers are the values params.message accepts (empty: TriggerMeterValues).
var Triggers = []Trigger{TriggerBootNotification, TriggerDiagnosticsStatusNotification, TriggerFirmwareStatusNotification,
	TriggerHeartbeat, TriggerMeterValues, TriggerStatusNotification, TriggerLogStatusNotification}

// KV is one configuration key and value.
type KV struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// Outcome is the end of a command as the adapter saw it.
type Outcome struct {
	Result  int             // ResultSuccess or ResultFailed (timeouts and offline come from the core)
	Message string          // why it failed, or a note (an i18n key or the device's words)
	Answer  json.RawMessage // the device's answer, kept on the command record
}

// Link is one live connection of a device, as a protocol adapter offers it to the core.
type Link interface {
	// Execute runs a command and waits for the device's answer; it honours ctx's deadline.
	Execute(ctx context.Context, cmd Command) (Outcome, error)
	// Close ends the connection (replaced, device disabled or blacklisted).
	Close(reason string)
	// ConnID identifies this connection (unique across nodes).
	ConnID() string
}

// Registry finds the live connection of a device. The in-process registry serves one node; a
// cluster implementation (NATS: subject chargeops.dev.<SN>.cmd answered by the node that holds
// the socket, and chargeops.dev.<SN>.kick to close a replaced one) satisfies the same interface.
//
// The newest admission wins (docs/gateway.md, "Connections"): a connection replaces the
// device's connection only when it is not older (ConnID's admission order, Older); an older one
// is refused, and its caller closes it.
type Registry interface {
	// Register makes l the device's connection and returns the connection that lost, which the
	// caller closes: the one l replaces, or l itself when a newer one is registered (nil when
	// there was none).
	Register(sn string, l Link) (loser Link)
	// Unregister removes l if it is still the device's connection; false means it was
	// already replaced (a late close that must not mark the device offline).
	Unregister(sn string, l Link) bool
	// Lookup returns the device's connection, or false when no node holds one.
	Lookup(sn string) (Link, bool)
	// Count is the number of connections this node holds.
	Count() int
}

// LocalRegistry is the in-process Registry: a sharded map, so thousands of connects and
// disconnects at once contend on 64 short locks that never wrap I/O.
type LocalRegistry struct {
	shards [64]struct {
		mu sync.Mutex
		m  map[string]Link
	}
}

// NewLocalRegistry returns an empty registry.
func NewLocalRegistry() *LocalRegistry {
	r := &LocalRegistry{}
	for i := range r.shards {
		r.shards[i].m = map[string]Link{}
	}
	return r
}

func (r *LocalRegistry) shard(sn string) int {
	var h uint32 = 2166136261
	for i := 0; i < len(sn); i++ {
		h ^= uint32(sn[i])
		h *= 16777619
	}
	return int(h % uint32(len(r.shards)))
}

func (r *LocalRegistry) Register(sn string, l Link) Link {
	s := &r.shards[r.shard(sn)]
	s.mu.Lock()
	defer s.mu.Unlock()
	old := s.m[sn]
	switch {
	case old == l:
		return nil
	case old != nil && Older(l.ConnID(), old.ConnID()):
		return l
	}
	s.m[sn] = l
	return old
}

func (r *LocalRegistry) Unregister(sn string, l Link) bool {
	s := &r.shards[r.shard(sn)]
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m[sn] != l {
		return false
	}
	delete(s.m, sn)
	return true
}

func (r *LocalRegistry) Lookup(sn string) (Link, bool) {
	s := &r.shards[r.shard(sn)]
	s.mu.Lock()
	defer s.mu.Unlock()
	l, ok := s.m[sn]
	return l, ok
}

// Each calls f for every connection held (a snapshot: f may call back into the registry).
func (r *LocalRegistry) Each(f func(sn string, l Link)) {
	type held struct {
		sn string
		l  Link
	}
	for i := range r.shards {
		r.shards[i].mu.Lock()
		list := make([]held, 0, len(r.shards[i].m))
		for sn, l := range r.shards[i].m {
			list = append(list, held{sn, l})
		}
		r.shards[i].mu.Unlock()
		for _, h := range list {
			f(h.sn, h.l)
		}
	}
}

func (r *LocalRegistry) Count() int {
	n := 0
	for i := range r.shards {
		r.shards[i].mu.Lock()
		n += len(r.shards[i].m)
		r.shards[i].mu.Unlock()
	}
	return n
}
