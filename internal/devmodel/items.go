package devmodel

import (
	"context"
	"strings"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/datarange"
	"chargeops/internal/db"
	"chargeops/internal/kit"
)

// Item kinds.
const (
	KindConfig  = "config"
	KindParam   = "param"
	KindControl = "control"
)

// Control types (docs/ocpp16.md#chargeops--charger).
const (
	ControlSoftReboot    = 1
	ControlHardReboot    = 2
	ControlDisable       = 3
	ControlDisableConn   = 4
	ControlFirmware      = 5
	ControlLogUpload     = 6
	ControlVPNStart      = 7
	ControlVPNStop       = 8
	ControlRefreshConfig = 9
	ControlRefreshParams = 10
	ControlSetParams     = 11
	// ControlLast is the highest control type: the operator actions 12-18, the local list's
	// 19-20, the certificates' 21-24, GetLog's 25, smart charging's 26-28 and storage's 29-32
	// follow the
	// specification's 1-11 (docs/gateway.md, "Commands"); a model that lists control items
	// offers only those.
	ControlLast = 32
)

// MinControlLevel is the bound a control item's level must exceed: level 0 is kept for root,
// so control levels are 1-5 (the specification leaves the bound open; docs/decisions.md#device-models).
const MinControlLevel = 0

// Item is a config, param or control item of a model (docs/decisions.md#device-models).
type Item struct {
	ID              int64  `json:"id"`
	ModelID         int64  `json:"modelId"`
	Kind            string `json:"kind"`
	ConfigGroup     string `json:"configGroup"`
	ConfigItem      string `json:"configItem"`
	ProtocolKey     string `json:"protocolKey"`
	DisplayPriority int    `json:"displayPriority"`
	ReadLevel       int    `json:"readLevel"`
	WriteLevel      int    `json:"writeLevel"`
	Batch           bool   `json:"batch"`
	DataType        string `json:"dataType"`
	DataRange       string `json:"dataRange"`
	ControlName     string `json:"controlName"`
	ControlTypeCode int    `json:"controlTypeCode"`
	ControlLevel    int    `json:"controlLevel"`
	Param1Name      string `json:"param1Name"`
	Param2Name      string `json:"param2Name"`
}

const itemColumns = `id, model_id, kind, config_group, config_item, protocol_key, display_priority, read_level, write_level, batch, data_type,
	data_range, control_name, control_type_code, control_level, param1_name, param2_name`

func scanItem(r db.Scanner) (Item, error) {
	var it Item
	var batch int
	err := r.Scan(&it.ID, &it.ModelID, &it.Kind, &it.ConfigGroup, &it.ConfigItem, &it.ProtocolKey, &it.DisplayPriority, &it.ReadLevel,
		&it.WriteLevel, &batch, &it.DataType, &it.DataRange, &it.ControlName, &it.ControlTypeCode, &it.ControlLevel, &it.Param1Name, &it.Param2Name)
	it.Batch = batch == 1
	return it, err
}

// ItemFilter selects a model's items.
type ItemFilter struct {
	ModelID int64  `json:"modelId"`
	Kind    string `json:"kind"`
}

// Items lists the items of one kind (or all) of a model p may read, by display priority (at
// most 1,000).
func (s *Service) Items(ctx context.Context, p *access.Principal, f ItemFilter) ([]Item, error) {
	if _, err := s.get(ctx, s.db, p, f.ModelID); err != nil {
		return nil, err
	}
	q := (&db.Query{From: "model_item"}).And("model_id = ?", f.ModelID)
	if f.Kind != "" {
		q.And("kind = ?", f.Kind)
	}
	items, err := db.All(ctx, s.db, q, itemColumns, "kind, display_priority, id", 1000, 0, scanItem)
	return items, wrap("items", err)
}

func level(v int) bool { return v >= 0 && v <= 5 }

func (it *Item) validate() error {
	it.ConfigGroup, it.ConfigItem, it.ProtocolKey = strings.TrimSpace(it.ConfigGroup), strings.TrimSpace(it.ConfigItem), strings.TrimSpace(it.ProtocolKey)
	it.ControlName = strings.TrimSpace(it.ControlName)
	switch it.Kind {
	case KindConfig, KindParam:
		switch {
		case it.ConfigItem == "" || len(it.ConfigItem) > 100:
			return apperr.InvalidField("configItem", "err.required")
		case it.ProtocolKey == "" || len(it.ProtocolKey) > 100:
			return apperr.InvalidField("protocolKey", "err.required")
		case !level(it.ReadLevel):
			return apperr.InvalidField("readLevel", "err.invalid")
		case !level(it.WriteLevel):
			return apperr.InvalidField("writeLevel", "err.invalid")
		}
		if strings.TrimSpace(it.DataRange) == "" {
			it.DataRange = datarange.Default(it.DataType)
		}
		if err := datarange.Validate(it.DataType, it.DataRange, "dataRange"); err != nil {
			return err
		}
	case KindControl:
		switch {
		case it.ControlName == "" || len(it.ControlName) > 100:
			return apperr.InvalidField("controlName", "err.required")
		case it.ControlTypeCode < ControlSoftReboot || it.ControlTypeCode > ControlLast:
			return apperr.InvalidField("controlTypeCode", "err.invalid")
		case it.ControlLevel <= MinControlLevel || it.ControlLevel > 5:
			return apperr.New(apperr.Invalid, "err.control_level")
		case len(it.Param1Name) > 64:
			return apperr.InvalidField("param1Name", "err.invalid")
		case len(it.Param2Name) > 64:
			return apperr.InvalidField("param2Name", "err.invalid")
		}
		it.DataType = datarange.String
	default:
		return apperr.InvalidField("kind", "err.invalid")
	}
	if it.DisplayPriority < 0 || it.DisplayPriority > 9999 {
		return apperr.InvalidField("displayPriority", "err.invalid")
	}
	return kit.MaxBytes("configGroup", it.ConfigGroup, 100)
}

func itemConflict(err error, it Item) error {
	if _, clash := kit.Clash(err); !clash {
		return err
	}
	if it.Kind == KindControl {
		return apperr.New(apperr.Conflict, "err.control_code_taken")
	}
	return apperr.New(apperr.Conflict, "err.protocol_key_taken")
}

// AddItem adds an item to a model p may change.
func (s *Service) AddItem(ctx context.Context, p *access.Principal, it Item) (int64, error) {
	if err := it.validate(); err != nil {
		return 0, err
	}
	var id int64
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		if _, err := s.changeable(ctx, tx, p, it.ModelID); err != nil {
			return err
		}
		var err error
		id, err = insertItem(ctx, tx, it)
		return err
	})
	return id, wrap("add item", err)
}

// insertItem inserts a checked item of a model the caller may change, in tx.
func insertItem(ctx context.Context, tx *db.Tx, it Item) (int64, error) {
	now := db.NowMS()
	id, err := db.InsertID(ctx, tx, `INSERT INTO model_item (model_id, kind, config_group, config_item, protocol_key, display_priority, read_level,
		write_level, batch, data_type, data_range, control_name, control_type_code, control_level, param1_name, param2_name, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, it.ModelID, it.Kind, it.ConfigGroup, it.ConfigItem, it.ProtocolKey,
		it.DisplayPriority, it.ReadLevel, it.WriteLevel, db.BoolInt(it.Batch), it.DataType, it.DataRange, it.ControlName, it.ControlTypeCode,
		it.ControlLevel, it.Param1Name, it.Param2Name, now, now)
	return id, itemConflict(err, it)
}

// UpdateItem changes an item of a model p may change; its model and kind stay.
func (s *Service) UpdateItem(ctx context.Context, p *access.Principal, it Item) error {
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		var err error
		if it.ModelID, it.Kind, err = s.itemModel(ctx, tx, p, it.ID); err != nil {
			return err
		}
		if err := it.validate(); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `UPDATE model_item SET config_group = ?, config_item = ?, protocol_key = ?, display_priority = ?, read_level = ?,
			write_level = ?, batch = ?, data_type = ?, data_range = ?, control_name = ?, control_type_code = ?, control_level = ?, param1_name = ?,
			param2_name = ?, updated_at = ? WHERE id = ?`, it.ConfigGroup, it.ConfigItem, it.ProtocolKey, it.DisplayPriority, it.ReadLevel,
			it.WriteLevel, db.BoolInt(it.Batch), it.DataType, it.DataRange, it.ControlName, it.ControlTypeCode, it.ControlLevel, it.Param1Name,
			it.Param2Name, db.NowMS(), it.ID)
		return itemConflict(err, it)
	})
	return wrap("update item", err)
}

// itemModel returns the model and kind of an item whose model p may change.
func (s *Service) itemModel(ctx context.Context, q db.Querier, p *access.Principal, id int64) (modelID int64, kind string, err error) {
	var owner int64
	err = q.QueryRow(ctx, `SELECT i.model_id, i.kind, m.customer_id FROM model_item i JOIN device_model m ON m.id = i.model_id WHERE i.id = ?`, id).
		Scan(&modelID, &kind, &owner)
	if db.NotFound(err) || (err == nil && !kit.MayRead(p, owner)) {
		return 0, "", apperr.ErrNotFound
	}
	if err != nil {
		return 0, "", err
	}
	return modelID, kind, owned.MayChange(p, owner)
}

// DeleteItems removes items of models p may change; all of them or none.
func (s *Service) DeleteItems(ctx context.Context, p *access.Principal, ids []int64) error {
	err := batch(p, "model_item", `SELECT m.customer_id FROM model_item i JOIN device_model m ON m.id = i.model_id
		WHERE i.id`).Run(ctx, s.db, ids)
	return wrap("delete items", err)
}
