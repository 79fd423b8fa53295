// Package devmodel owns device models (what a kind of charger or storage unit is), their
// config, param and control items, and the aliases under which devices report a model.
package devmodel

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/kit"
)

// Device types (docs/dashboards.md#device-categories).
const (
	TypeChargingPile = 1
	TypeACPile       = 2
	TypeEnergyPile   = 3
	TypePower        = 4
	TypeHomeEnergy   = 5
	TypeV2G          = 6
)

// Model as the API shows it. CustomerID 0 is a platform model.
type Model struct {
	ID           int64    `json:"id"`
	Name         string   `json:"name"`
	CustomerID   int64    `json:"customerId"`
	CustomerName string   `json:"customerName"`
	ParentID     int64    `json:"parentId"`
	ParentName   string   `json:"parentName"`
	DeviceType   int      `json:"deviceType"`
	Vendor       string   `json:"vendor"`
	SupportsSSH  bool     `json:"supportsSsh"`
	SupportsWeb  bool     `json:"supportsWeb"`
	Images       []string `json:"images"`
	Icon         string   `json:"icon"`
	Aliases      []string `json:"aliases"`
	DeviceCount  int64    `json:"deviceCount"` // devices in the caller's scope
	CreatedAt    int64    `json:"createdAt"`
	UpdatedAt    int64    `json:"updatedAt"`
}

// Service reads and changes models. A model belongs to the platform (customer 0) or to one
// customer (docs/decisions.md#device-models): everyone with the model keys reads platform
// models and the models of customers in scope; a change needs a scope that holds every device
// that may use the model.
type Service struct{ db *db.DB }

func NewService(d *db.DB) *Service { return &Service{db: d} }

// PlatformOwner is the customer id of a platform model.
const PlatformOwner = kit.PlatformOwner

const columns = `m.id, m.name, m.customer_id, COALESCE(c.name, ''), m.parent_id, COALESCE(p.name, ''), m.device_type, m.vendor, m.supports_ssh,
	m.supports_web, m.images, m.icon, m.created_at, m.updated_at`

const from = "device_model m LEFT JOIN device_model p ON p.id = m.parent_id LEFT JOIN customer c ON c.id = m.customer_id"

func scan(r db.Scanner) (Model, error) {
	var m Model
	var ssh, web int
	var images string
	err := r.Scan(&m.ID, &m.Name, &m.CustomerID, &m.CustomerName, &m.ParentID, &m.ParentName, &m.DeviceType, &m.Vendor, &ssh, &web, &images, &m.Icon,
		&m.CreatedAt, &m.UpdatedAt)
	m.SupportsSSH, m.SupportsWeb = ssh == 1, web == 1
	m.Images = []string{}
	_ = json.Unmarshal([]byte(images), &m.Images)
	m.Aliases = []string{}
	return m, err
}

// ListFilter filters the model list.
type ListFilter struct {
	db.Page
	Name       string `json:"name"`
	DeviceType int    `json:"deviceType"`
}

// List returns a page of the models p may read, by name.
func (s *Service) List(ctx context.Context, p *access.Principal, f ListFilter) (db.List[Model], error) {
	cond, args := kit.Visible(p, "m.customer_id")
	q := (&db.Query{From: from}).And(cond, args...)
	if f.Name != "" {
		q.And(`m.name LIKE ? ESCAPE '\'`, db.Contains(f.Name))
	}
	if f.DeviceType != 0 {
		q.And("m.device_type = ?", f.DeviceType)
	}
	out, err := db.Paged(ctx, s.db, q, columns, "m.name, m.id", f.Page, scan)
	if err != nil {
		return out, fmt.Errorf("devmodel: list: %w", err)
	}
	for i := range out.List {
		if err := s.complete(ctx, p, &out.List[i]); err != nil {
			return out, err
		}
	}
	return out, nil
}

// complete reads a model's aliases and counts its devices in p's scope (a count over every
// customer would tell a customer how many devices the others have).
func (s *Service) complete(ctx context.Context, p *access.Principal, m *Model) error {
	var err error
	m.Aliases, err = db.All(ctx, s.db, (&db.Query{From: "device_model_alias"}).And("model_id = ?", m.ID), "alias", "alias", 100, 0,
		func(r db.Scanner) (string, error) { var a string; err := r.Scan(&a); return a, err })
	if err != nil {
		return fmt.Errorf("devmodel: aliases: %w", err)
	}
	cond, args := p.Scope.SiteCond("d.customer_id", "d.site_id")
	m.DeviceCount, err = (&db.Query{From: "device d"}).And("d.model_id = ?", m.ID).And(cond, args...).Count(ctx, s.db)
	if err != nil {
		return fmt.Errorf("devmodel: device count: %w", err)
	}
	return nil
}

// Get returns a model p may read, with its aliases.
func (s *Service) Get(ctx context.Context, p *access.Principal, id int64) (Model, error) {
	m, err := s.get(ctx, s.db, p, id)
	if err != nil {
		return m, err
	}
	return m, s.complete(ctx, p, &m)
}

func (s *Service) get(ctx context.Context, q db.Querier, p *access.Principal, id int64) (Model, error) {
	cond, args := kit.Visible(p, "m.customer_id")
	m, err := db.One(ctx, q, (&db.Query{From: from}).And("m.id = ?", id).And(cond, args...), columns, scan, apperr.ErrNotFound)
	return m, wrap("get", err)
}

// changeable returns the model if p may change it: not-found outside p's scope, errShared
// when devices outside it may use the model.
func (s *Service) changeable(ctx context.Context, q db.Querier, p *access.Principal, id int64) (Model, error) {
	m, err := s.get(ctx, q, p, id)
	if err != nil {
		return m, err
	}
	return m, owned.MayChange(p, m.CustomerID)
}

// Input adds or changes a model. CustomerID names the owner on add (0: a platform model); the
// owner of a model never changes, since devices of that owner may use it.
type Input struct {
	ID          int64    `json:"id"`
	Name        string   `json:"name"`
	CustomerID  int64    `json:"customerId"`
	ParentID    int64    `json:"parentId"`
	DeviceType  int      `json:"deviceType"`
	Vendor      string   `json:"vendor"`
	SupportsSSH bool     `json:"supportsSsh"`
	SupportsWeb bool     `json:"supportsWeb"`
	Images      []string `json:"images"`
	Icon        string   `json:"icon"`
}

func (in *Input) normalise() error {
	in.Name = strings.TrimSpace(in.Name)
	switch {
	case in.Name == "" || len([]rune(in.Name)) > 64:
		return apperr.InvalidField("name", "err.required")
	case in.DeviceType < TypeChargingPile || in.DeviceType > TypeV2G:
		return apperr.InvalidField("deviceType", "err.invalid")
	case len(in.Vendor) > 64:
		return apperr.InvalidField("vendor", "err.invalid")
	case len(in.Images) > 10:
		return apperr.InvalidField("images", "err.invalid")
	case len(in.Icon) > 512:
		return apperr.InvalidField("icon", "err.invalid")
	}
	if in.Images == nil {
		in.Images = []string{}
	}
	return nil
}

// checkParent: the parent must be a model the caller reads, of the platform or of the model's
// own customer, and must not be the model itself or one of its descendants.
func (s *Service) checkParent(ctx context.Context, q db.Querier, p *access.Principal, in Input) error {
	for id, hops := in.ParentID, 0; id != 0; hops++ {
		if id == in.ID && in.ID != 0 || hops > 32 {
			return apperr.New(apperr.Invalid, "err.model_parent")
		}
		parent, err := s.get(ctx, q, p, id)
		if apperr.IsNotFound(err) || (err == nil && parent.CustomerID != PlatformOwner && parent.CustomerID != in.CustomerID) {
			return apperr.InvalidField("parentId", "err.invalid")
		}
		if err != nil {
			return err
		}
		id = parent.ParentID
	}
	return nil
}

// checkName refuses a name another model holds: "already exists" when p reads that model, a
// neutral refusal otherwise, so a name does not reveal another customer's model.
func (s *Service) checkName(ctx context.Context, q db.Querier, p *access.Principal, name string, id int64) error {
	var other int64
	err := q.QueryRow(ctx, `SELECT id FROM device_model WHERE name = ? AND id <> ?`, name, id).Scan(&other)
	if db.NotFound(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("devmodel: name check: %w", err)
	}
	if _, err := s.get(ctx, q, p, other); err == nil {
		return apperr.New(apperr.Conflict, "err.name_taken")
	}
	return apperr.InvalidField("name", "err.name_unusable")
}

// nameClash maps a unique-constraint failure of a race the checks could not see.
func nameClash(field string, err error) error {
	if _, clash := kit.Clash(err); clash {
		return apperr.InvalidField(field, "err.name_unusable")
	}
	return err
}

// Add creates a model of the platform or of a customer in p's scope.
func (s *Service) Add(ctx context.Context, p *access.Principal, in Input) (int64, error) {
	in.ID = 0
	if err := in.normalise(); err != nil {
		return 0, err
	}
	if in.CustomerID == PlatformOwner && !p.Root && !p.Scope.AllCustomers {
		in.CustomerID = p.CustomerID // a customer's administrator adds its own customer's models
	}
	if in.CustomerID != PlatformOwner {
		var n int
		if err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM customer WHERE id = ?`, in.CustomerID).Scan(&n); err != nil {
			return 0, fmt.Errorf("devmodel: add: %w", err)
		}
		if n == 0 {
			return 0, apperr.ErrNotFound
		}
	}
	if err := owned.MayChange(p, in.CustomerID); err != nil {
		return 0, err
	}
	var id int64
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		if err := s.checkParent(ctx, tx, p, in); err != nil {
			return err
		}
		if err := s.checkName(ctx, tx, p, in.Name, 0); err != nil {
			return err
		}
		images, _ := json.Marshal(in.Images)
		now := db.NowMS()
		var err error
		id, err = db.InsertID(ctx, tx, `INSERT INTO device_model (name, customer_id, parent_id, device_type, vendor, supports_ssh, supports_web, images, icon,
			created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, in.Name, in.CustomerID, in.ParentID, in.DeviceType, in.Vendor,
			db.BoolInt(in.SupportsSSH), db.BoolInt(in.SupportsWeb), string(images), in.Icon, now, now)
		return nameClash("name", err)
	})
	return id, wrap("add", err)
}

// Update changes a model p may change; its owner stays.
func (s *Service) Update(ctx context.Context, p *access.Principal, in Input) error {
	if err := in.normalise(); err != nil {
		return err
	}
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		old, err := s.changeable(ctx, tx, p, in.ID)
		if err != nil {
			return err
		}
		in.CustomerID = old.CustomerID
		if err := s.checkParent(ctx, tx, p, in); err != nil {
			return err
		}
		if err := s.checkName(ctx, tx, p, in.Name, in.ID); err != nil {
			return err
		}
		images, _ := json.Marshal(in.Images)
		_, err = tx.Exec(ctx, `UPDATE device_model SET name = ?, parent_id = ?, device_type = ?, vendor = ?, supports_ssh = ?, supports_web = ?, images = ?,
			icon = ?, updated_at = ? WHERE id = ?`, in.Name, in.ParentID, in.DeviceType, in.Vendor, db.BoolInt(in.SupportsSSH), db.BoolInt(in.SupportsWeb),
			string(images), in.Icon, db.NowMS(), in.ID)
		return nameClash("name", err)
	})
	return wrap("update", err)
}

// Delete removes models p may change that no device uses and no model names as parent; all
// of them or none.
func (s *Service) Delete(ctx context.Context, p *access.Principal, ids []int64) error {
	del := batch(p, "device_model", `SELECT customer_id FROM device_model WHERE id`)
	mayChange := del.Before
	del.Before = func(ctx context.Context, tx *db.Tx, ids kit.IDs) error {
		if err := mayChange(ctx, tx, ids); err != nil {
			return err
		}
		var users int
		if err := tx.QueryRow(ctx, `SELECT (SELECT COUNT(*) FROM device WHERE model_id IN (`+ids.In()+`)) + (SELECT COUNT(*) FROM device_model WHERE parent_id IN (`+ids.In()+`))`,
			append(ids.Args(), ids.Args()...)...).Scan(&users); err != nil {
			return err
		}
		if users > 0 {
			return apperr.New(apperr.Conflict, "err.in_use")
		}
		return nil
	}
	err := del.Run(ctx, s.db, ids)
	return wrap("delete", err)
}
