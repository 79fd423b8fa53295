// Package site owns sites: where devices stand, which customer they belong to, who is told of
// their alarms. Reads and changes are limited to the caller's scope.
package site

import (
	"context"
	"regexp"
	"strings"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
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

func scoped(sc access.Scope) *db.Query {
	q := &db.Query{From: "site s JOIN customer c ON c.id = s.customer_id"}
	cond, args := sc.SiteCond("s.customer_id", "s.id")
	return q.And(cond, args...)
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
func (s *Service) List(ctx context.Context, sc access.Scope, f ListFilter) (db.List[Site], error) {
	q := scoped(sc)
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
	return db.Paged(ctx, s.db, q, columns, db.SortOrder(f.Sort, sortColumns, "s.created_at DESC")+", s.id DESC", f.Page, scan)
}

// Get returns a site in scope with its notification receivers.
func (s *Service) Get(ctx context.Context, sc access.Scope, id int64) (Site, error) {
	st, err := db.One(ctx, s.db, scoped(sc).And("s.id = ?", id), columns, scan, apperr.ErrNotFound)
	if err != nil {
		return st, err
	}
	st.Receivers, err = db.All(ctx, s.db, (&db.Query{From: "site_receiver"}).And("site_id = ?", id), "user_id", "user_id", 1000, 0,
		func(r db.Scanner) (int64, error) { var v int64; err := r.Scan(&v); return v, err })
	return st, err
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

var dateRule = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)

func (in *Input) validate(sc access.Scope) error {
	in.Name, in.Code = strings.TrimSpace(in.Name), strings.TrimSpace(in.Code)
	switch {
	case in.Name == "" || len([]rune(in.Name)) > 100:
		return apperr.InvalidField("name", "err.required")
	case in.Code == "" || len(in.Code) > 32 || strings.ContainsAny(in.Code, " \t/\\"):
		return apperr.InvalidField("code", "err.invalid")
	case in.CustomerID == 0:
		return apperr.InvalidField("customerId", "err.required")
	case !sc.HasCustomer(in.CustomerID):
		return apperr.ErrNotFound
	case in.BuildDate != "" && !dateRule.MatchString(in.BuildDate):
		return apperr.InvalidField("buildDate", "err.invalid")
	case len(in.ContactPerson) > 64 || len(in.ContactPhone) > 32 || len(in.Address) > 255 || len(in.Image) > 512 || len(in.Receivers) > 200:
		return apperr.InvalidField("contactPerson", "err.invalid")
	}
	return nil
}

// Add creates a site for a customer in scope. A site-limited caller cannot add sites.
func (s *Service) Add(ctx context.Context, sc access.Scope, in Input) (int64, error) {
	if err := in.validate(sc); err != nil {
		return 0, err
	}
	if !sc.AllSites {
		return 0, apperr.ErrNoPermission
	}
	var id int64
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		now := db.NowMS()
		var err error
		id, err = db.InsertID(ctx, tx, `INSERT INTO site (customer_id, name, code, contact_person, contact_phone, build_date, address, image, status, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?)`, in.CustomerID, in.Name, in.Code, in.ContactPerson, in.ContactPhone, in.BuildDate, in.Address, in.Image, now, now)
		if err != nil {
			return conflict(err)
		}
		return setReceivers(ctx, tx, id, in.CustomerID, in.Receivers)
	})
	return id, err
}

// Update changes a site in scope; its customer may change only to another customer in scope.
func (s *Service) Update(ctx context.Context, sc access.Scope, in Input) error {
	if err := in.validate(sc); err != nil {
		return err
	}
	old, err := s.Get(ctx, sc, in.ID)
	if err != nil {
		return err
	}
	if old.CustomerID != in.CustomerID && old.DeviceCount > 0 {
		return apperr.New(apperr.Conflict, "err.in_use")
	}
	return s.db.InTx(ctx, func(tx *db.Tx) error {
		_, err := tx.Exec(ctx, `UPDATE site SET customer_id = ?, name = ?, code = ?, contact_person = ?, contact_phone = ?, build_date = ?, address = ?, image = ?, updated_at = ?
			WHERE id = ?`, in.CustomerID, in.Name, in.Code, in.ContactPerson, in.ContactPhone, in.BuildDate, in.Address, in.Image, db.NowMS(), in.ID)
		if err != nil {
			return conflict(err)
		}
		return setReceivers(ctx, tx, in.ID, in.CustomerID, in.Receivers)
	})
}

// setReceivers replaces the receivers; each must be a user of the site's customer (or a
// platform user, customer 0).
func setReceivers(ctx context.Context, tx *db.Tx, siteID, customerID int64, users []int64) error {
	if _, err := tx.Exec(ctx, `DELETE FROM site_receiver WHERE site_id = ?`, siteID); err != nil {
		return err
	}
	for _, u := range users {
		var n int
		if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM app_user WHERE id = ? AND (customer_id = ? OR customer_id = 0)`, u, customerID).Scan(&n); err != nil {
			return err
		}
		if n == 0 {
			return apperr.InvalidField("receivers", "err.invalid")
		}
		if _, err := tx.Exec(ctx, `INSERT INTO site_receiver (site_id, user_id) VALUES (?, ?) ON CONFLICT DO NOTHING`, siteID, u); err != nil {
			return err
		}
	}
	return nil
}

func conflict(err error) error {
	if db.IsUniqueViolation(err) {
		return apperr.New(apperr.Conflict, "err.name_taken")
	}
	return err
}

// SetStatus enables or disables sites in scope.
func (s *Service) SetStatus(ctx context.Context, sc access.Scope, ids []int64, status int) error {
	if status != Enabled && status != Disabled {
		return apperr.InvalidField("status", "err.invalid")
	}
	for _, id := range ids {
		if _, err := s.Get(ctx, sc, id); err != nil {
			return err
		}
		if _, err := s.db.Exec(ctx, `UPDATE site SET status = ?, updated_at = ? WHERE id = ?`, status, db.NowMS(), id); err != nil {
			return err
		}
	}
	return nil
}

// Delete removes sites in scope; a site with devices cannot be deleted.
func (s *Service) Delete(ctx context.Context, sc access.Scope, ids []int64) error {
	return s.db.InTx(ctx, func(tx *db.Tx) error {
		for _, id := range ids {
			st, err := s.Get(ctx, sc, id)
			if err != nil {
				return err
			}
			if st.DeviceCount > 0 {
				return apperr.New(apperr.Conflict, "err.site_has_devices")
			}
			if _, err := tx.Exec(ctx, `DELETE FROM site WHERE id = ?`, id); err != nil {
				return err
			}
		}
		return nil
	})
}

// Overview counts a site's devices by status (0-6), by device category and open alarms.
type Overview struct {
	Devices    int64            `json:"devices"`
	ByStatus   map[int]int64    `json:"byStatus"`
	Alarms     int64            `json:"alarms"`
	Categories stats.Categories `json:"categories"`
}

// OverviewOf returns the figures of a site in scope.
func (s *Service) OverviewOf(ctx context.Context, sc access.Scope, id int64) (Overview, error) {
	if _, err := s.Get(ctx, sc, id); err != nil {
		return Overview{}, err
	}
	ov := Overview{ByStatus: map[int]int64{}}
	rows, err := s.db.Query(ctx, `SELECT status, COUNT(*), SUM(CASE WHEN alarm_status > 0 THEN 1 ELSE 0 END) FROM device WHERE site_id = ? GROUP BY status`, id)
	if err != nil {
		return ov, err
	}
	defer rows.Close()
	for rows.Next() {
		var st int
		var n, alarms int64
		if err := rows.Scan(&st, &n, &alarms); err != nil {
			return ov, err
		}
		ov.ByStatus[st] = n
		ov.Devices += n
		ov.Alarms += alarms
	}
	if err := rows.Err(); err != nil {
		return ov, err
	}
	ov.Categories, err = stats.CountCategories(ctx, s.db, "d.site_id = ?", id)
	return ov, err
}

// Options lists id and name of the sites in scope, optionally of one customer, bounded.
func (s *Service) Options(ctx context.Context, sc access.Scope, customerID int64) ([]Option, error) {
	q := scoped(sc)
	if customerID != 0 {
		q.And("s.customer_id = ?", customerID)
	}
	return db.All(ctx, s.db, q, "s.id, s.name, s.customer_id", "s.name", 1000, 0, func(r db.Scanner) (Option, error) {
		var o Option
		err := r.Scan(&o.ID, &o.Name, &o.CustomerID)
		return o, err
	})
}

// Option is a site for selects.
type Option struct {
	ID         int64  `json:"id"`
	Name       string `json:"name"`
	CustomerID int64  `json:"customerId"`
}
