package demo

import (
	"context"
	"fmt"

	"chargeops/internal/access"
	"chargeops/internal/app"
	"chargeops/internal/loadmgmt"
)

// seedPower gives the Futian car park a grid connection the load manager keeps it under
// (docs/smart-charging.md): 150 kW, 100 kW in the weekday evening peak. Its AC chargers are
// single-phase 32 A, spread over the three phases; its DC chargers draw up to 90 A per phase
// (60 kW), so a few DC sessions already meet the limit and the Power tab shows the shares move.
func seedPower(ctx context.Context, a *app.App, root *access.Principal, siteIDs map[string]int64) error {
	siteID := siteIDs["SZ-FT-01"]
	if err := a.LoadMgmt.SetSitePower(ctx, root, loadmgmt.SitePower{SiteID: siteID, Enabled: true, LimitKW: 150, MinA: 6, EditLevel: 2,
		Schedule: []loadmgmt.Window{{From: "18:00", To: "22:00", Days: []int{1, 2, 3, 4, 5}, LimitKW: 100}}}); err != nil {
		return err
	}
	type charger struct {
		id    int64
		model string
	}
	var chargers []charger
	rows, err := a.DB.Query(ctx, `SELECT d.id, m.name FROM device d JOIN device_model m ON m.id = d.model_id WHERE d.site_id = ? ORDER BY d.sn`, siteID)
	if err != nil {
		return err
	}
	for rows.Next() {
		var c charger
		if err := rows.Scan(&c.id, &c.model); err != nil {
			rows.Close()
			return err
		}
		chargers = append(chargers, c)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for i, r := range chargers {
		dp := loadmgmt.DevicePower{DeviceID: r.id, Phases: 3, Phase: 1, MinA: 6, MaxA: 90}
		if r.model == "AC-7kW" {
			dp.Phases, dp.Phase, dp.MaxA = 1, i%3+1, 32
		}
		if err := a.LoadMgmt.SetDevicePower(ctx, root, dp); err != nil {
			return fmt.Errorf("device %d: %w", r.id, err)
		}
	}
	return nil
}
