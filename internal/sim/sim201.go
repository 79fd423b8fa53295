package sim

import (
	"context"
	crand "crypto/rand"
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/authorization"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/availability"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/diagnostics"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/firmware"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/meter"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/provisioning"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/transactions"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/types"
)

// An OCPP 2.0.1 charger (sub-protocol ocpp2.0.1) lives the 1.6 charger's life (sim.go,
// operations.go: the same timing, sessions, meter figures, faults and remote operations) and
// says it in 2.0.1's messages, built from ocpp-go's payload types:
//
//   - a connector is EVSE n with connector 1; a 1.6 status maps to a connectorStatus
//     (Preparing, Charging, Finishing: Occupied), reported when it changes; a fault also raises
//     the connector's Problem in a NotifyEvent, cleared when the fault ends;
//   - a session is a TransactionEvent Started (Authorized after the driver's Authorize, or
//     RemoteStart with the remoteStartId), Updated every meter interval and Ended;
//   - the configuration keys are variables of the device model (variables201), kept in the
//     charger's settings under the matching 1.6 key so both views agree;
//   - the firmware update and the log upload are the 1.6 ones, reported with their requestId.

// ocpp201 is the OCPP 2.0.1 side of a charger (charger.v201).
type ocpp201 struct {
	c *charger

	// Guarded by c.mu:
	bootReason      provisioning.BootReason // of the next BootNotification ("": PowerUp)
	firmwareRequest int                     // the requestId of the last UpdateFirmware
	logRequest      int                     // the requestId of the last GetLog
	events          int                     // NotifyEvent eventIds given out
	txNum           int                     // numbers given to transactions (connState.txID)
	// per connection (connected):
	connectors map[int]availability.ConnectorStatus // the status last reported, by EVSE
	tx         map[int]*transaction201              // the running transaction, by EVSE
	remote     map[string]remoteStart201            // accepted remote starts not yet started, by idToken
}

// transaction201 is a running transaction.
type transaction201 struct {
	id      string // transactionId
	num     int    // its connState.txID, which remoteStop knows it by
	seqNo   int    // of the last TransactionEvent sent
	idToken types.IdToken
}

// remoteStart201 is an accepted RequestStartTransaction: the session that remoteStart begins
// takes its transactionId, remoteStartId and idToken.
type remoteStart201 struct {
	transactionID string
	remoteStartID int
	idToken       types.IdToken
}

// measurands201 are the measurands of a periodic TransactionEvent (TxUpdatedMeasurands).
const measurands201 = "Energy.Active.Import.Register,Power.Active.Import,Current.Import,Voltage,SoC"

// newOCPP201 makes c a 2.0.1 charger: it adds the settings only 2.0.1 reports.
func newOCPP201(c *charger) *ocpp201 {
	profile := "0"
	if c.key != "" {
		profile = "1"
	}
	for k, v := range map[string]string{"MeterValuesSampledData": measurands201, "ItemsPerMessageGetVariables": "50",
		"ItemsPerMessageSetVariables": "50", "SecurityProfile": profile, "Model": c.p.Model} {
		c.config[k] = v
	}
	v := &ocpp201{c: c}
	v.connected()
	return v
}

// connected starts the state of a new connection: statuses are reported anew, transactions
// and pending remote starts ended with the last one. c.mu is held.
func (v *ocpp201) connected() {
	v.connectors = map[int]availability.ConnectorStatus{}
	v.tx = map[int]*transaction201{}
	v.remote = map[string]remoteStart201{}
}

// bootRequest is the BootNotification for reason.
func (v *ocpp201) bootRequest(reason provisioning.BootReason) *provisioning.BootNotificationRequest {
	v.c.mu.Lock()
	fw := v.c.firmware
	v.c.mu.Unlock()
	return &provisioning.BootNotificationRequest{Reason: reason, ChargingStation: provisioning.ChargingStationType{
		SerialNumber: clip(v.c.sn, 25), Model: clip(v.c.p.Model, 20), VendorName: clip(v.c.p.Vendor, 50), FirmwareVersion: clip(fw, 50)}}
}

// takeBootReason is why the charger boots: after a Reset or a firmware update once, else PowerUp.
func (v *ocpp201) takeBootReason() provisioning.BootReason {
	v.c.mu.Lock()
	defer v.c.mu.Unlock()
	r := v.bootReason
	v.bootReason = ""
	if r == "" {
		r = provisioning.BootReasonPowerUp
	}
	return r
}

// evses are the EVSEs conn designates: all of them for 0, none for one the charger lacks.
func (v *ocpp201) evses(conn int) []int {
	if conn > v.c.o.Connectors || conn < 0 {
		return nil
	}
	if conn > 0 {
		return []int{conn}
	}
	all := make([]int, v.c.o.Connectors)
	for i := range all {
		all[i] = i + 1
	}
	return all
}

// evse designates EVSE id's connector (each EVSE has one: connector 1).
func evse(id int) *types.EVSE {
	one := 1
	return &types.EVSE{ID: id, ConnectorID: &one}
}

// connectorStatus is the 2.0.1 status of a 1.6 one: a connector in a session (Preparing,
// Charging, Finishing) is Occupied.
func connectorStatus(status string) availability.ConnectorStatus {
	switch s := availability.ConnectorStatus(status); s {
	case availability.ConnectorStatusAvailable, availability.ConnectorStatusReserved, availability.ConnectorStatusUnavailable,
		availability.ConnectorStatusFaulted:
		return s
	}
	return availability.ConnectorStatusOccupied
}

// status reports conn's 1.6 status (connector 0: every EVSE) where the EVSE's status changes; a
// fault also raises the connector's Problem (errorCode as its techCode), clears it when it ends.
func (v *ocpp201) status(ctx context.Context, conn int, status, errorCode string) {
	st := connectorStatus(status)
	for _, id := range v.evses(conn) {
		v.c.mu.Lock()
		prev := v.connectors[id]
		v.connectors[id] = st
		v.c.mu.Unlock()
		if prev == st {
			continue
		}
		v.sendStatus(ctx, id, st)
		switch {
		case st == availability.ConnectorStatusFaulted:
			v.problem(ctx, id, true, errorCode)
		case prev == availability.ConnectorStatusFaulted:
			v.problem(ctx, id, false, "")
		}
	}
}

func (v *ocpp201) sendStatus(ctx context.Context, id int, st availability.ConnectorStatus) {
	_, _ = v.c.call(ctx, "StatusNotification", &availability.StatusNotificationRequest{Timestamp: types.Now(), ConnectorStatus: st,
		EvseID: id, ConnectorID: 1})
}

// problem raises or clears the Problem of EVSE id's connector: a hard-wired NotifyEvent.
func (v *ocpp201) problem(ctx context.Context, id int, raised bool, techCode string) {
	v.c.mu.Lock()
	v.events++
	eventID := v.events
	v.c.mu.Unlock()
	ev := diagnostics.EventData{EventID: eventID, Timestamp: types.Now(), Trigger: diagnostics.EventTriggerDelta,
		ActualValue: strconv.FormatBool(raised), TechCode: clip(techCode, 50), Cleared: !raised,
		EventNotificationType: diagnostics.EventHardWiredNotification,
		Component:             types.Component{Name: "Connector", EVSE: evse(id)}, Variable: types.Variable{Name: "Problem"}}
	_, _ = v.c.call(ctx, "NotifyEvent", &diagnostics.NotifyEventRequest{GeneratedAt: types.Now(), EventData: []diagnostics.EventData{ev}})
}

// card is the idToken of a driver's RFID card.
func card(tag string) types.IdToken {
	return types.IdToken{IdToken: clip(tag, 36), Type: types.IdTokenTypeISO14443}
}

func (v *ocpp201) authorizeRequest(tag string) *authorization.AuthorizeRequest {
	return &authorization.AuthorizeRequest{IdToken: card(tag)}
}

// sampledValue is one sampled value, rounded to 0.1 like the 1.6 sim's.
func sampledValue(m types.Measurand, value float64, unit string, rc types.ReadingContext) types.SampledValue {
	return types.SampledValue{Value: math.Round(value*10) / 10, Context: rc, Measurand: m, UnitOfMeasure: &types.UnitOfMeasure{Unit: unit}}
}

// meterValue is a meter value taken now.
func meterValue(values ...types.SampledValue) []types.MeterValue {
	return []types.MeterValue{{Timestamp: types.DateTime{Time: time.Now()}, SampledValue: values}}
}

// registerValue is conn's energy register in context rc (the start or end of a transaction).
func (v *ocpp201) registerValue(conn int, rc types.ReadingContext) []types.MeterValue {
	return meterValue(sampledValue(types.MeasurandEnergyActiveImportRegister, v.c.register(conn), "Wh", rc))
}

// started starts conn's transaction: a TransactionEvent Started, of a remote start when one
// waits for tag, else of the driver authorized with tag.
func (v *ocpp201) started(ctx context.Context, conn int, cs *connState, tag string, reservationID int) bool {
	tx := &transaction201{id: newTransactionID(), idToken: card(tag)}
	trigger := transactions.TriggerReasonAuthorized
	var remoteStartID *int
	v.c.mu.Lock()
	if r, ok := v.remote[tag]; ok {
		delete(v.remote, tag)
		tx.id, tx.idToken, trigger, remoteStartID = r.transactionID, r.idToken, transactions.TriggerReasonRemoteStart, &r.remoteStartID
	}
	v.txNum++
	tx.num, cs.txID = v.txNum, v.txNum
	v.tx[conn] = tx
	v.c.mu.Unlock()
	req := &transactions.TransactionEventRequest{EventType: transactions.TransactionEventStarted, Timestamp: types.Now(),
		TriggerReason: trigger, SequenceNo: 0, IDToken: &tx.idToken, Evse: evse(conn),
		TransactionInfo: transactions.Transaction{TransactionID: tx.id, ChargingState: transactions.ChargingStateEVConnected, RemoteStartID: remoteStartID},
		MeterValue:      v.registerValue(conn, types.ReadingContextTransactionBegin)}
	if reservationID > 0 {
		req.ReservationID = &reservationID
	}
	if _, err := v.c.call(ctx, "TransactionEvent", req); err != nil {
		v.c.mu.Lock()
		delete(v.tx, conn)
		v.c.mu.Unlock()
		return false
	}
	return true
}

// meter sends reading r of conn: in its transaction a periodic TransactionEvent Updated, else
// (a TriggerMessage's) MeterValues.
func (v *ocpp201) meter(ctx context.Context, conn int, inTransaction bool, r reading) {
	v.c.mu.Lock()
	tx := v.tx[conn]
	seqNo := 0
	if tx != nil && inTransaction {
		tx.seqNo++
		seqNo = tx.seqNo
	}
	v.c.mu.Unlock()
	if tx == nil || !inTransaction {
		_, _ = v.c.call(ctx, "MeterValues", &meter.MeterValuesRequest{EvseID: conn, MeterValue: meterValue(r.values(types.ReadingContextTrigger)...)})
		return
	}
	_, _ = v.c.call(ctx, "TransactionEvent", &transactions.TransactionEventRequest{EventType: transactions.TransactionEventUpdated,
		Timestamp: types.Now(), TriggerReason: transactions.TriggerReasonMeterValuePeriodic, SequenceNo: seqNo,
		TransactionInfo: transactions.Transaction{TransactionID: tx.id, ChargingState: transactions.ChargingStateCharging},
		MeterValue:      meterValue(r.values(types.ReadingContextSamplePeriodic)...)})
}

// values are the sampled values of a reading, as TxUpdatedMeasurands lists them.
func (r reading) values(rc types.ReadingContext) []types.SampledValue {
	return []types.SampledValue{
		sampledValue(types.MeasurandEnergyActiveImportRegister, r.energy, "Wh", rc),
		sampledValue(types.MeasurandPowerActiveImport, r.power, "W", rc),
		sampledValue(types.MeasurandCurrentImport, r.current, "A", rc),
		sampledValue(types.MeasurandVoltage, r.voltage, "V", rc),
		sampledValue(types.MeasurandSoC, r.soc, "Percent", rc),
	}
}

// ended ends conn's transaction for a 1.6 stop reason: Local (the driver badged: StopAuthorized),
// Remote (RemoteStop) or EVDisconnected (EVCommunicationLost).
func (v *ocpp201) ended(ctx context.Context, conn int, reason string) {
	v.c.mu.Lock()
	tx := v.tx[conn]
	delete(v.tx, conn)
	if tx != nil {
		tx.seqNo++
	}
	v.c.mu.Unlock()
	if tx == nil {
		return
	}
	trigger, stopped, state, idToken := transactions.TriggerReasonStopAuthorized, transactions.ReasonLocal, transactions.ChargingStateEVConnected, &tx.idToken
	switch reason {
	case "Remote":
		trigger, stopped, idToken = transactions.TriggerReasonRemoteStop, transactions.ReasonRemote, nil
	case "EVDisconnected":
		trigger, stopped, state, idToken = transactions.TriggerReasonEVCommunicationLost, transactions.ReasonEVDisconnected, transactions.ChargingStateIdle, nil
	}
	_, _ = v.c.call(ctx, "TransactionEvent", &transactions.TransactionEventRequest{EventType: transactions.TransactionEventEnded,
		Timestamp: types.Now(), TriggerReason: trigger, SequenceNo: tx.seqNo, IDToken: idToken,
		TransactionInfo: transactions.Transaction{TransactionID: tx.id, ChargingState: state, StoppedReason: stopped},
		MeterValue:      v.registerValue(conn, types.ReadingContextTransactionEnd)})
}

// firmwareStatus reports the firmware update's progress (the 1.6 statuses are 2.0.1's too);
// once Installed, the charger boots with reason FirmwareUpdate.
func (v *ocpp201) firmwareStatus(ctx context.Context, s string) {
	v.c.mu.Lock()
	id := v.firmwareRequest
	if s == string(firmware.FirmwareStatusInstalled) {
		v.bootReason = provisioning.BootReasonFirmwareUpdate
	}
	v.c.mu.Unlock()
	_, _ = v.c.call(ctx, "FirmwareStatusNotification", &firmware.FirmwareStatusNotificationRequest{Status: firmware.FirmwareStatus(s), RequestID: &id})
}

// logStatus reports the log upload's progress: Uploading, Uploaded, UploadFailed (UploadFailure).
func (v *ocpp201) logStatus(ctx context.Context, s string) {
	st := diagnostics.UploadLogStatus(s)
	if s == "UploadFailed" {
		st = diagnostics.UploadLogStatusUploadFailure
	}
	v.c.mu.Lock()
	id := v.logRequest
	v.c.mu.Unlock()
	_, _ = v.c.call(ctx, "LogStatusNotification", &diagnostics.LogStatusNotificationRequest{Status: st, RequestID: id})
}

// newTransactionID is a fresh transactionId: a random (version 4) UUID.
func newTransactionID() string {
	var b [16]byte
	_, _ = crand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}

// clip cuts s to the n bytes a field allows.
func clip(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}
