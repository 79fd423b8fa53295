// Package customer owns customers: the organisations whose sites and devices chargeops runs.
// Every read and change is limited to the caller's scope; outside it a customer does not exist.
package customer

import (
	"context"
	"strings"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
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

func scoped(sc access.Scope) *db.Query {
	q := &db.Query{From: "customer c"}
	cond, args := sc.CustomerCond("c.id")
	return q.And(cond, args...)
}

// List returns a page of the customers in scope.
func (s *Service) List(ctx context.Context, sc access.Scope, f ListFilter) (db.List[Customer], error) {
	q := scoped(sc)
	if f.Name != "" {
		q.And(`c.name LIKE ? ESCAPE '\'`, db.Contains(f.Name))
	}
	if f.Code != "" {
		q.And(`c.code LIKE ? ESCAPE '\'`, db.Contains(f.Code))
	}
	return db.Paged(ctx, s.db, q, columns, db.SortOrder(f.Sort, sortColumns, "c.created_at DESC")+", c.id DESC", f.Page, scan)
}

// Get returns a customer in scope.
func (s *Service) Get(ctx context.Context, sc access.Scope, id int64) (Customer, error) {
	return db.One(ctx, s.db, scoped(sc).And("c.id = ?", id), columns, scan, apperr.ErrNotFound)
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

func (in *Input) validate() error {
	in.Name, in.Code = strings.TrimSpace(in.Name), strings.TrimSpace(in.Code)
	switch {
	case in.Name == "" || len([]rune(in.Name)) > 100:
		return apperr.InvalidField("name", "err.required")
	case in.Code == "" || len(in.Code) > 32 || strings.ContainsAny(in.Code, " \t/\\"):
		return apperr.InvalidField("code", "err.invalid")
	case len(in.Contact) > 64 || len(in.Telephone) > 32 || len(in.Address) > 255 || len(in.Logo) > 512:
		return apperr.InvalidField("contact", "err.invalid")
	}
	return nil
}

// Add creates a customer. Only a caller who sees every customer may add one.
func (s *Service) Add(ctx context.Context, sc access.Scope, in Input) (int64, error) {
	if !sc.AllCustomers {
		return 0, apperr.ErrNoPermission
	}
	if err := in.validate(); err != nil {
		return 0, err
	}
	now := db.NowMS()
	id, err := db.InsertID(ctx, s.db, `INSERT INTO customer (name, code, logo, contact, telephone, address, platform, read_only, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, in.Name, in.Code, in.Logo, in.Contact, in.Telephone, in.Address, db.BoolInt(in.Platform), db.BoolInt(in.ReadOnly), now, now)
	if db.IsUniqueViolation(err) {
		return 0, apperr.New(apperr.Conflict, "err.name_taken")
	}
	return id, err
}

// Update changes a customer in scope.
func (s *Service) Update(ctx context.Context, sc access.Scope, in Input) error {
	if err := in.validate(); err != nil {
		return err
	}
	if _, err := s.Get(ctx, sc, in.ID); err != nil {
		return err
	}
	_, err := s.db.Exec(ctx, `UPDATE customer SET name = ?, code = ?, logo = ?, contact = ?, telephone = ?, address = ?, platform = ?, read_only = ?, updated_at = ?
		WHERE id = ?`, in.Name, in.Code, in.Logo, in.Contact, in.Telephone, in.Address, db.BoolInt(in.Platform), db.BoolInt(in.ReadOnly), db.NowMS(), in.ID)
	if db.IsUniqueViolation(err) {
		return apperr.New(apperr.Conflict, "err.name_taken")
	}
	return err
}

// Delete removes customers in scope that own no site and no user.
func (s *Service) Delete(ctx context.Context, sc access.Scope, ids []int64) error {
	return s.db.InTx(ctx, func(tx *db.Tx) error {
		for _, id := range ids {
			c, err := s.Get(ctx, sc, id)
			if err != nil {
				return err
			}
			if c.SiteCount > 0 || c.UserCount > 0 {
				return apperr.New(apperr.Conflict, "err.in_use")
			}
			if _, err := tx.Exec(ctx, `DELETE FROM customer WHERE id = ?`, id); err != nil {
				return err
			}
		}
		return nil
	})
}

// Options lists id and name of every customer in scope (for selects), bounded.
func (s *Service) Options(ctx context.Context, sc access.Scope) ([]Option, error) {
	return db.All(ctx, s.db, scoped(sc), "c.id, c.name", "c.name", 1000, 0, func(r db.Scanner) (Option, error) {
		var o Option
		err := r.Scan(&o.ID, &o.Name)
		return o, err
	})
}

// Option is an id and a name.
type Option struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}
