// Package catalogue owns the data model catalogue (the config-model screens): data groups and
// the data items that name and type what devices report (OCPP measurands and storage values).
package catalogue

import (
	"context"
	"strings"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/datarange"
	"chargeops/internal/db"
	"chargeops/internal/kit"
)

// Group is a data group, named in English and (optionally) in Chinese.
type Group struct {
	ID            int64  `json:"id"`
	Name          string `json:"name"`
	NameZh        string `json:"nameZh"`
	Description   string `json:"description"`
	DescriptionZh string `json:"descriptionZh"`
	ItemCount     int64  `json:"itemCount"`
	CreatedAt     int64  `json:"createdAt"`
	UpdatedAt     int64  `json:"updatedAt"`
}

// Item is a data item. Name is the key devices report (an OCPP measurand); LabelEn and LabelZh
// are what the console shows in each language (the name when empty).
type Item struct {
	ID          int64  `json:"id"`
	GroupID     int64  `json:"groupId"`
	GroupName   string `json:"groupName"`
	GroupNameZh string `json:"groupNameZh"`
	Name        string `json:"name"`
	LabelEn     string `json:"labelEn"`
	LabelZh     string `json:"labelZh"`
	Category    string `json:"category"`
	DataType    string `json:"dataType"`
	DataRange   string `json:"dataRange"`
	Unit        string `json:"unit"`
	CreatedAt   int64  `json:"createdAt"`
	UpdatedAt   int64  `json:"updatedAt"`
}

// Service reads and changes the catalogue. Every caller reads it (the catalogue is shared by
// every customer); only a platform caller changes it.
type Service struct{ db *db.DB }

func NewService(d *db.DB) *Service { return &Service{db: d} }

// mayChange: root or a caller who sees every customer changes the catalogue.
func mayChange(p *access.Principal) error {
	if p.Root || p.Scope.AllCustomers {
		return nil
	}
	return apperr.ErrNoPermission
}

// GroupFilter filters groups.
type GroupFilter struct {
	db.Page
	Name string `json:"name"`
}

// Groups lists groups by name.
func (s *Service) Groups(ctx context.Context, p *access.Principal, f GroupFilter) (db.List[Group], error) {
	q := &db.Query{From: "data_group g"}
	if f.Name != "" {
		q.And(`(g.name LIKE ? ESCAPE '\' OR g.name_zh LIKE ? ESCAPE '\')`, db.Contains(f.Name), db.Contains(f.Name))
	}
	return db.Paged(ctx, s.db, q, "g.id, g.name, g.name_zh, g.description, g.description_zh, g.created_at, g.updated_at, (SELECT COUNT(*) FROM data_item i WHERE i.group_id = g.id)",
		"g.name", f.Page, func(r db.Scanner) (Group, error) {
			var g Group
			err := r.Scan(&g.ID, &g.Name, &g.NameZh, &g.Description, &g.DescriptionZh, &g.CreatedAt, &g.UpdatedAt, &g.ItemCount)
			return g, err
		})
}

// GroupInput adds or changes a group.
type GroupInput struct {
	ID            int64  `json:"id"`
	Name          string `json:"name"`
	NameZh        string `json:"nameZh"`
	Description   string `json:"description"`
	DescriptionZh string `json:"descriptionZh"`
}

// Limits of the fields (characters; descriptions in bytes).
const (
	MaxGroupName   = 64
	MaxDescription = 500
	MaxItemName    = 100
	MaxLabel       = 100
	MaxCategory    = 64
	MaxUnit        = 16
)

// validate checks each field, the failure naming that field.
func (in *GroupInput) validate() error {
	in.Name = strings.TrimSpace(in.Name)
	in.NameZh = strings.TrimSpace(in.NameZh)
	return kit.First(
		kit.Required("name", in.Name, MaxGroupName),
		kit.Text("nameZh", in.NameZh, MaxGroupName),
		kit.MaxBytes("description", in.Description, MaxDescription),
		kit.MaxBytes("descriptionZh", in.DescriptionZh, MaxDescription),
	)
}

var (
	errTaken = apperr.New(apperr.Conflict, "err.name_taken")
	errInUse = apperr.New(apperr.Conflict, "err.in_use")
)

// clash answers errTaken for a clash on the unique name of a group or an item (key: its
// constraint); anything else is wrapped with op.
func clash(op, key string, err error) error {
	if name, ok := kit.Clash(err); ok && name == key {
		return errTaken
	}
	return wrap(op, err)
}

// AddGroup creates a group.
func (s *Service) AddGroup(ctx context.Context, p *access.Principal, in GroupInput) (int64, error) {
	if err := mayChange(p); err != nil {
		return 0, err
	}
	if err := in.validate(); err != nil {
		return 0, err
	}
	now := db.NowMS()
	id, err := db.InsertID(ctx, s.db, `INSERT INTO data_group (name, name_zh, description, description_zh, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)`,
		in.Name, in.NameZh, in.Description, in.DescriptionZh, now, now)
	return id, clash("add group", "data_group_name_key", err)
}

// UpdateGroup changes a group.
func (s *Service) UpdateGroup(ctx context.Context, p *access.Principal, in GroupInput) error {
	if err := mayChange(p); err != nil {
		return err
	}
	if err := in.validate(); err != nil {
		return err
	}
	res, err := s.db.Exec(ctx, `UPDATE data_group SET name = ?, name_zh = ?, description = ?, description_zh = ?, updated_at = ? WHERE id = ?`,
		in.Name, in.NameZh, in.Description, in.DescriptionZh, db.NowMS(), in.ID)
	return db.Affected(res, clash("update group", "data_group_name_key", err), apperr.ErrNotFound)
}

// DeleteGroups removes groups that hold no item: all of them or none.
func (s *Service) DeleteGroups(ctx context.Context, p *access.Principal, ids []int64) error {
	if err := mayChange(p); err != nil {
		return err
	}
	del := kit.Batch{Table: "data_group", Before: func(ctx context.Context, tx *db.Tx, ids kit.IDs) error {
		var n int
		if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM data_item WHERE group_id IN (`+ids.In()+`)`, ids.Args()...).Scan(&n); err != nil {
			return err
		}
		if n > 0 {
			return errInUse
		}
		return nil
	}}
	return wrap("delete groups", del.Run(ctx, s.db, ids))
}

// ItemFilter filters items.
type ItemFilter struct {
	db.Page
	GroupID  int64  `json:"groupId"`
	Name     string `json:"name"`
	Category string `json:"category"`
}

// Items lists items by name.
func (s *Service) Items(ctx context.Context, p *access.Principal, f ItemFilter) (db.List[Item], error) {
	q := &db.Query{From: "data_item i LEFT JOIN data_group g ON g.id = i.group_id"}
	if f.GroupID != 0 {
		q.And("i.group_id = ?", f.GroupID)
	}
	if f.Name != "" {
		q.And(`(i.name LIKE ? ESCAPE '\' OR i.label_en LIKE ? ESCAPE '\' OR i.label_zh LIKE ? ESCAPE '\')`, db.Contains(f.Name), db.Contains(f.Name), db.Contains(f.Name))
	}
	if f.Category != "" {
		q.And("i.category = ?", f.Category)
	}
	return db.Paged(ctx, s.db, q, "i.id, i.group_id, COALESCE(g.name, ''), COALESCE(g.name_zh, ''), i.name, i.label_en, i.label_zh, i.category, i.data_type, i.data_range, i.unit, i.created_at, i.updated_at",
		"i.name", f.Page, func(r db.Scanner) (Item, error) {
			var it Item
			err := r.Scan(&it.ID, &it.GroupID, &it.GroupName, &it.GroupNameZh, &it.Name, &it.LabelEn, &it.LabelZh, &it.Category, &it.DataType, &it.DataRange, &it.Unit, &it.CreatedAt, &it.UpdatedAt)
			return it, err
		})
}

// ItemInput adds or changes an item.
type ItemInput struct {
	ID        int64  `json:"id"`
	GroupID   int64  `json:"groupId"`
	Name      string `json:"name"`
	LabelEn   string `json:"labelEn"`
	LabelZh   string `json:"labelZh"`
	Category  string `json:"category"`
	DataType  string `json:"dataType"`
	DataRange string `json:"dataRange"`
	Unit      string `json:"unit"`
}

func (s *Service) validateItem(ctx context.Context, in *ItemInput) error {
	in.Name = strings.TrimSpace(in.Name)
	in.LabelEn, in.LabelZh = strings.TrimSpace(in.LabelEn), strings.TrimSpace(in.LabelZh)
	if err := kit.First(
		kit.Required("name", in.Name, MaxItemName),
		kit.Text("labelEn", in.LabelEn, MaxLabel),
		kit.Text("labelZh", in.LabelZh, MaxLabel),
		kit.Text("category", in.Category, MaxCategory),
		kit.Text("unit", in.Unit, MaxUnit),
	); err != nil {
		return err
	}
	if strings.TrimSpace(in.DataRange) == "" {
		in.DataRange = datarange.Default(in.DataType)
	}
	if err := datarange.Validate(in.DataType, in.DataRange, "dataRange"); err != nil {
		return err
	}
	if in.GroupID != 0 {
		var n int
		if err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM data_group WHERE id = ?`, in.GroupID).Scan(&n); err != nil {
			return wrap("check group", err)
		}
		if n == 0 {
			return apperr.InvalidField("groupId", "err.invalid")
		}
	}
	return nil
}

// AddItem creates an item.
func (s *Service) AddItem(ctx context.Context, p *access.Principal, in ItemInput) (int64, error) {
	if err := mayChange(p); err != nil {
		return 0, err
	}
	if err := s.validateItem(ctx, &in); err != nil {
		return 0, err
	}
	now := db.NowMS()
	id, err := db.InsertID(ctx, s.db, `INSERT INTO data_item (group_id, name, label_en, label_zh, category, data_type, data_range, unit, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		in.GroupID, in.Name, in.LabelEn, in.LabelZh, in.Category, in.DataType, in.DataRange, in.Unit, now, now)
	return id, clash("add item", "data_item_name_key", err)
}

// UpdateItem changes an item.
func (s *Service) UpdateItem(ctx context.Context, p *access.Principal, in ItemInput) error {
	if err := mayChange(p); err != nil {
		return err
	}
	if err := s.validateItem(ctx, &in); err != nil {
		return err
	}
	res, err := s.db.Exec(ctx, `UPDATE data_item SET group_id = ?, name = ?, label_en = ?, label_zh = ?, category = ?, data_type = ?, data_range = ?, unit = ?, updated_at = ? WHERE id = ?`,
		in.GroupID, in.Name, in.LabelEn, in.LabelZh, in.Category, in.DataType, in.DataRange, in.Unit, db.NowMS(), in.ID)
	return db.Affected(res, clash("update item", "data_item_name_key", err), apperr.ErrNotFound)
}

// DeleteItems removes items: all of them or none.
func (s *Service) DeleteItems(ctx context.Context, p *access.Principal, ids []int64) error {
	if err := mayChange(p); err != nil {
		return err
	}
	return wrap("delete items", kit.Batch{Table: "data_item"}.Run(ctx, s.db, ids))
}

// wrap gives a database failure the operation's context; business errors pass unchanged.
func wrap(op string, err error) error { return kit.Wrap("catalogue", op, err) }
