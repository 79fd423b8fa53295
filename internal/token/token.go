// Package token owns a customer's tokens (idTags): the register (list, add, edit, block,
// delete, expiry, parent groups, xlsx import), the customer's policy for unknown tokens, the
// authority the gateway asks on every Authorize and StartTransaction (fleet.TokenAuthority),
// and the local authorization list the chargers hold (docs/tokens.md).
package token

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/fleet"
	"chargeops/internal/kit"
)

// Token status.
const (
	StatusActive  = 0
	StatusBlocked = 1
)

// Where a token came from.
const (
	OriginAdded    = 0
	OriginImported = 1
	OriginRecorded = 2 // an unknown token accepted by the customer's policy
)

// MaxTagLength is OCPP 1.6's IdToken length (CiString20Type).
const MaxTagLength = 20

const (
	maxName = 64
	maxNote = 255
	maxIDs  = 1000
)

// Token as the API shows it.
type Token struct {
	ID           int64  `json:"id"`
	CustomerID   int64  `json:"customerId"`
	CustomerName string `json:"customerName"`
	IDTag        string `json:"idTag"`
	ParentIDTag  string `json:"parentIdTag"`
	Name         string `json:"name"`
	Note         string `json:"note"`
	Status       int    `json:"status"`    // 0 active, 1 blocked
	ExpiresAt    int64  `json:"expiresAt"` // unix ms, 0: never
	Priority     int    `json:"priority"`  // in site load management, -10..10: higher first (docs/smart-charging.md)
	Expired      bool   `json:"expired"`
	Origin       int    `json:"origin"` // 0 added, 1 imported, 2 recorded unknown
	LastUsedAt   int64  `json:"lastUsedAt"`
	CreatedAt    int64  `json:"createdAt"`
	UpdatedAt    int64  `json:"updatedAt"`
}

// Service reads and changes tokens within the caller's customer scope (a token belongs to one
// customer; every statement carries p.Scope.CustomerCond).
type Service struct {
	db    *db.DB
	used  *usage
	fleet *fleet.Service // the command path of the local list (AttachFleet)
}

// New returns the token service over d.
func New(d *db.DB) *Service { return &Service{db: d, used: newUsage()} }

// key is how idTags compare: ASCII case-insensitively (OCPP 1.6 CiString).
func key(tag string) string {
	b := []byte(tag)
	for i, c := range b {
		if 'a' <= c && c <= 'z' {
			b[i] = c - 'a' + 'A'
		}
	}
	return string(b)
}

const columns = `t.id, t.customer_id, COALESCE(c.name, ''), t.id_tag, t.parent_id_tag, t.name, t.note, t.status, t.expires_at, t.priority, t.origin,
	t.last_used_at, t.created_at, t.updated_at`

const from = "token t LEFT JOIN customer c ON c.id = t.customer_id"

func scan(r db.Scanner) (Token, error) {
	var t Token
	err := r.Scan(&t.ID, &t.CustomerID, &t.CustomerName, &t.IDTag, &t.ParentIDTag, &t.Name, &t.Note, &t.Status, &t.ExpiresAt, &t.Priority, &t.Origin,
		&t.LastUsedAt, &t.CreatedAt, &t.UpdatedAt)
	t.Expired = t.ExpiresAt > 0 && t.ExpiresAt <= db.NowMS()
	return t, err
}

func wrap(action string, err error) error {
	if err == nil {
		return nil
	}
	if _, business := apperr.As(err); business {
		return err
	}
	return fmt.Errorf("token: %s: %w", action, err)
}

// ListFilter filters the token list.
type ListFilter struct {
	db.Page
	IDTag      string `json:"idTag"`      // part of the idTag (or its name)
	Status     *int   `json:"status"`     // 0 active, 1 blocked, 2 expired
	CustomerID int64  `json:"customerId"` // 0: every customer in scope
	Origin     *int   `json:"origin"`
	Sort       string `json:"sort"`
}

// StatusExpired filters expired tokens (a list filter only: expiry is a date, not a status).
const StatusExpired = 2

var sortColumns = map[string]string{
	"idTag": "t.tag_key", "name": "t.name", "expiresAt": "t.expires_at", "lastUsedAt": "t.last_used_at", "createdAt": "t.created_at", "updatedAt": "t.updated_at",
}

// List returns a page of the tokens in p's scope.
func (s *Service) List(ctx context.Context, p *access.Principal, f ListFilter) (db.List[Token], error) {
	cond, args := p.Scope.CustomerCond("t.customer_id")
	q := (&db.Query{From: from}).And(cond, args...)
	if f.IDTag = strings.TrimSpace(f.IDTag); f.IDTag != "" {
		q.And(`(t.tag_key LIKE ? ESCAPE '\' OR t.name LIKE ? ESCAPE '\')`, db.Contains(key(f.IDTag)), db.Contains(f.IDTag))
	}
	if f.CustomerID != 0 {
		q.And("t.customer_id = ?", f.CustomerID)
	}
	if f.Origin != nil {
		q.And("t.origin = ?", *f.Origin)
	}
	if f.Status != nil {
		now := db.NowMS()
		switch *f.Status {
		case StatusActive:
			q.And("t.status = ? AND (t.expires_at = 0 OR t.expires_at > ?)", StatusActive, now)
		case StatusBlocked:
			q.And("t.status = ?", StatusBlocked)
		case StatusExpired:
			q.And("t.expires_at > 0 AND t.expires_at <= ?", now)
		default:
			return db.List[Token]{}, apperr.InvalidField("status", "err.invalid")
		}
	}
	order := db.SortOrder(f.Sort, sortColumns, "t.tag_key") + ", t.id"
	out, err := db.Paged(ctx, s.db, q, columns, order, f.Page, scan)
	return out, wrap("list", err)
}

// Get returns a token in p's scope.
func (s *Service) Get(ctx context.Context, p *access.Principal, id int64) (Token, error) {
	return s.get(ctx, s.db, p, id)
}

func (s *Service) get(ctx context.Context, q db.Querier, p *access.Principal, id int64) (Token, error) {
	cond, args := p.Scope.CustomerCond("t.customer_id")
	t, err := db.One(ctx, q, (&db.Query{From: from}).And("t.id = ?", id).And(cond, args...), columns, scan, apperr.ErrNotFound)
	return t, wrap("get", err)
}

// Form adds or changes a token. The customer is set on add and never changes.
type Form struct {
	ID          int64  `json:"id"`
	CustomerID  int64  `json:"customerId"`
	IDTag       string `json:"idTag"`
	ParentIDTag string `json:"parentIdTag"`
	Name        string `json:"name"`
	Note        string `json:"note"`
	Status      int    `json:"status"`
	ExpiresAt   int64  `json:"expiresAt"`
	Priority    int    `json:"priority"` // load management, -10..10 (0: none)
}

// maxPriority bounds a token's priority in load management (as a charger's, loadmgmt.MaxPriority).
const maxPriority = 10

// validTag: 1-20 printable ASCII characters without spaces.
func validTag(tag string) bool {
	if tag == "" || len(tag) > MaxTagLength {
		return false
	}
	for i := 0; i < len(tag); i++ {
		if tag[i] <= ' ' || tag[i] > '~' {
			return false
		}
	}
	return true
}

// normalise checks one field at a time, each failure naming its field.
func (in *Form) normalise() error {
	in.IDTag = strings.TrimSpace(in.IDTag)
	in.ParentIDTag = strings.TrimSpace(in.ParentIDTag)
	in.Name = strings.TrimSpace(in.Name)
	in.Note = strings.TrimSpace(in.Note)
	switch {
	case in.IDTag == "":
		return apperr.InvalidField("idTag", "err.required")
	case !validTag(in.IDTag):
		return apperr.New(apperr.Invalid, "err.token_tag").With(map[string]any{"field": "idTag", "max": MaxTagLength})
	case in.ParentIDTag != "" && !validTag(in.ParentIDTag):
		return apperr.New(apperr.Invalid, "err.token_tag").With(map[string]any{"field": "parentIdTag", "max": MaxTagLength})
	case in.ParentIDTag != "" && key(in.ParentIDTag) == key(in.IDTag):
		return apperr.New(apperr.Invalid, "err.token_parent_self")
	case utf8.RuneCountInString(in.Name) > maxName:
		return apperr.New(apperr.Invalid, "err.token_too_long").With(map[string]any{"field": "name", "max": maxName})
	case utf8.RuneCountInString(in.Note) > maxNote:
		return apperr.New(apperr.Invalid, "err.token_too_long").With(map[string]any{"field": "note", "max": maxNote})
	case in.Status != StatusActive && in.Status != StatusBlocked:
		return apperr.InvalidField("status", "err.invalid")
	case in.ExpiresAt < 0:
		return apperr.InvalidField("expiresAt", "err.invalid")
	case in.Priority < -maxPriority || in.Priority > maxPriority:
		return apperr.InvalidField("priority", "err.invalid")
	}
	return nil
}

// customerFor is the customer a new token goes to: the input's, which must be in p's scope; a
// caller limited to one customer may leave it 0.
func customerFor(ctx context.Context, q db.Querier, p *access.Principal, customerID int64) (int64, error) {
	if customerID == 0 && !p.Scope.AllCustomers && len(p.Scope.CustomerIDs) == 1 {
		customerID = p.Scope.CustomerIDs[0]
	}
	if customerID == 0 {
		return 0, apperr.InvalidField("customerId", "err.required")
	}
	cond, args := p.Scope.CustomerCond("id")
	var n int
	if err := q.QueryRow(ctx, `SELECT COUNT(*) FROM customer WHERE id = ? AND `+cond, append([]any{customerID}, args...)...).Scan(&n); err != nil {
		return 0, err
	}
	if n == 0 {
		return 0, apperr.InvalidField("customerId", "err.invalid")
	}
	return customerID, nil
}

// tagClash maps the unique constraint on (customer, idTag) to its message.
func tagClash(err error) error {
	if name, ok := kit.Clash(err); ok && name == "uq_token_tag" {
		return apperr.New(apperr.Conflict, "err.token_exists")
	}
	return err
}

// Add creates a token of a customer in p's scope.
func (s *Service) Add(ctx context.Context, p *access.Principal, in Form) (int64, error) {
	if err := in.normalise(); err != nil {
		return 0, err
	}
	var id int64
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		var err error
		if in.CustomerID, err = customerFor(ctx, tx, p, in.CustomerID); err != nil {
			return err
		}
		id, err = insert(ctx, tx, in, OriginAdded)
		return err
	})
	return id, wrap("add", err)
}

// insert adds a token (customer already checked) with the next list version. A token recorded
// by the unknown-token policy takes no version (0): it joins the chargers' lists with the next
// full list, so that chargers presenting new cards do not make every list out of date.
func insert(ctx context.Context, tx *db.Tx, in Form, origin int) (int64, error) {
	var v int64
	if origin != OriginRecorded {
		var err error
		if v, err = nextVersion(ctx, tx); err != nil {
			return 0, err
		}
	}
	now := db.NowMS()
	id, err := db.InsertID(ctx, tx, `INSERT INTO token (customer_id, id_tag, tag_key, parent_id_tag, parent_key, name, note, status, expires_at, priority, origin, version,
		created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, in.CustomerID, in.IDTag, key(in.IDTag), in.ParentIDTag, key(in.ParentIDTag),
		in.Name, in.Note, in.Status, in.ExpiresAt, in.Priority, origin, v, now, now)
	if err != nil {
		return 0, tagClash(err)
	}
	// a token added again after a deletion is no longer removed by a differential list; a
	// recorded one keeps its tombstone, so chargers still drop what the deleted token was
	if origin == OriginRecorded {
		return id, nil
	}
	if _, err := tx.Exec(ctx, `DELETE FROM token_tombstone WHERE customer_id = ? AND tag_key = ?`, in.CustomerID, key(in.IDTag)); err != nil {
		return 0, err
	}
	return id, nil
}

// Update changes a token in p's scope; its customer stays.
func (s *Service) Update(ctx context.Context, p *access.Principal, in Form) error {
	if err := in.normalise(); err != nil {
		return err
	}
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		old, err := s.get(ctx, tx, p, in.ID)
		if err != nil {
			return err
		}
		v, err := nextVersion(ctx, tx)
		if err != nil {
			return err
		}
		if key(old.IDTag) != key(in.IDTag) {
			if err := tombstone(ctx, tx, old.CustomerID, []string{old.IDTag}, v); err != nil {
				return err
			}
		}
		_, err = tx.Exec(ctx, `UPDATE token SET id_tag = ?, tag_key = ?, parent_id_tag = ?, parent_key = ?, name = ?, note = ?, status = ?, expires_at = ?,
			priority = ?, version = ?, updated_at = ? WHERE id = ?`, in.IDTag, key(in.IDTag), in.ParentIDTag, key(in.ParentIDTag), in.Name, in.Note, in.Status, in.ExpiresAt,
			in.Priority, v, db.NowMS(), in.ID)
		if err != nil {
			return tagClash(err)
		}
		_, err = tx.Exec(ctx, `DELETE FROM token_tombstone WHERE customer_id = ? AND tag_key = ?`, old.CustomerID, key(in.IDTag))
		return err
	})
	return wrap("update", err)
}

// nextVersion takes the next list version (docs/tokens.md, "Local list").
func nextVersion(ctx context.Context, tx *db.Tx) (int64, error) {
	if _, err := tx.Exec(ctx, `UPDATE token_seq SET value = value + 1 WHERE id = 1`); err != nil {
		return 0, err
	}
	var v int64
	err := tx.QueryRow(ctx, `SELECT value FROM token_seq WHERE id = 1`).Scan(&v)
	return v, err
}

// tombstone records deleted idTags of a customer at version v.
func tombstone(ctx context.Context, tx *db.Tx, customerID int64, tags []string, v int64) error {
	for _, tag := range tags {
		if _, err := tx.Exec(ctx, `INSERT INTO token_tombstone (customer_id, tag_key, id_tag, version) VALUES (?, ?, ?, ?)
			ON CONFLICT (customer_id, tag_key) DO UPDATE SET id_tag = excluded.id_tag, version = excluded.version`, customerID, key(tag), tag, v); err != nil {
			return err
		}
	}
	return nil
}

func asBusiness(err error) (string, bool) {
	if e, ok := apperr.As(err); ok {
		return e.Key, true
	}
	return "", false
}
