package fleet

import (
	"context"

	"chargeops/internal/fleet/ingest"
)

// A StartTransaction asks the TokenAuthority with its connector in the context, so that the
// authority answers ConcurrentTx for a token already charging elsewhere; an Authorize does not
// (the charger may ask to stop its own session with it). docs/tokens.md.

type startKey struct{}

// ForStart marks ctx as the question of a StartTransaction at connector.
func ForStart(ctx context.Context, connector int) context.Context {
	return context.WithValue(ctx, startKey{}, connector)
}

// StartOf returns the connector of the StartTransaction ctx asks for; ok is false for an
// Authorize.
func StartOf(ctx context.Context) (connector int, ok bool) {
	connector, ok = ctx.Value(startKey{}).(int)
	return connector, ok
}

// SessionStatus keeps on session id the status its start was answered with when the verdict
// was not TokenAccepted (the charger records the session all the same, OCPP 1.6 §4.8): status
// is the verdict in the adapter's words, stored as given. It rides the charger's next batch
// without holding up the answer (same writer as the start, so after it): the status is the
// server's note, not the charger's data.
func (s *Service) SessionStatus(dev *Device, id int64, verdict TokenVerdict, status string) {
	if verdict == TokenAccepted || id <= 0 {
		return
	}
	s.Ingest.Submit(&ingest.Unit{Key: ingest.KeyOf(dev.SN), Step: func(ctx context.Context, b *ingest.Batch) error {
		_, err := b.Tx.Exec(ctx, `UPDATE device_transaction SET auth_status = ? WHERE id = ? AND device_id = ?`, status, id, dev.ID)
		return err
	}})
}
