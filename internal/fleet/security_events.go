package fleet

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"time"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/fleet/ingest"
	"chargeops/internal/kit"
)

// Security events (docs/security-profiles.md, "Security events"): what a charger reports of its
// own security (SecurityEventNotification in OCPP 1.6's security extension). Each is a row of
// device_security_event (migration 0050); a critical one also opens an alarm (device_event,
// source SourceSecurity, level CA, connector 0, code "security.<type>") that the notifier and
// the webhooks announce like any other. A repeat of the type while its alarm is open joins it.
// The alarm ends only when an operator acknowledges its events (AckSecurityEvents): a
// connector's status report never ends it.

// SecurityEventReport is a security event a charger sent, in the core's terms: Type and
// TechInfo are kept as sent; Critical is the adapter's verdict on the type (the OCPP 1.6
// adapter's table: ocpp16.SecurityEventCritical).
type SecurityEventReport struct {
	Device   *Device
	Type     string
	TechInfo string
	Critical bool
	// ExplainedBy are the control types whose command, accepted within ExplainWindow before
	// the event, explains it (a reboot after a Reset, a new firmware after a firmware update):
	// the adapter's verdict on the type. Such a critical event names the command and opens no
	// alarm, so a console Reset does not page anyone.
	ExplainedBy []int
	At          int64 // the charger's time, unix ms; 0 means now
}

// ExplainWindow is how long before a security event an operator's command explains it (a
// firmware download and install can take most of it).
const ExplainWindow = time.Hour

// SecurityCodePrefix prefixes the type in the code of a security event's alarm.
const SecurityCodePrefix = "security."

const (
	sqlSecurityEventInsert = `INSERT INTO device_security_event (device_id, customer_id, site_id, type, tech_info, critical, occurred_at, created_at, event_id, command_id)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
	// the device's latest command of some control types that the charger accepted since a time
	sqlExplainingCommand = `SELECT COALESCE(MAX(id), 0) FROM command WHERE device_id = ? AND result = ? AND created_at >= ? AND control_type IN (%s)`
	// the open event of a kind and code on a connector (one at most: openEvent)
	sqlOpenEventID = `SELECT id FROM device_event WHERE device_id = ? AND status = ? AND kind = ? AND connector_id = ? AND code = ? ORDER BY id LIMIT 1`
	// the events of an acknowledgement in the caller's scope, each with its device's SN and
	// whether the alarm it opened (or joined) is still open
	sqlSecurityAckRows = `SELECT s.id, s.device_id, COALESCE(d.sn, ''), s.event_id, CASE WHEN e.status = ? THEN 1 ELSE 0 END
		FROM device_security_event s LEFT JOIN device d ON d.id = s.device_id
		LEFT JOIN device_event e ON e.id = s.event_id AND e.source = ?
		WHERE s.id IN (%s) AND %s`
	sqlSecurityPurgeWhere = `created_at < ? AND (event_id = 0 OR NOT EXISTS (SELECT 1 FROM device_event e WHERE e.id = device_security_event.event_id AND e.status = ?))`
)

// SecurityEvent records a security event and, for a critical type, opens its alarm (or joins
// the open one) and recomputes the device's alarm status. It is committed before it returns, so
// the adapter answers the charger only then (a charger that gets no answer sends it again).
func (s *Service) SecurityEvent(ctx context.Context, r SecurityEventReport) error {
	now := db.NowMS()
	r.At, _ = ChargerTime(r.At, now)
	err := s.Ingest.Commit(ctx, &ingest.Unit{Key: ingest.KeyOf(r.Device.SN), Step: func(ctx context.Context, b *ingest.Batch) error {
		return s.securityEvent(ctx, b, r, now)
	}})
	if err != nil {
		return fmt.Errorf("fleet: security event: %w", err)
	}
	return nil
}

func (s *Service) securityEvent(ctx context.Context, b *ingest.Batch, r SecurityEventReport, now int64) error {
	dev := r.Device
	// where the device is now (the connection's Device may be older: openEvent)
	customerID, siteID := dev.CustomerID, dev.SiteID
	if err := b.Tx.QueryRow(ctx, sqlDevicePlace, dev.ID).Scan(&customerID, &siteID); err != nil && !db.NotFound(err) {
		return err
	}
	var alarm, command int64
	if r.Critical && len(r.ExplainedBy) > 0 {
		q := fmt.Sprintf(sqlExplainingCommand, db.Placeholders(len(r.ExplainedBy)))
		args := append([]any{dev.ID, ResultSuccess, min(r.At, now) - ExplainWindow.Milliseconds()}, db.Args(r.ExplainedBy)...)
		if err := b.Tx.QueryRow(ctx, q, args...).Scan(&command); err != nil {
			return fmt.Errorf("explaining command: %w", err)
		}
	}
	if r.Critical && command == 0 {
		var err error
		if alarm, err = s.securityAlarm(ctx, b, r); err != nil {
			return err
		}
	}
	if _, err := b.Tx.Exec(ctx, sqlSecurityEventInsert, dev.ID, customerID, siteID, r.Type, r.TechInfo, db.BoolInt(r.Critical), r.At, now, alarm, command); err != nil {
		return err
	}
	if alarm == 0 {
		return nil
	}
	return s.recompute(ctx, b, dev.ID)
}

// securityAlarm returns the open alarm of r's type on the device, opening it when there is none.
func (s *Service) securityAlarm(ctx context.Context, b *ingest.Batch, r SecurityEventReport) (int64, error) {
	code := SecurityCodePrefix + r.Type
	open := func() (int64, error) {
		var id int64
		err := b.Tx.QueryRow(ctx, sqlOpenEventID, r.Device.ID, EventOpen, KindAlarm, 0, code).Scan(&id)
		if db.NotFound(err) {
			return 0, nil
		}
		return id, err
	}
	if id, err := open(); err != nil || id > 0 {
		return id, err // a repeat joins the open alarm
	}
	if err := s.openEvent(ctx, b, eventOpen{Device: r.Device, Kind: KindAlarm, Level: LevelCA, Connector: 0, Code: code, Name: r.Type,
		Info: r.TechInfo, Source: SourceSecurity, At: r.At}); err != nil {
		return 0, err
	}
	return open()
}

// AckSecurityEvents ends the alarms that the security events ids opened or joined, for p: every
// id must be an event in p's scope, else nothing changes and the answer is not found. It runs
// as one ingest step (one transaction), ends each device's alarms with their announcements and
// recomputes each device's alarm status; it answers how many alarms ended. Events whose alarm
// has ended already, and non-critical ones, are acknowledged without change.
func (s *Service) AckSecurityEvents(ctx context.Context, p *access.Principal, ids []int64) (int, error) {
	if err := kit.IDs(ids).Check(); err != nil {
		return 0, err
	}
	ids = kit.IDs(ids).Distinct()
	ended := 0
	err := s.Ingest.Commit(ctx, &ingest.Unit{Step: func(ctx context.Context, b *ingest.Batch) error {
		n, err := s.ackSecurityEvents(ctx, b, p, ids)
		ended = n
		return err
	}})
	if err != nil {
		if _, ok := apperr.As(err); ok {
			return 0, err
		}
		return 0, fmt.Errorf("fleet: security event: ack: %w", err)
	}
	return ended, nil
}

func (s *Service) ackSecurityEvents(ctx context.Context, b *ingest.Batch, p *access.Principal, ids []int64) (int, error) {
	cond, scopeArgs := p.Scope.SiteCond("s.customer_id", "s.site_id")
	args := append([]any{EventOpen, SourceSecurity}, db.Args(ids)...)
	rows, err := b.Tx.Query(ctx, fmt.Sprintf(sqlSecurityAckRows, db.Placeholders(len(ids)), cond), append(args, scopeArgs...)...)
	if err != nil {
		return 0, err
	}
	type device struct {
		sn     string
		alarms []int64
	}
	devices := map[int64]*device{}
	found := 0
	for rows.Next() {
		var id, deviceID, alarm int64
		var sn string
		var open int
		if err := rows.Scan(&id, &deviceID, &sn, &alarm, &open); err != nil {
			rows.Close()
			return 0, err
		}
		found++
		if open == 0 {
			continue
		}
		d := devices[deviceID]
		if d == nil {
			d = &device{sn: sn}
			devices[deviceID] = d
		}
		if !slices.Contains(d.alarms, alarm) {
			d.alarms = append(d.alarms, alarm)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, err
	}
	if found != len(ids) {
		return 0, apperr.ErrNotFound
	}
	now := db.NowMS()
	ended := 0
	for _, id := range slices.Sorted(maps.Keys(devices)) {
		d := devices[id]
		if err := s.endEvents(ctx, b, eventEnd{DeviceID: id, SN: d.sn, Source: SourceSecurity, Kinds: []int{KindAlarm}, Connector: anyConnector,
			IDs: d.alarms, At: now}); err != nil {
			return 0, err
		}
		if err := s.recompute(ctx, b, id); err != nil {
			return 0, err
		}
		ended += len(d.alarms)
	}
	return ended, nil
}

// PurgeSecurityEvents deletes the security events recorded more than days ago, in bounded
// batches (db.Purge), except those whose alarm is still open; days <= 0 keeps them (the
// retention of the error log, docs/logs.md, "Retention").
func PurgeSecurityEvents(ctx context.Context, d *db.DB, days int) (int64, error) {
	if days <= 0 {
		return 0, nil
	}
	return db.Purge(ctx, d, "device_security_event", "id", sqlSecurityPurgeWhere, 20, cutOf(time.Now(), days), EventOpen)
}
