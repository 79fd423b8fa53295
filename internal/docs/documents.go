package docs

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/kit"
	"chargeops/internal/richtext"
)

// Document is one document; Content only in a detail answer.
type Document struct {
	ID           int64    `json:"id"`
	CustomerID   int64    `json:"customerId"`
	CategoryID   int64    `json:"categoryId"`
	CategoryName string   `json:"categoryName"`
	Title        string   `json:"title"`
	Name         string   `json:"name"`
	Type         int      `json:"type"`
	Description  string   `json:"description"`
	Icon         string   `json:"icon"`
	IconURL      string   `json:"iconUrl"`
	ReadLevel    int      `json:"readLevel"`
	WriteLevel   int      `json:"writeLevel"`
	Status       int      `json:"status"`
	ModelID      int64    `json:"modelId"`
	ModelName    string   `json:"modelName"`
	AlarmCodes   []string `json:"alarmCodes"`
	Content      string   `json:"content,omitempty"`
	CreatedBy    int64    `json:"createdBy"`
	CreatorName  string   `json:"creatorName"`
	CreatedAt    int64    `json:"createdAt"`
	UpdatedBy    int64    `json:"updatedBy"`
	UpdaterName  string   `json:"updaterName"`
	UpdatedAt    int64    `json:"updatedAt"`
	Writable     bool     `json:"writable"`
}

const docCols = `d.id, d.customer_id, d.category_id, COALESCE(c.name, ''), d.title, d.name, d.type, d.description, d.icon, d.read_level, d.write_level,
	d.status, d.model_id, COALESCE(m.name, ''), d.created_by, COALESCE(cu.user_name, ''), d.created_at, d.updated_by, COALESCE(uu.user_name, ''), d.updated_at`

const docTables = `doc d` + docJoins

const docJoins = ` LEFT JOIN doc_category c ON c.id = d.category_id LEFT JOIN device_model m ON m.id = d.model_id
	LEFT JOIN app_user cu ON cu.id = d.created_by LEFT JOIN app_user uu ON uu.id = d.updated_by`

const docFrom = ` FROM ` + docTables

func scanDoc(sc db.Scanner) (*Document, error) {
	x := &Document{AlarmCodes: []string{}}
	err := sc.Scan(&x.ID, &x.CustomerID, &x.CategoryID, &x.CategoryName, &x.Title, &x.Name, &x.Type, &x.Description, &x.Icon, &x.ReadLevel, &x.WriteLevel,
		&x.Status, &x.ModelID, &x.ModelName, &x.CreatedBy, &x.CreatorName, &x.CreatedAt, &x.UpdatedBy, &x.UpdaterName, &x.UpdatedAt)
	return x, err
}

// readable is the condition on documents (alias a) p may read: owner visible, read level
// reachable by p's document level, enabled unless p manages documents.
func (s *Service) readable(p *access.Principal, a string) (string, []any) {
	cond, args := kit.Visible(p, a+".customer_id")
	if !p.Root {
		cond += ` AND ` + a + `.read_level >= ?`
		args = append(args, p.Role.DocLevel)
	}
	if !p.HasAny(ManageKey) {
		cond += ` AND ` + a + `.status = ?`
		args = append(args, StatusEnabled)
	}
	return cond, args
}

// mayWrite reports whether p may change document x (its write level, its owner).
func mayWrite(p *access.Principal, x *Document) error {
	if !access.CanUseDocument(p, x.WriteLevel) {
		return apperr.New(apperr.NoPermission, "err.docs_write_level")
	}
	return mayChange(p, x.CustomerID)
}

func (s *Service) finish(p *access.Principal, x *Document) *Document {
	x.Writable = p.HasAny("auth_docs_edit", "auth_docs_content_edit", ManageKey) && mayWrite(p, x) == nil
	return x
}

// doc reads a document p may read; anything else (another customer's, above p's level,
// disabled for a reader) is not found.
func (s *Service) doc(ctx context.Context, p *access.Principal, id int64) (*Document, error) {
	cond, args := s.readable(p, "d")
	x, err := scanDoc(s.db.QueryRow(ctx, `SELECT `+docCols+docFrom+` WHERE d.id = ? AND `+cond, append([]any{id}, args...)...))
	if db.NotFound(err) {
		return nil, apperr.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("docs: document: %w", err)
	}
	codes, err := db.Column[string](ctx, s.db, `SELECT code FROM doc_alarm_code WHERE doc_id = ? ORDER BY code`, x.ID)
	if err != nil {
		return nil, fmt.Errorf("docs: alarm codes: %w", err)
	}
	if codes != nil {
		x.AlarmCodes = codes
	}
	return s.finish(p, x), nil
}

// writable reads a document p may change.
func (s *Service) writable(ctx context.Context, p *access.Principal, id int64) (*Document, error) {
	x, err := s.doc(ctx, p, id)
	if err != nil {
		return nil, err
	}
	if err := mayWrite(p, x); err != nil {
		return nil, err
	}
	return x, nil
}

// Detail is a document with its content, images signed for the reader.
func (s *Service) Detail(ctx context.Context, p *access.Principal, id int64) (*Document, error) {
	x, err := s.doc(ctx, p, id)
	if err != nil {
		return nil, err
	}
	if err := s.db.QueryRow(ctx, `SELECT content FROM doc WHERE id = ?`, x.ID).Scan(&x.Content); err != nil {
		return nil, fmt.Errorf("docs: content: %w", err)
	}
	x.Content = richtext.Resolve(x.Content, func(key string) string { return s.sign(ctx, key) })
	x.IconURL = s.sign(ctx, x.Icon)
	return x, nil
}

// ListInput filters documents; paged, newest change first.
type ListInput struct {
	db.Page
	Title      string `json:"title"` // part of the title or name
	Type       int    `json:"type"`  // 0: any
	CategoryID int64  `json:"categoryId"`
	Status     *int   `json:"status"` // nil: any the caller may see
	CustomerID *int64 `json:"customerId"`
}

// List is the documents p may read.
func (s *Service) List(ctx context.Context, p *access.Principal, in ListInput) (db.List[*Document], error) {
	cond, args := s.readable(p, "d")
	q := &db.Query{From: docTables}
	q.And(cond, args...)
	if t := strings.TrimSpace(in.Title); t != "" {
		q.And(`(LOWER(d.title) LIKE LOWER(?) ESCAPE '\' OR LOWER(d.name) LIKE LOWER(?) ESCAPE '\')`, db.Contains(t), db.Contains(t))
	}
	if in.Type > 0 {
		q.And(`d.type = ?`, in.Type)
	}
	if in.CategoryID > 0 {
		q.And(`d.category_id = ?`, in.CategoryID)
	}
	if in.Status != nil {
		q.And(`d.status = ?`, *in.Status)
	}
	if in.CustomerID != nil {
		q.And(`d.customer_id = ?`, *in.CustomerID)
	}
	out, err := db.Paged(ctx, s.db, q, docCols, `d.updated_at DESC, d.id DESC`, in.Page, scanDoc)
	if err != nil {
		return out, fmt.Errorf("docs: list: %w", err)
	}
	for _, x := range out.List {
		s.finish(p, x)
		x.IconURL = s.sign(ctx, x.Icon)
	}
	return out, nil
}

// PropsInput adds (ID 0) or changes a document's properties; Content only on add.
type PropsInput struct {
	ID          int64    `json:"id"`
	CustomerID  int64    `json:"customerId"` // add: 0 the platform's (a customer-limited caller: its own customer's)
	CategoryID  int64    `json:"categoryId"`
	Title       string   `json:"title"`
	Name        string   `json:"name"`
	Type        int      `json:"type"`
	Description string   `json:"description"`
	Icon        string   `json:"icon"`
	ReadLevel   int      `json:"readLevel"`
	WriteLevel  int      `json:"writeLevel"`
	Status      int      `json:"status"`
	ModelID     int64    `json:"modelId"`
	AlarmCodes  []string `json:"alarmCodes"`
	Content     string   `json:"content"`
}

// MaxAlarmCodes bounds the codes of one alarm document.
const MaxAlarmCodes = 50

type props struct {
	title, name, desc string
	codes             []string
}

func (in PropsInput) clean(p *access.Principal) (props, error) {
	var out props
	var err error
	if out.title, err = cleanText("title", in.Title, 200, true); err != nil {
		return out, err
	}
	if out.name, err = cleanText("name", in.Name, 100, false); err != nil {
		return out, err
	}
	if out.desc, err = cleanText("description", in.Description, 1000, false); err != nil {
		return out, err
	}
	if in.Type != TypeAlarm && in.Type != TypeConfig && in.Type != TypeRunInfo {
		return out, apperr.InvalidField("type", "err.invalid")
	}
	if in.CategoryID <= 0 {
		return out, apperr.InvalidField("categoryId", "err.required")
	}
	for f, v := range map[string]int{"readLevel": in.ReadLevel, "writeLevel": in.WriteLevel} {
		if v < 0 || v > 5 {
			return out, apperr.InvalidField(f, "err.invalid")
		}
	}
	if in.WriteLevel > in.ReadLevel {
		return out, apperr.InvalidField("writeLevel", "err.docs_write_below_read")
	}
	if !access.CanUseDocument(p, in.ReadLevel) || !access.CanUseDocument(p, in.WriteLevel) {
		return out, apperr.New(apperr.Invalid, "err.docs_level_above_role").With(map[string]any{"level": p.Role.DocLevel})
	}
	if in.Status != StatusEnabled && in.Status != StatusDisabled {
		return out, apperr.InvalidField("status", "err.invalid")
	}
	if in.Type != TypeAlarm && (in.ModelID != 0 || len(in.AlarmCodes) > 0) {
		return out, apperr.InvalidField("alarmCodes", "err.docs_alarm_only")
	}
	if len(in.AlarmCodes) > MaxAlarmCodes {
		return out, apperr.InvalidField("alarmCodes", "err.invalid")
	}
	for _, c := range in.AlarmCodes {
		c = strings.TrimSpace(c)
		if c == "" {
			continue
		}
		if len(c) > 50 || strings.ContainsAny(c, "\x00\n") {
			return out, apperr.InvalidField("alarmCodes", "err.invalid")
		}
		if !slices.Contains(out.codes, c) {
			out.codes = append(out.codes, c)
		}
	}
	return out, nil
}

// checkRefs checks the category (platform or the document's owner's) and the model (one p
// may read) of a document of owner.
func (s *Service) checkRefs(ctx context.Context, p *access.Principal, owner int64, in PropsInput) error {
	c, err := s.category(ctx, p, in.CategoryID)
	if err != nil {
		return apperr.InvalidField("categoryId", "err.invalid")
	}
	if c.CustomerID != PlatformOwner && c.CustomerID != owner {
		return apperr.InvalidField("categoryId", "err.invalid")
	}
	if in.ModelID > 0 {
		cond, args := kit.Visible(p, "customer_id")
		var n int
		if err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM device_model WHERE id = ? AND `+cond, append([]any{in.ModelID}, args...)...).Scan(&n); err != nil {
			return fmt.Errorf("docs: model: %w", err)
		}
		if n == 0 {
			return apperr.InvalidField("modelId", "err.invalid")
		}
	}
	return nil
}

// cleanContent sanitises a content and checks its size and that every storage image in it is
// readable by p.
func (s *Service) cleanContent(ctx context.Context, p *access.Principal, content string) (string, error) {
	if len(content) > richtext.MaxBytes {
		return "", apperr.InvalidField("content", "err.docs_content_size")
	}
	clean := richtext.Sanitize(content)
	if !s.uploads.AllReadable(ctx, p, richtext.ImageKeys(clean)) {
		return "", apperr.InvalidField("content", "err.docs_image")
	}
	return clean, nil
}

// Add makes a document (properties and, optionally, its first content).
func (s *Service) Add(ctx context.Context, p *access.Principal, in PropsInput) (int64, error) {
	pr, err := in.clean(p)
	if err != nil {
		return 0, err
	}
	owner, err := owned.OwnerFor(p, in.CustomerID)
	if err != nil {
		return 0, err
	}
	if err := s.checkRefs(ctx, p, owner, in); err != nil {
		return 0, err
	}
	icon, err := s.iconKey(ctx, p, in.Icon, "")
	if err != nil {
		return 0, err
	}
	content, err := s.cleanContent(ctx, p, in.Content)
	if err != nil {
		return 0, err
	}
	var id int64
	err = s.db.InTx(ctx, func(tx *db.Tx) error {
		now := db.NowMS()
		id, err = db.InsertID(ctx, tx, `INSERT INTO doc (customer_id, category_id, title, name, type, description, icon, read_level, write_level, status, model_id, content,
			created_by, created_at, updated_by, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			owner, in.CategoryID, pr.title, pr.name, in.Type, pr.desc, icon, in.ReadLevel, in.WriteLevel, in.Status, in.ModelID, content, p.UserID, now, p.UserID, now)
		if err != nil {
			return fmt.Errorf("docs: add: %w", err)
		}
		if err := setCodes(ctx, tx, id, in.ModelID, pr.codes); err != nil {
			return err
		}
		return index(ctx, tx, id, pr.title, content, in.Status == StatusEnabled)
	})
	return id, err
}

func setCodes(ctx context.Context, tx *db.Tx, id, model int64, codes []string) error {
	if _, err := tx.Exec(ctx, `DELETE FROM doc_alarm_code WHERE doc_id = ?`, id); err != nil {
		return fmt.Errorf("docs: codes: %w", err)
	}
	for _, c := range codes {
		if _, err := tx.Exec(ctx, `INSERT INTO doc_alarm_code (doc_id, code, model_id) VALUES (?, ?, ?)`, id, c, model); err != nil {
			return fmt.Errorf("docs: code: %w", err)
		}
	}
	return nil
}

// Update changes a document's properties (not its content); the owner stays.
func (s *Service) Update(ctx context.Context, p *access.Principal, in PropsInput) error {
	x, err := s.writable(ctx, p, in.ID)
	if err != nil {
		return err
	}
	pr, err := in.clean(p)
	if err != nil {
		return err
	}
	if err := s.checkRefs(ctx, p, x.CustomerID, in); err != nil {
		return err
	}
	icon, err := s.iconKey(ctx, p, in.Icon, x.Icon)
	if err != nil {
		return err
	}
	return s.db.InTx(ctx, func(tx *db.Tx) error {
		if _, err := tx.Exec(ctx, `UPDATE doc SET category_id = ?, title = ?, name = ?, type = ?, description = ?, icon = ?, read_level = ?, write_level = ?, status = ?,
			model_id = ?, updated_by = ?, updated_at = ? WHERE id = ?`, in.CategoryID, pr.title, pr.name, in.Type, pr.desc, icon, in.ReadLevel, in.WriteLevel, in.Status,
			in.ModelID, p.UserID, db.NowMS(), x.ID); err != nil {
			return fmt.Errorf("docs: update: %w", err)
		}
		if err := setCodes(ctx, tx, x.ID, in.ModelID, pr.codes); err != nil {
			return err
		}
		return reindex(ctx, tx, x.ID)
	})
}

// ContentInput saves a document's content.
type ContentInput struct {
	ID      int64  `json:"id"`
	Content string `json:"content"`
}

// SaveContent stores a document's sanitised content and ends the caller's draft of it.
func (s *Service) SaveContent(ctx context.Context, p *access.Principal, in ContentInput) error {
	x, err := s.writable(ctx, p, in.ID)
	if err != nil {
		return err
	}
	content, err := s.cleanContent(ctx, p, in.Content)
	if err != nil {
		return err
	}
	return s.db.InTx(ctx, func(tx *db.Tx) error {
		if _, err := tx.Exec(ctx, `UPDATE doc SET content = ?, updated_by = ?, updated_at = ? WHERE id = ?`, content, p.UserID, db.NowMS(), x.ID); err != nil {
			return fmt.Errorf("docs: content: %w", err)
		}
		if _, err := tx.Exec(ctx, `DELETE FROM doc_draft WHERE user_id = ? AND doc_id = ?`, p.UserID, x.ID); err != nil {
			return err
		}
		return reindex(ctx, tx, x.ID)
	})
}

// StatusInput enables (1) or disables (0) documents.
type StatusInput struct {
	IDs    []int64 `json:"ids"`
	Status int     `json:"status"`
}

// SetStatus enables or disables documents (all or none).
func (s *Service) SetStatus(ctx context.Context, p *access.Principal, in StatusInput) error {
	if in.Status != StatusEnabled && in.Status != StatusDisabled {
		return apperr.InvalidField("status", "err.invalid")
	}
	ids := kit.IDs(in.IDs).Distinct()
	if err := s.allWritable(ctx, p, ids); err != nil {
		return err
	}
	set := s.inScope(p)
	set.Set, set.SetArgs = "status = ?, updated_by = ?, updated_at = ?", []any{in.Status, p.UserID, db.NowMS()}
	set.After = func(ctx context.Context, tx *db.Tx, ids kit.IDs) error {
		for _, id := range ids {
			if err := reindex(ctx, tx, id); err != nil {
				return err
			}
		}
		return nil
	}
	return kit.Wrap("docs", "status", set.Run(ctx, s.db, ids))
}

// Delete deletes documents with their codes, drafts and index rows (all or none).
func (s *Service) Delete(ctx context.Context, p *access.Principal, ids []int64) error {
	ids = kit.IDs(ids).Distinct()
	if err := s.allWritable(ctx, p, ids); err != nil {
		return err
	}
	del := s.inScope(p)
	del.Before = func(ctx context.Context, tx *db.Tx, ids kit.IDs) error {
		for _, id := range ids {
			if err := unindex(ctx, tx, id); err != nil {
				return err
			}
		}
		for _, q := range []string{`DELETE FROM doc_alarm_code WHERE doc_id IN (`, `DELETE FROM doc_draft WHERE doc_id IN (`} {
			if _, err := tx.Exec(ctx, q+ids.In()+`)`, ids.Args()...); err != nil {
				return err
			}
		}
		return nil
	}
	return kit.Wrap("docs", "delete", del.Run(ctx, s.db, ids))
}

// allWritable checks that p may change every one of the documents ids.
func (s *Service) allWritable(ctx context.Context, p *access.Principal, ids []int64) error {
	for _, id := range ids {
		if _, err := s.writable(ctx, p, id); err != nil {
			return err
		}
	}
	return nil
}

// inScope is the batch statement on documents of the owners p may read (allWritable checks
// each document's levels first).
func (s *Service) inScope(p *access.Principal) kit.Batch {
	cond, args := kit.Visible(p, "customer_id")
	return kit.Batch{Table: "doc", Scope: cond, ScopeArgs: args}
}

// Home is the home page: the categories and the recently changed documents p may read.
type Home struct {
	Categories []*Category   `json:"categories"`
	Recent     []*Document   `json:"recent"`
	Counts     map[int]int64 `json:"counts"` // documents per type
}

// HomeRecent is how many recent documents the home page shows.
const HomeRecent = 10

// Home answers the home page.
func (s *Service) Home(ctx context.Context, p *access.Principal) (Home, error) {
	out := Home{Counts: map[int]int64{}}
	var err error
	if out.Categories, err = s.Categories(ctx, p); err != nil {
		return out, err
	}
	recent, err := s.List(ctx, p, ListInput{Page: db.Page{Page: 1, PageSize: HomeRecent}})
	if err != nil {
		return out, err
	}
	out.Recent = recent.List
	cond, args := s.readable(p, "d")
	rows, err := s.db.Query(ctx, `SELECT d.type, COUNT(*) FROM doc d WHERE `+cond+` GROUP BY d.type`, args...)
	if err != nil {
		return out, fmt.Errorf("docs: counts: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var t int
		var n int64
		if err := rows.Scan(&t, &n); err != nil {
			return out, err
		}
		out.Counts[t] = n
	}
	return out, rows.Err()
}
