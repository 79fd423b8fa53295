// Package ocpp201 is the OCPP 2.0.1 adapter of the device core (docs/ocpp201.md): the
// charger-initiated messages of a 2.0.1 charging station turned into the core's reports
// (fleet.Core), and the control types mapped to 2.0.1 calls. It runs on the shared OCPP-J
// connection runtime (internal/gateway/ocpp16's Gateway: WebSocket framing, admission, security
// profiles 1-3, calls) as a Dialect (internal/gateway/ocppj): a charger that negotiates the
// sub-protocol ocpp2.0.1 is admitted and framed exactly as a 1.6 one, and its messages come here.
//
// The core's connector of a 2.0.1 charger is its EVSE: sessions, meter values, events and the
// device_connector row are the EVSE's; the EVSE's connectors (plugs) keep their own status
// beside it (fleet.ConnectorReport.Plug).
package ocpp201

import (
	"context"
	"crypto/x509"
	"encoding/json"
	"sync"
	"time"

	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/authorization"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/availability"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/data"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/diagnostics"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/firmware"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/meter"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/provisioning"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/remotecontrol"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/reservation"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/security"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/smartcharging"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/transactions"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/types"

	"chargeops/internal/devstate"
	"chargeops/internal/fleet"
	"chargeops/internal/gateway/ocppj"
)

// SubProtocol is the WebSocket sub-protocol of OCPP 2.0.1.
const SubProtocol = devstate.ProtocolOCPP201

// CertSigner signs a charger's CSR (internal/cpca's CA; the same as the 1.6 adapter's).
type CertSigner interface {
	Sign(csrPEM, sn string) (chain string, leaf *x509.Certificate, err error)
}

// Options of the dialect.
type Options struct {
	Signer     CertSigner       // signs chargers' CSRs (SignCertificate); nil: they are rejected
	LocalLists fleet.LocalLists // builds local authorization lists; nil: control types 19, 20 fail
}

// Dialect is OCPP 2.0.1 over the shared connection runtime.
type Dialect struct {
	core     fleet.Core
	opt      Options
	stations sync.Map // connection id → *station
}

// New builds the dialect over the device core.
func New(f fleet.Core, opt Options) *Dialect { return &Dialect{core: f, opt: opt} }

var _ ocppj.Dialect = (*Dialect)(nil)

// SubProtocol is ocpp2.0.1.
func (d *Dialect) SubProtocol() string { return SubProtocol }

// ErrorCode spells a CALLERROR code as OCPP-J 2.0.1 does.
func (d *Dialect) ErrorCode(code string) string {
	switch code {
	case ocppj.CodeFormation:
		return "FormatViolation"
	case ocppj.CodeOccurence:
		return "OccurrenceConstraintViolation"
	}
	return code
}

// AskBoot asks an adopted charger for a BootNotification (TriggerMessage).
func (d *Dialect) AskBoot(ctx context.Context, s ocppj.Session) error {
	_, err := s.Call(ctx, remotetrigger, remotecontrol.NewTriggerMessageRequest(remotecontrol.MessageTriggerBootNotification))
	return err
}

const remotetrigger = remotecontrol.TriggerMessageFeatureName

// station is what the dialect keeps of one connection between its messages: each EVSE's
// connector statuses and charging state (the EVSE's status is made of both), and the sessions
// it names. Only the connection's reading goroutine touches it.
type station struct {
	evses map[int]*evse
	txs   map[string]*txState // by the charger's transactionId
}

type evse struct {
	plugs    map[int]availability.ConnectorStatus
	charging transactions.ChargingState // of the running transaction ("" none)
	reported string                     // the EVSE status last reported to the core
	at       int64                      // the charger's time of the latest report (reportEVSE)
}

// txState is a running transaction as the connection knows it.
type txState struct {
	id     int64 // chargeops' session id
	evse   int
	seq    int  // the highest seqNo applied
	tagged bool // its token is stored
}

// station is the state of s's connection, made at its first message and dropped at its end
// (Closed).
func (d *Dialect) station(s ocppj.Session) *station {
	if st, ok := d.stations.Load(s.ConnID()); ok {
		return st.(*station)
	}
	st := &station{evses: map[int]*evse{}, txs: map[string]*txState{}}
	d.stations.Store(s.ConnID(), st)
	return st
}

// Closed drops what the dialect kept of s.
func (d *Dialect) Closed(s ocppj.Session) { d.stations.Delete(s.ConnID()) }

func (st *station) evse(id int) *evse {
	e := st.evses[id]
	if e == nil {
		e = &evse{plugs: map[int]availability.ConnectorStatus{}}
		st.evses[id] = e
	}
	return e
}

func now() *types.DateTime { return types.NewDateTime(time.Now().UTC()) }

// ms is a charger's timestamp in unix ms (0: missing, the core gives it the server's time).
func ms(dt *types.DateTime) int64 {
	if dt == nil || dt.IsZero() {
		return 0
	}
	return dt.UnixMilli()
}

// Handle answers a charger-initiated 2.0.1 message once what it reports is committed.
func (d *Dialect) Handle(ctx context.Context, s ocppj.Session, action string, raw json.RawMessage) (any, error) {
	f := d.core
	interval := int(f.HeartbeatInterval().Seconds())
	dev := s.Device()
	if dev == nil {
		// An unknown SN admitted as Pending may only boot and beat until an admin adds it.
		switch action {
		case provisioning.BootNotificationFeatureName:
			var req provisioning.BootNotificationRequest
			if err := ocppj.Decode(raw, &req); err != nil {
				return nil, err
			}
			f.RecordPending(ctx, fleet.Attempt{SN: s.SN(), Addr: s.Addr(), Protocol: SubProtocol}, bootInfo(&req))
			return provisioning.NewBootNotificationResponse(now(), interval, provisioning.RegistrationStatusPending), nil
		case availability.HeartbeatFeatureName:
			return availability.NewHeartbeatResponse(*now()), nil
		}
		return nil, ocppj.Errorf(ocppj.CodeSecurity, "the charging station is not accepted yet")
	}
	switch action {
	case provisioning.BootNotificationFeatureName:
		var req provisioning.BootNotificationRequest
		if err := ocppj.Decode(raw, &req); err != nil {
			return nil, err
		}
		if err := f.Booted(ctx, dev, bootInfo(&req)); err != nil {
			return nil, err
		}
		return provisioning.NewBootNotificationResponse(now(), interval, provisioning.RegistrationStatusAccepted), nil
	case availability.HeartbeatFeatureName:
		return availability.NewHeartbeatResponse(*now()), nil
	case availability.StatusNotificationFeatureName:
		var req availability.StatusNotificationRequest
		if err := ocppj.Decode(raw, &req); err != nil {
			return nil, err
		}
		if err := d.connectorStatus(ctx, s, dev, &req); err != nil {
			return nil, err
		}
		return availability.NewStatusNotificationResponse(), nil
	case transactions.TransactionEventFeatureName:
		if err := s.BoundMeter(raw); err != nil {
			return nil, err
		}
		var req transactions.TransactionEventRequest
		if err := ocppj.Decode(raw, &req); err != nil {
			return nil, err
		}
		return d.transactionEvent(ctx, s, dev, &req) // transactions.go
	case meter.MeterValuesFeatureName:
		if err := s.BoundMeter(raw); err != nil {
			return nil, err
		}
		var req meter.MeterValuesRequest
		if err := ocppj.Decode(raw, &req); err != nil {
			return nil, err
		}
		if err := f.Meter(ctx, fleet.MeterReport{Device: dev, Connector: req.EvseID, Samples: samples(req.MeterValue)}); err != nil {
			return nil, err
		}
		return meter.NewMeterValuesResponse(), nil
	case authorization.AuthorizeFeatureName:
		var req authorization.AuthorizeRequest
		if err := ocppj.Decode(raw, &req); err != nil {
			return nil, err
		}
		info, err := d.authorize(ctx, dev, req.IdToken)
		if err != nil {
			return nil, err
		}
		return authorization.NewAuthorizationResponse(*info), nil
	case diagnostics.NotifyEventFeatureName:
		var req diagnostics.NotifyEventRequest
		if err := ocppj.Decode(raw, &req); err != nil {
			return nil, err
		}
		if err := d.notifyEvent(ctx, dev, &req); err != nil { // reports.go
			return nil, err
		}
		return diagnostics.NewNotifyEventResponse(), nil
	case provisioning.NotifyReportFeatureName:
		var req provisioning.NotifyReportRequest
		if err := ocppj.Decode(raw, &req); err != nil {
			return nil, err
		}
		if err := f.StoreConfig(ctx, dev.ID, reportValues(req.ReportData)); err != nil {
			return nil, err
		}
		return provisioning.NewNotifyReportResponse(), nil
	case security.SecurityEventNotificationFeatureName:
		var req security.SecurityEventNotificationRequest
		if err := ocppj.Decode(raw, &req); err != nil {
			return nil, err
		}
		r := fleet.SecurityEventReport{Device: dev, Type: req.Type, TechInfo: req.TechInfo, Critical: SecurityEventCritical(req.Type),
			ExplainedBy: securityEventExplainedBy[req.Type], At: ms(req.Timestamp)}
		if err := f.SecurityEvent(ctx, r); err != nil {
			return nil, err
		}
		return security.NewSecurityEventNotificationResponse(), nil
	case security.SignCertificateFeatureName:
		return d.signCertificate(s, dev, raw) // certificates.go
	case firmware.FirmwareStatusNotificationFeatureName:
		var req firmware.FirmwareStatusNotificationRequest
		if err := ocppj.Decode(raw, &req); err != nil {
			return nil, err
		}
		if err := f.FirmwareStatus(ctx, fleet.FirmwareReport{Device: dev, Status: string(req.Status), Phase: firmwarePhase(req.Status)}); err != nil {
			return nil, err
		}
		return firmware.NewFirmwareStatusNotificationResponse(), nil
	case diagnostics.LogStatusNotificationFeatureName:
		var req diagnostics.LogStatusNotificationRequest
		if err := ocppj.Decode(raw, &req); err != nil {
			return nil, err
		}
		if err := f.DiagnosticsStatus(ctx, logReport(dev, &req)); err != nil {
			return nil, err
		}
		return diagnostics.NewLogStatusNotificationResponse(), nil
	case data.DataTransferFeatureName:
		var req data.DataTransferRequest
		if err := ocppj.Decode(raw, &req); err != nil {
			return nil, err
		}
		// chargeops defines no vendor messages a charger may send
		return data.NewDataTransferResponse(data.DataTransferStatusUnknownVendorId), nil
	case smartcharging.NotifyChargingLimitFeatureName:
		var req smartcharging.NotifyChargingLimitRequest
		if err := ocppj.Decode(raw, &req); err != nil {
			return nil, err
		}
		if err := d.chargingLimit(ctx, dev, &req); err != nil { // reports.go
			return nil, err
		}
		return smartcharging.NewNotifyChargingLimitResponse(), nil
	case reservation.ReservationStatusUpdateFeatureName:
		var req reservation.ReservationStatusUpdateRequest
		if err := ocppj.Decode(raw, &req); err != nil {
			return nil, err
		}
		if err := d.reservationStatus(ctx, dev, &req); err != nil { // reports.go
			return nil, err
		}
		return reservation.NewReservationStatusUpdateResponse(), nil
	}
	return nil, ocppj.Errorf(ocppj.CodeNotImplemented, "action %s is not supported", action)
}

func bootInfo(r *provisioning.BootNotificationRequest) fleet.BootInfo {
	cs := r.ChargingStation
	b := fleet.BootInfo{Vendor: cs.VendorName, Model: cs.Model, SerialNumber: cs.SerialNumber, FirmwareVersion: cs.FirmwareVersion}
	if cs.Modem != nil {
		b.ICCID, b.IMSI = cs.Modem.Iccid, cs.Modem.Imsi
	}
	return b
}

// authorize answers an idToken: tokens the charger checks without chargeops (NoAuthorization,
// Central: a session chargeops started) are accepted; the others go to the core's token
// authority as the 1.6 adapter's idTags do.
func (d *Dialect) authorize(ctx context.Context, dev *fleet.Device, tok types.IdToken) (*types.IdTokenInfo, error) {
	if tok.Type == types.IdTokenTypeNoAuthorization || tok.Type == types.IdTokenTypeCentral || tok.IdToken == "" {
		return types.NewIdTokenInfo(types.AuthorizationStatusAccepted), nil
	}
	ans, err := d.core.Authorize(ctx, dev, tok.IdToken)
	if err != nil {
		return nil, err
	}
	return idTokenInfo(&ans), nil
}

// idTokenInfo is a token answer in 2.0.1's terms (nil stays nil: a removal from a local list).
func idTokenInfo(a *fleet.TokenAnswer) *types.IdTokenInfo {
	if a == nil {
		return nil
	}
	info := types.NewIdTokenInfo(authStatus(a.Status))
	if a.ExpiryDate > 0 {
		info.CacheExpiryDateTime = types.NewDateTime(time.UnixMilli(a.ExpiryDate).UTC())
	}
	if a.ParentIDTag != "" {
		info.GroupIdToken = &types.GroupIdToken{IdToken: a.ParentIDTag, Type: types.IdTokenTypeCentral}
	}
	return info
}
