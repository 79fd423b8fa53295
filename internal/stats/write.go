package stats

import (
	"context"
	"fmt"
	"time"

	"chargeops/internal/db"
	"chargeops/internal/fleet/code"
)

// What the ingest pipeline's steps add to the pre-aggregated tables, in the step's own
// transaction: a step undone by its savepoint undoes its figures too, and a replayed message
// that changes nothing adds nothing (the callers count only rows they inserted or ended).

// Event kinds (spec §4, decisions §2): the columns they are counted in.
var kindColumns = [4]string{"offline_n", "alarm_n", "fault_n", "unavailable_n"}

// outageKinds are the kinds during which a device cannot charge: offline, fault, unavailable.
var outageKinds = [4]bool{code.KindOffline: true, code.KindAlarm: false, code.KindFault: true, code.KindUnavailable: true}

// IsOutage reports whether an event of kind k takes its device out of service.
func IsOutage(k int) bool { return k >= 0 && k < len(outageKinds) && outageKinds[k] }

// Place is where a figure belongs.
type Place struct {
	DeviceID, SiteID, CustomerID int64
}

// siteRow is one increment of a stat_site row.
type siteRow struct {
	grain                    int
	bucket                   int64
	kinds                    [4]int
	sessions                 int
	energyWh, chargeMS, outM int64
}

const sqlSiteAdd = `INSERT INTO stat_site (grain, bucket, site_id, customer_id, offline_n, alarm_n, fault_n, unavailable_n, sessions, energy_wh, charge_ms, outage_ms)
	VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
	ON CONFLICT (grain, site_id, bucket) DO UPDATE SET customer_id = excluded.customer_id,
	  offline_n = stat_site.offline_n + excluded.offline_n, alarm_n = stat_site.alarm_n + excluded.alarm_n,
	  fault_n = stat_site.fault_n + excluded.fault_n, unavailable_n = stat_site.unavailable_n + excluded.unavailable_n,
	  sessions = stat_site.sessions + excluded.sessions, energy_wh = stat_site.energy_wh + excluded.energy_wh,
	  charge_ms = stat_site.charge_ms + excluded.charge_ms, outage_ms = stat_site.outage_ms + excluded.outage_ms`

const sqlDeviceAdd = `INSERT INTO stat_device (grain, bucket, device_id, site_id, customer_id, faults) VALUES (?, ?, ?, ?, ?, ?)
	ON CONFLICT (grain, device_id, bucket) DO UPDATE SET faults = stat_device.faults + excluded.faults,
	  site_id = excluded.site_id, customer_id = excluded.customer_id`

func addSite(ctx context.Context, tx *db.Tx, p Place, r siteRow) error {
	_, err := tx.Exec(ctx, sqlSiteAdd, r.grain, r.bucket, p.SiteID, p.CustomerID, r.kinds[0], r.kinds[1], r.kinds[2], r.kinds[3],
		r.sessions, r.energyWh, r.chargeMS, r.outM)
	if err != nil {
		return fmt.Errorf("stats: add to site %d: %w", p.SiteID, err)
	}
	return nil
}

// CountEvent counts an event of kind that started at at: in its site's hour, day and month,
// and in its device's day, month and year.
func CountEvent(ctx context.Context, tx *db.Tx, loc *time.Location, p Place, kind int, at int64) error {
	if kind < 0 || kind >= len(kindColumns) {
		return fmt.Errorf("stats: event kind %d", kind)
	}
	for _, g := range []int{GrainHour, GrainDay, GrainMonth} {
		r := siteRow{grain: g, bucket: Floor(g, at, loc)}
		r.kinds[kind] = 1
		if err := addSite(ctx, tx, p, r); err != nil {
			return err
		}
	}
	for _, g := range []int{GrainDay, GrainMonth, GrainYear} {
		if _, err := tx.Exec(ctx, sqlDeviceAdd, g, Floor(g, at, loc), p.DeviceID, p.SiteID, p.CustomerID, 1); err != nil {
			return fmt.Errorf("stats: add to device %d: %w", p.DeviceID, err)
		}
	}
	return nil
}

// maxOutageDays bounds how far back an outage is spread (a device offline for years adds its
// last 400 days).
const maxOutageDays = 400

// CountOutage adds an ended outage [from, to) to its site's days and months, each getting the
// part of it that fell in it.
func CountOutage(ctx context.Context, tx *db.Tx, loc *time.Location, p Place, from, to int64) error {
	if to <= from {
		return nil
	}
	from = max(from, to-maxOutageDays*int64(24*time.Hour/time.Millisecond))
	for _, g := range []int{GrainDay, GrainMonth} {
		for b := Floor(g, from, loc); b < to; {
			n := Next(g, b, loc)
			part := min(n, to) - max(b, from)
			if err := addSite(ctx, tx, p, siteRow{grain: g, bucket: b, outM: part}); err != nil {
				return err
			}
			b = n
		}
	}
	return nil
}

// Session is a charging session's contribution, counted when it stops.
type Session struct {
	StartedAt int64
	EnergyWh  int64
	ChargeMS  int64
}

// CountSession counts a stopped session in its site's hour, day and month of its start.
func CountSession(ctx context.Context, tx *db.Tx, loc *time.Location, p Place, s Session) error {
	for _, g := range []int{GrainHour, GrainDay, GrainMonth} {
		if err := addSite(ctx, tx, p, siteRow{grain: g, bucket: Floor(g, s.StartedAt, loc), sessions: 1, energyWh: s.EnergyWh, chargeMS: s.ChargeMS}); err != nil {
			return err
		}
	}
	return nil
}
