// Package actionlog records who did what: logins (type 0), logouts (type 1, with the reasons
// of spec §4) and every state-changing call (type 2).
package actionlog

import (
	"context"
	"net/netip"
	"strings"

	"chargeops/internal/db"
)

// Types of spec §4 plus operations.
const (
	TypeLogin     = 0
	TypeLogout    = 1
	TypeOperation = 2
)

// Entry is one row.
type Entry struct {
	ID        int64  `json:"id"`
	UserID    int64  `json:"userId"`
	UserName  string `json:"userName"`
	Type      int    `json:"type"`
	Action    string `json:"action"`
	Data      string `json:"data"`
	Code      int    `json:"code"`
	Reason    int    `json:"reason"`
	Location  string `json:"location"`
	IP        string `json:"ip"`
	CreatedAt int64  `json:"createdAt"`
}

// Store writes and lists rows.
type Store struct{ db *db.DB }

func NewStore(d *db.DB) *Store { return &Store{db: d} }

// maxData bounds what a row keeps of a request body.
const maxData = 4000

// Write appends a row; Location is derived from the address when empty.
func (s *Store) Write(ctx context.Context, e Entry) error {
	if len(e.Data) > maxData {
		e.Data = e.Data[:maxData] + "…"
	}
	if e.Location == "" {
		e.Location = Location(e.IP)
	}
	_, err := s.db.Exec(ctx, `INSERT INTO action_log (user_id, user_name, type, action, data, code, reason, location, ip, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, e.UserID, e.UserName, e.Type, e.Action, e.Data, e.Code, e.Reason, e.Location, e.IP, db.NowMS())
	return err
}

// Location names where an address is, as far as the server can tell without a geo database.
func Location(ip string) string {
	a, err := netip.ParseAddr(ip)
	switch {
	case err != nil:
		return ""
	case a.IsLoopback():
		return "localhost"
	case a.IsPrivate() || a.IsLinkLocalUnicast():
		return "LAN"
	}
	return ""
}

// Filter filters and orders the list. Sort: "time" (default), "type", "user", each with an
// optional leading '-' for descending; the default is newest first.
type Filter struct {
	db.Page
	Type     *int   `json:"type"`
	UserName string `json:"userName"`
	Action   string `json:"action"`
	From     int64  `json:"from"`
	To       int64  `json:"to"`
	Sort     string `json:"sort"`
}

var sortColumns = map[string]string{"time": "created_at", "type": "type", "user": "user_name", "": "created_at"}

// List returns a page of rows.
func (s *Store) List(ctx context.Context, f Filter) (db.List[Entry], error) {
	where := []string{"1 = 1"}
	var args []any
	if f.Type != nil {
		where, args = append(where, "type = ?"), append(args, *f.Type)
	}
	if f.UserName != "" {
		where, args = append(where, "user_name = ?"), append(args, f.UserName)
	}
	if f.Action != "" {
		where, args = append(where, `action LIKE ? ESCAPE '\'`), append(args, db.Contains(f.Action))
	}
	if f.From > 0 {
		where, args = append(where, "created_at >= ?"), append(args, f.From)
	}
	if f.To > 0 {
		where, args = append(where, "created_at < ?"), append(args, f.To)
	}
	dir := "DESC"
	key := strings.TrimPrefix(f.Sort, "-")
	col, ok := sortColumns[key]
	if !ok {
		col = "created_at"
	}
	if key != "" && !strings.HasPrefix(f.Sort, "-") {
		dir = "ASC"
	}
	cond := " WHERE " + strings.Join(where, " AND ")
	out := db.List[Entry]{List: []Entry{}}
	if err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM action_log`+cond, args...).Scan(&out.Total); err != nil {
		return out, err
	}
	limit, offset := f.Page.LimitOffset()
	rows, err := s.db.Query(ctx, `SELECT id, user_id, user_name, type, action, data, code, reason, location, ip, created_at FROM action_log`+
		cond+` ORDER BY `+col+` `+dir+`, id `+dir+` LIMIT ? OFFSET ?`, append(args, limit, offset)...)
	if err != nil {
		return out, err
	}
	defer rows.Close()
	for rows.Next() {
		var e Entry
		if err := rows.Scan(&e.ID, &e.UserID, &e.UserName, &e.Type, &e.Action, &e.Data, &e.Code, &e.Reason, &e.Location, &e.IP, &e.CreatedAt); err != nil {
			return out, err
		}
		out.List = append(out.List, e)
	}
	return out, rows.Err()
}
