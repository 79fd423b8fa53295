package fleet

import (
	"context"
	"crypto/x509"
	"time"

	"chargeops/internal/fleet/ingest"
)

// Core is the one interface a protocol adapter calls: what it reports of its chargers goes in
// through Core, and the commands for them come back out through the Link it registers
// (registry.go). internal/gateway/ocpp16 holds nothing but a Core; the OCPP 2.0.1, MQTT (a
// site agent's storage) and agent adapters of later issues plug in the same way
// (docs/architecture.md, "The fleet core and its adapters").
//
// An adapter's part, in the order a connection lives:
//
//  1. Admission: find the device (DeviceBySN), refuse a blacklisted one (Blacklisted), check
//     its key with the back-off shared by the nodes (CheckAuthKey, KeyBlocked, KeyFailed,
//     KeyAccepted), record what it refused (RecordRefusal) or what is not yet registered
//     (RecordPending).
//  2. Connection: Register a Link for the device (the newest admission wins: close the loser
//     it returns), then Connected; Seen as frames arrive; Unregister and Disconnected at the
//     end (Disconnected only when Unregister says the link was still the device's).
//  3. Reports: every frame in or out goes to Log; the charger's own messages become the neutral
//     reports below (Booted, ConnectorStatus, Meter, StartTransaction, StopTransaction, ...).
//     Each returns once the report is committed (the ingest pipeline, pipeline.go): answer the
//     charger only then, so nothing it saw acknowledged is lost.
//  4. Commands: the core calls the Link's Execute with a Command (control type, params); the
//     adapter turns it into its protocol's message and the answer into an Outcome. The results
//     of steps that arrive later (firmware, diagnostics) are reports again.
//
// The adapter owns its protocol's words: status and error names, answer codes, action names.
// It maps them to and from the core's values (devstate, the Ctl* control types, Result*,
// Kind*, Level*); the strings the core stores for a connector (its status, error and vendor
// codes) are the adapter's, kept and shown as given.
type Core interface {
	Admission
	Connections
	Reports
	// Log queues a protocol-log row (a frame in or out, an open or a close) on the ingest
	// pipeline; it does not wait for the commit.
	Log(r LogRow)
	// HeartbeatInterval is the interval the adapter hands its chargers.
	HeartbeatInterval() time.Duration
}

// Admission is who may connect (docs/gateway.md, "Admission").
type Admission interface {
	DeviceBySN(ctx context.Context, sn string) (*Device, error)
	Blacklisted(ctx context.Context, sn string) (bool, error)
	CheckAuthKey(sn, key, stored string) bool
	KeyBlocked(ctx context.Context, a KeyAttempt) (KeyCheck, error)
	KeyFailed(ctx context.Context, a KeyAttempt) (time.Duration, error)
	KeyAccepted(ctx context.Context, sn string) error
	RecordRefusal(ctx context.Context, a Attempt, reason string)
	RecordPending(ctx context.Context, a Attempt, b BootInfo)
	RaiseSecurityProfile(ctx context.Context, id int64, profile int) (bool, error)
}

// Connections are a device's live connection on this node and its link for commands.
type Connections interface {
	// Register makes l the device's link (commands go to it) and returns the link that lost,
	// which the adapter closes (nil when there was none).
	Register(sn string, l Link) (loser Link)
	// Unregister removes l if it is still the device's link; false: it was replaced.
	Unregister(sn string, l Link) bool
	Connected(ctx context.Context, dev *Device, connID, addr, protocol string) error
	Seen(dev *Device, connID string)
	Disconnected(ctx context.Context, dev *Device, connID string)
}

// Reports are what a charger says of itself, in the core's terms.
type Reports interface {
	Booted(ctx context.Context, dev *Device, b BootInfo) error
	ConnectorStatus(ctx context.Context, r ConnectorReport) error
	// SecurityEvent records a charger's security event; a critical one opens an alarm
	// (security_events.go).
	SecurityEvent(ctx context.Context, r SecurityEventReport) error
	// ComponentEvent records a component's event (OCPP 2.0.1 NotifyEvent): a problem opens an
	// alarm its cleared event ends (component_events.go).
	ComponentEvent(ctx context.Context, r ComponentEventReport) error
	// ComponentEvents records several events of one device in one commit (a storage unit's
	// alarm report, docs/mqtt.md).
	ComponentEvents(ctx context.Context, rs []ComponentEventReport) error
	Meter(ctx context.Context, m MeterReport) error
	Authorize(ctx context.Context, dev *Device, idTag string) (TokenAnswer, error)
	StartTransaction(ctx context.Context, t TransactionStart) (int64, error)
	StopTransaction(ctx context.Context, t TransactionStop) error
	// NamedTransaction and ChargerTransactionID map a charger's own transaction names (OCPP
	// 2.0.1 transactionId) to chargeops' session ids and back.
	NamedTransaction(ctx context.Context, deviceID int64, chargerTxID string) (int64, error)
	ChargerTransactionID(ctx context.Context, deviceID, id int64) (string, error)
	// SessionStatus notes the verdict a session's start was answered with (status: in the
	// adapter's words), without waiting for the commit.
	SessionStatus(dev *Device, id int64, verdict TokenVerdict, status string)
	UseReservation(ctx context.Context, dev *Device, reservationID *int, txID int64)
	// ReservationEnded: the charger ended a reservation without a session (expired or removed).
	ReservationEnded(ctx context.Context, dev *Device, reservationID int, expired bool) error
	FirmwareAccepted(ctx context.Context, dev *Device, commandID int64) error
	FirmwareStatus(ctx context.Context, r FirmwareReport) error
	DiagnosticsStatus(ctx context.Context, r DiagnosticsReport) error
	FirmwareURL(base string, fileID int64) string
	// FirmwareSigning is a firmware file's signing certificate and signature (signedfirmware.go).
	FirmwareSigning(ctx context.Context, fileID int64) (FirmwareSigning, error)
	DiagnosticsURL(base string, deviceID, commandID int64) string
	OpenDiagnosticsJob(ctx context.Context, deviceID, commandID int64) error
	EndDiagnosticsJob(ctx context.Context, deviceID, commandID int64)
	StoreConfig(ctx context.Context, deviceID int64, items []ConfigValue) error
	SetConfigValue(ctx context.Context, dev *Device, key, value string) error
	// CertificateIssued and CertificateAnswered record a client certificate the charge-point
	// CA signed for a charger and what the charger answered (certificates.go).
	CertificateIssued(ctx context.Context, dev *Device, leaf *x509.Certificate) (int64, error)
	CertificateAnswered(ctx context.Context, id int64, state int) error
	// InstalledCertificatesRead, CertificateInstalled and CertificateRemoved keep the roots a
	// charger holds as its answers to control types 22-24 say (certificates_installed.go).
	InstalledCertificatesRead(ctx context.Context, deviceID int64, certType string, list []CertificateHash) error
	CertificateInstalled(ctx context.Context, deviceID int64, certType, pemText string) error
	CertificateRemoved(ctx context.Context, deviceID int64, h CertificateHash) error
}

var _ Core = (*Service)(nil)

// Log queues a protocol-log row on the ingest pipeline.
func (s *Service) Log(r LogRow) { s.Ingest.Write(r) }

// HeartbeatInterval is the interval adapters hand their chargers.
func (s *Service) HeartbeatInterval() time.Duration { return s.opt.HeartbeatInterval }

// Register makes l the device's link in the registry and returns the loser to close.
func (s *Service) Register(sn string, l Link) Link { return s.Registry.Register(sn, l) }

// Unregister removes l from the registry if it is still the device's link.
func (s *Service) Unregister(sn string, l Link) bool { return s.Registry.Unregister(sn, l) }

// LogRow is one protocol-log row an adapter hands to Log (the ingest pipeline's row: kept with
// its credentials masked and cut to ingest.MaxLogData).
type LogRow = ingest.LogRow
