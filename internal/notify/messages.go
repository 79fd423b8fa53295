package notify

import (
	"context"
	"fmt"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
)

// The message centre: a user only ever reads and changes their own messages (every query is
// limited by user_id = the caller).

// ListInput filters the caller's messages; a nil filter is "any".
type ListInput struct {
	db.Page
	Kind      *int `json:"kind"`      // 0 offline, 1 alarm, 2 fault, 3 unavailable
	Read      *int `json:"read"`      // 0 unread, 1 read
	Processed *int `json:"processed"` // 0 untreated, 1 processed
	Recovered *int `json:"recovered"` // 0 unrecovered, 1 recovered
	// Sort is "lastAt" (the latest repeat; default) or "startedAt" (the first event); Order
	// "desc" (newest first; default) or "asc".
	Sort  string `json:"sort"`
	Order string `json:"order"`
}

// messageSorts are the list's sort columns by their API names.
var messageSorts = map[string]string{"": "m.last_at", "lastAt": "m.last_at", "startedAt": "m.started_at"}

// orderBy is the ORDER BY of a list input, or an invalid-field error.
func (in ListInput) orderBy() (string, error) {
	col, ok := messageSorts[in.Sort]
	if !ok {
		return "", apperr.InvalidField("sort", "err.invalid")
	}
	switch in.Order {
	case "", "desc":
		return col + " DESC, m.id DESC", nil
	case "asc":
		return col + " ASC, m.id ASC", nil
	}
	return "", apperr.InvalidField("order", "err.invalid")
}

// Message is one row of the message centre.
type Message struct {
	ID          int64  `json:"id"`
	Kind        int    `json:"kind"`
	Level       int    `json:"level"`
	Code        string `json:"code"`
	Name        string `json:"name"`
	VendorCode  string `json:"vendorCode"` // the charger's own code of the group's latest event ("" when none)
	DeviceID    int64  `json:"deviceId"`
	SN          string `json:"sn"`
	DeviceName  string `json:"deviceName"`
	SiteID      int64  `json:"siteId"`
	SiteName    string `json:"siteName"`
	StartedAt   int64  `json:"startedAt"` // the first event of the group
	LastAt      int64  `json:"lastAt"`    // the latest repeat
	Repeats     int    `json:"repeats"`   // repeats grouped into this message
	CreatedAt   int64  `json:"createdAt"`
	Read        bool   `json:"read"`
	ReadAt      int64  `json:"readAt"`
	Processed   bool   `json:"processed"`
	ProcessedAt int64  `json:"processedAt"`
	ProcessedBy string `json:"processedBy"`
	Recovered   bool   `json:"recovered"`
	RecoveredAt int64  `json:"recoveredAt"`
}

// flag adds "col = 0" or "col <> 0" for a 0/1 filter.
func flag(q *db.Query, col string, v *int) {
	if v == nil {
		return
	}
	if *v == 0 {
		q.And(col + " = 0")
	} else {
		q.And(col + " <> 0")
	}
}

// List returns a page of the caller's messages, newest (latest repeat) first unless sorted otherwise.
func (s *Service) List(ctx context.Context, p *access.Principal, in ListInput) (db.List[Message], error) {
	order, err := in.orderBy()
	if err != nil {
		return db.List[Message]{}, err
	}
	q := (&db.Query{From: `message m LEFT JOIN device d ON d.id = m.device_id LEFT JOIN site st ON st.id = m.site_id
		LEFT JOIN app_user pu ON pu.id = m.processed_by LEFT JOIN device_event ev ON ev.id = m.event_id`}).And("m.user_id = ?", p.UserID)
	if in.Kind != nil {
		q.And("m.kind = ?", *in.Kind)
	}
	flag(q, "m.read_at", in.Read)
	flag(q, "m.processed_at", in.Processed)
	flag(q, "m.recovered_at", in.Recovered)
	list, err := db.Paged(ctx, s.db, q, `m.id, m.kind, m.level, m.code, m.name, COALESCE(ev.vendor_code, ''), m.device_id, COALESCE(d.sn, ''), COALESCE(d.name, ''), m.site_id,
		COALESCE(st.name, ''), m.started_at, m.last_at, m.repeats, m.created_at, m.read_at, m.processed_at, COALESCE(pu.user_name, ''), m.recovered_at`,
		order, in.Page, func(r db.Scanner) (Message, error) {
			var m Message
			err := r.Scan(&m.ID, &m.Kind, &m.Level, &m.Code, &m.Name, &m.VendorCode, &m.DeviceID, &m.SN, &m.DeviceName, &m.SiteID, &m.SiteName,
				&m.StartedAt, &m.LastAt, &m.Repeats, &m.CreatedAt, &m.ReadAt, &m.ProcessedAt, &m.ProcessedBy, &m.RecoveredAt)
			m.Read, m.Processed, m.Recovered = m.ReadAt != 0, m.ProcessedAt != 0, m.RecoveredAt != 0
			return m, err
		})
	if err != nil {
		return list, fmt.Errorf("notify: list: %w", err)
	}
	return list, nil
}

// Unread counts the caller's unread messages.
func (s *Service) Unread(ctx context.Context, p *access.Principal) (int64, error) {
	var n int64
	if err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM message WHERE user_id = ? AND read_at = 0`, p.UserID).Scan(&n); err != nil {
		return 0, fmt.Errorf("notify: unread: %w", err)
	}
	return n, nil
}

// MarkRead marks the caller's messages read: the ids given (all must be the caller's, or
// nothing changes and the answer is not-found), or every unread one when ids is empty.
func (s *Service) MarkRead(ctx context.Context, p *access.Principal, ids []int64) error {
	now := db.NowMS()
	if len(ids) == 0 {
		if _, err := s.db.Exec(ctx, `UPDATE message SET read_at = ? WHERE user_id = ? AND read_at = 0`, now, p.UserID); err != nil {
			return fmt.Errorf("notify: read all: %w", err)
		}
		s.signal(p.UserID)
		return nil
	}
	err := s.own(ctx, p, ids, `UPDATE message SET read_at = CASE WHEN read_at = 0 THEN ? ELSE read_at END`, now)
	if err == nil {
		s.signal(p.UserID)
	}
	return err
}

// Process marks the caller's messages processed (and read), by the caller.
func (s *Service) Process(ctx context.Context, p *access.Principal, ids []int64) error {
	if len(ids) == 0 {
		return apperr.InvalidField("ids", "err.required")
	}
	now := db.NowMS()
	err := s.own(ctx, p, ids, `UPDATE message SET processed_at = CASE WHEN processed_at = 0 THEN ? ELSE processed_at END,
		processed_by = CASE WHEN processed_at = 0 THEN ? ELSE processed_by END, read_at = CASE WHEN read_at = 0 THEN ? ELSE read_at END`,
		now, p.UserID, now)
	if err == nil {
		s.signal(p.UserID)
	}
	return err
}

// own runs update on the caller's messages among ids, atomically: when fewer rows are the
// caller's than ids were sent, nothing changes and the answer is not-found.
func (s *Service) own(ctx context.Context, p *access.Principal, ids []int64, update string, args ...any) error {
	uniq := map[int64]bool{}
	for _, id := range ids {
		uniq[id] = true
	}
	return s.db.InTx(ctx, func(tx *db.Tx) error {
		q := update + ` WHERE user_id = ? AND id IN (` + db.Placeholders(len(ids)) + `)`
		res, err := tx.Exec(ctx, q, append(append(args, p.UserID), db.Args(ids)...)...)
		if err != nil {
			return fmt.Errorf("notify: update messages: %w", err)
		}
		if n, _ := res.RowsAffected(); n != int64(len(uniq)) {
			return apperr.ErrNotFound
		}
		return nil
	})
}
