package ticket

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/richtext"
	"chargeops/internal/session"
)

// Share rules (docs/tickets.md, "Anonymous share").
const (
	MaxShareDays    = 3650
	MaxShares       = 50 // shares of one ticket (live or not) listed and allowed
	MaxVisitorName  = 50
	publicWindow    = 5 * time.Minute
	publicPerAddr   = 120 // signed-out ticket calls per client address per window
	publicPerToken  = 60  // calls per share per window
	commentsPerLink = 10  // visitor comments per share per window
	badPerAddr      = 10  // unknown, revoked or expired tokens per address per window
)

var (
	// ErrShareGone answers an unknown, revoked or expired token alike: tokens cannot be probed.
	ErrShareGone  = apperr.New(apperr.NotFound, "err.ticket_share_gone")
	errNoImages   = apperr.InvalidField("comment", "err.ticket_share_no_images")
	errNameNeeded = apperr.InvalidField("name", "err.required")
)

// Share is an anonymous share as the ticket's users see it (the token only when made).
type Share struct {
	ID          int64  `json:"id"`
	TicketID    int64  `json:"ticketId"`
	ExpiresAt   int64  `json:"expiresAt"` // 0: permanent
	Permanent   bool   `json:"permanent"`
	Expired     bool   `json:"expired"`
	Revoked     bool   `json:"revoked"`
	RevokedAt   int64  `json:"revokedAt"`
	CreatedBy   int64  `json:"createdBy"`
	CreatorName string `json:"creatorName"`
	CreatedAt   int64  `json:"createdAt"`
}

// ShareInput shares a ticket: Days (1-3650) or ExpiresAt (a future time, ms); neither is
// permanent.
type ShareInput struct {
	ID        int64 `json:"id"`
	Days      *int  `json:"days"`
	ExpiresAt int64 `json:"expiresAt"`
	// Origin is set by the HTTP layer: the console's origin the link is built on.
	Origin string `json:"-"`
}

// Made is a new share: its link and token (shown once: only the token's hash is kept).
type Made struct {
	ID        int64  `json:"id"`
	URL       string `json:"url"`
	Token     string `json:"token"`
	ExpiresAt int64  `json:"expiresAt"`
}

// ShareURL is the signed-out page of a share.
func ShareURL(origin, token string) string {
	return strings.TrimRight(origin, "/") + "/share/issue?token=" + token
}

// AddShare makes an anonymous share of a ticket in the caller's scope.
func (s *Service) AddShare(ctx context.Context, p *access.Principal, in ShareInput) (Made, error) {
	now := db.NowMS()
	var expires int64
	switch {
	case in.Days != nil && in.ExpiresAt != 0:
		return Made{}, apperr.InvalidField("expiresAt", "err.invalid")
	case in.Days != nil:
		if *in.Days < 0 || *in.Days > MaxShareDays {
			return Made{}, apperr.InvalidField("days", "err.invalid")
		}
		if *in.Days > 0 {
			expires = now + int64(*in.Days)*24*time.Hour.Milliseconds()
		}
	case in.ExpiresAt != 0:
		if in.ExpiresAt <= now || in.ExpiresAt > now+MaxShareDays*24*time.Hour.Milliseconds() {
			return Made{}, apperr.InvalidField("expiresAt", "err.invalid")
		}
		expires = in.ExpiresAt
	}
	x, err := s.get(ctx, s.db, p, in.ID)
	if err != nil {
		return Made{}, err
	}
	var n int
	if err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM ticket_share WHERE ticket_id = ?`, x.ID).Scan(&n); err != nil {
		return Made{}, fmt.Errorf("ticket: count shares: %w", err)
	}
	if n >= MaxShares {
		return Made{}, apperr.New(apperr.Conflict, "err.ticket_share_too_many").With(map[string]any{"max": MaxShares})
	}
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return Made{}, err
	}
	token := hex.EncodeToString(b)
	var id int64
	err = s.db.InTx(ctx, func(tx *db.Tx) error {
		id, err = db.InsertID(ctx, tx, `INSERT INTO ticket_share (ticket_id, token_hash, expires_at, created_by, created_at) VALUES (?, ?, ?, ?, ?)`,
			x.ID, session.HashToken(token), expires, p.UserID, now)
		if err != nil {
			return fmt.Errorf("ticket: share: %w", err)
		}
		return addEntry(ctx, tx, x.ID, Entry{Kind: KindShare, Field: strconv.FormatInt(id, 10), To: strconv.FormatInt(expires, 10)}, p)
	})
	if err != nil {
		return Made{}, err
	}
	return Made{ID: id, URL: ShareURL(in.Origin, token), Token: token, ExpiresAt: expires}, nil
}

// Shares lists a ticket's shares, newest first.
func (s *Service) Shares(ctx context.Context, p *access.Principal, ticketID int64) ([]Share, error) {
	x, err := s.get(ctx, s.db, p, ticketID)
	if err != nil {
		return nil, err
	}
	rows, err := s.db.Query(ctx, `SELECT sh.id, sh.ticket_id, sh.expires_at, sh.revoked_at, sh.created_by, COALESCE(u.user_name, ''), sh.created_at
		FROM ticket_share sh LEFT JOIN app_user u ON u.id = sh.created_by WHERE sh.ticket_id = ? ORDER BY sh.id DESC LIMIT ?`, x.ID, MaxShares)
	if err != nil {
		return nil, fmt.Errorf("ticket: shares: %w", err)
	}
	defer rows.Close()
	out := []Share{}
	now := db.NowMS()
	for rows.Next() {
		var sh Share
		if err := rows.Scan(&sh.ID, &sh.TicketID, &sh.ExpiresAt, &sh.RevokedAt, &sh.CreatedBy, &sh.CreatorName, &sh.CreatedAt); err != nil {
			return nil, err
		}
		sh.Permanent, sh.Revoked = sh.ExpiresAt == 0, sh.RevokedAt > 0
		sh.Expired = !sh.Permanent && sh.ExpiresAt <= now
		out = append(out, sh)
	}
	return out, rows.Err()
}

// RevokeShare ends a share of a ticket in the caller's scope (revoking twice changes nothing).
func (s *Service) RevokeShare(ctx context.Context, p *access.Principal, shareID int64) error {
	var ticketID int64
	err := s.db.QueryRow(ctx, `SELECT ticket_id FROM ticket_share WHERE id = ?`, shareID).Scan(&ticketID)
	if db.NotFound(err) {
		return apperr.ErrNotFound
	}
	if err != nil {
		return fmt.Errorf("ticket: share: %w", err)
	}
	if _, err := s.get(ctx, s.db, p, ticketID); err != nil {
		return err
	}
	return s.db.InTx(ctx, func(tx *db.Tx) error {
		res, err := tx.Exec(ctx, `UPDATE ticket_share SET revoked_at = ? WHERE id = ? AND revoked_at = 0`, db.NowMS(), shareID)
		if err != nil {
			return fmt.Errorf("ticket: revoke: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return nil
		}
		return addEntry(ctx, tx, ticketID, Entry{Kind: KindUnshare, Field: strconv.FormatInt(shareID, 10)}, p)
	})
}

// allow counts one hit of key; over limit is rate limited.
func (s *Service) allow(ctx context.Context, key string, limit int) error {
	if s.limiter == nil {
		return nil
	}
	ok, err := s.limiter.Allow(ctx, key, limit, publicWindow)
	if err != nil {
		return fmt.Errorf("ticket: rate limit: %w", err)
	}
	if !ok {
		return apperr.ErrRateLimited
	}
	return nil
}

// open finds the ticket of a live share: calls are counted per address and per share, and
// unknown, revoked or expired tokens per address (past badPerAddr they are rate limited).
func (s *Service) open(ctx context.Context, token, ip string) (shareID, ticketID, expires int64, err error) {
	if err = s.allow(ctx, "ticket-share:"+ip, publicPerAddr); err != nil {
		return
	}
	token = strings.TrimSpace(token)
	var revoked int64
	err = s.db.QueryRow(ctx, `SELECT id, ticket_id, expires_at, revoked_at FROM ticket_share WHERE token_hash = ?`, session.HashToken(token)).
		Scan(&shareID, &ticketID, &expires, &revoked)
	gone := token == "" || db.NotFound(err) || (err == nil && (revoked > 0 || (expires != 0 && expires <= db.NowMS())))
	if gone {
		if err = s.allow(ctx, "ticket-share-bad:"+ip, badPerAddr); err != nil {
			return
		}
		err = ErrShareGone
		return
	}
	if err != nil {
		err = fmt.Errorf("ticket: share: %w", err)
		return
	}
	err = s.allow(ctx, "ticket-share-token:"+strconv.FormatInt(shareID, 10), publicPerToken)
	return
}

// Shared is what a share's visitor sees: no customer, site or user ids, no login names
// (entries name staff by display name or not at all).
type Shared struct {
	Title           string  `json:"title"`
	Category        int     `json:"category"`
	Priority        int     `json:"priority"`
	State           string  `json:"state"`
	DeviceSN        string  `json:"deviceSn"`
	SoftwareVersion string  `json:"softwareVersion"`
	OccurredAt      int64   `json:"occurredAt"`
	CreatedAt       int64   `json:"createdAt"`
	UpdatedAt       int64   `json:"updatedAt"`
	ClosedAt        int64   `json:"closedAt"`
	Description     string  `json:"description"`
	ExpiresAt       int64   `json:"expiresAt"`
	Entries         []Entry `json:"entries"`
}

// PublicTokenInput names a share by its token.
type PublicTokenInput struct {
	Token string `json:"token"`
}

// PublicDetail is the share page's ticket (signed out).
func (s *Service) PublicDetail(ctx context.Context, token, ip string) (*Shared, error) {
	_, ticketID, expires, err := s.open(ctx, token, ip)
	if err != nil {
		return nil, err
	}
	x, err := scanTicket(s.db.QueryRow(ctx, `SELECT `+ticketCols+` FROM`+ticketFrom+` WHERE t.id = ?`, ticketID))
	if db.NotFound(err) {
		return nil, ErrShareGone
	}
	if err != nil {
		return nil, fmt.Errorf("ticket: shared: %w", err)
	}
	if err := s.fill(ctx, x); err != nil {
		return nil, err
	}
	names, err := s.staffNames(ctx, ticketID)
	if err != nil {
		return nil, err
	}
	for i := range x.Entries {
		e := &x.Entries[i]
		// Staff show by display name, or unnamed (the page says "Staff"): never a login name
		// or an email, which are half of a sign-in.
		e.UserName = names[e.UserID]
		e.UserID = 0
		// Where the ticket belongs is not the visitor's business.
		if e.Field == "site" || e.Field == "customer" {
			e.From, e.To = "", ""
		}
		// Which share an entry is stays hidden; a share's expiry (0: permanent) stays, so the
		// timeline says "until <time>" for a 7-day link, not "permanent" (issue 30 item 13).
		if e.Kind == KindShare || e.Kind == KindUnshare {
			e.Field = ""
		}
	}
	return &Shared{Title: x.Title, Category: x.Category, Priority: x.Priority, State: x.State, DeviceSN: x.DeviceSN, SoftwareVersion: x.SoftwareVersion,
		OccurredAt: x.OccurredAt, CreatedAt: x.CreatedAt, UpdatedAt: x.UpdatedAt, ClosedAt: x.ClosedAt, Description: x.Description,
		ExpiresAt: expires, Entries: x.Entries}, nil
}

// staffNames maps the users of a ticket's entries to what a share's visitor may see of them:
// their display name, unless it is empty, their login name or holds an "@" (an email).
func (s *Service) staffNames(ctx context.Context, ticketID int64) (map[int64]string, error) {
	rows, err := s.db.Query(ctx, `SELECT u.id, u.nick_name, u.user_name FROM app_user u
		WHERE u.id IN (SELECT DISTINCT e.user_id FROM ticket_entry e WHERE e.ticket_id = ?)`, ticketID)
	if err != nil {
		return nil, fmt.Errorf("ticket: staff names: %w", err)
	}
	defer rows.Close()
	out := map[int64]string{}
	for rows.Next() {
		var id int64
		var nick, login string
		if err := rows.Scan(&id, &nick, &login); err != nil {
			return nil, fmt.Errorf("ticket: staff names: %w", err)
		}
		if nick = strings.TrimSpace(nick); nick != "" && !strings.EqualFold(nick, login) && !strings.Contains(nick, "@") {
			out[id] = nick
		}
	}
	return out, rows.Err()
}

// PublicCommentInput is a visitor's comment: the name they type (1-50 characters) and the
// rich text (sanitised, not empty, no storage images: a visitor cannot upload).
type PublicCommentInput struct {
	Token   string `json:"token"`
	Name    string `json:"name"`
	Comment string `json:"comment"`
}

// PublicComment adds a visitor's comment, a process entry marked with their name.
func (s *Service) PublicComment(ctx context.Context, in PublicCommentInput, ip string) error {
	shareID, ticketID, _, err := s.open(ctx, in.Token, ip)
	if err != nil {
		return err
	}
	name := strings.TrimSpace(in.Name)
	switch {
	case name == "":
		return errNameNeeded
	case utf8.RuneCountInString(name) > MaxVisitorName:
		return apperr.New(apperr.Invalid, "err.ticket_too_long").With(map[string]any{"field": "name", "max": MaxVisitorName})
	}
	if len(in.Comment) > MaxText {
		return apperr.New(apperr.Invalid, "err.ticket_text_too_long").With(map[string]any{"field": "comment"})
	}
	body := richtext.Sanitize(in.Comment)
	if len(richtext.ImageKeys(body)) > 0 {
		return errNoImages
	}
	if richtext.Empty(body) {
		return errCommentEmpty
	}
	if err := s.allow(ctx, "ticket-share-comment:"+strconv.FormatInt(shareID, 10), commentsPerLink); err != nil {
		return err
	}
	return addEntry(ctx, s.db, ticketID, Entry{Kind: KindComment, Body: body, Anonymous: name}, nil)
}
