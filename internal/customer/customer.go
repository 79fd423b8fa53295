// Package customer owns customers: the organisations whose sites and devices chargeops runs.
// Every read and change is limited to the caller's scope; outside it a customer does not exist.
package customer

import (
	"context"
	"strings"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/kit"
)

// Customer as the API shows it.
type Customer struct {
	ID        int64  `json:"id"`
	Name      string `json:"name"`
	Code      string `json:"code"`
	Logo      string `json:"logo"`
	Contact   string `json:"contact"`
	Telephone string `json:"telephone"`
	Address   string `json:"address"`
	Platform  bool   `json:"platform"`
	ReadOnly  bool   `json:"readOnly"`
	SiteCount int64  `json:"siteCount"`
	UserCount int64  `json:"userCount"`
	CreatedAt int64  `json:"createdAt"`
	UpdatedAt int64  `json:"updatedAt"`
}

// Service reads and changes customers.
type Service struct{ db *db.DB }

func NewService(d *db.DB) *Service { return &Service{db: d} }

const columns = `c.id, c.name, c.code, c.logo, c.contact, c.telephone, c.address, c.platform, c.read_only, c.created_at, c.updated_at,
	(SELECT COUNT(*) FROM site s WHERE s.customer_id = c.id), (SELECT COUNT(*) FROM app_user u WHERE u.customer_id = c.id)`

func scan(r db.Scanner) (Customer, error) {
	var c Customer
	var platform, readOnly int
	err := r.Scan(&c.ID, &c.Name, &c.Code, &c.Logo, &c.Contact, &c.Telephone, &c.Address, &platform, &readOnly, &c.CreatedAt, &c.UpdatedAt, &c.SiteCount, &c.UserCount)
	c.Platform, c.ReadOnly = platform == 1, readOnly == 1
	return c, err
}

// ListFilter filters the list; Sort is name, createTime or updateTime, "-" for descending.
type ListFilter struct {
	db.Page
	Name string `json:"name"`
	Code string `json:"code"`
	Sort string `json:"sort"`
}

var sortColumns = map[string]string{"name": "c.name", "createTime": "c.created_at", "updateTime": "c.updated_at"}

func scoped(p *access.Principal) *db.Query {
	q := &db.Query{From: "customer c"}
	cond, args := p.Scope.CustomerCond("c.id")
	return q.And(cond, args...)
}

// List returns a page of the customers in scope.
func (s *Service) List(ctx context.Context, p *access.Principal, f ListFilter) (db.List[Customer], error) {
	q := scoped(p)
	if f.Name != "" {
		q.And(`c.name LIKE ? ESCAPE '\'`, db.Contains(f.Name))
	}
	if f.Code != "" {
		q.And(`c.code LIKE ? ESCAPE '\'`, db.Contains(f.Code))
	}
	l, err := db.Paged(ctx, s.db, q, columns, db.SortOrder(f.Sort, sortColumns, "c.created_at DESC")+", c.id DESC", f.Page, scan)
	return l, wrap("list", err)
}

// Get returns a customer in scope.
func (s *Service) Get(ctx context.Context, p *access.Principal, id int64) (Customer, error) {
	c, err := db.One(ctx, s.db, scoped(p).And("c.id = ?", id), columns, scan, apperr.ErrNotFound)
	return c, wrap("get", err)
}

// Input adds or changes a customer.
type Input struct {
	ID        int64  `json:"id"`
	Name      string `json:"name"`
	Code      string `json:"code"`
	Logo      string `json:"logo"`
	Contact   string `json:"contact"`
	Telephone string `json:"telephone"`
	Address   string `json:"address"`
	Platform  bool   `json:"platform"`
	ReadOnly  bool   `json:"readOnly"`
}

// Limits of the fields (bytes, except the name's characters).
const (
	MaxName      = 100
	MaxCode      = 32
	MaxContact   = 64
	MaxTelephone = 32
	MaxAddress   = 255
	MaxLogo      = 512
)

// validate checks each field, the failure naming that field.
func (in *Input) validate() error {
	in.Name, in.Code = strings.TrimSpace(in.Name), strings.TrimSpace(in.Code)
	return kit.First(
		kit.Required("name", in.Name, MaxName),
		kit.Code("code", in.Code, MaxCode),
		kit.MaxBytes("contact", in.Contact, MaxContact),
		kit.MaxBytes("telephone", in.Telephone, MaxTelephone),
		kit.MaxBytes("address", in.Address, MaxAddress),
		kit.MaxBytes("logo", in.Logo, MaxLogo),
	)
}

var errTaken = apperr.New(apperr.Conflict, "err.name_taken")

// clash answers errTaken for a clash on a customer's name or code (a race the list did not
// show); anything else is wrapped.
func clash(op string, err error) error {
	if name, ok := kit.Clash(err); ok && (name == "customer_name_key" || name == "customer_code_key") {
		return errTaken
	}
	return wrap(op, err)
}

// Add creates a customer. Only a caller who sees every customer may add one.
func (s *Service) Add(ctx context.Context, p *access.Principal, in Input) (int64, error) {
	if !p.Scope.AllCustomers {
		return 0, apperr.ErrNoPermission
	}
	if err := in.validate(); err != nil {
		return 0, err
	}
	now := db.NowMS()
	id, err := db.InsertID(ctx, s.db, `INSERT INTO customer (name, code, logo, contact, telephone, address, platform, read_only, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, in.Name, in.Code, in.Logo, in.Contact, in.Telephone, in.Address, db.BoolInt(in.Platform), db.BoolInt(in.ReadOnly), now, now)
	return id, clash("add", err)
}

// Update changes a customer in scope.
func (s *Service) Update(ctx context.Context, p *access.Principal, in Input) error {
	if err := in.validate(); err != nil {
		return err
	}
	cond, args := p.Scope.CustomerCond("id")
	res, err := s.db.Exec(ctx, `UPDATE customer SET name = ?, code = ?, logo = ?, contact = ?, telephone = ?, address = ?, platform = ?, read_only = ?, updated_at = ?
		WHERE id = ? AND `+cond, append([]any{in.Name, in.Code, in.Logo, in.Contact, in.Telephone, in.Address, db.BoolInt(in.Platform), db.BoolInt(in.ReadOnly), db.NowMS(), in.ID}, args...)...)
	return db.Affected(res, clash("update", err), apperr.ErrNotFound)
}

var errInUse = apperr.New(apperr.Conflict, "err.in_use")

// Delete removes customers in scope that own no site and no user: all of them or none.
func (s *Service) Delete(ctx context.Context, p *access.Principal, ids []int64) error {
	del := kit.Batch{Table: "customer", Before: func(ctx context.Context, tx *db.Tx, ids kit.IDs) error {
		// Only customers in scope are counted: another customer's sites are not told.
		own, args := p.Scope.CustomerCond("customer_id")
		scoped := append(ids.Args(), args...)
		var n int
		if err := tx.QueryRow(ctx, `SELECT (SELECT COUNT(*) FROM site WHERE customer_id IN (`+ids.In()+`) AND `+own+`)
			+ (SELECT COUNT(*) FROM app_user WHERE customer_id IN (`+ids.In()+`) AND `+own+`)`, append(scoped, scoped...)...).Scan(&n); err != nil {
			return err
		}
		if n > 0 {
			return errInUse
		}
		return nil
	}}
	del.Scope, del.ScopeArgs = p.Scope.CustomerCond("id")
	return wrap("delete", del.Run(ctx, s.db, ids))
}

// Options lists id and name of every customer in scope (for selects), bounded.
func (s *Service) Options(ctx context.Context, p *access.Principal) ([]Option, error) {
	l, err := db.All(ctx, s.db, scoped(p), "c.id, c.name", "c.name", 1000, 0, func(r db.Scanner) (Option, error) {
		var o Option
		err := r.Scan(&o.ID, &o.Name)
		return o, err
	})
	return l, wrap("options", err)
}

// Option is an id and a name.
type Option struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

// wrap gives a database failure the operation's context; business errors pass unchanged.
func wrap(op string, err error) error { return kit.Wrap("customer", op, err) }
