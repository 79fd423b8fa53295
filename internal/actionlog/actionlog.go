// Package actionlog records who did what: logins (type 0), logouts (type 1, with the reasons
// of docs/logs.md#action-log) and every state-changing call (type 2).
package actionlog

import (
	"context"

	"chargeops/internal/access"
	"chargeops/internal/db"
	"chargeops/internal/i18n"
	"chargeops/internal/region"
)

// Types of docs/logs.md#action-log plus operations.
const (
	TypeLogin     = 0
	TypeLogout    = 1
	TypeOperation = 2
)

// Entry is one row.
type Entry struct {
	ID       int64  `json:"id"`
	UserID   int64  `json:"userId"`
	UserName string `json:"userName"`
	Type     int    `json:"type"`
	Action   string `json:"action"`
	// ActionName is the action as the route table names it in the caller's language ("Add a
	// user"), '' when no route has that "METHOD path" (not stored; issue 30 item 19).
	ActionName string `json:"actionName"`
	Data       string `json:"data"`
	Code       int    `json:"code"`
	Reason     int    `json:"reason"`
	Location   string `json:"location"`
	IP         string `json:"ip"`
	CreatedAt  int64  `json:"createdAt"`
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

// Location is the region code of an address from the compiled-in range table; an address it
// does not place is the default region, China, Guangdong, Shenzhen (docs/logs.md, "Location").
func Location(ip string) string { return region.Locate(ip) }

// LocationName is a stored location as shown in locale: a region code named from its country
// down ("China, Guangdong, Shenzhen"); "localhost" and "LAN", which rows written before the
// region table hold, in words; anything else as stored.
func LocationName(locale, stored string) string {
	switch stored {
	case "localhost", "LAN":
		return i18n.T(locale, "log.location."+stored, nil)
	}
	name, _ := region.Path(locale, stored)
	return name
}

// Filter filters and orders the list. Sort: "time" (default), "type", "user", each with an
// optional leading '-' for descending; the default is newest first. UserID is the console's
// logs/action/:type?/:id? route parameter: the rows of one user (docs/logs.md).
type Filter struct {
	db.Page
	Type     *int   `json:"type"`
	UserID   int64  `json:"userId"`
	UserName string `json:"userName"`
	Action   string `json:"action"`
	From     int64  `json:"from"`
	To       int64  `json:"to"`
	Sort     string `json:"sort"`
	// Names names a stored action ("METHOD path") in a language (the route table's names, set
	// by the HTTP layer); nil leaves rows unnamed.
	Names func(locale, action string) string `json:"-"`
}

var sortColumns = map[string]string{"time": "created_at", "type": "type", "user": "user_name"}

// List returns a page of the rows p may read: those of users p may see (root's only to root;
// sign-ins of unknown names and platform users' rows only to callers who see every customer).
func (s *Store) List(ctx context.Context, p *access.Principal, locale string, f Filter) (db.List[Entry], error) {
	out, err := db.Paged(ctx, s.db, f.query(p), entryCols, f.order(), f.Page, scanEntry)
	for i := range out.List {
		out.List[i].Location = LocationName(locale, out.List[i].Location)
		if f.Names != nil {
			out.List[i].ActionName = f.Names(locale, out.List[i].Action)
		}
	}
	return out, err
}

const entryCols = "id, user_id, user_name, type, action, data, code, reason, location, ip, created_at"

func scanEntry(r db.Scanner) (Entry, error) {
	var e Entry
	err := r.Scan(&e.ID, &e.UserID, &e.UserName, &e.Type, &e.Action, &e.Data, &e.Code, &e.Reason, &e.Location, &e.IP, &e.CreatedAt)
	return e, err
}

func (f Filter) order() string {
	return db.SortOrder(f.Sort, sortColumns, "created_at DESC") + ", id DESC"
}

// query is the scoped, filtered selection of the list and the export.
func (f Filter) query(p *access.Principal) *db.Query {
	cond, args := p.UserRowsCond("user_id")
	q := (&db.Query{From: "action_log"}).And(cond, args...)
	if f.Type != nil {
		q.And("type = ?", *f.Type)
	}
	if f.UserID > 0 {
		q.And("user_id = ?", f.UserID)
	}
	if f.UserName != "" {
		q.And("user_name = ?", f.UserName)
	}
	if f.Action != "" {
		q.And(`action LIKE ? ESCAPE '\'`, db.Contains(f.Action))
	}
	if f.From > 0 {
		q.And("created_at >= ?", f.From)
	}
	if f.To > 0 {
		q.And("created_at < ?", f.To)
	}
	return q
}
