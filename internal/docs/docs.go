// Package docs is the docs wiki's server side (docs/docs-wiki.md): categories and documents
// owned by a customer or by the platform (like device models), read and write levels checked
// against the role's document level, sanitised rich-text content, full-text search on SQLite
// (FTS5) and PostgreSQL (tsvector) with a Go tokeniser that finds Chinese words, the editor's
// drafts and the alarm documents the device alarm list links to.
package docs

import (
	"context"
	"fmt"
	"strings"
	"time"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/kit"
	"chargeops/internal/storage"
)

// Document types (spec: 100 alarm, 101 configuration, 102 run info).
const (
	TypeAlarm   = 100
	TypeConfig  = 101
	TypeRunInfo = 102
)

// Document status.
const (
	StatusDisabled = 0
	StatusEnabled  = 1
)

// PlatformOwner is the customer of platform categories and documents.
const PlatformOwner = kit.PlatformOwner

// ManageKey lets a reader see disabled documents.
const ManageKey = "auth_docs_manage"

// Service keeps the docs wiki.
type Service struct {
	db      *db.DB
	uploads *storage.Service
	// now is the clock of drafts (tests move it).
	now func() time.Time
}

// New serves the wiki; uploads signs the images of contents and the icons.
func New(d *db.DB, uploads *storage.Service) *Service {
	return &Service{db: d, uploads: uploads, now: time.Now}
}

// SetClock replaces the clock (tests of draft expiry).
func (s *Service) SetClock(now func() time.Time) { s.now = now }

// errPlatform refuses a change to a platform row by a caller limited to some customers.
var errPlatform = apperr.New(apperr.NoPermission, "err.docs_platform")

// owned is who changes categories and documents: platform rows need the unlimited scope, a
// customer's rows that customer in scope; read-only customers change nothing. Who reads them:
// kit.Visible.
var owned = kit.Ownership{Platform: errPlatform, ReadOnly: true}

// mayChange reports whether p may change the rows of owner.
func mayChange(p *access.Principal, owner int64) error { return owned.MayChange(p, owner) }

func cleanText(field, v string, max int, required bool) (string, error) {
	v = strings.TrimSpace(v)
	if required && v == "" {
		return "", apperr.InvalidField(field, "err.required")
	}
	return v, kit.Text(field, v, max)
}

// iconKey checks an icon: empty, the one already stored (kept), or an upload of kind icon
// (jpg/png, 500 KB: storage's rules) the caller may read.
func (s *Service) iconKey(ctx context.Context, p *access.Principal, key, current string) (string, error) {
	key = strings.TrimSpace(key)
	if key == "" || key == current {
		return key, nil
	}
	if lower := strings.ToLower(key); strings.HasPrefix(lower, "https://") || strings.HasPrefix(lower, "http://") {
		if len(key) > 1000 {
			return "", apperr.InvalidField("icon", "err.invalid")
		}
		return key, nil // a web address, as the console's image field allows
	}
	if _, err := s.uploads.URL(ctx, p, key); err != nil {
		return "", apperr.InvalidField("icon", "err.invalid")
	}
	var kind string
	if err := s.db.QueryRow(ctx, `SELECT kind FROM upload WHERE object_key = ?`, key).Scan(&kind); err != nil || kind != storage.KindIcon {
		return "", apperr.InvalidField("icon", "err.docs_icon_kind")
	}
	return key, nil
}

// sign is a reader's link to an object of storage ("" when there is none).
func (s *Service) sign(ctx context.Context, key string) string {
	if key == "" {
		return ""
	}
	if lower := strings.ToLower(key); strings.HasPrefix(lower, "https://") || strings.HasPrefix(lower, "http://") {
		return key
	}
	return s.uploads.SignedURL(ctx, key)
}

// Category is one category of documents.
type Category struct {
	ID          int64  `json:"id"`
	CustomerID  int64  `json:"customerId"`
	Name        string `json:"name"`
	Description string `json:"description"`
	Icon        string `json:"icon"`    // objectKey
	IconURL     string `json:"iconUrl"` // signed link
	DocCount    int64  `json:"docCount"`
	CreatedAt   int64  `json:"createdAt"`
	UpdatedAt   int64  `json:"updatedAt"`
	Writable    bool   `json:"writable"`
}

// MaxCategories bounds one category answer.
const MaxCategories = 500

// Categories are the categories p may read, by name, each with the number of documents in it p
// may read.
func (s *Service) Categories(ctx context.Context, p *access.Principal) ([]*Category, error) {
	cond, args := kit.Visible(p, "c.customer_id")
	dcond, dargs := s.readable(p, "d")
	rows, err := s.db.Query(ctx, `SELECT c.id, c.customer_id, c.name, c.description, c.icon, c.created_at, c.updated_at,
		(SELECT COUNT(*) FROM doc d WHERE d.category_id = c.id AND `+dcond+`)
		FROM doc_category c WHERE `+cond+fmt.Sprintf(` ORDER BY c.name, c.id LIMIT %d`, MaxCategories), append(dargs, args...)...)
	if err != nil {
		return nil, fmt.Errorf("docs: categories: %w", err)
	}
	defer rows.Close()
	out := []*Category{}
	for rows.Next() {
		c := &Category{}
		if err := rows.Scan(&c.ID, &c.CustomerID, &c.Name, &c.Description, &c.Icon, &c.CreatedAt, &c.UpdatedAt, &c.DocCount); err != nil {
			return nil, err
		}
		c.Writable = p.HasAny("auth_docs_category_manage") && mayChange(p, c.CustomerID) == nil
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for _, c := range out {
		c.IconURL = s.sign(ctx, c.Icon)
	}
	return out, nil
}

// category reads a category p may read.
func (s *Service) category(ctx context.Context, p *access.Principal, id int64) (*Category, error) {
	cond, args := kit.Visible(p, "customer_id")
	c := &Category{}
	err := s.db.QueryRow(ctx, `SELECT id, customer_id, name, description, icon FROM doc_category WHERE id = ? AND `+cond, append([]any{id}, args...)...).
		Scan(&c.ID, &c.CustomerID, &c.Name, &c.Description, &c.Icon)
	if db.NotFound(err) {
		return nil, apperr.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("docs: category: %w", err)
	}
	return c, nil
}

// CategoryInput adds (ID 0) or changes a category.
type CategoryInput struct {
	ID          int64  `json:"id"`
	CustomerID  int64  `json:"customerId"` // add: 0 the platform's (a customer-limited caller: its own customer's)
	Name        string `json:"name"`
	Description string `json:"description"`
	Icon        string `json:"icon"` // objectKey of an upload of kind icon
}

var errCategoryName = apperr.New(apperr.Conflict, "err.docs_category_taken")

// categoryClash is errCategoryName for a clash on a customer's category names.
func categoryClash(err error) error {
	if name, ok := kit.Clash(err); ok && name == "uq_doc_category_name" {
		return errCategoryName
	}
	return kit.Wrap("docs", "save category", err)
}

// AddCategory makes a category.
func (s *Service) AddCategory(ctx context.Context, p *access.Principal, in CategoryInput) (int64, error) {
	name, err := cleanText("name", in.Name, 50, true)
	if err != nil {
		return 0, err
	}
	desc, err := cleanText("description", in.Description, 500, false)
	if err != nil {
		return 0, err
	}
	owner, err := owned.OwnerFor(p, in.CustomerID)
	if err != nil {
		return 0, err
	}
	icon, err := s.iconKey(ctx, p, in.Icon, "")
	if err != nil {
		return 0, err
	}
	now := db.NowMS()
	id, err := db.InsertID(ctx, s.db, `INSERT INTO doc_category (customer_id, name, description, icon, created_by, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
		owner, name, desc, icon, p.UserID, now, now)
	return id, categoryClash(err)
}

// UpdateCategory changes a category's name, description and icon.
func (s *Service) UpdateCategory(ctx context.Context, p *access.Principal, in CategoryInput) error {
	c, err := s.category(ctx, p, in.ID)
	if err != nil {
		return err
	}
	if err := mayChange(p, c.CustomerID); err != nil {
		return err
	}
	name, err := cleanText("name", in.Name, 50, true)
	if err != nil {
		return err
	}
	desc, err := cleanText("description", in.Description, 500, false)
	if err != nil {
		return err
	}
	icon, err := s.iconKey(ctx, p, in.Icon, c.Icon)
	if err != nil {
		return err
	}
	_, err = s.db.Exec(ctx, `UPDATE doc_category SET name = ?, description = ?, icon = ?, updated_at = ? WHERE id = ?`, name, desc, icon, db.NowMS(), c.ID)
	return categoryClash(err)
}

var errCategoryNotEmpty = apperr.New(apperr.Conflict, "err.docs_category_not_empty")

// DeleteCategory deletes empty categories (all or none).
func (s *Service) DeleteCategory(ctx context.Context, p *access.Principal, ids []int64) error {
	for _, id := range ids {
		c, err := s.category(ctx, p, id)
		if err != nil {
			return err
		}
		if err := mayChange(p, c.CustomerID); err != nil {
			return err
		}
	}
	cond, args := kit.Visible(p, "customer_id")
	del := kit.Batch{Table: "doc_category", Scope: cond, ScopeArgs: args,
		Before: func(ctx context.Context, tx *db.Tx, ids kit.IDs) error {
			var n int
			if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM doc WHERE category_id IN (`+ids.In()+`)`, ids.Args()...).Scan(&n); err != nil {
				return fmt.Errorf("category content: %w", err)
			}
			if n > 0 {
				return errCategoryNotEmpty
			}
			return nil
		}}
	return kit.Wrap("docs", "delete categories", del.Run(ctx, s.db, ids))
}
