// Package devmodel owns device models (what a kind of charger or storage unit is), their
// config, param and control items, and the aliases under which devices report a model.
package devmodel

import (
	"context"
	"encoding/json"
	"strings"

	"chargeops/internal/apperr"
	"chargeops/internal/db"
)

// Device types (spec §2).
const (
	TypeChargingPile = 1
	TypeACPile       = 2
	TypeEnergyPile   = 3
	TypePower        = 4
	TypeHomeEnergy   = 5
	TypeV2G          = 6
)

// Model as the API shows it.
type Model struct {
	ID          int64    `json:"id"`
	Name        string   `json:"name"`
	ParentID    int64    `json:"parentId"`
	ParentName  string   `json:"parentName"`
	DeviceType  int      `json:"deviceType"`
	Vendor      string   `json:"vendor"`
	SupportsSSH bool     `json:"supportsSsh"`
	SupportsWeb bool     `json:"supportsWeb"`
	Images      []string `json:"images"`
	Icon        string   `json:"icon"`
	Aliases     []string `json:"aliases"`
	DeviceCount int64    `json:"deviceCount"`
	CreatedAt   int64    `json:"createdAt"`
	UpdatedAt   int64    `json:"updatedAt"`
}

// Service reads and changes models. Models are platform data: every console user may read
// them (to pick a model for a device); changing them needs the device-model keys.
type Service struct{ db *db.DB }

func NewService(d *db.DB) *Service { return &Service{db: d} }

const columns = `m.id, m.name, m.parent_id, COALESCE(p.name, ''), m.device_type, m.vendor, m.supports_ssh, m.supports_web, m.images, m.icon,
	m.created_at, m.updated_at, (SELECT COUNT(*) FROM device d WHERE d.model_id = m.id)`

const from = "device_model m LEFT JOIN device_model p ON p.id = m.parent_id"

func scan(r db.Scanner) (Model, error) {
	var m Model
	var ssh, web int
	var images string
	err := r.Scan(&m.ID, &m.Name, &m.ParentID, &m.ParentName, &m.DeviceType, &m.Vendor, &ssh, &web, &images, &m.Icon, &m.CreatedAt, &m.UpdatedAt, &m.DeviceCount)
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

// List returns a page of models by name.
func (s *Service) List(ctx context.Context, f ListFilter) (db.List[Model], error) {
	q := &db.Query{From: from}
	if f.Name != "" {
		q.And(`m.name LIKE ? ESCAPE '\'`, db.Contains(f.Name))
	}
	if f.DeviceType != 0 {
		q.And("m.device_type = ?", f.DeviceType)
	}
	out, err := db.Paged(ctx, s.db, q, columns, "m.name, m.id", f.Page, scan)
	if err != nil {
		return out, err
	}
	for i := range out.List {
		if out.List[i].Aliases, err = s.aliases(ctx, out.List[i].ID); err != nil {
			return out, err
		}
	}
	return out, nil
}

func (s *Service) aliases(ctx context.Context, modelID int64) ([]string, error) {
	return db.All(ctx, s.db, (&db.Query{From: "device_model_alias"}).And("model_id = ?", modelID), "alias", "alias", 100, 0,
		func(r db.Scanner) (string, error) { var a string; err := r.Scan(&a); return a, err })
}

// Get returns a model with its aliases.
func (s *Service) Get(ctx context.Context, id int64) (Model, error) {
	m, err := db.One(ctx, s.db, (&db.Query{From: from}).And("m.id = ?", id), columns, scan, apperr.ErrNotFound)
	if err != nil {
		return m, err
	}
	m.Aliases, err = s.aliases(ctx, id)
	return m, err
}

// Input adds or changes a model.
type Input struct {
	ID          int64    `json:"id"`
	Name        string   `json:"name"`
	ParentID    int64    `json:"parentId"`
	DeviceType  int      `json:"deviceType"`
	Vendor      string   `json:"vendor"`
	SupportsSSH bool     `json:"supportsSsh"`
	SupportsWeb bool     `json:"supportsWeb"`
	Images      []string `json:"images"`
	Icon        string   `json:"icon"`
}

func (s *Service) validate(ctx context.Context, in *Input) error {
	in.Name = strings.TrimSpace(in.Name)
	switch {
	case in.Name == "" || len([]rune(in.Name)) > 64:
		return apperr.InvalidField("name", "err.required")
	case in.DeviceType < TypeChargingPile || in.DeviceType > TypeV2G:
		return apperr.InvalidField("deviceType", "err.invalid")
	case len(in.Images) > 10 || len(in.Icon) > 512 || len(in.Vendor) > 64:
		return apperr.InvalidField("images", "err.invalid")
	}
	if in.Images == nil {
		in.Images = []string{}
	}
	// The parent must exist and must not be the model itself or one of its descendants.
	for p, hops := in.ParentID, 0; p != 0; hops++ {
		if p == in.ID && in.ID != 0 || hops > 32 {
			return apperr.New(apperr.Invalid, "err.model_parent")
		}
		err := s.db.QueryRow(ctx, `SELECT parent_id FROM device_model WHERE id = ?`, p).Scan(&p)
		if db.NotFound(err) {
			return apperr.InvalidField("parentId", "err.invalid")
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// Add creates a model.
func (s *Service) Add(ctx context.Context, in Input) (int64, error) {
	if err := s.validate(ctx, &in); err != nil {
		return 0, err
	}
	images, _ := json.Marshal(in.Images)
	now := db.NowMS()
	id, err := db.InsertID(ctx, s.db, `INSERT INTO device_model (name, parent_id, device_type, vendor, supports_ssh, supports_web, images, icon, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, in.Name, in.ParentID, in.DeviceType, in.Vendor, db.BoolInt(in.SupportsSSH), db.BoolInt(in.SupportsWeb), string(images), in.Icon, now, now)
	if db.IsUniqueViolation(err) {
		return 0, apperr.New(apperr.Conflict, "err.name_taken")
	}
	return id, err
}

// Update changes a model.
func (s *Service) Update(ctx context.Context, in Input) error {
	if _, err := s.Get(ctx, in.ID); err != nil {
		return err
	}
	if err := s.validate(ctx, &in); err != nil {
		return err
	}
	images, _ := json.Marshal(in.Images)
	_, err := s.db.Exec(ctx, `UPDATE device_model SET name = ?, parent_id = ?, device_type = ?, vendor = ?, supports_ssh = ?, supports_web = ?, images = ?, icon = ?, updated_at = ?
		WHERE id = ?`, in.Name, in.ParentID, in.DeviceType, in.Vendor, db.BoolInt(in.SupportsSSH), db.BoolInt(in.SupportsWeb), string(images), in.Icon, db.NowMS(), in.ID)
	if db.IsUniqueViolation(err) {
		return apperr.New(apperr.Conflict, "err.name_taken")
	}
	return err
}

// Delete removes models no device uses and no model names as parent.
func (s *Service) Delete(ctx context.Context, ids []int64) error {
	return s.db.InTx(ctx, func(tx *db.Tx) error {
		for _, id := range ids {
			var users int
			if err := tx.QueryRow(ctx, `SELECT (SELECT COUNT(*) FROM device WHERE model_id = ?) + (SELECT COUNT(*) FROM device_model WHERE parent_id = ?)`, id, id).Scan(&users); err != nil {
				return err
			}
			if users > 0 {
				return apperr.New(apperr.Conflict, "err.in_use")
			}
			res, err := tx.Exec(ctx, `DELETE FROM device_model WHERE id = ?`, id)
			if err := db.Affected(res, err, apperr.ErrNotFound); err != nil {
				return err
			}
		}
		return nil
	})
}

// Alias is another name under which devices report a model (BootNotification chargePointModel).
type Alias struct {
	ID        int64  `json:"id"`
	ModelID   int64  `json:"modelId"`
	ModelName string `json:"modelName"`
	Alias     string `json:"alias"`
	CreatedAt int64  `json:"createdAt"`
}

// AliasFilter filters aliases.
type AliasFilter struct {
	db.Page
	ModelID int64  `json:"modelId"`
	Alias   string `json:"alias"`
}

// Aliases lists aliases.
func (s *Service) Aliases(ctx context.Context, f AliasFilter) (db.List[Alias], error) {
	q := &db.Query{From: "device_model_alias a JOIN device_model m ON m.id = a.model_id"}
	if f.ModelID != 0 {
		q.And("a.model_id = ?", f.ModelID)
	}
	if f.Alias != "" {
		q.And(`a.alias LIKE ? ESCAPE '\'`, db.Contains(f.Alias))
	}
	return db.Paged(ctx, s.db, q, "a.id, a.model_id, m.name, a.alias, a.created_at", "a.alias", f.Page, func(r db.Scanner) (Alias, error) {
		var a Alias
		err := r.Scan(&a.ID, &a.ModelID, &a.ModelName, &a.Alias, &a.CreatedAt)
		return a, err
	})
}

// AliasInput adds an alias.
type AliasInput struct {
	ModelID int64  `json:"modelId"`
	Alias   string `json:"alias"`
}

// AddAlias adds an alias; an alias names one model only.
func (s *Service) AddAlias(ctx context.Context, in AliasInput) (int64, error) {
	in.Alias = strings.TrimSpace(in.Alias)
	if in.Alias == "" || len(in.Alias) > 64 {
		return 0, apperr.InvalidField("alias", "err.required")
	}
	if _, err := s.Get(ctx, in.ModelID); err != nil {
		return 0, err
	}
	id, err := db.InsertID(ctx, s.db, `INSERT INTO device_model_alias (model_id, alias, created_at) VALUES (?, ?, ?)`, in.ModelID, in.Alias, db.NowMS())
	if db.IsUniqueViolation(err) {
		return 0, apperr.New(apperr.Conflict, "err.name_taken")
	}
	return id, err
}

// DeleteAliases removes aliases.
func (s *Service) DeleteAliases(ctx context.Context, ids []int64) error {
	for _, id := range ids {
		if _, err := s.db.Exec(ctx, `DELETE FROM device_model_alias WHERE id = ?`, id); err != nil {
			return err
		}
	}
	return nil
}

// IDByNameOrAlias finds the model a device names: its name or one of its aliases (an xlsx
// import row, a BootNotification's chargePointModel). It returns notFound when none matches.
func IDByNameOrAlias(ctx context.Context, q db.Querier, name string, notFound error) (int64, error) {
	var id int64
	err := q.QueryRow(ctx, `SELECT id FROM device_model WHERE name = ? UNION SELECT model_id FROM device_model_alias WHERE alias = ?`, name, name).Scan(&id)
	if db.NotFound(err) {
		return 0, notFound
	}
	return id, err
}
