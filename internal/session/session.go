// Package session keeps console sessions in the database, so any node can serve any request.
// Only sha256(token) is stored; a stolen database does not yield usable cookies.
package session

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"sync"
	"time"

	"chargeops/internal/apperr"
	"chargeops/internal/db"
)

// End reasons, the logout reasons of docs/logs.md#action-log.
const (
	ReasonAuthFailed     = 0
	ReasonUserLogout     = 1
	ReasonTimeout        = 2
	ReasonForcedRelogin  = 3
	ReasonAccountDisable = 4 // stored only; reported to the client as 20004
)

// DefaultWatchEvery is how often a watched session is re-read from the database.
const DefaultWatchEvery = 15 * time.Second

// Session is a live session row.
type Session struct {
	ID         string
	UserID     int64
	CSRFToken  string
	CreatedAt  int64
	LastSeenAt int64
}

// Ended is a session that ended without its user logging out (timeout, forced re-login), told
// once to OnEnded so the login log gets its logout row.
type Ended struct {
	UserID int64
	Reason int
	IP     string // where the session was signed in from
}

// Store creates, resolves and ends sessions.
type Store struct {
	db        *db.DB
	idle, max time.Duration
	// OnEnded, when set, is told once of each session found timed out (reason 2) and of each
	// session ended by a forced re-login the first time it is refused (reason 3).
	OnEnded func(ctx context.Context, e Ended)

	mu         sync.Mutex
	watchEvery time.Duration                         // see SetWatchEvery
	watchers   map[string]map[chan struct{}]struct{} // session id → its watchers
}

func NewStore(d *db.DB, idle, max time.Duration) *Store {
	return &Store{db: d, idle: idle, max: max, watchEvery: DefaultWatchEvery, watchers: map[string]map[chan struct{}]struct{}{}}
}

// SetWatchEvery sets how often Watch re-reads a watched session (DefaultWatchEvery; tests
// shorten it): an end written by another node is seen this late at most. It applies to the
// watches started afterwards.
func (s *Store) SetWatchEvery(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if d <= 0 {
		d = DefaultWatchEvery
	}
	s.watchEvery = d
}

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
	if err != nil {
		return "", Session{}, fmt.Errorf("session: create: %w", err)
	}
	return token, sess, nil
}

// Resolve finds the live session of token and counts the request as use. It returns 20001 for
// an unknown token, 20002 for an expired one, 20003 for one ended by a forced re-login, 20004
// for a disabled account.
func (s *Store) Resolve(ctx context.Context, token string) (Session, error) {
	if token == "" {
		return Session{}, apperr.ErrNotLoggedIn
	}
	return s.check(ctx, HashToken(token), true)
}

// Check tells whether the session id is still live, with the errors of Resolve, without
// counting as use (an open event stream must not keep an idle session alive).
func (s *Store) Check(ctx context.Context, id string) error {
	_, err := s.check(ctx, id, false)
	return err
}

func (s *Store) check(ctx context.Context, id string, touch bool) (Session, error) {
	var sess Session
	var endedAt int64
	var reason, endLogged int
	var ip string
	err := s.db.QueryRow(ctx, `SELECT id, user_id, csrf_token, created_at, last_seen_at, ended_at, end_reason, end_logged, ip FROM session WHERE id = ?`, id).
		Scan(&sess.ID, &sess.UserID, &sess.CSRFToken, &sess.CreatedAt, &sess.LastSeenAt, &endedAt, &reason, &endLogged, &ip)
	if db.NotFound(err) {
		return Session{}, apperr.ErrNotLoggedIn
	}
	if err != nil {
		return Session{}, fmt.Errorf("session: resolve: %w", err)
	}
	if endedAt != 0 {
		switch reason {
		case ReasonForcedRelogin:
			if endLogged == 0 {
				if err := s.logEnd(ctx, sess.ID, Ended{UserID: sess.UserID, Reason: reason, IP: ip}); err != nil {
					return Session{}, err
				}
			}
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
		res, err := s.db.Exec(ctx, `UPDATE session SET ended_at = ?, end_reason = ?, end_logged = 1 WHERE id = ? AND ended_at = 0`, now, ReasonTimeout, sess.ID)
		if err != nil {
			return Session{}, fmt.Errorf("session: end timed out: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 1 {
			s.notify(sess.ID)
			if s.OnEnded != nil {
				s.OnEnded(ctx, Ended{UserID: sess.UserID, Reason: ReasonTimeout, IP: ip})
			}
		}
		return Session{}, apperr.ErrSessionExpired
	}
	// Touch at most once a minute: a write per request would serialise reads on SQLite.
	if touch && now-sess.LastSeenAt > time.Minute.Milliseconds() {
		if _, err := s.db.Exec(ctx, `UPDATE session SET last_seen_at = ? WHERE id = ?`, now, sess.ID); err != nil {
			return Session{}, fmt.Errorf("session: touch: %w", err)
		}
		sess.LastSeenAt = now
	}
	return sess, nil
}

// logEnd tells OnEnded of an end once, whichever node or request sees it first.
func (s *Store) logEnd(ctx context.Context, id string, e Ended) error {
	res, err := s.db.Exec(ctx, `UPDATE session SET end_logged = 1 WHERE id = ? AND end_logged = 0`, id)
	if err != nil {
		return fmt.Errorf("session: mark end logged: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 1 && s.OnEnded != nil {
		s.OnEnded(ctx, e)
	}
	return nil
}

// End ends one session.
func (s *Store) End(ctx context.Context, id string, reason int) error {
	if _, err := s.db.Exec(ctx, `UPDATE session SET ended_at = ?, end_reason = ? WHERE ended_at = 0 AND id = ?`, db.NowMS(), reason, id); err != nil {
		return fmt.Errorf("session: end: %w", err)
	}
	s.notify(id)
	return nil
}

// EndAllOfUser ends every live session of a user except keepID ("" keeps none).
func (s *Store) EndAllOfUser(ctx context.Context, q db.Querier, userID int64, reason int, keepID string) error {
	ids, err := db.Column[string](ctx, q, `UPDATE session SET ended_at = ?, end_reason = ? WHERE user_id = ? AND ended_at = 0 AND id <> ? RETURNING id`,
		db.NowMS(), reason, userID, keepID)
	if err != nil {
		return fmt.Errorf("session: end sessions of user %d: %w", userID, err)
	}
	s.notify(ids...)
	return nil
}

// EndAllOfRole ends every live session of the users holding a role (their keys changed).
func (s *Store) EndAllOfRole(ctx context.Context, q db.Querier, roleID int64) error {
	ids, err := db.Column[string](ctx, q, `UPDATE session SET ended_at = ?, end_reason = ? WHERE ended_at = 0 AND user_id IN (SELECT id FROM app_user WHERE role_id = ?) RETURNING id`,
		db.NowMS(), ReasonForcedRelogin, roleID)
	if err != nil {
		return fmt.Errorf("session: end sessions of role %d: %w", roleID, err)
	}
	s.notify(ids...)
	return nil
}

// Watch returns a channel closed when the session id ends: at once when it is ended on this
// node (logout, forced re-login, disable), else when the periodic check (SetWatchEvery) finds it
// ended or expired (an end on another node). stop releases the watch; call it when done.
func (s *Store) Watch(ctx context.Context, id string) (ended <-chan struct{}, stop func()) {
	wake := make(chan struct{}, 1)
	s.mu.Lock()
	if s.watchers[id] == nil {
		s.watchers[id] = map[chan struct{}]struct{}{}
	}
	s.watchers[id][wake] = struct{}{}
	every := s.watchEvery
	s.mu.Unlock()
	done, quit := make(chan struct{}), make(chan struct{})
	go func() {
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-quit:
				return
			case <-wake:
				close(done)
				return
			case <-t.C:
				// A business error (20001-20004) means the session is over; a failing database
				// is not the user's doing, so the stream stays until the next check.
				if _, over := apperr.As(s.Check(ctx, id)); over {
					close(done)
					return
				}
			}
		}
	}()
	var once sync.Once
	return done, func() {
		once.Do(func() {
			close(quit)
			s.mu.Lock()
			delete(s.watchers[id], wake)
			if len(s.watchers[id]) == 0 {
				delete(s.watchers, id)
			}
			s.mu.Unlock()
		})
	}
}

// notify wakes the watchers of ended sessions. It may run inside a transaction that later rolls
// back: a stream closed needlessly reconnects, while one left open would outlive its session.
func (s *Store) notify(ids ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, id := range ids {
		for w := range s.watchers[id] {
			select {
			case w <- struct{}{}:
			default:
			}
		}
	}
}

// Purge deletes sessions ended or idle for longer than keep (a background job).
func (s *Store) Purge(ctx context.Context, keep time.Duration) error {
	cut := db.NowMS() - keep.Milliseconds()
	if _, err := s.db.Exec(ctx, `DELETE FROM session WHERE (ended_at <> 0 AND ended_at < ?) OR last_seen_at < ?`, cut, cut-s.max.Milliseconds()); err != nil {
		return fmt.Errorf("session: purge: %w", err)
	}
	return nil
}
