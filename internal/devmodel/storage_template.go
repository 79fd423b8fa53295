package devmodel

import (
	"context"

	"chargeops/internal/access"
	"chargeops/internal/db"
)

// The storage template (issue 26, docs/mqtt.md "Storage data model"): the items a storage
// unit's model lists. Its parameters are the edge agent's configuration keys (the SunSpec
// vendor model's points, internal/sunspec/vendor.go) and its controls the commands a unit takes:
// read and write configuration, the power setpoint, the mode, start and stop, the fault reset.
// A model of a storage device adds them with one call (AddStorageItems); the demo's storage
// models are made from it.

// StorageItems are the template's items, named in English (zh: in Chinese).
func StorageItems(zh bool) []Item {
	name := func(en, cn string) string {
		if zh {
			return cn
		}
		return en
	}
	group := name("Storage", "储能")
	param := func(priority int, key, en, cn, typ, rng string, write int) Item {
		return Item{Kind: KindParam, ConfigGroup: group, ConfigItem: name(en, cn), ProtocolKey: key, DataType: typ, DataRange: rng,
			ReadLevel: 4, WriteLevel: write, DisplayPriority: priority}
	}
	control := func(code int, en, cn string, level int) Item {
		return Item{Kind: KindControl, ControlName: name(en, cn), ControlTypeCode: code, ControlLevel: level}
	}
	return []Item{
		param(1, "Mode", "Operating mode", "运行模式", "enum",
			name("Self-consumption|0\nPeak shaving|1\nBackup|2\nManual|3", "自发自用|0\n削峰|1\n备电|2\n手动|3"), 2),
		param(2, "PeakLimitW", "Peak limit (W)", "削峰限值 (W)", "int", "0~10000000", 2),
		param(3, "BackupReserveSoC", "Backup reserve (%)", "备电保留 (%)", "float", "0~100|1", 2),
		param(4, "MinSoC", "Minimum state of charge (%)", "最低荷电状态 (%)", "float", "0~100|1", 1),
		param(5, "MaxSoC", "Maximum state of charge (%)", "最高荷电状态 (%)", "float", "0~100|1", 1),
		control(ControlRefreshConfig, "Refresh configuration", "刷新配置", 4),
		control(ControlSetParams, "Set parameters", "设置参数", 2),
		control(29, "Storage power setpoint", "储能功率设定", 2),
		control(30, "Set storage mode", "设置储能运行模式", 2),
		control(31, "Start or stop storage", "储能启停", 2),
		control(32, "Storage fault reset", "储能故障复位", 3),
	}
}

// AddStorageItems adds the template's items a model p may change does not list yet (a
// parameter by its key, a control by its type), in one transaction, and says how many.
func (s *Service) AddStorageItems(ctx context.Context, p *access.Principal, modelID int64, zh bool) (int, error) {
	added := 0
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		if _, err := s.changeable(ctx, tx, p, modelID); err != nil {
			return err
		}
		keys, err := db.Column[string](ctx, tx, `SELECT protocol_key FROM model_item WHERE model_id = ? AND kind = ?`, modelID, KindParam)
		if err != nil {
			return err
		}
		codes, err := db.Column[int](ctx, tx, `SELECT control_type_code FROM model_item WHERE model_id = ? AND kind = ?`, modelID, KindControl)
		if err != nil {
			return err
		}
		hasKey, hasCode := map[string]bool{}, map[int]bool{}
		for _, k := range keys {
			hasKey[k] = true
		}
		for _, c := range codes {
			hasCode[c] = true
		}
		for _, it := range StorageItems(zh) {
			if it.Kind == KindControl && hasCode[it.ControlTypeCode] || it.Kind != KindControl && hasKey[it.ProtocolKey] {
				continue
			}
			it.ModelID = modelID
			if err := it.validate(); err != nil {
				return err
			}
			if _, err := insertItem(ctx, tx, it); err != nil {
				return err
			}
			added++
		}
		return nil
	})
	return added, wrap("add storage items", err)
}
