package fleet

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"

	"chargeops/internal/db"
	"chargeops/internal/fleet/ingest"
)

// Connection bookkeeping: a device's connection opens and ends, its boot, and the last-seen
// time and runtime counter it refreshes while connected. The counters a connection refreshes on
// every message are held in memory (hotDevices) and written through the ingest pipeline, never
// read back from the database per message.

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

// hotDevice is the in-memory state of a device connected to this node.
type hotDevice struct {
	connID    string
	countedAt int64 // runtime counted up to here (unix ms)
}

type hotDevices struct {
	mu sync.Mutex
	m  map[int64]*hotDevice
}

// count takes the runtime since the last count (at most limit ms, so a gap does not count as
// running) for connection connID, in whole seconds, and advances the mark; ok is false when
// connID is not the device's connection here.
func (h *hotDevices) count(deviceID int64, connID string, now, limit int64) (secs, countedAt int64, ok bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	d := h.m[deviceID]
	if d == nil || (connID != "" && d.connID != connID) {
		return 0, 0, false
	}
	if elapsed := now - d.countedAt; elapsed > limit {
		secs, d.countedAt = limit/1000, now
	} else {
		secs = elapsed / 1000
		d.countedAt += secs * 1000
	}
	return secs, d.countedAt, true
}

// open makes connID the device's connection here, unless a newer one already is.
func (h *hotDevices) open(deviceID int64, connID string, now int64) {
	h.mu.Lock()
	if d := h.m[deviceID]; d == nil || !Older(connID, d.connID) {
		h.m[deviceID] = &hotDevice{connID: connID, countedAt: now}
	}
	h.mu.Unlock()
}

// holds reports whether connID is the device's connection here.
func (h *hotDevices) holds(deviceID int64, connID string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	d := h.m[deviceID]
	return d != nil && d.connID == connID
}

// close forgets the device's connection connID (not a newer one).
func (h *hotDevices) close(deviceID int64, connID string) {
	h.mu.Lock()
	if d := h.m[deviceID]; d != nil && d.connID == connID {
		delete(h.m, deviceID)
	}
	h.mu.Unlock()
}

// Connection-state SQL.
const (
	// sqlConnected records a connection unless a newer one is recorded (conn_order: the
	// admission order of its conn_id, docs/gateway.md "Connections").
	sqlConnected = `INSERT INTO device_state (device_id, online, node, conn_id, conn_order, remote_addr, protocol, connected_at, last_seen_at, runtime_counted_at, updated_at)
		VALUES (?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (device_id) DO UPDATE SET online = 1, node = excluded.node, conn_id = excluded.conn_id, conn_order = excluded.conn_order,
		  remote_addr = excluded.remote_addr, protocol = excluded.protocol, connected_at = excluded.connected_at, last_seen_at = excluded.last_seen_at,
		  runtime_counted_at = excluded.runtime_counted_at, updated_at = excluded.updated_at
		WHERE device_state.conn_order <= excluded.conn_order`
	sqlDisconnected = `UPDATE device_state SET online = 0, updated_at = ? WHERE device_id = ? AND conn_id = ? AND online = 1`
	sqlBooted       = `UPDATE device_state SET vendor = ?, model = ?, firmware_version = ?, boot_info = ?, heartbeat_interval = ?, updated_at = ? WHERE device_id = ?`
	sqlSoftware     = `UPDATE device SET software_version = ? WHERE id = ?`
)

// ErrNewerConnection is Connected's answer when a connection admitted after connID is already
// recorded: connID lost and its socket must be closed.
var ErrNewerConnection = errors.New("fleet: a newer connection of the device is recorded")

// Connected records a new connection of a known device: online, its conn_id and admission
// order, the offline event ended, the status recomputed and pushed. It is committed before it
// returns. When a newer connection is already recorded nothing changes and the answer is
// ErrNewerConnection.
func (s *Service) Connected(ctx context.Context, dev *Device, connID, addr, protocol string) error {
	s.firstBeat(ctx)
	now := s.opt.Now()
	// Held here before the row is committed: a sweep of this node's recorded connections
	// (endNodeConnections, at start-up or for a lapsed node) that reads the row must also
	// find it held, or it would end a live connection (seen under load in CI).
	s.hot.open(dev.ID, connID, now)
	err := s.Ingest.Commit(ctx, &ingest.Unit{Key: ingest.KeyOf(dev.SN), Step: func(ctx context.Context, b *ingest.Batch) error {
		res, err := b.Tx.Exec(ctx, sqlConnected, dev.ID, s.opt.Node, connID, ConnOrder(connID), addr, protocol, now, now, now, now)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			return ErrNewerConnection
		}
		if err := ingest.MarkRefreshed(ctx, b.Tx, dev.ID, now); err != nil {
			return err
		}
		if err := restartOver(ctx, b.Tx, dev.ID); err != nil { // back from a console Reset: never offline
			return err
		}
		if err := s.endEvents(ctx, b, eventEnd{DeviceID: dev.ID, SN: dev.SN, Kinds: []int{KindOffline}, Connector: anyConnector, At: now}); err != nil {
			return err
		}
		return s.recompute(ctx, b, dev.ID)
	}})
	if err != nil {
		s.hot.close(dev.ID, connID)
		return err
	}
	s.afterConnect(ctx, dev, protocol) // charging_profiles.go
	return nil
}

// Disconnected records the end of connection connID. A late close of a replaced connection
// (another connection is now the device's) changes nothing.
func (s *Service) Disconnected(ctx context.Context, dev *Device, connID string) {
	now := s.opt.Now()
	secs, counted, live := s.hot.count(dev.ID, connID, now, s.runtimeStep())
	s.hot.close(dev.ID, connID)
	err := s.Ingest.Commit(ctx, &ingest.Unit{Key: ingest.KeyOf(dev.SN), Step: func(ctx context.Context, b *ingest.Batch) error {
		if live {
			if err := ingest.WriteSeen(ctx, b.Tx, ingest.Seen{DeviceID: dev.ID, ConnID: connID, At: now, Secs: secs, CountedAt: counted}); err != nil {
				return err
			}
		}
		res, err := b.Tx.Exec(ctx, sqlDisconnected, now, dev.ID, connID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return nil
		}
		// away for a console Reset: no Offline event unless it overstays (restart_grace.go)
		if restart, err := s.leftForRestart(ctx, b.Tx, dev.ID, now); err != nil {
			return err
		} else if !restart {
			if err := s.openEvent(ctx, b, eventOpen{Device: dev, Kind: KindOffline, Level: LevelOA, Code: EventOffline, Name: EventOffline, At: now}); err != nil {
				return err
			}
		}
		return s.recompute(ctx, b, dev.ID)
	}})
	if err != nil {
		slog.Warn("disconnect not recorded", "sn", dev.SN, "err", err)
	}
}

// runtimeStep is the most a single runtime count adds: two heartbeat intervals.
func (s *Service) runtimeStep() int64 { return 2 * s.opt.HeartbeatInterval.Milliseconds() }

// Seen refreshes the last-seen time and the total runtime of a connected device (the gateway
// calls it at most every few seconds per connection). It does not wait for the commit.
func (s *Service) Seen(dev *Device, connID string) {
	now := s.opt.Now()
	secs, counted, live := s.hot.count(dev.ID, connID, now, s.runtimeStep())
	if !live {
		return
	}
	s.Ingest.Submit(&ingest.Unit{Key: ingest.KeyOf(dev.SN), Seen: &ingest.Seen{DeviceID: dev.ID, ConnID: connID, At: now, Secs: secs, CountedAt: counted}})
}

// Booted records a BootNotification.
func (s *Service) Booted(ctx context.Context, dev *Device, b BootInfo) error {
	raw, _ := json.Marshal(b)
	now := s.opt.Now()
	err := s.Ingest.Commit(ctx, &ingest.Unit{Key: ingest.KeyOf(dev.SN), Step: func(ctx context.Context, bt *ingest.Batch) error {
		if _, err := bt.Tx.Exec(ctx, sqlBooted, b.Vendor, b.Model, b.FirmwareVersion, string(raw), int(s.opt.HeartbeatInterval.Seconds()), now, dev.ID); err != nil {
			return err
		}
		if b.FirmwareVersion == "" {
			return nil
		}
		if _, err := bt.Tx.Exec(ctx, sqlSoftware, b.FirmwareVersion, dev.ID); err != nil {
			return err
		}
		// the consoles re-read the device (its software version) even when its status stays
		bt.MarkChanged(dev.ID)
		return s.recompute(ctx, bt, dev.ID)
	}})
	if err == nil {
		s.afterBoot(ctx, dev) // charging_profiles.go
	}
	return err
}

// Adopter is a Link that may belong to no device yet: the connection of an unknown SN admitted
// as Pending (--ocpp-allow-unknown). Adopt makes it the connection of the device now registered
// under its SN (recorded Connected, its messages handled as the device's), or closes it when the
// device's admission rules would refuse it without the credentials it never showed
// (docs/gateway.md, "Admission"). It does nothing for a connection that already is a device's.
type Adopter interface {
	Adopt(ctx context.Context) error
}

// DeviceChanged is the fleet's side of an administrative change of a device (device.Notifier):
// its status is recomputed and pushed, and when the device is not online, a live connection of
// its SN that belongs to no device yet (an unknown SN's, left Pending until an admin added the
// device) becomes the device's, on whichever node holds it.
func (s *Service) DeviceChanged(ctx context.Context, deviceID int64) error {
	dev, err := s.DeviceByID(ctx, deviceID)
	if err != nil {
		return fmt.Errorf("fleet: device changed: %w", err)
	}
	if dev == nil {
		return nil
	}
	// Keyed by the SN, so it runs in order with the disconnect the drop of its connection causes.
	err = s.Ingest.Commit(ctx, &ingest.Unit{Key: ingest.KeyOf(dev.SN), Step: func(ctx context.Context, b *ingest.Batch) error {
		if err := s.offlineWhenDisabled(ctx, b, deviceID); err != nil {
			return err
		}
		return s.recompute(ctx, b, deviceID)
	}})
	if err != nil {
		return fmt.Errorf("fleet: device changed: %w", err)
	}
	var sn string
	var online int
	err = s.db.QueryRow(ctx, `SELECT d.sn, COALESCE(st.online, 0) FROM device d LEFT JOIN device_state st ON st.device_id = d.id WHERE d.id = ?`,
		deviceID).Scan(&sn, &online)
	if db.NotFound(err) || (err == nil && online == 1) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("fleet: device changed: state: %w", err)
	}
	l, ok := s.Registry.Lookup(sn)
	if !ok {
		return nil
	}
	if a, ok := l.(Adopter); ok {
		if err := a.Adopt(ctx); err != nil {
			return fmt.Errorf("fleet: device changed: adopt: %w", err)
		}
	}
	return nil
}

// offlineWhenDisabled opens the Offline event of a disabled device (docs/gateway.md, "Device
// status"): it is off the network from the moment it is disabled, whether or not it was
// connected, and its status shows Disabled, which ranks above Offline. The event stays open
// until the device, enabled again, connects; a disconnect of its dropped connection finds it
// open and adds none.
func (s *Service) offlineWhenDisabled(ctx context.Context, b *ingest.Batch, deviceID int64) error {
	dev, err := scanDevice(b.Tx.QueryRow(ctx, `SELECT `+deviceCols+` FROM device d WHERE d.id = ?`, deviceID))
	if db.NotFound(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("disabled device: %w", err)
	}
	if dev.Enabled {
		return nil
	}
	return s.openEvent(ctx, b, eventOpen{Device: dev, Kind: KindOffline, Level: LevelOA, Code: EventOffline, Name: EventOffline, At: db.NowMS()})
}
