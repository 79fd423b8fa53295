package remote

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
)

// The link store: devices as remote access sees them, link rows, tokens.

// target is a device in the caller's scope with what its model supports.
type target struct {
	id, modelID int64
	sn          string
	enabled     bool
	ssh, web    bool
}

func (t target) supports(kind string) bool {
	return (kind == KindWeb && t.web) || (kind == KindSSH && t.ssh)
}

// device reads a device in p's scope (not found outside it).
func (s *Service) device(ctx context.Context, p *access.Principal, id int64) (target, error) {
	cond, args := p.Scope.SiteCond("d.customer_id", "d.site_id")
	var t target
	var en, ssh, web int
	err := s.db.QueryRow(ctx, `SELECT d.id, d.model_id, d.sn, d.enabled, m.supports_ssh, m.supports_web FROM device d JOIN device_model m ON m.id = d.model_id
		WHERE d.id = ? AND `+cond, append([]any{id}, args...)...).Scan(&t.id, &t.modelID, &t.sn, &en, &ssh, &web)
	if db.NotFound(err) {
		return t, apperr.ErrNotFound
	}
	if err != nil {
		return t, fmt.Errorf("remote: device: %w", err)
	}
	t.enabled, t.ssh, t.web = en == 1, ssh == 1, web == 1
	return t, nil
}

const linkCols = `l.id, l.device_id, l.sn, l.kind, l.account, l.status, l.minutes, l.opened_by, l.opened_by_name, l.opened_at, l.expires_at,
	l.closed_at, l.close_reason, l.node, l.node_url, l.command_id, m.supports_web, m.supports_ssh`

func scanLink(r db.Scanner) (LinkView, error) {
	var l LinkView
	var web, ssh int
	err := r.Scan(&l.ID, &l.DeviceID, &l.SN, &l.Kind, &l.Account, &l.Status, &l.Minutes, &l.OpenedBy, &l.OpenedByName, &l.OpenedAt, &l.ExpiresAt,
		&l.ClosedAt, &l.CloseReason, &l.Node, &l.nodeURL, &l.CommandID, &web, &ssh)
	l.WebSupported, l.SSHSupported = web == 1, ssh == 1
	if l.Status != StatusClosed {
		if rem := (l.ExpiresAt - db.NowMS()) / 1000; rem > 0 {
			l.RemainingSec = rem
		}
	}
	return l, err
}

const linkFrom = `remote_link l JOIN device d ON d.id = l.device_id JOIN device_model m ON m.id = d.model_id`

// links reads the links matching cond (unscoped: callers checked the device).
func (s *Service) links(ctx context.Context, cond string, args ...any) ([]LinkView, error) {
	return s.linksOrdered(ctx, cond, `l.id`, 1000, args...)
}

func (s *Service) linksOrdered(ctx context.Context, cond, order string, limit int, args ...any) ([]LinkView, error) {
	q := (&db.Query{From: linkFrom}).And(cond, args...)
	out, err := db.All(ctx, s.db, q, linkCols, order, limit, 0, scanLink)
	if err != nil {
		return nil, fmt.Errorf("remote: links: %w", err)
	}
	return out, nil
}

func (s *Service) link(ctx context.Context, id int64) (LinkView, error) {
	list, err := s.linksOrdered(ctx, `l.id = ?`, ``, 1, id)
	if err != nil {
		return LinkView{}, err
	}
	if len(list) == 0 {
		return LinkView{}, ErrNoLink
	}
	return list[0], nil
}

// active is the device's link that is not closed (nil when none).
func (s *Service) active(ctx context.Context, deviceID int64) (*LinkView, error) {
	list, err := s.linksOrdered(ctx, `l.device_id = ? AND l.status < ?`, `l.id DESC`, 1, deviceID, StatusClosed)
	if err != nil || len(list) == 0 {
		return nil, err
	}
	return &list[0], nil
}

// newToken is a random 128-bit token in hex.
func newToken() string {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b)
}

// hashToken is what the database keeps of a token.
func hashToken(tok string) string {
	h := sha256.Sum256([]byte(tok))
	return hex.EncodeToString(h[:])
}

// validToken: 32 hex digits.
func validToken(tok string) bool {
	if len(tok) != 32 {
		return false
	}
	_, err := hex.DecodeString(tok)
	return err == nil
}

var errNoTunnel = errors.New("remote: no tunnel for the link")
