package stats

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"chargeops/internal/db"
	"chargeops/internal/devstate"
)

// What the ingest pipeline's steps add to the pre-aggregated tables. A step collects its
// increments in an Adds; the batch keeps them only when the step succeeds (a step undone by its
// savepoint adds nothing), sums them per row, and writes them at the end of its transaction in
// key order: two writers committing at once then lock shared rows (a site's buckets) in the same
// order and wait for each other instead of deadlocking. A replayed message that changes nothing
// adds nothing (the callers count only rows they inserted or ended).

// Event kinds (docs/gateway.md#status-alarms-events, decisions §2): the columns they are counted in.
var kindColumns = [4]string{"offline_n", "alarm_n", "fault_n", "unavailable_n"}

// outageKinds are the kinds during which a device cannot charge: offline, fault, unavailable.
var outageKinds = [4]bool{devstate.KindOffline: true, devstate.KindAlarm: false, devstate.KindFault: true, devstate.KindUnavailable: true}

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

// Adds collects increments of stat_site and stat_device, summed per row. The zero value is
// ready to use.
type Adds struct {
	site   map[siteKey]siteAdd
	device map[deviceKey]deviceAdd
}

type siteKey struct {
	grain        int
	site, bucket int64
}

type siteAdd struct {
	customer int64
	r        siteRow
}

type deviceKey struct {
	grain          int
	device, bucket int64
}

type deviceAdd struct {
	site, customer, faults int64
}

func (a *Adds) addSite(p Place, r siteRow) {
	if a.site == nil {
		a.site = map[siteKey]siteAdd{}
	}
	k := siteKey{r.grain, p.SiteID, r.bucket}
	old := a.site[k]
	for i := range r.kinds {
		r.kinds[i] += old.r.kinds[i]
	}
	r.sessions += old.r.sessions
	r.energyWh += old.r.energyWh
	r.chargeMS += old.r.chargeMS
	r.outM += old.r.outM
	a.site[k] = siteAdd{customer: p.CustomerID, r: r}
}

func (a *Adds) addDevice(grain int, bucket int64, p Place, faults int64) {
	if a.device == nil {
		a.device = map[deviceKey]deviceAdd{}
	}
	k := deviceKey{grain, p.DeviceID, bucket}
	a.device[k] = deviceAdd{site: p.SiteID, customer: p.CustomerID, faults: a.device[k].faults + faults}
}

// Merge adds o's increments to a's.
func (a *Adds) Merge(o *Adds) {
	for k, v := range o.site {
		a.addSite(Place{SiteID: k.site, CustomerID: v.customer}, v.r)
	}
	for k, v := range o.device {
		a.addDevice(k.grain, k.bucket, Place{DeviceID: k.device, SiteID: v.site, CustomerID: v.customer}, v.faults)
	}
}

// Reset empties a.
func (a *Adds) Reset() {
	clear(a.site)
	clear(a.device)
}

// Write adds the increments to the tables in key order (sites, then devices).
func (a *Adds) Write(ctx context.Context, tx *db.Tx) error {
	sites := make([]siteKey, 0, len(a.site))
	for k := range a.site {
		sites = append(sites, k)
	}
	slices.SortFunc(sites, func(x, y siteKey) int {
		return cmp.Or(cmp.Compare(x.grain, y.grain), cmp.Compare(x.site, y.site), cmp.Compare(x.bucket, y.bucket))
	})
	for _, k := range sites {
		v := a.site[k]
		r := v.r
		if _, err := tx.Exec(ctx, sqlSiteAdd, k.grain, k.bucket, k.site, v.customer, r.kinds[0], r.kinds[1], r.kinds[2], r.kinds[3],
			r.sessions, r.energyWh, r.chargeMS, r.outM); err != nil {
			return fmt.Errorf("stats: add to site %d: %w", k.site, err)
		}
	}
	devices := make([]deviceKey, 0, len(a.device))
	for k := range a.device {
		devices = append(devices, k)
	}
	slices.SortFunc(devices, func(x, y deviceKey) int {
		return cmp.Or(cmp.Compare(x.grain, y.grain), cmp.Compare(x.device, y.device), cmp.Compare(x.bucket, y.bucket))
	})
	for _, k := range devices {
		v := a.device[k]
		if _, err := tx.Exec(ctx, sqlDeviceAdd, k.grain, k.bucket, k.device, v.site, v.customer, v.faults); err != nil {
			return fmt.Errorf("stats: add to device %d: %w", k.device, err)
		}
	}
	return nil
}

// CountEvent counts an event of kind that started at at: in its site's hour, day and month,
// and in its device's day, month and year.
func CountEvent(a *Adds, loc *time.Location, p Place, kind int, at int64) error {
	if kind < 0 || kind >= len(kindColumns) {
		return fmt.Errorf("stats: event kind %d", kind)
	}
	for _, g := range []int{GrainHour, GrainDay, GrainMonth} {
		r := siteRow{grain: g, bucket: Floor(g, at, loc)}
		r.kinds[kind] = 1
		a.addSite(p, r)
	}
	for _, g := range []int{GrainDay, GrainMonth, GrainYear} {
		a.addDevice(g, Floor(g, at, loc), p, 1)
	}
	return nil
}

// maxOutageDays bounds how far back an outage is spread (a device offline for years adds its
// last 400 days).
const maxOutageDays = 400

// CountOutage adds an ended outage [from, to) to its site's days and months, each getting the
// part of it that fell in it.
func CountOutage(a *Adds, loc *time.Location, p Place, from, to int64) {
	if to <= from {
		return
	}
	from = max(from, to-maxOutageDays*int64(24*time.Hour/time.Millisecond))
	for _, g := range []int{GrainDay, GrainMonth} {
		for b := Floor(g, from, loc); b < to; {
			n := Next(g, b, loc)
			part := min(n, to) - max(b, from)
			a.addSite(p, siteRow{grain: g, bucket: b, outM: part})
			b = n
		}
	}
}

// Session is a charging session's contribution, counted when it stops.
type Session struct {
	StartedAt int64
	EnergyWh  int64
	ChargeMS  int64
}

// CountSession counts a stopped session in its site's hour, day and month of its start.
func CountSession(a *Adds, loc *time.Location, p Place, s Session) {
	for _, g := range []int{GrainHour, GrainDay, GrainMonth} {
		a.addSite(p, siteRow{grain: g, bucket: Floor(g, s.StartedAt, loc), sessions: 1, energyWh: s.EnergyWh, chargeMS: s.ChargeMS})
	}
}
