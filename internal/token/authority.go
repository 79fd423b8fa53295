package token

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"chargeops/internal/db"
	"chargeops/internal/fleet"
)

// The authority: how a presented idTag is answered (docs/tokens.md, "Answers"). One indexed
// query reads the token, its parent and the customer's policy; a StartTransaction adds one
// indexed query for the token's open sessions.

// sqlAuthorize reads, for (customer, tag key): the policy, the token and its parent.
const sqlAuthorize = `SELECT COALESCE(pol.unknown, ?), COALESCE(t.id, 0), COALESCE(t.parent_id_tag, ''), COALESCE(t.status, 0), COALESCE(t.expires_at, 0),
	COALESCE(pa.status, 0), COALESCE(pa.expires_at, 0)
	FROM (SELECT CAST(? AS BIGINT) AS cid, CAST(? AS TEXT) AS tk) k
	LEFT JOIN token t ON t.customer_id = k.cid AND t.tag_key = k.tk
	LEFT JOIN token pa ON pa.customer_id = k.cid AND pa.tag_key = t.parent_key AND t.parent_key <> ''
	LEFT JOIN token_policy pol ON pol.customer_id = k.cid`

// sqlOpenSessions lists the open sessions of a token in the customer's devices that were
// accepted (a refused start the charger has not stopped yet does not count).
const sqlOpenSessions = `SELECT device_id, connector_id FROM device_transaction WHERE customer_id = ? AND id_tag = ? AND stopped_at = 0 AND auth_status = ? LIMIT 10`

// Authorize answers for idTag presented at dev (fleet.TokenAuthority): the token of the
// device's customer decides; an unknown token follows the customer's policy.
func (s *Service) Authorize(ctx context.Context, dev *fleet.Device, idTag string) (fleet.TokenAnswer, error) {
	var policy, status, parentStatus int
	var id, expires, parentExpires int64
	var parent string
	err := s.db.QueryRow(ctx, sqlAuthorize, PolicyAccept, dev.CustomerID, key(idTag)).Scan(&policy, &id, &parent, &status, &expires, &parentStatus, &parentExpires)
	if err != nil {
		return fleet.TokenAnswer{}, wrap("authorize", err)
	}
	if id == 0 {
		if policy == PolicyRefuse || !validTag(idTag) {
			return fleet.TokenAnswer{Status: fleet.TokenInvalid}, nil
		}
		if err := s.record(ctx, dev.CustomerID, idTag); err != nil {
			return fleet.TokenAnswer{}, err
		}
		return s.concurrent(ctx, dev, idTag, fleet.TokenAnswer{Status: fleet.TokenAccepted})
	}
	s.used.note(id)
	ans := answer(parent, status, parentStatus, expires, parentExpires, time.Now().UnixMilli())
	if ans.Status != fleet.TokenAccepted {
		return ans, nil
	}
	return s.concurrent(ctx, dev, idTag, ans)
}

// answer is the IdTagInfo of a known token at now (unix ms), as Authorize answers and the local
// list carries it: its parent, the earlier of its own and its parent's expiry, and the status:
// Blocked when it or its parent is blocked, Expired once that expiry has passed, else Accepted.
func answer(parent string, status, parentStatus int, expires, parentExpires, now int64) fleet.TokenAnswer {
	ans := fleet.TokenAnswer{ParentIDTag: parent, ExpiryDate: earliest(expires, parentExpires)}
	switch {
	case status == StatusBlocked || parentStatus == StatusBlocked:
		ans.Status = fleet.TokenBlocked
	case ans.ExpiryDate > 0 && ans.ExpiryDate <= now:
		ans.Status = fleet.TokenExpired
	default:
		ans.Status = fleet.TokenAccepted
	}
	return ans
}

// earliest is the sooner of two expiries (0: none).
func earliest(a, b int64) int64 {
	if a == 0 || (b != 0 && b < a) {
		return b
	}
	return a
}

// concurrent turns an Accepted StartTransaction into ConcurrentTx when the token has an open
// session on another connector or charger of the customer (the same connector's open session
// is ended by this start: fleet.StartTransaction).
func (s *Service) concurrent(ctx context.Context, dev *fleet.Device, idTag string, ans fleet.TokenAnswer) (fleet.TokenAnswer, error) {
	connector, start := fleet.StartOf(ctx)
	if !start {
		return ans, nil
	}
	rows, err := s.db.Query(ctx, sqlOpenSessions, dev.CustomerID, idTag, "")
	if err != nil {
		return ans, wrap("open sessions", err)
	}
	defer rows.Close()
	for rows.Next() {
		var deviceID int64
		var c int
		if err := rows.Scan(&deviceID, &c); err != nil {
			return ans, wrap("open sessions", err)
		}
		if deviceID != dev.ID || c != connector {
			ans.Status = fleet.TokenConcurrentTx
		}
	}
	return ans, wrap("open sessions", rows.Err())
}

// record keeps an unknown token the policy accepted (origin recorded), once.
func (s *Service) record(ctx context.Context, customerID int64, idTag string) error {
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		_, err := insert(ctx, tx, Form{CustomerID: customerID, IDTag: idTag, Status: StatusActive}, OriginRecorded)
		return err
	})
	if err != nil && !isExists(err) {
		return wrap("record", err)
	}
	return nil
}

func isExists(err error) bool {
	e, ok := asBusiness(err)
	return ok && e == "err.token_exists"
}

// usage collects the tokens presented since the last flush, so the hot path writes nothing.
type usage struct {
	mu  sync.Mutex
	ids map[int64]int64
}

func newUsage() *usage { return &usage{ids: map[int64]int64{}} }

func (u *usage) note(id int64) {
	u.mu.Lock()
	u.ids[id] = time.Now().UnixMilli()
	u.mu.Unlock()
}

func (u *usage) take() map[int64]int64 {
	u.mu.Lock()
	defer u.mu.Unlock()
	out := u.ids
	u.ids = map[int64]int64{}
	return out
}

// FlushUsage writes the last-used times noted since the last flush.
func (s *Service) FlushUsage(ctx context.Context) error {
	for id, at := range s.used.take() {
		if _, err := s.db.Exec(ctx, `UPDATE token SET last_used_at = ? WHERE id = ? AND last_used_at < ?`, at, id, at); err != nil {
			return wrap("last used", err)
		}
	}
	return nil
}

// Run flushes the last-used times and runs the local-list sweep until ctx ends.
func (s *Service) Run(ctx context.Context, sweep time.Duration) {
	if sweep <= 0 {
		sweep = 30 * time.Second
	}
	flush := time.NewTicker(5 * time.Second)
	defer flush.Stop()
	lists := time.NewTicker(sweep)
	defer lists.Stop()
	for {
		select {
		case <-ctx.Done():
			if err := s.FlushUsage(context.WithoutCancel(ctx)); err != nil {
				slog.Warn("token usage not saved", "err", err)
			}
			return
		case <-flush.C:
			if err := s.FlushUsage(ctx); err != nil {
				slog.Warn("token usage not saved", "err", err)
			}
		case <-lists.C:
			if err := s.Sweep(ctx); err != nil {
				slog.Warn("local list sweep", "err", err)
			}
		}
	}
}
