package fleet

import (
	"context"
	"strconv"

	"chargeops/internal/db"
)

// Charging sessions (device_transaction). Both ends are committed before the charger gets its
// answer; the unique (device, connector, start time) and "stopped once" rules make a replay of
// an unanswered message count once.

// TransactionStart is a StartTransaction.
type TransactionStart struct {
	Device     *Device
	Connector  int
	IDTag      string
	MeterStart int64 // Wh
	At         int64
}

// TransactionStop is a StopTransaction with the readings it carries.
type TransactionStop struct {
	Device    *Device
	ID        int64
	MeterStop int64 // Wh
	At        int64
	Reason    string
	Samples   []Sample // transaction data
}

const (
	sqlTransactionStart = `INSERT INTO device_transaction (device_id, connector_id, id_tag, meter_start, started_at) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (device_id, connector_id, started_at) DO NOTHING`
	sqlTransactionID   = `SELECT id FROM device_transaction WHERE device_id = ? AND connector_id = ? AND started_at = ?`
	sqlTransactionStop = `UPDATE device_transaction SET meter_stop = ?, stopped_at = ?, reason = ? WHERE id = ? AND device_id = ? AND stopped_at = 0`
	sqlTransactionConn = `SELECT connector_id FROM device_transaction WHERE id = ? AND device_id = ?`
	energyRegister     = "Energy.Active.Import.Register"
)

// StartTransaction records a charging session and its meter start, and returns its id; a
// replay of the same start (connector and timestamp) returns the id it got the first time.
func (s *Service) StartTransaction(ctx context.Context, t TransactionStart) (int64, error) {
	var id int64
	meter := []Sample{{Measurand: energyRegister, Unit: "Wh", Value: strconv.FormatInt(t.MeterStart, 10), At: t.At}}
	err := s.Ingest.Commit(ctx, &Unit{Step: func(ctx context.Context, b *Batch) error {
		if _, err := b.Tx.Exec(ctx, sqlTransactionStart, t.Device.ID, t.Connector, t.IDTag, t.MeterStart, t.At); err != nil {
			return err
		}
		if err := b.Tx.QueryRow(ctx, sqlTransactionID, t.Device.ID, t.Connector, t.At).Scan(&id); err != nil {
			return err
		}
		latest, points := meterRows(t.Device.ID, t.Connector, meter)
		b.AddRuntime(latest...)
		b.AddSeries(points...)
		return nil
	}})
	return id, err
}

// StopTransaction ends a session once (a replayed stop changes nothing) and stores its
// readings on the session's connector.
func (s *Service) StopTransaction(ctx context.Context, t TransactionStop) error {
	return s.Ingest.Commit(ctx, &Unit{Step: func(ctx context.Context, b *Batch) error {
		if _, err := b.Tx.Exec(ctx, sqlTransactionStop, t.MeterStop, t.At, t.Reason, t.ID, t.Device.ID); err != nil {
			return err
		}
		var connector int
		if err := b.Tx.QueryRow(ctx, sqlTransactionConn, t.ID, t.Device.ID).Scan(&connector); err != nil && !db.NotFound(err) {
			return err
		}
		samples := append(append([]Sample{}, t.Samples...), Sample{Measurand: energyRegister, Unit: "Wh", Value: strconv.FormatInt(t.MeterStop, 10), At: t.At})
		latest, points := meterRows(t.Device.ID, connector, samples)
		b.AddRuntime(latest...)
		b.AddSeries(points...)
		return nil
	}})
}
