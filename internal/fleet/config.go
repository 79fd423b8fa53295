package fleet

import (
	"chargeops/internal/fleet/ingest"
	"context"
	"strings"

	"chargeops/internal/db"
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
