package fleet

import (
	"context"
	"fmt"
	"strings"

	"chargeops/internal/access"
	"chargeops/internal/db"
	"chargeops/internal/fleet/ingest"
	"chargeops/internal/secret"
)

// Configuration keys as the charger reports them (GetConfiguration answers, accepted changes).

const (
	sqlConfigUpsert = `INSERT INTO device_config (device_id, key, value, readonly, updated_at) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (device_id, key) DO UPDATE SET value = excluded.value, readonly = excluded.readonly, updated_at = excluded.updated_at`
	// a device given a key is at least security profile 1
	sqlAuthKey = `UPDATE device SET auth_key_hash = ?, security_profile = CASE WHEN security_profile = 0 THEN 1 ELSE security_profile END WHERE id = ?`
)

// ConfigValue is one configuration key of a device.
type ConfigValue struct {
	Key      string `json:"key"`
	Value    string `json:"value"`
	Readonly bool   `json:"readonly"`
}

// StoreConfig saves configuration values (GetConfiguration answers, accepted changes).
func (s *Service) StoreConfig(ctx context.Context, deviceID int64, items []ConfigValue) error {
	now := db.NowMS()
	return s.Ingest.Commit(ctx, &ingest.Unit{Step: func(ctx context.Context, b *ingest.Batch) error {
		for _, it := range items {
			if _, err := b.Tx.Exec(ctx, sqlConfigUpsert, deviceID, it.Key, it.Value, db.BoolInt(it.Readonly), now); err != nil {
				return err
			}
		}
		return nil
	}})
}

// SetConfigValue saves one accepted ChangeConfiguration; the AuthorizationKey is never stored
// in clear: it becomes the device's key hash.
func (s *Service) SetConfigValue(ctx context.Context, dev *Device, key, value string) error {
	if strings.EqualFold(key, "AuthorizationKey") {
		return s.Ingest.Exec(ctx, sqlAuthKey, s.HashAuthKey(dev.SN, value), dev.ID)
	}
	return s.StoreConfig(ctx, dev.ID, []ConfigValue{{Key: key, Value: value}})
}

// ConfigItem is a configuration value with the model's description of it.
type ConfigItem struct {
	Key        string `json:"key"`
	Value      string `json:"value"`
	Readonly   bool   `json:"readonly"`
	Group      string `json:"group"`
	Name       string `json:"name"`
	ReadLevel  int    `json:"readLevel"`
	WriteLevel int    `json:"writeLevel"`
	Batch      bool   `json:"batch"`
	// Writable: the caller may change it (the server's level rules and the device's read-only
	// flag), so the console shows an edit control only where the server would accept one.
	Writable  bool  `json:"writable"`
	UpdatedAt int64 `json:"updatedAt"`
}

// ConfigValues lists a device's configuration values that the caller may read: config items by
// the config read level, param items by the parameter level, items the model does not describe
// at level 5 (everyone reads them). Credentials (AuthorizationKey) are never shown.
func (s *Service) ConfigValues(ctx context.Context, p *access.Principal, deviceID int64) ([]ConfigItem, error) {
	dev, err := s.ScopedDevice(ctx, p, deviceID)
	if err != nil {
		return nil, err
	}
	rules, err := s.newRulesCache().get(ctx, dev.ModelID)
	if err != nil {
		return nil, err
	}
	rows, err := s.db.Query(ctx, `SELECT key, value, readonly, updated_at FROM device_config WHERE device_id = ? ORDER BY key`, deviceID)
	if err != nil {
		return nil, fmt.Errorf("fleet: config values: %w", err)
	}
	defer rows.Close()
	out := []ConfigItem{}
	for rows.Next() {
		it := ConfigItem{ReadLevel: 5, WriteLevel: 5}
		var ro int
		if err := rows.Scan(&it.Key, &it.Value, &ro, &it.UpdatedAt); err != nil {
			return nil, fmt.Errorf("fleet: config values: %w", err)
		}
		it.Readonly = ro == 1
		if !rules.canRead(p, it.Key) {
			continue
		}
		if listed := rules[strings.ToLower(it.Key)]; len(listed) > 0 {
			r := listed[0]
			it.Group, it.Name, it.ReadLevel, it.WriteLevel, it.Batch = r.group, r.name, r.readLevel, r.writeLevel, r.batch
		}
		if secret.IsSecretConfigKey(it.Key) {
			it.Value = secret.Mask
		}
		it.Writable = !it.Readonly && rules.canWrite(p, it.Key)
		out = append(out, it)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("fleet: config values: %w", err)
	}
	return out, nil
}
