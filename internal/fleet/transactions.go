package fleet

import (
	"context"
	"fmt"
	"strconv"

	"chargeops/internal/db"
	"chargeops/internal/fleet/ingest"
	"chargeops/internal/stats"
)

// Charging sessions (device_transaction) and the energy they count (energy.go; decisions,
// "Charging sessions and energy"). Both ends are committed before the charger gets its answer;
// the unique (device, connector, start time) and "stopped once" rules make a replay of an
// unanswered message count once.

// TransactionStart is a StartTransaction.
type TransactionStart struct {
	Device     *Device
	Connector  int
	IDTag      string
	MeterStart int64 // Wh
	At         int64
	// ChargerTxID is the charger's own name of the session (OCPP 2.0.1 transactionId; "" in
	// 1.6, where chargeops names it): a start that names a session already stored returns it
	// (and gives it IDTag if it had none yet).
	ChargerTxID string
}

// TransactionStop is a StopTransaction with the readings it carries.
type TransactionStop struct {
	Device    *Device
	ID        int64 // the charger's transactionId: -1, 0 or unknown happen
	IDTag     string
	MeterStop int64 // Wh; -1: not given (the last sampled register, else the start, is used)
	At        int64
	Reason    string
	Samples   []Sample // transaction data
}

const (
	sqlTransactionStart = `INSERT INTO device_transaction (device_id, customer_id, site_id, connector_id, id_tag, meter_start, started_at, flags, charger_tx_id)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (device_id, connector_id, started_at) DO NOTHING`
	sqlTransactionNamed = `SELECT id FROM device_transaction WHERE device_id = ? AND charger_tx_id = ?`
	// a start that arrives after a later event of its session moves the session's start back
	sqlTransactionEarlier = `UPDATE device_transaction SET started_at = ?, meter_start = ? WHERE id = ? AND stopped_at = 0 AND started_at > ?`
	sqlTransactionID      = `SELECT id FROM device_transaction WHERE device_id = ? AND connector_id = ? AND started_at = ?`
	// an open session on the connector that this start repeats (a replay whose time was replaced)
	sqlTransactionReplay  = `SELECT id FROM device_transaction WHERE device_id = ? AND connector_id = ? AND stopped_at = 0 AND id_tag = ? AND meter_start = ?`
	sqlTransactionOpen    = `SELECT id FROM device_transaction WHERE device_id = ? AND connector_id = ? AND stopped_at = 0`
	sqlTransactionOpenAny = `SELECT id FROM device_transaction WHERE device_id = ? AND stopped_at = 0 LIMIT 2`
	sqlTransactionGet     = `SELECT connector_id, meter_start, meter_first, started_at, stopped_at, flags FROM device_transaction WHERE id = ? AND device_id = ?`
	sqlTransactionStop    = `UPDATE device_transaction SET meter_stop = ?, stopped_at = ?, reason = ?, energy_wh = ?, flags = ? WHERE id = ? AND device_id = ? AND stopped_at = 0`
	sqlTransactionOrphan  = `INSERT INTO device_transaction (device_id, customer_id, site_id, connector_id, id_tag, meter_start, meter_stop, started_at, stopped_at, reason, flags)
		VALUES (?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (device_id, connector_id, started_at) DO NOTHING`
	sqlTransactionStopSeen = `SELECT COUNT(*) FROM device_transaction WHERE device_id = ? AND stopped_at = ? AND meter_stop = ?`
	sqlLastRegister        = `SELECT value, unit FROM device_runtime WHERE device_id = ? AND name = ? AND connector_id = ?`
	EnergyRegister         = "Energy.Active.Import.Register" // the default energy register (Wh)
)

// Reasons the server gives a session it closes itself.
const ReasonUnterminated = "Unterminated"

// StartTransaction records a charging session and its meter start, and returns its id; a
// replay of the same start returns the id it got the first time. A session still open on the
// connector was never stopped: it is closed at this start (FlagUnterminated).
func (s *Service) StartTransaction(ctx context.Context, t TransactionStart) (int64, error) {
	var id int64
	at, clamped := ChargerTime(t.At, db.NowMS())
	flags := 0
	if clamped {
		flags |= FlagClock
	}
	meter := []Sample{{Measurand: EnergyRegister, Unit: "Wh", Value: strconv.FormatInt(t.MeterStart, 10), At: at}}
	err := s.Ingest.Commit(ctx, &ingest.Unit{Key: ingest.KeyOf(t.Device.SN), Step: func(ctx context.Context, b *ingest.Batch) error {
		dev := t.Device
		var err error
		if t.ChargerTxID != "" {
			err = b.Tx.QueryRow(ctx, sqlTransactionNamed, dev.ID, t.ChargerTxID).Scan(&id)
			if err == nil {
				if t.IDTag != "" { // authorized after it started (a cable plugged in first)
					if _, err := b.Tx.Exec(ctx, `UPDATE device_transaction SET id_tag = ? WHERE id = ? AND id_tag = ''`, t.IDTag, id); err != nil {
						return err
					}
				}
				_, err = b.Tx.Exec(ctx, sqlTransactionEarlier, at, t.MeterStart, id, at)
				return err
			}
		} else {
			err = b.Tx.QueryRow(ctx, sqlTransactionReplay, dev.ID, t.Connector, t.IDTag, t.MeterStart).Scan(&id)
			if err == nil {
				return nil
			}
		}
		if !db.NotFound(err) {
			return err
		}
		var open int64
		switch err := b.Tx.QueryRow(ctx, sqlTransactionOpen, dev.ID, t.Connector).Scan(&open); {
		case err == nil:
			if err := s.stopSession(ctx, b, dev, open, sessionEnd{MeterStop: -1, At: at, Reason: ReasonUnterminated, Flags: FlagUnterminated}); err != nil {
				return err
			}
		case !db.NotFound(err):
			return err
		}
		if _, err := b.Tx.Exec(ctx, sqlTransactionStart, dev.ID, dev.CustomerID, dev.SiteID, t.Connector, t.IDTag, t.MeterStart, at, flags, t.ChargerTxID); err != nil {
			return err
		}
		if err := b.Tx.QueryRow(ctx, sqlTransactionID, dev.ID, t.Connector, at).Scan(&id); err != nil {
			return err
		}
		latest, points := meterRows(dev.ID, t.Connector, meter)
		b.AddRuntime(latest...)
		b.AddSeries(points...)
		return nil
	}})
	return id, err
}

// StopTransaction ends a session once (a replayed stop, even after a reboot with another
// timestamp, changes nothing) and stores its readings on the session's connector. A stop whose
// transactionId is -1, 0 or not one of the device's sessions ends the device's only open
// session, or else is kept as a session of its own without energy.
func (s *Service) StopTransaction(ctx context.Context, t TransactionStop) error {
	at, clamped := ChargerTime(t.At, db.NowMS())
	flags := 0
	if clamped {
		flags |= FlagClock
	}
	return s.Ingest.Commit(ctx, &ingest.Unit{Key: ingest.KeyOf(t.Device.SN), Step: func(ctx context.Context, b *ingest.Batch) error {
		dev := t.Device
		id, known, err := s.sessionOf(ctx, b.Tx, dev.ID, t.ID)
		if err != nil {
			return err
		}
		connector := 0
		switch {
		case known:
			if t.ID != id {
				flags |= FlagMatchedStop
			}
			if err := b.Tx.QueryRow(ctx, `SELECT connector_id FROM device_transaction WHERE id = ?`, id).Scan(&connector); err != nil {
				return err
			}
			if err := s.stopSession(ctx, b, dev, id, sessionEnd{MeterStop: t.MeterStop, At: at, Reason: t.Reason, Flags: flags}); err != nil {
				return err
			}
		default:
			var seen int
			if err := b.Tx.QueryRow(ctx, sqlTransactionStopSeen, dev.ID, at, t.MeterStop).Scan(&seen); err != nil {
				return err
			}
			if seen > 0 {
				break // this stop, sent again, ended a session already
			}
			res, err := b.Tx.Exec(ctx, sqlTransactionOrphan, dev.ID, dev.CustomerID, dev.SiteID, t.IDTag, t.MeterStop, t.MeterStop, at, at, t.Reason, flags|FlagUnknownStop)
			if err != nil {
				return err
			}
			if n, _ := res.RowsAffected(); n == 1 {
				stats.CountSession(b.Stats(), s.opt.Location, place(dev), stats.Session{StartedAt: at})
			}
		}
		samples := t.Samples
		if t.MeterStop >= 0 {
			samples = append(append([]Sample{}, t.Samples...), Sample{Measurand: EnergyRegister, Unit: "Wh", Value: strconv.FormatInt(t.MeterStop, 10), At: at, Element: -1})
		}
		return addSamples(ctx, b, dev, connector, id, samples)
	}})
}

// sessionOf finds the session a stop's transactionId names: the device's own session with that
// id, else (-1, 0 or unknown) the device's only open session.
func (s *Service) sessionOf(ctx context.Context, tx *db.Tx, deviceID, txID int64) (int64, bool, error) {
	if txID > 0 {
		var c int
		err := tx.QueryRow(ctx, `SELECT connector_id FROM device_transaction WHERE id = ? AND device_id = ?`, txID, deviceID).Scan(&c)
		if err == nil {
			return txID, true, nil
		}
		if !db.NotFound(err) {
			return 0, false, err
		}
	}
	ids, err := db.Column[int64](ctx, tx, sqlTransactionOpenAny, deviceID)
	if err != nil || len(ids) != 1 {
		return 0, false, err
	}
	return ids[0], true, nil
}

// sessionEnd is how a session ends; MeterStop -1 means unknown (the last sampled register, or
// the start, is used).
type sessionEnd struct {
	MeterStop int64
	At        int64
	Reason    string
	Flags     int
}

// stopSession ends open session id with the energy rules and counts it in its site's traffic;
// a session already stopped is left alone.
func (s *Service) stopSession(ctx context.Context, b *ingest.Batch, dev *Device, id int64, e sessionEnd) error {
	var connector int
	var m sessionMeter
	var stoppedAt int64
	var flags int
	if err := b.Tx.QueryRow(ctx, sqlTransactionGet, id, dev.ID).Scan(&connector, &m.Start, &m.First, &m.StartedAt, &stoppedAt, &flags); err != nil {
		return fmt.Errorf("session %d: %w", id, err)
	}
	if stoppedAt != 0 {
		return nil
	}
	m.Last = -1
	var value, unit string
	switch err := b.Tx.QueryRow(ctx, sqlLastRegister, dev.ID, EnergyRegister, connector).Scan(&value, &unit); {
	case err == nil:
		if wh, ok := registerWh(value, unit); ok {
			m.Last = wh
		}
	case !db.NotFound(err):
		return err
	}
	m.Stop = e.MeterStop
	if m.Stop < 0 {
		m.Stop = max(m.Last, m.Start)
	}
	m.StoppedAt = max(e.At, m.StartedAt)
	if e.At < m.StartedAt {
		e.Flags |= FlagClock
	}
	wh, trap := sessionEnergy(m)
	flags |= e.Flags | trap
	res, err := b.Tx.Exec(ctx, sqlTransactionStop, m.Stop, m.StoppedAt, e.Reason, wh, flags, id, dev.ID)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return nil
	}
	b.AfterCommit(func() { s.sessions.forget(id) })
	stats.CountSession(b.Stats(), s.opt.Location, place(dev), stats.Session{StartedAt: m.StartedAt, EnergyWh: wh, ChargeMS: m.StoppedAt - m.StartedAt})
	return nil
}

// place is where a device's figures are counted.
func place(d *Device) stats.Place {
	return stats.Place{DeviceID: d.ID, SiteID: d.SiteID, CustomerID: d.CustomerID}
}

// NamedTransaction is the id of the device's session the charger named chargerTxID (OCPP 2.0.1),
// 0 when there is none.
func (s *Service) NamedTransaction(ctx context.Context, deviceID int64, chargerTxID string) (int64, error) {
	var id int64
	err := s.db.QueryRow(ctx, sqlTransactionNamed, deviceID, chargerTxID).Scan(&id)
	if db.NotFound(err) {
		return 0, nil
	}
	return id, err
}

// ChargerTransactionID is the charger's name of the device's session id ("" for a session
// chargeops named: OCPP 1.6).
func (s *Service) ChargerTransactionID(ctx context.Context, deviceID, id int64) (string, error) {
	var name string
	err := s.db.QueryRow(ctx, `SELECT charger_tx_id FROM device_transaction WHERE id = ? AND device_id = ?`, id, deviceID).Scan(&name)
	if db.NotFound(err) {
		return "", nil
	}
	return name, err
}
