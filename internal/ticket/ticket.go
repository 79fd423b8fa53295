// Package ticket is the server side of tickets ("issues" in the spec; docs/tickets.md):
// charger problems with a category, a priority and a state, scoped like devices (a ticket
// belongs to its customer and site, taken from its device when it has one), a process of every
// change, rich-text comments sanitised on the server, and anonymous shares.
package ticket

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/ratelimit"
	"chargeops/internal/richtext"
	"chargeops/internal/storage"
)

// States (docs/tickets.md, "States").
const (
	StateOpen    = "open"
	StatePending = "pending"
	StateClosed  = "closed"
	StateReopen  = "reopen"
)

// Categories 1-5 (1 Charging Issue, 2 Software Bug, 3 Hardware Defect, 4 Device-Independent
// Issue, 5 Other) and priorities 0 OA, 1 MA, 2 CA.
const (
	CategoryMin               = 1
	CategoryDeviceIndependent = 4
	CategoryMax               = 5
	PriorityMin               = 0
	PriorityMax               = 2
)

// Bounds of one ticket.
const (
	MaxTitle   = 200
	MaxVersion = 64
	MaxText    = 200_000 // bytes of a description or a comment (sanitised HTML)
	MaxEntries = 1000    // process entries a detail answers (the newest)
)

// Entry kinds of the process.
const (
	KindCreate  = "create"
	KindField   = "field"
	KindState   = "state"
	KindComment = "comment"
	KindShare   = "share"
	KindUnshare = "unshare"
)

var (
	errClosed       = apperr.New(apperr.Conflict, "err.ticket_closed")
	errState        = apperr.New(apperr.Conflict, "err.ticket_state")
	errCommentEmpty = apperr.InvalidField("comment", "err.ticket_comment_empty")
)

// Service keeps tickets, their process and shares.
type Service struct {
	db      *db.DB
	uploads *storage.Service
	limiter *ratelimit.Limiter
}

// New serves tickets; images of rich text live in uploads' store (nil: no images resolve).
func New(d *db.DB, uploads *storage.Service, limiter *ratelimit.Limiter) *Service {
	return &Service{db: d, uploads: uploads, limiter: limiter}
}

// Ticket is one ticket as a list row or a detail (Description and Entries only in a detail).
type Ticket struct {
	ID              int64   `json:"id"`
	Title           string  `json:"title"`
	Category        int     `json:"category"`
	Priority        int     `json:"priority"`
	State           string  `json:"state"`
	OccurredAt      int64   `json:"occurredAt"`
	SoftwareVersion string  `json:"softwareVersion"`
	CustomerID      int64   `json:"customerId"`
	CustomerName    string  `json:"customerName"`
	SiteID          int64   `json:"siteId"`
	SiteName        string  `json:"siteName"`
	DeviceID        int64   `json:"deviceId"`
	DeviceSN        string  `json:"deviceSn"`
	DeviceName      string  `json:"deviceName"`
	EventID         int64   `json:"eventId"`
	Comments        int64   `json:"comments"`
	CreatedBy       int64   `json:"createdBy"`
	CreatorName     string  `json:"creatorName"`
	CreatedAt       int64   `json:"createdAt"`
	UpdatedAt       int64   `json:"updatedAt"`
	ClosedAt        int64   `json:"closedAt"`
	Description     string  `json:"description,omitempty"`
	Entries         []Entry `json:"entries,omitempty"`
}

// Entry is one step of a ticket's process: who, what, when (from -> to for fields and
// states); a comment's sanitised HTML in Body. Anonymous is the name a share's visitor typed.
type Entry struct {
	ID        int64  `json:"id"`
	Kind      string `json:"kind"`
	Field     string `json:"field"`
	From      string `json:"from"`
	To        string `json:"to"`
	Body      string `json:"body"`
	UserID    int64  `json:"userId"`
	UserName  string `json:"userName"`
	Anonymous string `json:"anonymous"`
	CreatedAt int64  `json:"createdAt"`
}

// commentedEntry: the process entries that carry a comment a reader sees, plain comments (a
// visitor's too) and state changes given with one (close and reopen require it); the list's
// count is theirs (docs/tickets.md).
const commentedEntry = `(e.kind = '` + KindComment + `' OR (e.kind = '` + KindState + `' AND e.body <> ''))`

const ticketCols = `t.id, t.title, t.category, t.priority, t.state, t.occurred_at, t.software_version, t.customer_id, COALESCE(c.name, ''),
	t.site_id, COALESCE(s.name, ''), t.device_id, COALESCE(d.sn, ''), COALESCE(d.name, ''), t.event_id,
	(SELECT COUNT(*) FROM ticket_entry e WHERE e.ticket_id = t.id AND ` + commentedEntry + `),
	t.created_by, COALESCE(u.user_name, ''), t.created_at, t.updated_at, t.closed_at`

const ticketFrom = ` ticket t LEFT JOIN customer c ON c.id = t.customer_id LEFT JOIN site s ON s.id = t.site_id
	LEFT JOIN device d ON d.id = t.device_id LEFT JOIN app_user u ON u.id = t.created_by`

func scanTicket(sc db.Scanner) (*Ticket, error) {
	x := &Ticket{}
	err := sc.Scan(&x.ID, &x.Title, &x.Category, &x.Priority, &x.State, &x.OccurredAt, &x.SoftwareVersion, &x.CustomerID, &x.CustomerName,
		&x.SiteID, &x.SiteName, &x.DeviceID, &x.DeviceSN, &x.DeviceName, &x.EventID, &x.Comments,
		&x.CreatedBy, &x.CreatorName, &x.CreatedAt, &x.UpdatedAt, &x.ClosedAt)
	return x, err
}

// scopeCond limits tickets like devices: by customer and, for site-limited roles, by site.
func scopeCond(p *access.Principal) (string, []any) {
	return p.Scope.SiteCond("t.customer_id", "t.site_id")
}

// ListInput filters the list: Tab open (open, pending, reopen), closed, or all ("").
type ListInput struct {
	Tab        string `json:"tab"`
	Category   *int   `json:"category"`
	Priority   *int   `json:"priority"`
	DeviceID   int64  `json:"deviceId"`
	SN         string `json:"sn"`
	SiteID     int64  `json:"siteId"`
	CustomerID int64  `json:"customerId"`
	Text       string `json:"text"`
	Sort       string `json:"sort"`
	db.Page
}

var sortColumns = map[string]string{"createdAt": "t.created_at", "updatedAt": "t.updated_at", "occurredAt": "t.occurred_at", "priority": "t.priority", "category": "t.category", "title": "t.title"}

// List answers one page of the tickets in the caller's scope, newest first by default.
func (s *Service) List(ctx context.Context, p *access.Principal, in ListInput) (db.List[*Ticket], error) {
	cond, args := scopeCond(p)
	q := &db.Query{From: ticketFrom}
	q.And(cond, args...)
	switch in.Tab {
	case "", "all":
	case "open":
		q.And(`t.state IN (?, ?, ?)`, StateOpen, StatePending, StateReopen)
	case "closed":
		q.And(`t.state = ?`, StateClosed)
	default:
		return db.List[*Ticket]{}, apperr.InvalidField("tab", "err.invalid")
	}
	if in.Category != nil {
		q.And(`t.category = ?`, *in.Category)
	}
	if in.Priority != nil {
		q.And(`t.priority = ?`, *in.Priority)
	}
	if in.DeviceID > 0 {
		q.And(`t.device_id = ?`, in.DeviceID)
	}
	if sn := strings.TrimSpace(in.SN); sn != "" {
		q.And(`LOWER(d.sn) LIKE LOWER(?) ESCAPE '\'`, db.Contains(sn))
	}
	if in.SiteID > 0 {
		q.And(`t.site_id = ?`, in.SiteID)
	}
	if in.CustomerID > 0 {
		q.And(`t.customer_id = ?`, in.CustomerID)
	}
	if text := strings.TrimSpace(in.Text); text != "" {
		q.And(`(LOWER(t.title) LIKE LOWER(?) ESCAPE '\' OR LOWER(d.sn) LIKE LOWER(?) ESCAPE '\')`, db.Contains(text), db.Contains(text))
	}
	order := db.SortOrder(in.Sort, sortColumns, "t.id DESC")
	if order != "t.id DESC" {
		order += ", t.id DESC"
	}
	out, err := db.Paged(ctx, s.db, q, ticketCols, order, in.Page, scanTicket)
	if err != nil {
		return out, fmt.Errorf("ticket: list: %w", err)
	}
	return out, nil
}

// get reads a ticket in the caller's scope; anything else is not found.
func (s *Service) get(ctx context.Context, q db.Querier, p *access.Principal, id int64) (*Ticket, error) {
	cond, args := scopeCond(p)
	x, err := scanTicket(q.QueryRow(ctx, `SELECT `+ticketCols+` FROM`+ticketFrom+` WHERE t.id = ? AND `+cond, append([]any{id}, args...)...))
	if db.NotFound(err) {
		return nil, apperr.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("ticket: get: %w", err)
	}
	return x, nil
}

// Detail is one ticket with its description and process, images signed for the reader.
func (s *Service) Detail(ctx context.Context, p *access.Principal, id int64) (*Ticket, error) {
	x, err := s.get(ctx, s.db, p, id)
	if err != nil {
		return nil, err
	}
	return x, s.fill(ctx, x)
}

// fill reads a ticket's description and newest entries (oldest first), images resolved.
func (s *Service) fill(ctx context.Context, x *Ticket) error {
	if err := s.db.QueryRow(ctx, `SELECT description FROM ticket WHERE id = ?`, x.ID).Scan(&x.Description); err != nil {
		return fmt.Errorf("ticket: description: %w", err)
	}
	sign := s.signer(ctx)
	x.Description = richtext.Resolve(x.Description, sign)
	rows, err := s.db.Query(ctx, `SELECT id, kind, field, from_value, to_value, body, user_id, user_name, anonymous_name, created_at
		FROM ticket_entry WHERE ticket_id = ? ORDER BY id DESC LIMIT ?`, x.ID, MaxEntries)
	if err != nil {
		return fmt.Errorf("ticket: entries: %w", err)
	}
	defer rows.Close()
	x.Entries = []Entry{}
	for rows.Next() {
		var e Entry
		if err := rows.Scan(&e.ID, &e.Kind, &e.Field, &e.From, &e.To, &e.Body, &e.UserID, &e.UserName, &e.Anonymous, &e.CreatedAt); err != nil {
			return err
		}
		e.Body = richtext.Resolve(e.Body, sign)
		x.Entries = append(x.Entries, e)
	}
	for i, j := 0, len(x.Entries)-1; i < j; i, j = i+1, j-1 {
		x.Entries[i], x.Entries[j] = x.Entries[j], x.Entries[i]
	}
	return rows.Err()
}

// signer signs storage images of rich text for the reader (the storage's link TTL).
func (s *Service) signer(ctx context.Context) func(string) string {
	return func(key string) string { return s.uploads.SignedURL(ctx, key) }
}

// cleanText sanitises rich text and checks its storage images are readable by the author.
func (s *Service) cleanText(ctx context.Context, p *access.Principal, field, html string) (string, error) {
	if len(html) > MaxText {
		return "", apperr.New(apperr.Invalid, "err.ticket_text_too_long").With(map[string]any{"field": field})
	}
	clean := richtext.Sanitize(html)
	if !s.uploads.AllReadable(ctx, p, richtext.ImageKeys(clean)) {
		return "", apperr.InvalidField(field, "err.ticket_image")
	}
	return clean, nil
}

// Input adds a ticket (ID 0) or changes one. The device, when set, decides the site and the
// customer; without a device (category 4 only) the site decides the customer, else customerId.
type Input struct {
	ID              int64  `json:"id"`
	Title           string `json:"title"`
	Category        int    `json:"category"`
	Priority        *int   `json:"priority"`
	OccurredAt      int64  `json:"occurredAt"`
	DeviceID        int64  `json:"deviceId"`
	SiteID          int64  `json:"siteId"`
	CustomerID      int64  `json:"customerId"`
	SoftwareVersion string `json:"softwareVersion"`
	Description     string `json:"description"`
	EventID         int64  `json:"eventId"`
}

// placed is what a checked input stores.
type placed struct {
	title, version, description             string
	category, priority                      int
	occurred, device, site, customer, event int64
}

func (s *Service) check(ctx context.Context, p *access.Principal, in Input) (placed, error) {
	var v placed
	v.title = strings.TrimSpace(in.Title)
	switch {
	case v.title == "":
		return v, apperr.InvalidField("title", "err.required")
	case utf8.RuneCountInString(v.title) > MaxTitle:
		return v, apperr.New(apperr.Invalid, "err.ticket_too_long").With(map[string]any{"field": "title", "max": MaxTitle})
	}
	if in.Category < CategoryMin || in.Category > CategoryMax {
		return v, apperr.InvalidField("category", "err.invalid")
	}
	v.category = in.Category
	if in.Priority == nil {
		return v, apperr.InvalidField("priority", "err.required")
	}
	if *in.Priority < PriorityMin || *in.Priority > PriorityMax {
		return v, apperr.InvalidField("priority", "err.invalid")
	}
	v.priority = *in.Priority
	if in.OccurredAt <= 0 {
		return v, apperr.InvalidField("occurredAt", "err.required")
	}
	v.occurred = in.OccurredAt
	v.version = strings.TrimSpace(in.SoftwareVersion)
	if utf8.RuneCountInString(v.version) > MaxVersion {
		return v, apperr.New(apperr.Invalid, "err.ticket_too_long").With(map[string]any{"field": "softwareVersion", "max": MaxVersion})
	}
	switch {
	case in.DeviceID > 0:
		cond, args := p.Scope.SiteCond("d.customer_id", "d.site_id")
		var version string
		err := s.db.QueryRow(ctx, `SELECT d.site_id, d.customer_id, d.software_version FROM device d WHERE d.id = ? AND `+cond, append([]any{in.DeviceID}, args...)...).
			Scan(&v.site, &v.customer, &version)
		if db.NotFound(err) {
			return v, apperr.InvalidField("deviceId", "err.invalid")
		}
		if err != nil {
			return v, fmt.Errorf("ticket: device: %w", err)
		}
		v.device = in.DeviceID
		if v.version == "" {
			v.version = version
		}
	case in.Category != CategoryDeviceIndependent:
		return v, apperr.InvalidField("deviceId", "err.required")
	case in.SiteID > 0:
		cond, args := p.Scope.SiteCond("customer_id", "id")
		err := s.db.QueryRow(ctx, `SELECT customer_id FROM site WHERE id = ? AND `+cond, append([]any{in.SiteID}, args...)...).Scan(&v.customer)
		if db.NotFound(err) {
			return v, apperr.InvalidField("siteId", "err.invalid")
		}
		if err != nil {
			return v, fmt.Errorf("ticket: site: %w", err)
		}
		v.site = in.SiteID
	case !p.Scope.AllSites:
		// A site-limited user sees tickets of their sites only: theirs need one.
		return v, apperr.InvalidField("siteId", "err.required")
	default:
		v.customer = in.CustomerID
		if v.customer == 0 {
			v.customer = p.CustomerID
		}
		var n int
		if err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM customer WHERE id = ?`, v.customer).Scan(&n); err != nil {
			return v, fmt.Errorf("ticket: customer: %w", err)
		}
		if n == 0 || !p.Scope.HasCustomer(v.customer) {
			return v, apperr.InvalidField("customerId", "err.invalid")
		}
	}
	if in.EventID > 0 {
		if v.device == 0 {
			return v, apperr.InvalidField("eventId", "err.invalid")
		}
		var n int
		if err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM device_event WHERE id = ? AND device_id = ?`, in.EventID, v.device).Scan(&n); err != nil {
			return v, fmt.Errorf("ticket: alarm: %w", err)
		}
		if n == 0 {
			return v, apperr.InvalidField("eventId", "err.invalid")
		}
		v.event = in.EventID
	}
	desc, err := s.cleanText(ctx, p, "description", in.Description)
	if err != nil {
		return v, err
	}
	v.description = desc
	return v, nil
}

// Add makes a ticket (state open) and its first process entry.
func (s *Service) Add(ctx context.Context, p *access.Principal, in Input) (int64, error) {
	v, err := s.check(ctx, p, in)
	if err != nil {
		return 0, err
	}
	var id int64
	err = s.db.InTx(ctx, func(tx *db.Tx) error {
		now := db.NowMS()
		id, err = db.InsertID(ctx, tx, `INSERT INTO ticket (customer_id, site_id, device_id, event_id, title, category, priority, state, occurred_at,
			software_version, description, created_by, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			v.customer, v.site, v.device, v.event, v.title, v.category, v.priority, StateOpen, v.occurred, v.version, v.description, p.UserID, now, now)
		if err != nil {
			return fmt.Errorf("ticket: add: %w", err)
		}
		return addEntry(ctx, tx, id, Entry{Kind: KindCreate, To: StateOpen}, p)
	})
	return id, err
}

// addEntry appends a process entry by a signed-in user (p) or a share's visitor (p nil).
func addEntry(ctx context.Context, q db.Querier, ticketID int64, e Entry, p *access.Principal) error {
	if p != nil {
		e.UserID, e.UserName = p.UserID, p.UserName
	}
	now := db.NowMS()
	if _, err := q.Exec(ctx, `INSERT INTO ticket_entry (ticket_id, kind, field, from_value, to_value, body, user_id, user_name, anonymous_name, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, ticketID, e.Kind, e.Field, e.From, e.To, e.Body, e.UserID, e.UserName, e.Anonymous, now); err != nil {
		return fmt.Errorf("ticket: entry: %w", err)
	}
	if _, err := q.Exec(ctx, `UPDATE ticket SET updated_at = ? WHERE id = ?`, now, ticketID); err != nil {
		return fmt.Errorf("ticket: touch: %w", err)
	}
	return nil
}

// Update changes a ticket's fields (not a closed one: reopen it first); each changed field is a
// process entry from -> to (the description's entry carries no values).
func (s *Service) Update(ctx context.Context, p *access.Principal, in Input) error {
	old, err := s.get(ctx, s.db, p, in.ID)
	if err != nil {
		return err
	}
	if old.State == StateClosed {
		return errClosed
	}
	v, err := s.check(ctx, p, in)
	if err != nil {
		return err
	}
	var oldDesc string
	if err := s.db.QueryRow(ctx, `SELECT description FROM ticket WHERE id = ?`, old.ID).Scan(&oldDesc); err != nil {
		return fmt.Errorf("ticket: description: %w", err)
	}
	return s.db.InTx(ctx, func(tx *db.Tx) error {
		names := func(table string, id int64) string {
			if id == 0 {
				return ""
			}
			var n string
			col := "name"
			if table == "device" {
				col = "sn"
			}
			_ = tx.QueryRow(ctx, `SELECT `+col+` FROM `+table+` WHERE id = ?`, id).Scan(&n)
			return n
		}
		i64 := func(n int64) string { return strconv.FormatInt(n, 10) }
		type change struct {
			field, from, to string
			same            bool
		}
		changes := []change{
			{"title", old.Title, v.title, old.Title == v.title},
			{"category", strconv.Itoa(old.Category), strconv.Itoa(v.category), old.Category == v.category},
			{"priority", strconv.Itoa(old.Priority), strconv.Itoa(v.priority), old.Priority == v.priority},
			{"occurredAt", i64(old.OccurredAt), i64(v.occurred), old.OccurredAt == v.occurred},
			{"device", old.DeviceSN, names("device", v.device), old.DeviceID == v.device},
			{"site", old.SiteName, names("site", v.site), old.SiteID == v.site},
			{"customer", old.CustomerName, names("customer", v.customer), old.CustomerID == v.customer},
			{"softwareVersion", old.SoftwareVersion, v.version, old.SoftwareVersion == v.version},
			{"alarm", i64(old.EventID), i64(v.event), old.EventID == v.event},
			{"description", "", "", oldDesc == v.description},
		}
		n := 0
		for _, c := range changes {
			if c.same {
				continue
			}
			n++
			if err := addEntry(ctx, tx, old.ID, Entry{Kind: KindField, Field: c.field, From: c.from, To: c.to}, p); err != nil {
				return err
			}
		}
		if n == 0 {
			return nil
		}
		_, err := tx.Exec(ctx, `UPDATE ticket SET customer_id = ?, site_id = ?, device_id = ?, event_id = ?, title = ?, category = ?, priority = ?,
			occurred_at = ?, software_version = ?, description = ? WHERE id = ?`,
			v.customer, v.site, v.device, v.event, v.title, v.category, v.priority, v.occurred, v.version, v.description, old.ID)
		if err != nil {
			return fmt.Errorf("ticket: update: %w", err)
		}
		return nil
	})
}
