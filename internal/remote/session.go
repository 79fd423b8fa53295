package remote

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"time"

	"chargeops/internal/access"
	"chargeops/internal/actionlog"
	"chargeops/internal/db"
)

// The audit of remote access (docs/remote-access.md, "Audit"): a remote_session row per link,
// web token and terminal session, and when each ends an action-log row (type operation) with
// who, which device, when and how long.

// Action-log actions of ended sessions.
const (
	ActionLink     = "REMOTE link"
	ActionWeb      = "REMOTE web"
	ActionTerminal = "REMOTE terminal"
)

// MaxInput bounds the terminal input a session keeps.
const MaxInput = 64 << 10

// sessionRow is a remote_session row.
type sessionRow struct {
	id, linkID, deviceID int64
	sn, kind             string
	userID               int64
	userName, ip         string
	startedAt, lastSeen  int64
}

// startLinkSession records the link's own session, its opener's, once the tunnel is open.
func (s *Service) startLinkSession(ctx context.Context, linkID int64) error {
	now := db.NowMS()
	_, err := s.db.Exec(ctx, `INSERT INTO remote_session (link_id, device_id, sn, kind, user_id, user_name, node, started_at, last_seen_at)
		SELECT id, device_id, sn, ?, opened_by, opened_by_name, ?, ?, ? FROM remote_link WHERE id = ?`, KindLink, s.opt.Node, now, now, linkID)
	return err
}

// sessionStart is a new web or terminal session.
type sessionStart struct {
	linkID, deviceID int64
	sn, kind         string
	userID           int64
	userName, ip     string
	tokenHash        string
	consoleSession   string // a web token's console session (session.id)
}

func (s *Service) startSession(ctx context.Context, in sessionStart) (int64, error) {
	now := db.NowMS()
	id, err := db.InsertID(ctx, s.db, `INSERT INTO remote_session (link_id, device_id, sn, kind, user_id, user_name, token_hash, console_session, node, ip,
		started_at, last_seen_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, in.linkID, in.deviceID, in.sn, in.kind, in.userID, in.userName, in.tokenHash,
		in.consoleSession, s.opt.Node, in.ip, now, now)
	if err != nil {
		return 0, fmt.Errorf("remote: add session: %w", err)
	}
	return id, nil
}

// endSessions ends the open sessions matching cond (link and web sessions; a terminal ends
// itself, endTerminal) and writes an action-log row for each this call ended.
func (s *Service) endSessions(ctx context.Context, cond string, args ...any) error {
	rows, err := s.db.Query(ctx, `SELECT id, link_id, device_id, sn, kind, user_id, user_name, ip, started_at, last_seen_at FROM remote_session
		WHERE ended_at = 0 AND `+cond, args...)
	if err != nil {
		return fmt.Errorf("remote: sessions: %w", err)
	}
	var list []sessionRow
	for rows.Next() {
		var r sessionRow
		if err := rows.Scan(&r.id, &r.linkID, &r.deviceID, &r.sn, &r.kind, &r.userID, &r.userName, &r.ip, &r.startedAt, &r.lastSeen); err != nil {
			rows.Close()
			return fmt.Errorf("remote: sessions: %w", err)
		}
		list = append(list, r)
	}
	rows.Close()
	for _, r := range list {
		ended := db.NowMS()
		if r.kind == KindWeb { // a web session lasted from its token to its last request
			ended = max(r.lastSeen, r.startedAt)
		}
		// A web session keeps its token's hash: a request on it after the end is told why it
		// is refused (webGrant).
		res, err := s.db.Exec(ctx, `UPDATE remote_session SET ended_at = ? WHERE id = ? AND ended_at = 0`, ended, r.id)
		if err != nil {
			return fmt.Errorf("remote: end session: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 1 {
			s.audit(ctx, r, ended, 0, nil)
		}
	}
	return nil
}

// endIdleWeb ends web sessions unused since before.
func (s *Service) endIdleWeb(ctx context.Context, before int64) error {
	return s.endSessions(ctx, `kind = ? AND last_seen_at < ?`, KindWeb, before)
}

// endSignedOutWeb ends web sessions whose console session ended (signed out, forced re-login,
// account disabled) or is gone (account deleted); a request on one is refused anyway
// (webGrant), this writes their audit rows without waiting for a request or WebIdle.
func (s *Service) endSignedOutWeb(ctx context.Context) error {
	return s.endSessions(ctx, `kind = ? AND NOT EXISTS (SELECT 1 FROM session cs WHERE cs.id = remote_session.console_session AND cs.ended_at = 0)`, KindWeb)
}

// audit writes the action-log row of an ended session.
func (s *Service) audit(ctx context.Context, r sessionRow, ended int64, code int, extra map[string]any) {
	action := map[string]string{KindLink: ActionLink, KindWeb: ActionWeb, KindSSH: ActionTerminal}[r.kind]
	data := map[string]any{"sessionId": r.id, "linkId": r.linkID, "deviceId": r.deviceID, "sn": r.sn, "kind": r.kind,
		"startedAt": r.startedAt, "endedAt": ended, "durationSec": (ended - r.startedAt) / 1000}
	for k, v := range extra {
		data[k] = v
	}
	b, _ := json.Marshal(data)
	e := actionlog.Entry{UserID: r.userID, UserName: r.userName, Type: actionlog.TypeOperation, Action: action, Data: string(b), Code: code, IP: r.ip}
	if err := s.log.Write(ctx, e); err != nil {
		slog.Error("remote audit row not written", "session", r.id, "err", err)
	}
}

// SessionView is a session as link/session/list shows it.
type SessionView struct {
	ID             int64  `json:"id"`
	LinkID         int64  `json:"linkId"`
	DeviceID       int64  `json:"deviceId"`
	SN             string `json:"sn"`
	Kind           string `json:"kind"`
	UserID         int64  `json:"userId"`
	UserName       string `json:"userName"`
	IP             string `json:"ip"`
	Node           string `json:"node"`
	StartedAt      int64  `json:"startedAt"`
	EndedAt        int64  `json:"endedAt"`
	DurationSec    int64  `json:"durationSec"`
	Input          string `json:"input"`
	InputTruncated bool   `json:"inputTruncated"`
	InputHidden    bool   `json:"inputHidden"`
}

// SessionListInput filters the session list (newest first).
type SessionListInput struct {
	db.Page
	DeviceID int64 `json:"deviceId"`
}

// Sessions lists the sessions of devices in p's scope; a terminal's input is shown only to
// holders of auth_logs_action (InputHidden otherwise).
func (s *Service) Sessions(ctx context.Context, p *access.Principal, in SessionListInput) (db.List[SessionView], error) {
	cond, args := p.Scope.SiteCond("d.customer_id", "d.site_id")
	q := (&db.Query{From: `remote_session rs JOIN device d ON d.id = rs.device_id`}).And(cond, args...)
	if in.DeviceID > 0 {
		q.And(`rs.device_id = ?`, in.DeviceID)
	}
	auditor := p.HasAny("auth_logs_action")
	now := db.NowMS()
	out, err := db.Paged(ctx, s.db, q, `rs.id, rs.link_id, rs.device_id, rs.sn, rs.kind, rs.user_id, rs.user_name, rs.ip, rs.node, rs.started_at, rs.ended_at,
		rs.input, rs.input_truncated`, `rs.id DESC`, in.Page, func(r db.Scanner) (SessionView, error) {
		var v SessionView
		var trunc int
		err := r.Scan(&v.ID, &v.LinkID, &v.DeviceID, &v.SN, &v.Kind, &v.UserID, &v.UserName, &v.IP, &v.Node, &v.StartedAt, &v.EndedAt, &v.Input, &trunc)
		v.InputTruncated = trunc == 1
		end := v.EndedAt
		if end == 0 {
			end = now
		}
		v.DurationSec = max(0, end-v.StartedAt) / 1000
		if !auditor && v.Kind == KindSSH {
			v.Input, v.InputHidden = "", true
		}
		return v, err
	})
	if err != nil {
		return out, fmt.Errorf("remote: session list: %w", err)
	}
	return out, nil
}

// Purge deletes the audit of remote access older than days (ended sessions, and closed links
// whose validity ended before the horizon), in bounded batches; 0 keeps them. It follows the
// action log's retention: both are who-did-what records (docs/configuration.md, "Retention").
func (s *Service) Purge(ctx context.Context, days int) (int64, error) {
	if days <= 0 {
		return 0, nil
	}
	horizon := time.Now().AddDate(0, 0, -days).UnixMilli()
	n, err := db.Purge(ctx, s.db, "remote_session", "id", "ended_at > 0 AND ended_at < ?", 100, horizon)
	if err != nil {
		return n, err
	}
	m, err := db.Purge(ctx, s.db, "remote_link", "id", "status = 3 AND expires_at < ?", 100, horizon)
	return n + m, err
}
