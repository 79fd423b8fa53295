package fleet

import (
	"context"
	"fmt"

	"chargeops/internal/db"
	"chargeops/internal/fleet/ingest"
)

// The write path of signed meter values (session_signed_value; docs/gateway.md, "Meter
// values"): samples whose format is SignedData are kept as received for their session and
// never feed the numeric series, the latest register or the session's energy.

const (
	sqlSignedInsert = `INSERT INTO session_signed_value (transaction_id, device_id, connector_id, measurand, context, format, value, ts, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (device_id, connector_id, ts, measurand, context) DO NOTHING`
	sqlSessionOfDevice = `SELECT COUNT(*) FROM device_transaction WHERE id = ? AND device_id = ?`
)

// signedRows are the signed samples of a message, with their stored times (sampleTimes, the
// same as the numeric samples') and names (SeriesName: measurand, phase and location).
func signedRows(connector int, samples []Sample, times []int64) []SignedValue {
	var out []SignedValue
	for i, sm := range samples {
		if !sm.signed() {
			continue
		}
		out = append(out, SignedValue{ConnectorID: connector, Measurand: SeriesName(sm.Measurand, sm.Phase, sm.Location), Context: sm.Context,
			Format: FormatSigned, Value: db.Text(sm.Value), At: times[i]})
	}
	return out
}

// keepSigned stores signed values for session txID, which must be one of the device's (else
// they are kept without a session, 0); a replay adds nothing (the table's unique key).
func keepSigned(ctx context.Context, b *ingest.Batch, deviceID, txID int64, values []SignedValue) error {
	if len(values) == 0 {
		return nil
	}
	if txID > 0 {
		var n int
		if err := b.Tx.QueryRow(ctx, sqlSessionOfDevice, txID, deviceID).Scan(&n); err != nil {
			return fmt.Errorf("fleet: signed values: %w", err)
		}
		if n == 0 {
			txID = 0
		}
	}
	if txID < 0 {
		txID = 0
	}
	now := db.NowMS()
	for _, v := range values {
		if _, err := b.Tx.Exec(ctx, sqlSignedInsert, txID, deviceID, v.ConnectorID, db.Text(v.Measurand), db.Text(v.Context), v.Format, v.Value, v.At, now); err != nil {
			return fmt.Errorf("fleet: keep signed value: %w", err)
		}
	}
	return nil
}
