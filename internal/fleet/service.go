package fleet

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"math"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"chargeops/internal/db"
	"chargeops/internal/setting"
)

// Options of the device core.
type Options struct {
	CommandTimeout    time.Duration // default 30 s
	RetentionDays     int           // protocol-log retention; 0 keeps rows forever
	HeartbeatInterval time.Duration // interval the gateway hands chargers; default 60 s
	DataDir           string        // files live under DataDir/fleet
	LogQueue          int           // protocol-log queue size
	LogBatch          int           // protocol-log batch size
	Node              string        // this node's name (default host name + pid)
	Registry          Registry      // default: in-process
}

// Service is the device core of one node.
type Service struct {
	db       *db.DB
	opt      Options
	Logs     *LogWriter
	Registry Registry
	Hub      *Hub
	secret   []byte
	admit    *admissionLimiter
	wg       sync.WaitGroup
}

// New builds the core; Close stops it.
func New(ctx context.Context, d *db.DB, settings *setting.Store, opt Options) (*Service, error) {
	if opt.CommandTimeout <= 0 {
		opt.CommandTimeout = 30 * time.Second
	}
	if opt.HeartbeatInterval <= 0 {
		opt.HeartbeatInterval = 60 * time.Second
	}
	if opt.Node == "" {
		h, _ := os.Hostname()
		opt.Node = h + "-" + strconv.Itoa(os.Getpid())
	}
	if opt.Registry == nil {
		opt.Registry = NewLocalRegistry()
	}
	secret, err := settings.GetOrCreate(ctx, "fleet.url_secret", func() (string, error) {
		b := make([]byte, 32)
		_, err := rand.Read(b)
		return hex.EncodeToString(b), err
	})
	if err != nil {
		return nil, fmt.Errorf("fleet secret: %w", err)
	}
	s := &Service{db: d, opt: opt, Registry: opt.Registry, Hub: NewHub(), secret: []byte(secret),
		admit: newAdmissionLimiter(admitWindow)}
	s.Logs = NewLogWriter(d, LogOptions{QueueSize: opt.LogQueue, BatchSize: opt.LogBatch})
	return s, nil
}

// Options returns the options in force.
func (s *Service) Options() Options { return s.opt }

// DB is the database of the core.
func (s *Service) DB() *db.DB { return s.db }

// Close waits for running commands and drains the protocol-log queue.
func (s *Service) Close() {
	s.wg.Wait()
	s.Logs.Close()
}

// Run does the periodic work until ctx ends: orphaned commands time out, silent devices go
// offline, protocol logs older than the retention are purged.
func (s *Service) Run(ctx context.Context) {
	t := time.NewTicker(10 * time.Second)
	defer t.Stop()
	lastPurge := time.Time{}
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		s.sweep(ctx)
		if s.opt.RetentionDays > 0 && time.Since(lastPurge) > time.Hour {
			lastPurge = time.Now()
			if n, err := PurgeLogs(ctx, s.db, s.opt.RetentionDays); err != nil {
				slog.Warn("protocol log purge", "err", err)
			} else if n > 0 {
				slog.Info("protocol logs purged", "rows", n)
			}
		}
	}
}

func (s *Service) sweep(ctx context.Context) {
	now := db.NowMS()
	// Commands whose node died before they ended.
	if _, err := s.db.Exec(ctx, `UPDATE command SET result = ?, finished_at = ? WHERE result = 1 AND deadline_at < ?`,
		ResultTimeout, now, now-5000); err != nil {
		slog.Warn("command sweep", "err", err)
	}
	// Devices marked online whose node stopped refreshing them (a crashed node).
	limit := now - (3*s.opt.HeartbeatInterval + time.Minute).Milliseconds()
	rows, err := s.db.Query(ctx, `SELECT device_id, conn_id FROM device_state WHERE online = 1 AND last_seen_at < ?`, limit)
	if err != nil {
		return
	}
	type stale struct {
		id   int64
		conn string
	}
	var list []stale
	for rows.Next() {
		var x stale
		if rows.Scan(&x.id, &x.conn) == nil {
			list = append(list, x)
		}
	}
	rows.Close()
	for _, x := range list {
		dev, err := s.DeviceByID(ctx, x.id)
		if err != nil || dev == nil {
			continue
		}
		if l, ok := s.Registry.Lookup(dev.SN); ok && l.ConnID() == x.conn {
			continue // live here: the gateway refreshes it
		}
		s.Disconnected(ctx, dev, x.conn)
	}
}

// Device is what the gateway and the core need of a device row.
type Device struct {
	ID              int64
	SN              string
	CustomerID      int64
	SiteID          int64
	ModelID         int64
	Enabled         bool
	Maintain        bool
	AuthKeyHash     string
	SecurityProfile int
}

const deviceCols = `d.id, d.sn, d.customer_id, d.site_id, d.model_id, d.enabled, d.maintain_mode, d.auth_key_hash, d.security_profile`

func scanDevice(row interface{ Scan(...any) error }) (*Device, error) {
	var d Device
	var en, mt int
	if err := row.Scan(&d.ID, &d.SN, &d.CustomerID, &d.SiteID, &d.ModelID, &en, &mt, &d.AuthKeyHash, &d.SecurityProfile); err != nil {
		return nil, err
	}
	d.Enabled, d.Maintain = en == 1, mt == 1
	return &d, nil
}

// DeviceBySN returns the device, or nil when the SN is unknown.
func (s *Service) DeviceBySN(ctx context.Context, sn string) (*Device, error) {
	d, err := scanDevice(s.db.QueryRow(ctx, `SELECT `+deviceCols+` FROM device d WHERE d.sn = ?`, sn))
	if db.NotFound(err) {
		return nil, nil
	}
	return d, err
}

// DeviceByID returns the device, or nil when there is none.
func (s *Service) DeviceByID(ctx context.Context, id int64) (*Device, error) {
	d, err := scanDevice(s.db.QueryRow(ctx, `SELECT `+deviceCols+` FROM device d WHERE d.id = ?`, id))
	if db.NotFound(err) {
		return nil, nil
	}
	return d, err
}

// BootInfo is what a BootNotification tells.
type BootInfo struct {
	Vendor          string `json:"vendor"`
	Model           string `json:"model"`
	SerialNumber    string `json:"serialNumber,omitempty"`
	FirmwareVersion string `json:"firmwareVersion,omitempty"`
	ICCID           string `json:"iccid,omitempty"`
	IMSI            string `json:"imsi,omitempty"`
	MeterType       string `json:"meterType,omitempty"`
	MeterSerial     string `json:"meterSerialNumber,omitempty"`
}

// Connected records a new connection of a known device.
func (s *Service) Connected(ctx context.Context, dev *Device, connID, addr, protocol string) error {
	now := db.NowMS()
	_, err := s.db.Exec(ctx, `INSERT INTO device_state (device_id, online, node, conn_id, remote_addr, protocol, connected_at, last_seen_at, runtime_counted_at, updated_at)
		VALUES (?, 1, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (device_id) DO UPDATE SET online = 1, node = excluded.node, conn_id = excluded.conn_id, remote_addr = excluded.remote_addr,
		  protocol = excluded.protocol, connected_at = excluded.connected_at, last_seen_at = excluded.last_seen_at,
		  runtime_counted_at = excluded.runtime_counted_at, updated_at = excluded.updated_at`,
		dev.ID, s.opt.Node, connID, addr, protocol, now, now, now, now)
	if err != nil {
		return err
	}
	if _, err := s.db.Exec(ctx, `UPDATE device SET last_refresh_at = ? WHERE id = ?`, now, dev.ID); err != nil {
		return err
	}
	s.endEvents(ctx, dev.ID, KindOffline, -1, now)
	return s.Recompute(ctx, dev.ID)
}

// Disconnected records the end of connection connID. A late close of a replaced connection
// (another connection is now the device's) changes nothing.
func (s *Service) Disconnected(ctx context.Context, dev *Device, connID string) {
	now := db.NowMS()
	s.countRuntime(ctx, dev.ID, now)
	res, err := s.db.Exec(ctx, `UPDATE device_state SET online = 0, updated_at = ? WHERE device_id = ? AND conn_id = ? AND online = 1`, now, dev.ID, connID)
	if err != nil {
		slog.Warn("disconnect not recorded", "sn", dev.SN, "err", err)
		return
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return
	}
	s.openEvent(ctx, dev, KindOffline, LevelOA, 0, "Offline", "Offline", "", "", now)
	if err := s.Recompute(ctx, dev.ID); err != nil {
		slog.Warn("status not recomputed", "sn", dev.SN, "err", err)
	}
}

// Seen refreshes the last-seen time and the total runtime (the gateway calls it at most every
// few seconds per connection).
func (s *Service) Seen(ctx context.Context, dev *Device) {
	now := db.NowMS()
	s.countRuntime(ctx, dev.ID, now)
	if _, err := s.db.Exec(ctx, `UPDATE device SET last_refresh_at = ? WHERE id = ?`, now, dev.ID); err != nil {
		slog.Warn("last refresh not kept", "sn", dev.SN, "err", err)
	}
}

// countRuntime adds the time since the last count to the device's total runtime (seconds),
// at most two heartbeat intervals per step so that a gap does not count as running.
func (s *Service) countRuntime(ctx context.Context, deviceID, now int64) {
	var online int
	var counted int64
	if err := s.db.QueryRow(ctx, `SELECT online, runtime_counted_at FROM device_state WHERE device_id = ?`, deviceID).Scan(&online, &counted); err != nil || online == 0 {
		return
	}
	delta := now - counted
	if limit := 2 * s.opt.HeartbeatInterval.Milliseconds(); delta > limit {
		delta = limit
	}
	secs := delta / 1000
	if secs <= 0 {
		_, _ = s.db.Exec(ctx, `UPDATE device_state SET last_seen_at = ? WHERE device_id = ?`, now, deviceID)
		return
	}
	_ = s.db.InTx(ctx, func(tx *db.Tx) error {
		if _, err := tx.Exec(ctx, `UPDATE device_state SET last_seen_at = ?, runtime_counted_at = ? WHERE device_id = ?`, now, counted+secs*1000, deviceID); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `UPDATE device SET total_runtime = total_runtime + ? WHERE id = ?`, secs, deviceID)
		return err
	})
}

// Booted records a BootNotification.
func (s *Service) Booted(ctx context.Context, dev *Device, b BootInfo) error {
	raw, _ := json.Marshal(b)
	now := db.NowMS()
	if _, err := s.db.Exec(ctx, `UPDATE device_state SET vendor = ?, model = ?, firmware_version = ?, boot_info = ?, heartbeat_interval = ?, updated_at = ? WHERE device_id = ?`,
		b.Vendor, b.Model, b.FirmwareVersion, string(raw), int(s.opt.HeartbeatInterval.Seconds()), now, dev.ID); err != nil {
		return err
	}
	if b.FirmwareVersion != "" {
		if _, err := s.db.Exec(ctx, `UPDATE device SET software_version = ? WHERE id = ?`, b.FirmwareVersion, dev.ID); err != nil {
			return err
		}
	}
	return nil
}

// ConnectorStatus records a StatusNotification: the connector's status, its alarms and faults
// (decisions §2), the unavailable event, then the device status.
func (s *Service) ConnectorStatus(ctx context.Context, dev *Device, connector int, status, errorCode, vendorCode, info string, at int64) error {
	now := db.NowMS()
	if at == 0 {
		at = now
	}
	if _, err := s.db.Exec(ctx, `INSERT INTO device_connector (device_id, connector_id, status, error_code, vendor_code, info, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (device_id, connector_id) DO UPDATE SET status = excluded.status, error_code = excluded.error_code, vendor_code = excluded.vendor_code,
		  info = excluded.info, updated_at = excluded.updated_at`, dev.ID, connector, status, errorCode, vendorCode, info, now); err != nil {
		return err
	}
	if errorCode != "" && errorCode != "NoError" || status == "Faulted" {
		code := errorCode
		if code == "" || code == "NoError" {
			code = "Faulted"
		}
		kind, level := KindAlarm, AlarmLevel(code)
		if status == "Faulted" {
			kind, level = KindFault, LevelCA
		}
		name := code
		if code == "OtherError" && vendorCode != "" {
			name = vendorCode
		}
		// A different alarm on the connector ends the previous one.
		if _, err := s.db.Exec(ctx, `UPDATE device_event SET status = 1, ended_at = ? WHERE device_id = ? AND status = 0 AND kind IN (1, 2) AND connector_id = ? AND NOT (kind = ? AND code = ?)`,
			at, dev.ID, connector, kind, code); err != nil {
			return err
		}
		s.openEvent(ctx, dev, kind, level, connector, code, name, vendorCode, info, at)
	} else {
		s.endEvents(ctx, dev.ID, KindAlarm, connector, at)
		s.endEvents(ctx, dev.ID, KindFault, connector, at)
	}
	if status == "Unavailable" {
		s.openEvent(ctx, dev, KindUnavailable, LevelOA, connector, "Unavailable", "Unavailable", "", "", at)
	} else {
		s.endEvents(ctx, dev.ID, KindUnavailable, connector, at)
	}
	return s.Recompute(ctx, dev.ID)
}

func (s *Service) openEvent(ctx context.Context, dev *Device, kind, level, connector int, code, name, vendorCode, info string, at int64) {
	var n int
	if err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM device_event WHERE device_id = ? AND status = 0 AND kind = ? AND connector_id = ? AND code = ?`,
		dev.ID, kind, connector, code).Scan(&n); err != nil || n > 0 {
		return
	}
	if _, err := s.db.Exec(ctx, `INSERT INTO device_event (device_id, customer_id, site_id, kind, level, connector_id, code, name, vendor_code, info, status, started_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?)`, dev.ID, dev.CustomerID, dev.SiteID, kind, level, connector, code, name, vendorCode, info, at); err != nil {
		slog.Warn("event not opened", "sn", dev.SN, "err", err)
	}
}

// endEvents ends the open events of a kind (on one connector, or all with connector -1).
func (s *Service) endEvents(ctx context.Context, deviceID int64, kind, connector int, at int64) {
	q := `UPDATE device_event SET status = 1, ended_at = ? WHERE device_id = ? AND status = 0 AND kind = ?`
	args := []any{at, deviceID, kind}
	if connector >= 0 {
		q += ` AND connector_id = ?`
		args = append(args, connector)
	}
	if _, err := s.db.Exec(ctx, q, args...); err != nil {
		slog.Warn("events not ended", "device", deviceID, "err", err)
	}
}

// Recompute derives the device's status and alarm status from what is stored and, when they
// changed, saves them and pushes the change to consoles. The device service calls it after
// enable/disable and maintenance changes.
func (s *Service) Recompute(ctx context.Context, deviceID int64) error {
	var in StatusInput
	var sn string
	var customerID, siteID int64
	var en, mt, online, fwJob, oldStatus, oldAlarm int
	err := s.db.QueryRow(ctx, `SELECT d.sn, d.customer_id, d.site_id, d.enabled, d.maintain_mode, d.status, d.alarm_status,
		COALESCE(st.online, 0), COALESCE(st.firmware_job, 0)
		FROM device d LEFT JOIN device_state st ON st.device_id = d.id WHERE d.id = ?`, deviceID).
		Scan(&sn, &customerID, &siteID, &en, &mt, &oldStatus, &oldAlarm, &online, &fwJob)
	if db.NotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	in.Enabled, in.Maintain, in.Online, in.FirmwareJob = en == 1, mt == 1, online == 1, fwJob == 1
	rows, err := s.db.Query(ctx, `SELECT status FROM device_connector WHERE device_id = ?`, deviceID)
	if err != nil {
		return err
	}
	for rows.Next() {
		var st string
		if err := rows.Scan(&st); err == nil {
			in.Connectors = append(in.Connectors, st)
		}
	}
	rows.Close()
	if !in.Online {
		in.Connectors = nil
	}
	var alarm sql.NullInt64
	if err := s.db.QueryRow(ctx, `SELECT MAX(kind) FROM device_event WHERE device_id = ? AND status = 0 AND kind IN (1, 2)`, deviceID).Scan(&alarm); err != nil {
		return err
	}
	status := ComputeStatus(in)
	alarmStatus := AlarmNone
	if alarm.Valid {
		alarmStatus = int(alarm.Int64) // kind 1 alarm → 1, kind 2 fault → 2
	}
	if status == oldStatus && alarmStatus == oldAlarm {
		return nil
	}
	if _, err := s.db.Exec(ctx, `UPDATE device SET status = ?, alarm_status = ? WHERE id = ?`, status, alarmStatus, deviceID); err != nil {
		return err
	}
	s.Hub.Publish(StatusEvent{DeviceID: deviceID, SN: sn, CustomerID: customerID, SiteID: siteID, Status: status,
		AlarmStatus: alarmStatus, Online: in.Online, Time: db.NowMS()})
	return nil
}

// Sample is one sampled value of a MeterValues message.
type Sample struct {
	Measurand string // default Energy.Active.Import.Register
	Phase     string
	Unit      string
	Value     string
	At        int64
}

// SeriesName is the stored name of a measurand on a phase.
func SeriesName(measurand, phase string) string {
	if measurand == "" {
		measurand = "Energy.Active.Import.Register"
	}
	if phase != "" {
		return measurand + "." + phase
	}
	return measurand
}

// Meter stores sampled values: the latest per measurand and connector, and the numeric ones in
// the time series. A replayed message (same timestamps) adds nothing.
func (s *Service) Meter(ctx context.Context, dev *Device, connector int, samples []Sample) error {
	if len(samples) == 0 {
		return nil
	}
	var series strings.Builder
	var args []any
	for _, sm := range samples {
		name := SeriesName(sm.Measurand, sm.Phase)
		at := sm.At
		if at == 0 {
			at = db.NowMS()
		}
		if _, err := s.db.Exec(ctx, `INSERT INTO device_runtime (device_id, name, connector_id, value, unit, sampled_at) VALUES (?, ?, ?, ?, ?, ?)
			ON CONFLICT (device_id, name, connector_id) DO UPDATE SET value = excluded.value, unit = excluded.unit, sampled_at = excluded.sampled_at
			WHERE device_runtime.sampled_at <= excluded.sampled_at`, dev.ID, name, connector, sm.Value, sm.Unit, at); err != nil {
			return err
		}
		v, err := strconv.ParseFloat(sm.Value, 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			continue
		}
		if len(args) > 0 {
			series.WriteByte(',')
		}
		series.WriteString("(?,?,?,?,?)")
		args = append(args, dev.ID, name, connector, at, v)
	}
	if len(args) > 0 {
		if _, err := s.db.Exec(ctx, `INSERT INTO device_series (device_id, name, connector_id, ts, value) VALUES `+series.String()+
			` ON CONFLICT (device_id, name, connector_id, ts) DO NOTHING`, args...); err != nil {
			return err
		}
	}
	return nil
}

// RuntimeValue stores one gateway value (firmware status, diagnostics status, ...) as a
// runtime value of connector 0.
func (s *Service) RuntimeValue(ctx context.Context, deviceID int64, name, value string) {
	if _, err := s.db.Exec(ctx, `INSERT INTO device_runtime (device_id, name, connector_id, value, unit, sampled_at) VALUES (?, ?, 0, ?, '', ?)
		ON CONFLICT (device_id, name, connector_id) DO UPDATE SET value = excluded.value, sampled_at = excluded.sampled_at`,
		deviceID, name, value, db.NowMS()); err != nil {
		slog.Warn("runtime value not kept", "device", deviceID, "err", err)
	}
}

// StartTransaction records a charging session and returns its id; a replay of the same start
// (connector and timestamp) returns the id it got the first time.
func (s *Service) StartTransaction(ctx context.Context, dev *Device, connector int, idTag string, meterStart int64, at int64) (int64, error) {
	if _, err := s.db.Exec(ctx, `INSERT INTO device_transaction (device_id, connector_id, id_tag, meter_start, started_at) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (device_id, connector_id, started_at) DO NOTHING`, dev.ID, connector, idTag, meterStart, at); err != nil {
		return 0, err
	}
	var id int64
	err := s.db.QueryRow(ctx, `SELECT id FROM device_transaction WHERE device_id = ? AND connector_id = ? AND started_at = ?`, dev.ID, connector, at).Scan(&id)
	return id, err
}

// StopTransaction ends a session once; a replayed stop changes nothing.
func (s *Service) StopTransaction(ctx context.Context, dev *Device, txID, meterStop, at int64, reason string) error {
	_, err := s.db.Exec(ctx, `UPDATE device_transaction SET meter_stop = ?, stopped_at = ?, reason = ? WHERE id = ? AND device_id = ? AND stopped_at = 0`,
		meterStop, at, reason, txID, dev.ID)
	return err
}

// TransactionConnector returns the connector of a transaction (0 if unknown).
func (s *Service) TransactionConnector(ctx context.Context, deviceID, txID int64) int {
	var c int
	_ = s.db.QueryRow(ctx, `SELECT connector_id FROM device_transaction WHERE id = ? AND device_id = ?`, txID, deviceID).Scan(&c)
	return c
}

// FirmwareJob starts (on an accepted UpdateFirmware) or ends a firmware job.
func (s *Service) FirmwareJob(ctx context.Context, deviceID int64, running bool, status string) error {
	if _, err := s.db.Exec(ctx, `UPDATE device_state SET firmware_job = ?, firmware_status = ?, updated_at = ? WHERE device_id = ?`,
		db.BoolInt(running), status, db.NowMS(), deviceID); err != nil {
		return err
	}
	s.RuntimeValue(ctx, deviceID, "FirmwareStatus", status)
	return s.Recompute(ctx, deviceID)
}

// FirmwareStatus records a FirmwareStatusNotification: the job runs while the status is
// Downloading, Downloaded or Installing.
func (s *Service) FirmwareStatus(ctx context.Context, dev *Device, status string) error {
	return s.FirmwareJob(ctx, dev.ID, FirmwareJobRunning(status), status)
}

// DiagnosticsStatus records a DiagnosticsStatusNotification. UploadFailed (the charger gave
// up, after its retries) also closes the open diagnostics job, so its URL takes no upload.
func (s *Service) DiagnosticsStatus(ctx context.Context, dev *Device, status string) error {
	q := `UPDATE device_state SET diagnostics_status = ?, updated_at = ? WHERE device_id = ?`
	if status == DiagnosticsUploadFailed {
		q = `UPDATE device_state SET diagnostics_status = ?, updated_at = ?, diagnostics_job = 0 WHERE device_id = ?`
	}
	_, err := s.db.Exec(ctx, q, status, db.NowMS(), dev.ID)
	s.RuntimeValue(ctx, dev.ID, "DiagnosticsStatus", status)
	if err != nil {
		return fmt.Errorf("fleet: diagnostics status: %w", err)
	}
	return nil
}

// DiagnosticsUploadFailed is the DiagnosticsStatus of a charger that gave up uploading.
const DiagnosticsUploadFailed = "UploadFailed"

// ConfigValue is one configuration key of a device.
type ConfigValue struct {
	Key      string `json:"key"`
	Value    string `json:"value"`
	Readonly bool   `json:"readonly"`
}

// StoreConfig saves configuration values (GetConfiguration answers, accepted changes).
func (s *Service) StoreConfig(ctx context.Context, deviceID int64, items []ConfigValue) error {
	now := db.NowMS()
	return s.db.InTx(ctx, func(tx *db.Tx) error {
		for _, it := range items {
			if _, err := tx.Exec(ctx, `INSERT INTO device_config (device_id, key, value, readonly, updated_at) VALUES (?, ?, ?, ?, ?)
				ON CONFLICT (device_id, key) DO UPDATE SET value = excluded.value, readonly = excluded.readonly, updated_at = excluded.updated_at`,
				deviceID, it.Key, it.Value, db.BoolInt(it.Readonly), now); err != nil {
				return err
			}
		}
		return nil
	})
}

// SetConfigValue saves one accepted ChangeConfiguration; the AuthorizationKey is never stored
// in clear: it becomes the device's key hash.
func (s *Service) SetConfigValue(ctx context.Context, dev *Device, key, value string) error {
	if strings.EqualFold(key, "AuthorizationKey") {
		_, err := s.db.Exec(ctx, `UPDATE device SET auth_key_hash = ?, security_profile = CASE WHEN security_profile = 0 THEN 1 ELSE security_profile END WHERE id = ?`,
			s.HashAuthKey(dev.SN, value), dev.ID)
		return err
	}
	return s.StoreConfig(ctx, dev.ID, []ConfigValue{{Key: key, Value: value}})
}
