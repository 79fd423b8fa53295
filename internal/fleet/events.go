package fleet

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"

	"chargeops/internal/db"
	"chargeops/internal/devstate"
	"chargeops/internal/fleet/ingest"
	"chargeops/internal/stats"
)

// Connector status, the events it opens and ends (alarms, faults, unavailable, offline;
// decisions §2), and the device status derived from them.

// Event states of device_event.status.
const (
	EventOpen  = devstate.EventOpen
	EventEnded = devstate.EventEnded
)

// anyConnector makes endEvents end a kind's events on every connector.
const anyConnector = -1

// Sources of device events (device_event.source, migration 0050): what opened an event decides
// what ends it, so a connector's next status report never ends an alarm it did not open.
const (
	SourceStatus      = 0 // a connector's status report (and the connection: offline); a later report ends it
	SourceSecurity    = 1 // a critical security event; an operator's acknowledgement ends it (security_events.go)
	SourceCertificate = 2 // the certificate-expiry check; a renewed certificate ends it (certificate_expiry.go)
	SourceComponent   = 3 // a component's event (OCPP 2.0.1 NotifyEvent); its cleared event ends it (component_events.go)
)

// ConnectorReport is what a charger says of one connector, in the core's terms (the OCPP 1.6
// adapter builds it from a StatusNotification: ocpp16.StatusReport). Status, ErrorCode,
// VendorCode and Info are stored and shown as the charger sent them; State and Problem are
// what the core acts on.
type ConnectorReport struct {
	Device     *Device
	Connector  int
	Status     string
	ErrorCode  string
	VendorCode string
	Info       string
	// Problem is the alarm or fault the report says the connector has (zero: none; a report
	// without one ends the alarm or fault open on the connector).
	Problem Problem
	// State is the connector's state in the core's terms (Connector*): the status rule reads
	// it, and ConnectorUnavailable opens an Unavailable event while it lasts.
	State int
	At    int64 // unix ms; 0 means now
	// Plug, when above 0, is the connector of an EVSE this report comes from (OCPP 2.0.1:
	// Connector is the EVSE, the core's connector; device_evse_connector keeps each plug's
	// status, PlugStatus, beside the EVSE's).
	Plug       int
	PlugStatus string
}

// Problem is an alarm or a fault of a connector: the event the core opens for it.
type Problem struct {
	Kind  int    // KindAlarm or KindFault; 0: no problem
	Level int    // LevelOA, LevelMA or LevelCA
	Code  string // the event's code (one open event per connector, kind and code)
	Name  string // the event's name as shown
}

// eventOpen describes an event to open (once: an open event of the same kind, connector and
// code is kept).
type eventOpen struct {
	Device     *Device
	Kind       int
	Level      int
	Connector  int
	Code       string
	Name       string
	VendorCode string
	Info       string
	Source     int // Source*: what opened it
	At         int64
}

// eventEnd describes the open events to end: those Source opened, of some kinds, on one
// connector (or anyConnector), except an open event of the kind and code in Keep; with IDs,
// only those events.
type eventEnd struct {
	DeviceID  int64
	SN        string // for the event hook
	Source    int    // what opened them (the zero value: SourceStatus)
	Kinds     []int
	Connector int
	Keep      *eventKey
	IDs       []int64
	Code      string // "": any code
	At        int64
}

// eventKey names an event by kind and code.
type eventKey struct {
	Kind int
	Code string
}

// Event and status SQL.
const (
	// a report older than the stored status changes nothing (applied: one row affected)
	sqlConnectorUpsert = `INSERT INTO device_connector (device_id, connector_id, status, state, error_code, vendor_code, info, updated_at, status_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (device_id, connector_id) DO UPDATE SET status = excluded.status, state = excluded.state, error_code = excluded.error_code, vendor_code = excluded.vendor_code,
		  info = excluded.info, updated_at = excluded.updated_at, status_at = excluded.status_at
		WHERE device_connector.status_at <= excluded.status_at`
	sqlPlugUpsert = `INSERT INTO device_evse_connector (device_id, evse_id, connector_id, status, updated_at) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (device_id, evse_id, connector_id) DO UPDATE SET status = excluded.status, updated_at = excluded.updated_at
		WHERE device_evse_connector.updated_at <= excluded.updated_at`
	sqlEventIsOpen = `SELECT COUNT(*) FROM device_event WHERE device_id = ? AND status = ? AND kind = ? AND connector_id = ? AND code = ?`
	sqlDevicePlace = `SELECT customer_id, site_id FROM device WHERE id = ?`
	sqlEventInsert = `INSERT INTO device_event (device_id, customer_id, site_id, kind, level, connector_id, code, name, vendor_code, info, source, status, started_at, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
	sqlEventsEnd    = `UPDATE device_event SET status = ?, ended_at = ? WHERE device_id = ? AND status = ? AND source = ?`
	sqlEventsEnded  = ` RETURNING id, kind, level, code, name, vendor_code, site_id, customer_id, started_at`
	sqlStatusInputs = `SELECT d.sn, d.customer_id, d.site_id, d.enabled, d.maintain_mode, d.status, d.alarm_status, COALESCE(st.online, 0), COALESCE(st.firmware_job, 0)
		FROM device d LEFT JOIN device_state st ON st.device_id = d.id WHERE d.id = ?`
	sqlConnectorStates = `SELECT state FROM device_connector WHERE device_id = ?`
	sqlWorstOpenEvent  = `SELECT MAX(kind) FROM device_event WHERE device_id = ? AND status = ? AND kind IN (?, ?)`
	sqlStatusUpdate    = `UPDATE device SET status = ?, alarm_status = ? WHERE id = ?`
)

// ConnectorStatus records a StatusNotification: the connector's status, its alarms and faults
// (decisions §2), the unavailable event, then the device status. It is committed before it
// returns (a charger that gets no answer sends it again). A report whose timestamp is older
// than the connector's stored status (a late or replayed one) is answered and logged but
// changes nothing: no status, alarm or event (docs/gateway.md, "Status, alarms, events").
func (s *Service) ConnectorStatus(ctx context.Context, r ConnectorReport) error {
	now := db.NowMS()
	r.At, _ = ChargerTime(r.At, now)
	return s.Ingest.Commit(ctx, &ingest.Unit{Key: ingest.KeyOf(r.Device.SN), Step: func(ctx context.Context, b *ingest.Batch) error {
		return s.connectorStatus(ctx, b, r, now)
	}})
}

func (s *Service) connectorStatus(ctx context.Context, b *ingest.Batch, r ConnectorReport, now int64) error {
	tx, dev := b.Tx, r.Device
	if r.Plug > 0 {
		if _, err := tx.Exec(ctx, sqlPlugUpsert, dev.ID, r.Connector, r.Plug, r.PlugStatus, r.At); err != nil {
			return fmt.Errorf("fleet: EVSE connector status: %w", err)
		}
	}
	res, err := tx.Exec(ctx, sqlConnectorUpsert, dev.ID, r.Connector, r.Status, r.State, r.ErrorCode, r.VendorCode, r.Info, now, r.At)
	if err != nil {
		return fmt.Errorf("fleet: connector status: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("fleet: connector status: %w", err)
	} else if n == 0 {
		b.AfterCommit(func() {
			slog.Info("older connector status ignored", "sn", dev.SN, "connector", r.Connector, "status", r.Status, "errorCode", r.ErrorCode, "at", r.At)
		})
		return nil
	}
	if pr := r.Problem; pr.Kind != 0 {
		// a different alarm or fault on the connector ends the one open before
		if err := s.endEvents(ctx, b, eventEnd{DeviceID: dev.ID, SN: dev.SN, Kinds: []int{KindAlarm, KindFault}, Connector: r.Connector,
			Keep: &eventKey{Kind: pr.Kind, Code: pr.Code}, At: r.At}); err != nil {
			return err
		}
		if err := s.openEvent(ctx, b, eventOpen{Device: dev, Kind: pr.Kind, Level: pr.Level, Connector: r.Connector, Code: pr.Code, Name: pr.Name,
			VendorCode: r.VendorCode, Info: r.Info, At: r.At}); err != nil {
			return err
		}
	} else {
		if err := s.endEvents(ctx, b, eventEnd{DeviceID: dev.ID, SN: dev.SN, Kinds: []int{KindAlarm, KindFault}, Connector: r.Connector, At: r.At}); err != nil {
			return err
		}
	}
	if r.State == ConnectorUnavailable {
		err = s.openEvent(ctx, b, eventOpen{Device: dev, Kind: KindUnavailable, Level: LevelOA, Connector: r.Connector, Code: EventUnavailable, Name: EventUnavailable, At: r.At})
	} else {
		err = s.endEvents(ctx, b, eventEnd{DeviceID: dev.ID, SN: dev.SN, Kinds: []int{KindUnavailable}, Connector: r.Connector, At: r.At})
	}
	if err != nil {
		return err
	}
	return s.recompute(ctx, b, dev.ID)
}

// openEvent opens an event unless the same one is open, and counts it in the statistics.
func (s *Service) openEvent(ctx context.Context, b *ingest.Batch, e eventOpen) error {
	var n int
	if err := b.Tx.QueryRow(ctx, sqlEventIsOpen, e.Device.ID, EventOpen, e.Kind, e.Connector, e.Code).Scan(&n); err != nil || n > 0 {
		return err
	}
	// Where the device is now: a connection keeps the Device it was admitted with, and the
	// device may have moved to another site (or customer) since. An event belongs to the site
	// the device is on when it happens (issue 30 item 17: the site's Events tab, home and the
	// site statistics all read the stored place).
	var customerID, siteID int64
	if err := b.Tx.QueryRow(ctx, sqlDevicePlace, e.Device.ID).Scan(&customerID, &siteID); err != nil && !db.NotFound(err) {
		return err
	} else if err == nil && (customerID != e.Device.CustomerID || siteID != e.Device.SiteID) {
		moved := *e.Device
		moved.CustomerID, moved.SiteID = customerID, siteID
		e.Device = &moved
	}
	id, err := db.InsertID(ctx, b.Tx, sqlEventInsert, e.Device.ID, e.Device.CustomerID, e.Device.SiteID, e.Kind, e.Level, e.Connector, e.Code, e.Name,
		e.VendorCode, e.Info, e.Source, EventOpen, e.At, db.NowMS())
	if err != nil {
		return err
	}
	b.MarkChanged(e.Device.ID)
	s.announce(b, EventChange{EventID: id, DeviceID: e.Device.ID, SN: e.Device.SN, SiteID: e.Device.SiteID, CustomerID: e.Device.CustomerID,
		Kind: e.Kind, Level: e.Level, Code: e.Code, Name: e.Name, VendorCode: e.VendorCode, Open: true, At: e.At})
	return stats.CountEvent(b.Stats(), s.opt.Location, place(e.Device), e.Kind, e.At)
}

// endEvents ends the open events e describes and adds the outages among them to their site's
// availability figures.
func (s *Service) endEvents(ctx context.Context, b *ingest.Batch, e eventEnd) error {
	q := sqlEventsEnd + ` AND kind IN (` + db.Placeholders(len(e.Kinds)) + `)`
	args := append([]any{EventEnded, e.At, e.DeviceID, EventOpen, e.Source}, db.Args(e.Kinds)...)
	if e.Connector != anyConnector {
		q += ` AND connector_id = ?`
		args = append(args, e.Connector)
	}
	if len(e.IDs) > 0 {
		q += ` AND id IN (` + db.Placeholders(len(e.IDs)) + `)`
		args = append(args, db.Args(e.IDs)...)
	}
	if e.Code != "" {
		q += ` AND code = ?`
		args = append(args, e.Code)
	}
	if e.Keep != nil {
		q += ` AND NOT (kind = ? AND code = ?)`
		args = append(args, e.Keep.Kind, e.Keep.Code)
	}
	type ended struct {
		id                      int64
		kind, level             int
		code, name, vendor      string
		site, customer, started int64
	}
	rows, err := b.Tx.Query(ctx, q+sqlEventsEnded, args...)
	if err != nil {
		return err
	}
	var all []ended
	for rows.Next() {
		var x ended
		if err := rows.Scan(&x.id, &x.kind, &x.level, &x.code, &x.name, &x.vendor, &x.site, &x.customer, &x.started); err != nil {
			rows.Close()
			return err
		}
		all = append(all, x)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	if len(all) > 0 {
		b.MarkChanged(e.DeviceID)
	}
	for _, x := range all {
		s.announce(b, EventChange{EventID: x.id, DeviceID: e.DeviceID, SN: e.SN, SiteID: x.site, CustomerID: x.customer,
			Kind: x.kind, Level: x.level, Code: x.code, Name: x.name, VendorCode: x.vendor, At: e.At})
		if !stats.IsOutage(x.kind) {
			continue
		}
		p := stats.Place{DeviceID: e.DeviceID, SiteID: x.site, CustomerID: x.customer}
		stats.CountOutage(b.Stats(), s.opt.Location, p, x.started, e.At)
	}
	return nil
}

// Recompute derives the device's status and alarm status from what is stored and, when they
// changed, saves them and, once committed, pushes the change to consoles. The device service
// calls it after enable/disable and maintenance changes.
func (s *Service) Recompute(ctx context.Context, deviceID int64) error {
	return s.Ingest.Commit(ctx, &ingest.Unit{Step: func(ctx context.Context, b *ingest.Batch) error { return s.recompute(ctx, b, deviceID) }})
}

func (s *Service) recompute(ctx context.Context, b *ingest.Batch, deviceID int64) error {
	tx := b.Tx
	var in StatusInput
	var sn string
	var customerID, siteID int64
	var en, mt, online, fwJob, oldStatus, oldAlarm int
	err := tx.QueryRow(ctx, sqlStatusInputs, deviceID).Scan(&sn, &customerID, &siteID, &en, &mt, &oldStatus, &oldAlarm, &online, &fwJob)
	if db.NotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	in.Enabled, in.Maintain, in.Online, in.FirmwareJob = en == 1, mt == 1, online == 1, fwJob == 1
	if in.Online {
		if in.Connectors, err = db.Column[int](ctx, tx, sqlConnectorStates, deviceID); err != nil {
			return fmt.Errorf("fleet: connector states: %w", err)
		}
	}
	var worst sql.NullInt64
	if err := tx.QueryRow(ctx, sqlWorstOpenEvent, deviceID, EventOpen, KindAlarm, KindFault).Scan(&worst); err != nil {
		return err
	}
	status := ComputeStatus(in)
	alarmStatus := AlarmNone
	if worst.Valid {
		alarmStatus = int(worst.Int64) // kind 1 alarm → 1, kind 2 fault → 2
	}
	if status == oldStatus && alarmStatus == oldAlarm {
		if !b.Changed(deviceID) {
			return nil
		}
	} else if _, err := tx.Exec(ctx, sqlStatusUpdate, status, alarmStatus, deviceID); err != nil {
		return err
	}
	ev := StatusEvent{DeviceID: deviceID, SN: sn, CustomerID: customerID, SiteID: siteID, Status: status, AlarmStatus: alarmStatus, Online: in.Online}
	b.AfterCommit(func() {
		ev.Time = db.NowMS()
		s.Hub.Publish(ev)
		s.statusChanged(ev)
	})
	return nil
}
