package stats

import (
	"context"
	"fmt"

	"chargeops/internal/db"
	"chargeops/internal/devmodel"
)

// Categories counts devices by site device category, the device type of their model
// (docs/dashboards.md, "Device categories"): 1 EV charger, 2 AC charger, 3 storage charger,
// 4 storage device, 5 home storage, 6 V2G charger.
type Categories struct {
	EVCharger      int64 `json:"evCharger"`
	ACCharger      int64 `json:"acCharger"`
	StorageCharger int64 `json:"storageCharger"`
	StorageDevice  int64 `json:"storageDevice"`
	HomeStorage    int64 `json:"homeStorage"`
	V2GCharger     int64 `json:"v2gCharger"`
}

func (c *Categories) add(deviceType int, n int64) {
	switch deviceType {
	case devmodel.TypeChargingPile:
		c.EVCharger += n
	case devmodel.TypeACPile:
		c.ACCharger += n
	case devmodel.TypeEnergyPile:
		c.StorageCharger += n
	case devmodel.TypePower:
		c.StorageDevice += n
	case devmodel.TypeHomeEnergy:
		c.HomeStorage += n
	case devmodel.TypeV2G:
		c.V2GCharger += n
	}
}

// CountCategories counts the devices that cond (over device d) selects by category: one
// grouped statement.
func CountCategories(ctx context.Context, q db.Querier, cond string, args ...any) (Categories, error) {
	var out Categories
	rows, err := q.Query(ctx, `SELECT m.device_type, COUNT(*) FROM device d JOIN device_model m ON m.id = d.model_id WHERE `+cond+` GROUP BY m.device_type`, args...)
	if err != nil {
		return out, fmt.Errorf("stats: devices by category: %w", err)
	}
	err = scanAll(rows, func(r db.Scanner) error {
		var t int
		var n int64
		if err := r.Scan(&t, &n); err != nil {
			return err
		}
		out.add(t, n)
		return nil
	})
	return out, err
}
