package ocpp201

import (
	"context"
	"math"
	"strconv"

	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/availability"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/transactions"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/types"

	"chargeops/internal/fleet"
	"chargeops/internal/gateway/ocppj"
)

// connectorStatus records a StatusNotification: the connector's own status and its EVSE's
// (evse.status), the EVSE being the core's connector. A Faulted EVSE opens a fault; 2.0.1 says
// what is wrong in NotifyEvent (reports.go), not here.
func (d *Dialect) connectorStatus(ctx context.Context, s ocppj.Session, dev *fleet.Device, req *availability.StatusNotificationRequest) error {
	e := d.station(s).evse(req.EvseID)
	e.plugs[req.ConnectorID] = req.ConnectorStatus
	return d.reportEVSE(ctx, dev, req.EvseID, e, ms(req.Timestamp), req.ConnectorID, string(req.ConnectorStatus))
}

// reportEVSE reports an EVSE's status to the core (with the connector that changed, plug > 0).
//
// A report carries the latest of the charger's times the EVSE's reports had: one made of a
// transaction's event (its time may be older than the connector status it joins) must not be
// older than that status, or the core takes it for a late one and ignores it.
func (d *Dialect) reportEVSE(ctx context.Context, dev *fleet.Device, id int, e *evse, at int64, plug int, plugStatus string) error {
	at = max(at, e.at)
	e.at = at
	status := e.status()
	r := fleet.ConnectorReport{Device: dev, Connector: id, Status: status, State: connectorState(status), At: at, Plug: plug, PlugStatus: plugStatus}
	if status == string(availability.ConnectorStatusFaulted) {
		r.Problem = fleet.Problem{Kind: fleet.KindFault, Level: fleet.LevelCA, Code: status, Name: status}
	}
	if err := d.core.ConnectorStatus(ctx, r); err != nil {
		return err
	}
	e.reported = status
	return nil
}

// transactionEvent records a TransactionEvent (docs/ocpp201.md, "Transactions"). The charger
// names the transaction; chargeops keeps its session under that name (fleet.TransactionStart's
// ChargerTxID), so every event, sent again, late, out of order or after a restart of either
// side, finds the same session:
//   - the first event seen of a transaction starts its session (an Updated or Ended whose
//     Started never came, or comes later, included; a late Started moves the start back);
//   - Ended ends it once, with the Transaction.End register (else the last sampled one);
//   - the meter values of every event are stored (their timestamps make a repeat add nothing);
//   - the EVSE's charging state follows the event with the highest seqNo only, and an offline
//     event (the charger sends what happened while it had no connection) changes no live state.
func (d *Dialect) transactionEvent(ctx context.Context, s ocppj.Session, dev *fleet.Device, req *transactions.TransactionEventRequest) (any, error) {
	f := d.core
	st := d.station(s)
	info := req.TransactionInfo
	evseID := 0
	if req.Evse != nil {
		evseID = req.Evse.ID
	}
	idTag := ""
	if req.IDToken != nil {
		idTag = req.IDToken.IdToken
	}
	at := ms(req.Timestamp)
	smp := samples(req.MeterValue)
	tx := st.txs[info.TransactionID]
	if tx == nil {
		id, err := f.NamedTransaction(ctx, dev.ID, info.TransactionID)
		if err != nil {
			return nil, err
		}
		tx = &txState{id: id, evse: evseID, seq: -1}
	}
	if evseID == 0 {
		evseID = tx.evse // 2.0.1 sends the EVSE on the first event of a transaction only
	}
	tx.evse = evseID
	resp := transactions.NewTransactionEventResponse()
	if req.IDToken != nil {
		tokInfo, err := d.authorize(ctx, dev, *req.IDToken)
		if err != nil {
			return nil, err
		}
		resp.IDTokenInfo = tokInfo
	}
	// a transaction is started by its first event, its Started, and the first event that
	// carries its token (a station may start one when the cable is plugged in and send the
	// token with a later Updated)
	if tx.id == 0 || req.EventType == transactions.TransactionEventStarted || (idTag != "" && !tx.tagged) {
		// the Transaction.Begin register, else the first register of the event (a session whose
		// Started is missing starts where its first event found the meter: an Ended alone counts
		// no energy), else 0 (the core then takes the first sampled register if 0 is implausible)
		meterStart := register(smp, types.ReadingContextTransactionBegin, -1)
		if meterStart < 0 {
			meterStart = register(smp, "", 0)
		}
		start := fleet.TransactionStart{Device: dev, Connector: evseID, IDTag: idTag, MeterStart: meterStart, At: at, ChargerTxID: info.TransactionID}
		id, err := f.StartTransaction(ctx, start)
		if err != nil {
			return nil, err
		}
		if !tx.tagged && resp.IDTokenInfo != nil {
			f.SessionStatus(dev, id, verdictOf(resp.IDTokenInfo.Status), string(resp.IDTokenInfo.Status))
		}
		tx.tagged = tx.tagged || idTag != ""
		if req.ReservationID != nil {
			f.UseReservation(ctx, dev, req.ReservationID, id)
		}
		tx.id = id
	}
	if req.EventType == transactions.TransactionEventEnded {
		reason := string(info.StoppedReason)
		if reason == "" {
			reason = string(transactions.ReasonLocal) // 2.0.1: absent means Local
		}
		stop := fleet.TransactionStop{Device: dev, ID: tx.id, IDTag: idTag, MeterStop: register(smp, types.ReadingContextTransactionEnd, -1),
			At: at, Reason: reason, Samples: smp}
		if err := f.StopTransaction(ctx, stop); err != nil {
			return nil, err
		}
		delete(st.txs, info.TransactionID)
	} else {
		if len(smp) > 0 {
			if err := f.Meter(ctx, fleet.MeterReport{Device: dev, Connector: evseID, TransactionID: tx.id, Samples: smp}); err != nil {
				return nil, err
			}
		}
		st.txs[info.TransactionID] = tx
	}
	newest := req.SequenceNo > tx.seq
	if newest {
		tx.seq = req.SequenceNo
	}
	if !newest || req.Offline || evseID == 0 {
		return resp, nil
	}
	// the EVSE's status follows its transaction's charging state
	e := st.evse(evseID)
	cs := info.ChargingState
	if req.EventType == transactions.TransactionEventEnded {
		cs = ""
	}
	if cs == "" && req.EventType != transactions.TransactionEventEnded {
		cs = e.charging // an event without a charging state keeps the one before
	}
	e.charging = cs
	if plugged(cs) && len(e.plugs) == 0 {
		e.plugs[1] = availability.ConnectorStatusOccupied // a charger that reports no connector status
	}
	if e.status() != e.reported {
		if err := d.reportEVSE(ctx, dev, evseID, e, at, 0, ""); err != nil {
			return nil, err
		}
	}
	return resp, nil
}

// verdictOf is the core's verdict of a 2.0.1 AuthorizationStatus.
func verdictOf(st types.AuthorizationStatus) fleet.TokenVerdict {
	switch st {
	case types.AuthorizationStatusAccepted:
		return fleet.TokenAccepted
	case types.AuthorizationStatusBlocked:
		return fleet.TokenBlocked
	case types.AuthorizationStatusExpired:
		return fleet.TokenExpired
	case types.AuthorizationStatusConcurrentTx:
		return fleet.TokenConcurrentTx
	}
	return fleet.TokenInvalid
}

// register is the energy register (Wh) among samples read in context ctx (Transaction.Begin
// or .End; "": any): the total at the outlet, not signed; def when there is none.
func register(smp []fleet.Sample, ctx types.ReadingContext, def int64) int64 {
	for _, sm := range smp {
		if (ctx != "" && sm.Context != string(ctx)) || sm.Format == fleet.FormatSigned || sm.Phase != "" || (sm.Measurand != "" && sm.Measurand != fleet.EnergyRegister) ||
			(sm.Location != "" && sm.Location != string(types.LocationOutlet)) {
			continue
		}
		v, err := strconv.ParseFloat(sm.Value, 64)
		if err != nil {
			continue
		}
		switch sm.Unit {
		case "kWh":
			v *= 1000
		case "", "Wh":
		default:
			continue
		}
		return int64(math.Round(v))
	}
	return def
}

// samples are the sampled values of 2.0.1 MeterValue elements in the core's terms. A 2.0.1
// value is a number with a unit and a power-of-ten multiplier: the stored value is the number
// times 10^multiplier, in the unit given (Wh for an energy that names none: the core's
// default).
func samples(mvs []types.MeterValue) []fleet.Sample {
	var out []fleet.Sample
	for i, mv := range mvs {
		var at int64
		if !mv.Timestamp.IsZero() {
			at = mv.Timestamp.UnixMilli()
		}
		for _, sv := range mv.SampledValue {
			v, unit := sv.Value, ""
			if u := sv.UnitOfMeasure; u != nil {
				unit = u.Unit
				if u.Multiplier != nil && *u.Multiplier != 0 {
					v *= math.Pow10(*u.Multiplier)
				}
			}
			sm := fleet.Sample{Measurand: string(sv.Measurand), Phase: string(sv.Phase), Location: string(sv.Location), Unit: unit,
				Value: strconv.FormatFloat(v, 'f', -1, 64), Context: string(sv.Context), At: at, Element: i}
			out = append(out, sm)
			if sv.SignedMeterValue != nil { // kept as received beside its value (fleet.FormatSigned)
				sm.Format, sm.Value = fleet.FormatSigned, sv.SignedMeterValue.SignedMeterData
				out = append(out, sm)
			}
		}
	}
	return out
}
