// Package session keeps console sessions in the database, so any node can serve any request.
// Only sha256(token) is stored; a stolen database does not yield usable cookies.
package session

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"time"

	"chargeops/internal/apperr"
	"chargeops/internal/db"
)

// End reasons, the logout reasons of spec §4.
const (
	ReasonAuthFailed     = 0
	ReasonUserLogout     = 1
	ReasonTimeout        = 2
	ReasonForcedRelogin  = 3
	ReasonAccountDisable = 4 // stored only; reported to the client as 20004
)

// Session is a live session row.
type Session struct {
	ID         string
	UserID     int64
	CSRFToken  string
	CreatedAt  int64
	LastSeenAt int64
}

// Store creates, resolves and ends sessions.
type Store struct {
	db        *db.DB
	idle, max time.Duration
	// OnTimeout, when set, is told of each session that Resolve finds timed out (once per
	// session), so the logout can be recorded with reason 2.
	OnTimeout func(ctx context.Context, userID int64)
}

func NewStore(d *db.DB, idle, max time.Duration) *Store { return &Store{db: d, idle: idle, max: max} }

// RandomToken returns n random bytes, URL-safe base64.
func RandomToken(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err) // the system's randomness failing is not recoverable
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

// HashToken is the stored form of a token.
func HashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// Create starts a session and returns the token for the cookie.
func (s *Store) Create(ctx context.Context, userID int64, ip, userAgent string) (token string, sess Session, err error) {
	token = RandomToken(32)
	now := db.NowMS()
	sess = Session{ID: HashToken(token), UserID: userID, CSRFToken: RandomToken(24), CreatedAt: now, LastSeenAt: now}
	if len(userAgent) > 300 {
		userAgent = userAgent[:300]
	}
	_, err = s.db.Exec(ctx, `INSERT INTO session (id, user_id, csrf_token, ip, user_agent, created_at, last_seen_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
		sess.ID, userID, sess.CSRFToken, ip, userAgent, now, now)
	return token, sess, err
}

// Resolve finds the live session of token. It returns 20001 for an unknown token, 20002 for an
// expired one, 20003 for one ended by a forced re-login, 20004 for a disabled account.
func (s *Store) Resolve(ctx context.Context, token string) (Session, error) {
	if token == "" {
		return Session{}, apperr.ErrNotLoggedIn
	}
	var sess Session
	var endedAt int64
	var reason int
	err := s.db.QueryRow(ctx, `SELECT id, user_id, csrf_token, created_at, last_seen_at, ended_at, end_reason FROM session WHERE id = ?`, HashToken(token)).
		Scan(&sess.ID, &sess.UserID, &sess.CSRFToken, &sess.CreatedAt, &sess.LastSeenAt, &endedAt, &reason)
	if db.NotFound(err) {
		return Session{}, apperr.ErrNotLoggedIn
	}
	if err != nil {
		return Session{}, err
	}
	if endedAt != 0 {
		switch reason {
		case ReasonForcedRelogin:
			return Session{}, apperr.ErrForcedRelogin
		case ReasonAccountDisable:
			return Session{}, apperr.ErrDisabled
		case ReasonTimeout:
			return Session{}, apperr.ErrSessionExpired
		}
		return Session{}, apperr.ErrNotLoggedIn
	}
	now := db.NowMS()
	if now-sess.LastSeenAt > s.idle.Milliseconds() || now-sess.CreatedAt > s.max.Milliseconds() {
		res, err := s.db.Exec(ctx, `UPDATE session SET ended_at = ?, end_reason = ? WHERE id = ? AND ended_at = 0`, now, ReasonTimeout, sess.ID)
		if err != nil {
			return Session{}, err
		}
		if n, _ := res.RowsAffected(); n == 1 && s.OnTimeout != nil {
			s.OnTimeout(ctx, sess.UserID)
		}
		return Session{}, apperr.ErrSessionExpired
	}
	// Touch at most once a minute: a write per request would serialise reads on SQLite.
	if now-sess.LastSeenAt > time.Minute.Milliseconds() {
		if _, err := s.db.Exec(ctx, `UPDATE session SET last_seen_at = ? WHERE id = ?`, now, sess.ID); err != nil {
			return Session{}, err
		}
		sess.LastSeenAt = now
	}
	return sess, nil
}

// End ends one session.
func (s *Store) End(ctx context.Context, id string, reason int) error {
	_, err := s.db.Exec(ctx, `UPDATE session SET ended_at = ?, end_reason = ? WHERE ended_at = 0 AND id = ?`, db.NowMS(), reason, id)
	return err
}

// EndAllOfUser ends every live session of a user except keepID ("" keeps none).
func (s *Store) EndAllOfUser(ctx context.Context, q db.Querier, userID int64, reason int, keepID string) error {
	_, err := q.Exec(ctx, `UPDATE session SET ended_at = ?, end_reason = ? WHERE user_id = ? AND ended_at = 0 AND id <> ?`, db.NowMS(), reason, userID, keepID)
	return err
}

// EndAllOfRole ends every live session of the users holding a role (their keys changed).
func (s *Store) EndAllOfRole(ctx context.Context, q db.Querier, roleID int64) error {
	_, err := q.Exec(ctx, `UPDATE session SET ended_at = ?, end_reason = ? WHERE ended_at = 0 AND user_id IN (SELECT id FROM app_user WHERE role_id = ?)`,
		db.NowMS(), ReasonForcedRelogin, roleID)
	return err
}

// Purge deletes sessions ended or idle for longer than keep (a background job).
func (s *Store) Purge(ctx context.Context, keep time.Duration) error {
	cut := db.NowMS() - keep.Milliseconds()
	_, err := s.db.Exec(ctx, `DELETE FROM session WHERE (ended_at <> 0 AND ended_at < ?) OR last_seen_at < ?`, cut, cut-s.max.Milliseconds())
	return err
}
