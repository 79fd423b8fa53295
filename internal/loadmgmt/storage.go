package loadmgmt

import (
	"context"
	"log/slog"
	"strconv"

	"chargeops/internal/db"
	"chargeops/internal/devmodel"
	"chargeops/internal/devstate"
	"chargeops/internal/ess"
)

// StorageExtra is the storage hook of a site with storage units (issue 26, docs/mqtt.md): the
// rated discharge power of each unit that will cover the chargers now, read from the units'
// latest values. A unit counts when it is online and enabled, in peak-shaving mode (it
// discharges when the site's import passes its peak limit, so the chargers may draw more),
// running (not off or faulted), and holds at least MinStorageSoC of charge. Everything else
// adds nothing: a battery the plan cannot count on never raises the limit.
type StorageExtra struct{ DB *db.DB }

// MinStorageSoC is the least state of charge (%) at which a unit's discharge is counted.
const MinStorageSoC = 20

var _ Extra = StorageExtra{}

// ExtraW sums the counted units' rated power (W); one query per site planned.
func (s StorageExtra) ExtraW(ctx context.Context, siteID int64) float64 {
	rows, err := s.DB.Query(ctx, `SELECT r.device_id, r.name, r.value FROM device d
		JOIN device_model m ON m.id = d.model_id
		JOIN device_runtime r ON r.device_id = d.id AND r.connector_id = 0
		WHERE d.site_id = ? AND d.enabled = 1 AND d.status <> ? AND m.device_type IN (?, ?) AND r.name IN (?, ?, ?, ?)`,
		siteID, devstate.StatusOffline, devmodel.TypePower, devmodel.TypeHomeEnergy, ess.SoC, ess.PCSState, ess.PCSMode, ess.RatedPower)
	if err != nil {
		slog.Warn("load management: site storage not read", "site", siteID, "err", err)
		return 0
	}
	defer rows.Close()
	units := map[int64]map[string]string{}
	for rows.Next() {
		var id int64
		var name, value string
		if err := rows.Scan(&id, &name, &value); err != nil {
			slog.Warn("load management: site storage not read", "site", siteID, "err", err)
			return 0
		}
		if units[id] == nil {
			units[id] = map[string]string{}
		}
		units[id][name] = value
	}
	if rows.Err() != nil {
		return 0
	}
	total := 0.0
	for _, v := range units {
		total += unitDischargeW(v)
	}
	return total
}

// unitDischargeW is what one unit's latest values let the plan count on (W).
func unitDischargeW(v map[string]string) float64 {
	if v[ess.PCSMode] != ess.ModePeakShaving || v[ess.PCSState] == ess.StateOff || v[ess.PCSState] == ess.StateFault {
		return 0
	}
	soc, err := strconv.ParseFloat(v[ess.SoC], 64)
	if err != nil || soc < MinStorageSoC {
		return 0
	}
	w, err := strconv.ParseFloat(v[ess.RatedPower], 64)
	if err != nil || w <= 0 {
		return 0
	}
	return w
}
