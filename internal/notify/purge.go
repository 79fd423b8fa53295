package notify

import (
	"context"
	"time"

	"chargeops/internal/db"
)

// Retention of the notifier's rows (docs/messages.md, "Retention").
const (
	// MailRowKeep keeps alarm mails that went out this long: the hourly rate limit and the
	// grouping of repeats look back an hour at most.
	MailRowKeep = 7 * 24 * time.Hour
	// EventRowKeep keeps handled events this long (a crash catch-up looks back Options.Catchup).
	EventRowKeep = 7 * 24 * time.Hour
)

// Purge deletes messages older than messageKeep (0 keeps them), alarm mails sent more than
// MailRowKeep ago and events handled more than EventRowKeep ago, in bounded batches; it answers
// how many rows went.
func (s *Service) Purge(ctx context.Context, messageKeep time.Duration) (int64, error) {
	now := time.Now()
	var total int64
	if messageKeep > 0 {
		n, err := db.Purge(ctx, s.db, "message", "id", "created_at < ?", 20, now.Add(-messageKeep).UnixMilli())
		total += n
		if err != nil {
			return total, err
		}
	}
	n, err := db.Purge(ctx, s.db, "alarm_mail", "id", "sent_at > 0 AND sent_at < ?", 20, now.Add(-MailRowKeep).UnixMilli())
	total += n
	if err != nil {
		return total, err
	}
	n, err = db.Purge(ctx, s.db, "notify_event", "event_id", "done = 1 AND created_at < ?", 20, now.Add(-EventRowKeep).UnixMilli())
	return total + n, err
}
