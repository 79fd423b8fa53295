// Package site owns sites: where devices stand, which customer they belong to, who is told of
// their alarms. Reads and changes are limited to the caller's scope.
package site

import (
	"context"
	"strings"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/kit"
	"chargeops/internal/stats"
)

// Status values.
const (
	Disabled = 0
	Enabled  = 1
)

// Site as the API shows it.
type Site struct {
	ID            int64   `json:"id"`
	CustomerID    int64   `json:"customerId"`
	CustomerName  string  `json:"customerName"`
	Name          string  `json:"name"`
	Code          string  `json:"code"`
	ContactPerson string  `json:"contactPerson"`
	ContactPhone  string  `json:"contactPhone"`
	BuildDate     string  `json:"buildDate"`
	Address       string  `json:"address"`
	Image         string  `json:"image"`
	Status        int     `json:"status"`
	DeviceCount   int64   `json:"deviceCount"`
	Receivers     []int64 `json:"receivers"`
	CreatedAt     int64   `json:"createdAt"`
	UpdatedAt     int64   `json:"updatedAt"`
}

// Service reads and changes sites.
type Service struct{ db *db.DB }

func NewService(d *db.DB) *Service { return &Service{db: d} }

const columns = `s.id, s.customer_id, c.name, s.name, s.code, s.contact_person, s.contact_phone, s.build_date, s.address, s.image, s.status,
	s.created_at, s.updated_at, (SELECT COUNT(*) FROM device d WHERE d.site_id = s.id)`

func scan(r db.Scanner) (Site, error) {
	var s Site
	err := r.Scan(&s.ID, &s.CustomerID, &s.CustomerName, &s.Name, &s.Code, &s.ContactPerson, &s.ContactPhone, &s.BuildDate, &s.Address,
		&s.Image, &s.Status, &s.CreatedAt, &s.UpdatedAt, &s.DeviceCount)
	s.Receivers = []int64{}
	return s, err
}

func scoped(p *access.Principal) *db.Query {
	q := &db.Query{From: "site s JOIN customer c ON c.id = s.customer_id"}
	cond, args := p.Scope.SiteCond("s.customer_id", "s.id")
	return q.And(cond, args...)
}

// inScope is the batch statement on the sites in p's scope.
func inScope(p *access.Principal) kit.Batch {
	cond, args := p.Scope.SiteCond("customer_id", "id")
	return kit.Batch{Table: "site", Scope: cond, ScopeArgs: args}
}

// ListFilter filters the site list.
type ListFilter struct {
	db.Page
	Name       string `json:"name"`
	CustomerID int64  `json:"customerId"`
	Status     *int   `json:"status"`
	Sort       string `json:"sort"`
}

var sortColumns = map[string]string{"name": "s.name", "createTime": "s.created_at", "code": "s.code"}

// List returns a page of the sites in scope.
func (s *Service) List(ctx context.Context, p *access.Principal, f ListFilter) (db.List[Site], error) {
	q := scoped(p)
	if f.Name != "" {
		like := db.Contains(f.Name)
		q.And(`(s.name LIKE ? ESCAPE '\' OR s.code LIKE ? ESCAPE '\')`, like, like)
	}
	if f.CustomerID != 0 {
		q.And("s.customer_id = ?", f.CustomerID)
	}
	if f.Status != nil {
		q.And("s.status = ?", *f.Status)
	}
	l, err := db.Paged(ctx, s.db, q, columns, db.SortOrder(f.Sort, sortColumns, "s.created_at DESC")+", s.id DESC", f.Page, scan)
	return l, wrap("list", err)
}

// Get returns a site in scope with its notification receivers.
func (s *Service) Get(ctx context.Context, p *access.Principal, id int64) (Site, error) {
	st, err := db.One(ctx, s.db, scoped(p).And("s.id = ?", id), columns, scan, apperr.ErrNotFound)
	if err != nil {
		return st, wrap("get", err)
	}
	st.Receivers, err = db.All(ctx, s.db, (&db.Query{From: "site_receiver"}).And("site_id = ?", id), "user_id", "user_id", MaxReceivers, 0,
		func(r db.Scanner) (int64, error) { var v int64; err := r.Scan(&v); return v, err })
	return st, wrap("receivers", err)
}

// Input adds or changes a site.
type Input struct {
	ID            int64   `json:"id"`
	CustomerID    int64   `json:"customerId"`
	Name          string  `json:"name"`
	Code          string  `json:"code"`
	ContactPerson string  `json:"contactPerson"`
	ContactPhone  string  `json:"contactPhone"`
	BuildDate     string  `json:"buildDate"`
	Address       string  `json:"address"`
	Image         string  `json:"image"`
	Receivers     []int64 `json:"receivers"`
}

// Limits of the fields (bytes, except the name's characters).
const (
	MaxName          = 100
	MaxCode          = 32
	MaxContactPerson = 64
	MaxContactPhone  = 32
	MaxAddress       = 255
	MaxImage         = 512
	MaxReceivers     = 200
)

// validate checks each field, the failure naming that field; a customer out of p's scope does
// not exist.
func (in *Input) validate(p *access.Principal) error {
	in.Name, in.Code = strings.TrimSpace(in.Name), strings.TrimSpace(in.Code)
	if err := kit.First(
		kit.Required("name", in.Name, MaxName),
		kit.Code("code", in.Code, MaxCode),
		kit.ID("customerId", in.CustomerID),
	); err != nil {
		return err
	}
	if !p.Scope.HasCustomer(in.CustomerID) {
		return apperr.ErrNotFound
	}
	return kit.First(
		kit.Date("buildDate", in.BuildDate),
		kit.MaxBytes("contactPerson", in.ContactPerson, MaxContactPerson),
		kit.MaxBytes("contactPhone", in.ContactPhone, MaxContactPhone),
		kit.MaxBytes("address", in.Address, MaxAddress),
		kit.MaxBytes("image", in.Image, MaxImage),
		kit.Count("receivers", in.Receivers, MaxReceivers),
	)
}

// Add creates a site for a customer in scope. A site-limited caller cannot add sites.
func (s *Service) Add(ctx context.Context, p *access.Principal, in Input) (int64, error) {
	if err := in.validate(p); err != nil {
		return 0, err
	}
	if !p.Scope.AllSites {
		return 0, apperr.ErrNoPermission
	}
	var id int64
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		now := db.NowMS()
		var err error
		id, err = db.InsertID(ctx, tx, `INSERT INTO site (customer_id, name, code, contact_person, contact_phone, build_date, address, image, status, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, in.CustomerID, in.Name, in.Code, in.ContactPerson, in.ContactPhone, in.BuildDate, in.Address, in.Image, Enabled, now, now)
		if err != nil {
			return clash(err)
		}
		return setReceivers(ctx, tx, id, in.CustomerID, in.Receivers)
	})
	return id, wrap("add", err)
}

// Update changes a site in scope; its customer may change only to another customer in scope.
func (s *Service) Update(ctx context.Context, p *access.Principal, in Input) error {
	if err := in.validate(p); err != nil {
		return err
	}
	old, err := s.Get(ctx, p, in.ID)
	if err != nil {
		return err
	}
	if old.CustomerID != in.CustomerID && old.DeviceCount > 0 {
		return errInUse
	}
	err = s.db.InTx(ctx, func(tx *db.Tx) error {
		_, err := tx.Exec(ctx, `UPDATE site SET customer_id = ?, name = ?, code = ?, contact_person = ?, contact_phone = ?, build_date = ?, address = ?, image = ?, updated_at = ?
			WHERE id = ?`, in.CustomerID, in.Name, in.Code, in.ContactPerson, in.ContactPhone, in.BuildDate, in.Address, in.Image, db.NowMS(), in.ID)
		if err != nil {
			return clash(err)
		}
		return setReceivers(ctx, tx, in.ID, in.CustomerID, in.Receivers)
	})
	return wrap("update", err)
}

// setReceivers replaces the receivers with one statement; each must be a user of the site's
// customer (or a platform user, customer 0), else nothing changes.
func setReceivers(ctx context.Context, tx *db.Tx, siteID, customerID int64, users []int64) error {
	if _, err := tx.Exec(ctx, `DELETE FROM site_receiver WHERE site_id = ?`, siteID); err != nil {
		return err
	}
	ids := kit.IDs(users).Distinct()
	if len(ids) == 0 {
		return nil
	}
	res, err := tx.Exec(ctx, `INSERT INTO site_receiver (site_id, user_id)
		SELECT ?, id FROM app_user WHERE id IN (`+ids.In()+`) AND (customer_id = ? OR customer_id = 0)`,
		append(append([]any{siteID}, ids.Args()...), customerID)...)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n < int64(len(ids)) {
		return kit.First(err, apperr.InvalidField("receivers", "err.invalid"))
	}
	return nil
}

var (
	errTaken      = apperr.New(apperr.Conflict, "err.name_taken")
	errInUse      = apperr.New(apperr.Conflict, "err.in_use")
	errHasDevices = apperr.New(apperr.Conflict, "err.site_has_devices")
)

// clash answers errTaken for a clash on a site's code or on its name within its customer.
func clash(err error) error {
	if name, ok := kit.Clash(err); ok && (name == "site_code_key" || name == "site_customer_id_name_key") {
		return errTaken
	}
	return err
}

// SetStatus enables or disables sites in scope: all of them or none.
func (s *Service) SetStatus(ctx context.Context, p *access.Principal, ids []int64, status int) error {
	if err := kit.OneOf("status", status, Enabled, Disabled); err != nil {
		return err
	}
	set := inScope(p)
	set.Set, set.SetArgs = "status = ?, updated_at = ?", []any{status, db.NowMS()}
	return wrap("set status", set.Run(ctx, s.db, ids))
}

// Delete removes sites in scope, all of them or none; a site with devices cannot be deleted.
func (s *Service) Delete(ctx context.Context, p *access.Principal, ids []int64) error {
	del := inScope(p)
	del.Before = func(ctx context.Context, tx *db.Tx, ids kit.IDs) error {
		// Only sites in scope are counted: another customer's devices are not told.
		var n int
		if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM device WHERE site_id IN (SELECT id FROM site WHERE id IN (`+ids.In()+`) AND `+del.Scope+`)`,
			append(ids.Args(), del.ScopeArgs...)...).Scan(&n); err != nil {
			return err
		}
		if n > 0 {
			return errHasDevices
		}
		return nil
	}
	return wrap("delete", del.Run(ctx, s.db, ids))
}

// Overview counts a site's devices by status (0-6), by device category and open alarms.
type Overview struct {
	Devices    int64            `json:"devices"`
	ByStatus   map[int]int64    `json:"byStatus"`
	Alarms     int64            `json:"alarms"`
	Categories stats.Categories `json:"categories"`
}

// OverviewOf returns the figures of a site in scope.
func (s *Service) OverviewOf(ctx context.Context, p *access.Principal, id int64) (Overview, error) {
	if _, err := s.Get(ctx, p, id); err != nil {
		return Overview{}, err
	}
	ov := Overview{ByStatus: map[int]int64{}}
	rows, err := s.db.Query(ctx, `SELECT status, COUNT(*), SUM(CASE WHEN alarm_status > 0 THEN 1 ELSE 0 END) FROM device WHERE site_id = ? GROUP BY status`, id)
	if err != nil {
		return ov, wrap("overview", err)
	}
	defer rows.Close()
	for rows.Next() {
		var st int
		var n, alarms int64
		if err := rows.Scan(&st, &n, &alarms); err != nil {
			return ov, wrap("overview", err)
		}
		ov.ByStatus[st] = n
		ov.Devices += n
		ov.Alarms += alarms
	}
	if err := rows.Err(); err != nil {
		return ov, wrap("overview", err)
	}
	ov.Categories, err = stats.CountCategories(ctx, s.db, "d.site_id = ?", id)
	return ov, wrap("overview categories", err)
}

// Options lists id and name of the sites in scope, optionally of one customer, bounded.
func (s *Service) Options(ctx context.Context, p *access.Principal, customerID int64) ([]Option, error) {
	q := scoped(p)
	if customerID != 0 {
		q.And("s.customer_id = ?", customerID)
	}
	l, err := db.All(ctx, s.db, q, "s.id, s.name, s.customer_id", "s.name", 1000, 0, func(r db.Scanner) (Option, error) {
		var o Option
		err := r.Scan(&o.ID, &o.Name, &o.CustomerID)
		return o, err
	})
	return l, wrap("options", err)
}

// Option is a site for selects.
type Option struct {
	ID         int64  `json:"id"`
	Name       string `json:"name"`
	CustomerID int64  `json:"customerId"`
}

// wrap gives a database failure the operation's context; business errors pass unchanged.
func wrap(op string, err error) error { return kit.Wrap("site", op, err) }
