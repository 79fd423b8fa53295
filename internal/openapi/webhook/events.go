package webhook

import (
	"context"
	"encoding/json"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"chargeops/internal/access"
	"chargeops/internal/application"
	"chargeops/internal/db"
	"chargeops/internal/devstate"
	"chargeops/internal/fleet"
	"chargeops/internal/i18n"
)

// Event types an application may subscribe to.
const (
	EventDeviceStatus  = "device.status"
	EventAlarm         = "alarm"
	EventCommandResult = "command.result"
	// EventPowerAllocation: the site load manager changed a charger's share of its site's limit
	// (docs/smart-charging.md), so an external energy manager can follow and steer.
	EventPowerAllocation = "power.allocation"
)

// Events are the event types, in the order the documentation lists them.
var Events = []string{EventDeviceStatus, EventAlarm, EventCommandResult, EventPowerAllocation}

// DeviceStatusData is the data of a device.status event: a device connected, disconnected, or
// its status or alarm status changed (status 0 offline, 1 idle, 2 working, 3 faulted, 4
// maintenance, 5 updating firmware, 6 disabled; alarm status 0 none, 1 alarm, 2 fault).
type DeviceStatusData struct {
	DeviceID    int64  `json:"deviceId"`
	SN          string `json:"sn"`
	SiteID      int64  `json:"siteId"`
	CustomerID  int64  `json:"customerId"`
	Online      bool   `json:"online"`
	Status      int    `json:"status"`
	AlarmStatus int    `json:"alarmStatus"`
	At          int64  `json:"at"`
}

// AlarmData is the data of an alarm event: an alarm (kind 1) or fault (kind 2) opened or ended
// (state "open" or "ended"); level 0 OA, 1 MA, 2 CA. Name is the alarm's name as the console
// and alarm mail show it (i18n.EventName), in the language of the application's bound user
// (Locale; en-US when the user has none); the machine fields (code, vendorCode, level) stay as
// the charger reported them.
type AlarmData struct {
	EventID    int64  `json:"eventId"`
	DeviceID   int64  `json:"deviceId"`
	SN         string `json:"sn"`
	SiteID     int64  `json:"siteId"`
	CustomerID int64  `json:"customerId"`
	Kind       int    `json:"kind"`
	Level      int    `json:"level"`
	LevelCode  string `json:"levelCode"`
	Code       string `json:"code"`
	VendorCode string `json:"vendorCode"`
	Name       string `json:"name"`
	Locale     string `json:"locale"`
	State      string `json:"state"`
	At         int64  `json:"at"`

	stored string // the name stored with the event (a vendor alarm's own name), localised per subscriber
}

// localised is d named in locale.
func (d AlarmData) localised(locale string) AlarmData {
	if locale = i18n.Normalize(locale); locale == "" {
		locale = i18n.EnUS
	}
	d.Locale, d.Name, d.LevelCode = locale, i18n.EventName(locale, d.Code, d.stored), i18n.LevelCode(d.Level)
	return d
}

// Alarm states.
const (
	StateOpen  = "open"
	StateEnded = "ended"
)

// CommandResultData is the data of a command.result event: a command's stored outcome (result 2
// success, 3 failed, 4 timeout, 5 offline), as GET /openapi/v1/commands/detail shows it.
type CommandResultData struct {
	CommandID   int64  `json:"commandId"`
	DeviceID    int64  `json:"deviceId"`
	SN          string `json:"sn"`
	SiteID      int64  `json:"siteId"`
	CustomerID  int64  `json:"customerId"`
	ControlType int    `json:"controlType"`
	Result      int    `json:"result"`
	Message     string `json:"message"`
	At          int64  `json:"at"`
}

// AllocationData is the data of a power.allocation event: a session's share of its site's limit
// as the load manager planned it (limitA per phase on phases phases, limitW the same in W at
// 230 V; 0: paused) and what became of the profile carrying it (state 0 sending, 1 applied,
// 2 refused, 3 offline).
type AllocationData struct {
	SiteID        int64   `json:"siteId"`
	CustomerID    int64   `json:"customerId"`
	DeviceID      int64   `json:"deviceId"`
	SN            string  `json:"sn"`
	ConnectorID   int     `json:"connectorId"`
	TransactionID int64   `json:"transactionId"`
	LimitA        float64 `json:"limitA"`
	LimitW        float64 `json:"limitW"`
	Phases        int     `json:"phases"`
	State         int     `json:"state"`
	At            int64   `json:"at"`
}

// occurrence is one event waiting for the fan-out.
type occurrence struct {
	event            string
	customer, site   int64
	device           int64 // a command result's device, whose customer and site are read at fan-out
	at               int64
	data             any
	commandNeedsSite bool
}

// OnEvent is the fleet's event hook (fleet.Service.OnEvents): alarms and faults go to the
// webhooks. Like every listener here it never blocks the ingest writer: a full queue drops the
// event (counted in Dropped and logged).
func (s *Service) OnEvent(c fleet.EventChange) {
	if c.Kind != devstate.KindAlarm && c.Kind != devstate.KindFault {
		return
	}
	state := StateEnded
	if c.Open {
		state = StateOpen
	}
	s.offer(occurrence{event: EventAlarm, customer: c.CustomerID, site: c.SiteID, at: c.At, data: AlarmData{EventID: c.EventID,
		DeviceID: c.DeviceID, SN: c.SN, SiteID: c.SiteID, CustomerID: c.CustomerID, Kind: c.Kind, Level: c.Level, Code: c.Code,
		VendorCode: c.VendorCode, stored: c.Name, State: state, At: c.At}})
}

// OnStatus is the fleet's status hook (fleet.Service.OnStatus).
func (s *Service) OnStatus(e fleet.StatusEvent) {
	at := e.Time
	if at == 0 {
		at = db.NowMS()
	}
	s.offer(occurrence{event: EventDeviceStatus, customer: e.CustomerID, site: e.SiteID, at: at, data: DeviceStatusData{DeviceID: e.DeviceID,
		SN: e.SN, SiteID: e.SiteID, CustomerID: e.CustomerID, Online: e.Online, Status: e.Status, AlarmStatus: e.AlarmStatus, At: at}})
}

// OnCommandResult is the fleet's command hook (fleet.Service.OnCommandResults). A message key
// (err.*) is sent as its English text.
func (s *Service) OnCommandResult(r fleet.CommandResult) {
	msg := r.Message
	if strings.HasPrefix(msg, "err.") {
		msg = i18n.T(i18n.EnUS, msg, nil)
	}
	s.offer(occurrence{event: EventCommandResult, device: r.DeviceID, at: r.At, commandNeedsSite: true, data: CommandResultData{
		CommandID: r.CommandID, DeviceID: r.DeviceID, SN: r.SN, ControlType: r.ControlType, Result: r.Result, Message: msg, At: r.At}})
}

// OnAllocation is the load manager's allocation hook (internal/loadmgmt, wired by the app).
func (s *Service) OnAllocation(d AllocationData) {
	s.offer(occurrence{event: EventPowerAllocation, device: d.DeviceID, at: d.At, commandNeedsSite: true, data: d})
}

// offer queues o without blocking; nothing is queued while no webhook is enabled.
func (s *Service) offer(o occurrence) {
	if !s.anySubs.Load() {
		return
	}
	select {
	case s.in <- o:
	default:
		if s.Dropped.Add(1)%1000 == 1 {
			slog.Warn("webhook: event queue full, events dropped", "dropped", s.Dropped.Load())
		}
	}
}

// intake collects queued events into batches (up to batchSize, or what arrived within
// batchWait) and fans each batch out into deliveries, until ctx ends.
func (s *Service) intake(ctx context.Context) {
	refresh := time.NewTicker(s.opt.SubsRefresh)
	defer refresh.Stop()
	var batch []occurrence
	for {
		select {
		case <-ctx.Done():
			return
		case <-refresh.C:
			s.refreshAny(ctx)
			continue
		case <-s.subsKick:
			s.refreshAny(ctx)
			continue
		case o := <-s.in:
			batch = append(batch[:0], o)
		}
		deadline := time.NewTimer(batchWait)
	fill:
		for len(batch) < batchSize {
			select {
			case o := <-s.in:
				batch = append(batch, o)
			case <-deadline.C:
				break fill
			case <-ctx.Done():
				break fill
			}
		}
		deadline.Stop()
		if err := s.fanOut(context.WithoutCancel(ctx), batch); err != nil {
			slog.Warn("webhook: events not queued for delivery", "events", len(batch), "err", err)
		}
	}
}

const (
	batchSize = 500
	batchWait = 100 * time.Millisecond
)

// refreshAny notes whether any enabled webhook of an enabled application exists (another node
// may have added one).
func (s *Service) refreshAny(ctx context.Context) {
	var n int
	err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM webhook w JOIN application a ON a.id = w.app_id WHERE w.enabled = 1 AND a.status = ?`,
		application.Enabled).Scan(&n)
	if err != nil {
		if ctx.Err() == nil {
			slog.Warn("webhook: subscriptions", "err", err)
		}
		return
	}
	s.anySubs.Store(n > 0)
}

// subsChanged makes the intake look at the subscriptions again (a webhook was saved or deleted
// on this node).
func (s *Service) subsChanged() {
	s.anySubs.Store(true) // until the intake looks: an event in between is checked at fan-out
	select {
	case s.subsKick <- struct{}{}:
	default:
	}
}

// subscription is an enabled webhook of an enabled application, with its bound user and that
// user's language (the language of the names in its payloads).
type subscription struct {
	id, app, user int64
	events        []string
	locale        string
}

// fanOut turns a batch of events into deliveries: one per event and webhook that subscribes to
// its type and whose application's bound user has the device in scope.
func (s *Service) fanOut(ctx context.Context, batch []occurrence) error {
	rows, err := s.db.Query(ctx, `SELECT w.id, w.app_id, a.user_id, w.events, COALESCE(u.locale, '') FROM webhook w JOIN application a ON a.id = w.app_id
		LEFT JOIN app_user u ON u.id = a.user_id WHERE w.enabled = 1 AND a.status = ? ORDER BY w.id`, application.Enabled)
	if err != nil {
		return err
	}
	var subs []subscription
	for rows.Next() {
		var x subscription
		var events string
		if err := rows.Scan(&x.id, &x.app, &x.user, &events, &x.locale); err != nil {
			rows.Close()
			return err
		}
		x.events = splitEvents(events)
		subs = append(subs, x)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	if len(subs) == 0 {
		return nil
	}
	if err := s.placeCommands(ctx, batch); err != nil {
		return err
	}
	type delivery struct {
		sub  subscription
		occ  *occurrence
		data []byte
	}
	var out []delivery
	for i := range batch {
		o := &batch[i]
		var data []byte
		byLocale := map[string][]byte{} // an alarm's payload per language
		for _, sub := range subs {
			if !slices.Contains(sub.events, o.event) {
				continue
			}
			p := s.principal(ctx, sub.app, sub.user)
			if p == nil || !p.Scope.HasSite(o.customer, o.site) {
				continue
			}
			if a, ok := o.data.(AlarmData); ok {
				a = a.localised(sub.locale)
				b, ok := byLocale[a.Locale]
				if !ok {
					if b, err = json.Marshal(a); err != nil {
						return err
					}
					byLocale[a.Locale] = b
				}
				out = append(out, delivery{sub: sub, occ: o, data: b})
				continue
			}
			if data == nil {
				if data, err = json.Marshal(o.data); err != nil {
					return err
				}
			}
			out = append(out, delivery{sub: sub, occ: o, data: data})
		}
	}
	if len(out) == 0 {
		return nil
	}
	now := s.Now().UnixMilli()
	err = s.db.InTx(ctx, func(tx *db.Tx) error {
		for _, d := range out {
			if _, err := tx.Exec(ctx, `INSERT INTO webhook_delivery (webhook_id, app_id, event, payload, attempts, next_at, status, created_at)
				VALUES (?, ?, ?, ?, 0, ?, ?, ?)`, d.sub.id, d.sub.app, d.occ.event, string(d.data), now, StatusPending, d.occ.at); err != nil {
				return err
			}
		}
		return nil
	})
	if err == nil {
		s.Wake()
	}
	return err
}

// placeCommands fills in the customer and site of the batch's command results (their devices'
// now).
func (s *Service) placeCommands(ctx context.Context, batch []occurrence) error {
	for i := range batch {
		o := &batch[i]
		if !o.commandNeedsSite {
			continue
		}
		var sn string
		err := s.db.QueryRow(ctx, `SELECT customer_id, site_id, sn FROM device WHERE id = ?`, o.device).Scan(&o.customer, &o.site, &sn)
		if db.NotFound(err) {
			o.customer, o.site = -1, -1 // gone: in no one's scope
			continue
		}
		if err != nil {
			return err
		}
		switch d := o.data.(type) {
		case CommandResultData:
			d.CustomerID, d.SiteID = o.customer, o.site
			o.data = d
		case AllocationData:
			d.CustomerID, d.SiteID, d.SN = o.customer, o.site, sn
			o.data = d
		}
		o.commandNeedsSite = false
	}
	return nil
}

// principal is the bound user of application app as a caller (auth.Service.PrincipalOf),
// cached for PrincipalTTL; nil when the user is disabled or gone.
func (s *Service) principal(ctx context.Context, app, user int64) *access.Principal {
	now := s.Now()
	s.mu.Lock()
	c, ok := s.principals[app]
	s.mu.Unlock()
	if ok && c.user == user && now.Before(c.until) {
		return c.p
	}
	p, err := s.users.PrincipalOf(ctx, user)
	if err != nil {
		p = nil
	}
	s.mu.Lock()
	s.principals[app] = cachedPrincipal{user: user, p: p, until: now.Add(PrincipalTTL)}
	s.mu.Unlock()
	return p
}

// PrincipalTTL is how long a bound user's scope is cached for the fan-out.
const PrincipalTTL = 30 * time.Second

type cachedPrincipal struct {
	user  int64
	p     *access.Principal
	until time.Time
}

// principalCache is the fan-out's cache of bound users, per application.
type principalCache struct {
	mu         sync.Mutex
	principals map[int64]cachedPrincipal
}

// counters of the intake.
type counters struct {
	// Dropped counts events dropped because the queue was full.
	Dropped atomic.Int64
	anySubs atomic.Bool
}
