package fleet

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/devstate"
	"chargeops/internal/smartcharging"
)

// Smart charging, control types 26-28 (issue 25, docs/smart-charging.md): what is checked
// before a profile goes out (its fields, the charger's own limits), the profiles chargeops set
// kept per device (device_charging_profile) and sent again after the charger reboots, and the
// path the site load manager sends its profiles by (SetProfile).

// KeyChargingProfile is the permission key of control types 26-28 besides control/send's own.
const KeyChargingProfile = "auth_device_chargingProfile"

// Where a stored profile came from.
const (
	SourceOperator = "operator" // the console or the OpenAPI, through control/send
	SourceLoad     = "load"     // the site load manager (internal/loadmgmt)
)

// ReservedProfileIDs: profile ids from here on are the load manager's (its Tx profile is
// ReservedProfileIDs + connector, its fallback TxDefault ReservedProfileIDs + 100); an
// operator's profile takes an id below.
const ReservedProfileIDs = 900000

// Stored profile states (device_charging_profile.state).
const (
	ProfileSent      = 0 // sent, not yet answered
	ProfileInstalled = 1 // the charger accepted it
	ProfileRefused   = 2 // the charger refused it (message says why)
)

// maxCompositeSeconds bounds a GetCompositeSchedule's duration (a week).
const maxCompositeSeconds = 7 * 24 * 3600

// ErrBusy: a command is still waiting for the device's answer; try again later.
var ErrBusy = errBusy

// validateSmartCharging checks the parameters of control types 26-28, one check per field.
func validateSmartCharging(ct int, p *Params) error {
	switch ct {
	case CtlSetChargingProfile:
		if p.Profile == nil {
			return apperr.InvalidField("params.profile", "err.required")
		}
		if p.ConnectorID < 0 {
			return apperr.InvalidField("params.connectorId", "err.invalid")
		}
		if p.Profile.ID >= ReservedProfileIDs {
			return apperr.InvalidField("params.profile.id", "err.sc_reserved_id").With(map[string]any{"field": "params.profile.id", "max": ReservedProfileIDs - 1})
		}
		return p.Profile.Validate("params.profile", p.ConnectorID)
	case CtlClearChargingProfile:
		c := p.Clear
		switch {
		case c == nil:
		case c.ID < 0:
			return apperr.InvalidField("params.clear.id", "err.invalid")
		case c.ConnectorID != nil && *c.ConnectorID < 0:
			return apperr.InvalidField("params.clear.connectorId", "err.invalid")
		case c.Purpose != "" && !smartcharging.ValidPurpose(c.Purpose):
			return apperr.InvalidField("params.clear.purpose", "err.invalid")
		case c.StackLevel != nil && (*c.StackLevel < 0 || *c.StackLevel > smartcharging.MaxStackLevel):
			return apperr.InvalidField("params.clear.stackLevel", "err.invalid")
		}
	case CtlGetCompositeSchedule:
		if p.ConnectorID < 0 {
			return apperr.InvalidField("params.connectorId", "err.invalid")
		}
		if p.Duration < 1 || p.Duration > maxCompositeSeconds {
			return apperr.InvalidField("params.duration", "err.sc_duration").With(map[string]any{"field": "params.duration", "max": maxCompositeSeconds})
		}
		if p.RateUnit != "" && p.RateUnit != smartcharging.UnitA && p.RateUnit != smartcharging.UnitW {
			return apperr.InvalidField("params.rateUnit", "err.invalid")
		}
	}
	return nil
}

// ChargerLimits are what a charger says of its smart charging in its configuration (OCPP 1.6
// keys, or the 2.0.1 SmartChargingCtrlr variables): the units it accepts, its highest stack
// level and how many profiles it holds. Zero values: the charger did not say (no limit).
type ChargerLimits struct {
	Units       []string // A and/or W
	MaxStack    int
	MaxProfiles int
}

// The configuration keys ChargerLimits reads, 1.6 first, then the 2.0.1 variables
// (ocpp201.VariableKey's form).
var (
	keysUnits    = []string{"ChargingScheduleAllowedChargingRateUnit", "SmartChargingCtrlr/RateUnit"}
	keysStack    = []string{"ChargeProfileMaxStackLevel", "SmartChargingCtrlr/ProfileStackLevel"}
	keysProfiles = []string{"MaxChargingProfilesInstalled", "SmartChargingCtrlr/Entries[ChargingProfiles]"}
)

// chargerLimits reads a device's smart-charging limits from its stored configuration.
func (s *Service) chargerLimits(ctx context.Context, deviceID int64) (ChargerLimits, error) {
	var l ChargerLimits
	keys := append(append(append([]string{}, keysUnits...), keysStack...), keysProfiles...)
	rows, err := s.db.Query(ctx, `SELECT key, value FROM device_config WHERE device_id = ? AND key IN (`+db.Placeholders(len(keys))+`)`,
		append([]any{deviceID}, db.Args(keys)...)...)
	if err != nil {
		return l, fmt.Errorf("fleet: charger limits: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			return l, fmt.Errorf("fleet: charger limits: %w", err)
		}
		n, _ := strconv.Atoi(strings.TrimSpace(v))
		switch {
		case slices.Contains(keysUnits, k):
			l.Units = rateUnits(v)
		case slices.Contains(keysStack, k):
			l.MaxStack = n
		case slices.Contains(keysProfiles, k):
			l.MaxProfiles = n
		}
	}
	return l, rows.Err()
}

// rateUnits reads a unit list: 1.6 says "Current,Power", 2.0.1 "A,W".
func rateUnits(v string) []string {
	var out []string
	for _, u := range strings.Split(v, ",") {
		switch strings.TrimSpace(u) {
		case "Current", smartcharging.UnitA:
			out = append(out, smartcharging.UnitA)
		case "Power", smartcharging.UnitW:
			out = append(out, smartcharging.UnitW)
		}
	}
	return out
}

// Accepts: the charger takes schedules in unit (it named no units: any).
func (l ChargerLimits) Accepts(unit string) bool {
	return len(l.Units) == 0 || slices.Contains(l.Units, unit)
}

// checkProfile holds a profile to what the device says it takes and to what it has: its unit,
// its stack level, the number of profiles it holds, and for a Tx profile the session open on
// that connector. Refused before anything is sent, each with its own message.
func (s *Service) checkProfile(ctx context.Context, deviceID int64, connector int, p *smartcharging.Profile) error {
	l, err := s.chargerLimits(ctx, deviceID)
	if err != nil {
		return err
	}
	if !l.Accepts(p.Schedule.Unit) {
		return apperr.InvalidField("params.profile.schedule.unit", "err.sc_unit").
			With(map[string]any{"field": "params.profile.schedule.unit", "unit": p.Schedule.Unit, "units": strings.Join(l.Units, ", ")})
	}
	if l.MaxStack > 0 && p.StackLevel > l.MaxStack {
		return apperr.InvalidField("params.profile.stackLevel", "err.sc_stack").
			With(map[string]any{"field": "params.profile.stackLevel", "max": l.MaxStack})
	}
	if l.MaxProfiles > 0 {
		var n int
		if err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM device_charging_profile WHERE device_id = ? AND profile_id <> ? AND state <> ?`,
			deviceID, p.ID, ProfileRefused).Scan(&n); err != nil {
			return fmt.Errorf("fleet: installed profiles: %w", err)
		}
		if n >= l.MaxProfiles {
			return apperr.InvalidField("params.profile.id", "err.sc_too_many").
				With(map[string]any{"field": "params.profile.id", "max": l.MaxProfiles})
		}
	}
	// the same connector, purpose and stack level would replace the load manager's profile on
	// the charger (OCPP 1.6), taking the site's fallback or a session's share away
	var taken int
	if err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM device_charging_profile WHERE device_id = ? AND connector_id = ? AND purpose = ? AND stack_level = ?
		AND source = ? AND state = ?`, deviceID, connector, string(p.Purpose), p.StackLevel, SourceLoad, ProfileInstalled).Scan(&taken); err != nil {
		return fmt.Errorf("fleet: load manager's profiles: %w", err)
	}
	if taken > 0 {
		return apperr.InvalidField("params.profile.stackLevel", "err.sc_load_slot").
			With(map[string]any{"field": "params.profile.stackLevel", "level": p.StackLevel})
	}
	if p.Purpose == smartcharging.PurposeTx {
		var n int
		if err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM device_transaction WHERE id = ? AND device_id = ? AND connector_id = ? AND stopped_at = ?`,
			p.TransactionID, deviceID, connector, 0).Scan(&n); err != nil {
			return fmt.Errorf("fleet: profile session: %w", err)
		}
		if n == 0 {
			return apperr.InvalidField("params.profile.transactionId", "err.ops_no_session").
				With(map[string]any{"field": "params.profile.transactionId", "id": p.TransactionID})
		}
	}
	return nil
}

// ProfileOrder is a profile the core sends on its own (SetProfile): the load manager's, or one
// sent again after a boot. Where a kept profile came from follows its id (ReservedProfileIDs).
type ProfileOrder struct {
	DeviceID    int64
	ConnectorID int
	Profile     smartcharging.Profile
	By          string // the name the command record shows
}

// SetProfile sends control type 26 to a device without a caller's scope: the site load
// manager's path (internal/loadmgmt). The profile is checked like an operator's, but a unit the
// charger does not take is converted (A per phase <-> W at smartcharging.NominalVolts) rather
// than refused. It returns the command's id and its result so far: ResultWaiting (sent), or
// ResultOffline / ResultFailed when it ended at once; ErrBusy when a command is still waiting
// for the device.
func (s *Service) SetProfile(ctx context.Context, o ProfileOrder) (int64, int, error) {
	t, err := s.systemTarget(ctx, o.DeviceID)
	if err != nil {
		return 0, 0, err
	}
	prof := o.Profile
	if err := prof.Validate("profile", o.ConnectorID); err != nil {
		return 0, 0, err
	}
	l, err := s.chargerLimits(ctx, t.id)
	if err != nil {
		return 0, 0, err
	}
	if !l.Accepts(prof.Schedule.Unit) {
		convertUnit(&prof.Schedule)
	}
	return s.system(ctx, t, CtlSetChargingProfile, Params{ConnectorID: o.ConnectorID, Profile: &prof}, o.By)
}

// ClearProfiles sends control type 27 (ClearChargingProfile) to a device without a caller's
// scope: the load manager clearing its own profiles when a site's load management is turned
// off. The same results as SetProfile.
func (s *Service) ClearProfiles(ctx context.Context, deviceID int64, f smartcharging.ClearFilter, by string) (int64, int, error) {
	t, err := s.systemTarget(ctx, deviceID)
	if err != nil {
		return 0, 0, err
	}
	return s.system(ctx, t, CtlClearChargingProfile, Params{Clear: &f}, by)
}

// systemTarget is an enabled device as the core's own commands address it.
func (s *Service) systemTarget(ctx context.Context, deviceID int64) (target, error) {
	var t target
	var en int
	err := s.db.QueryRow(ctx, `SELECT id, model_id, customer_id, site_id, sn, enabled FROM device WHERE id = ?`, deviceID).
		Scan(&t.id, &t.modelID, &t.customerID, &t.siteID, &t.sn, &en)
	switch {
	case db.NotFound(err):
		return t, apperr.ErrNotFound
	case err != nil:
		return t, fmt.Errorf("fleet: device %d: %w", deviceID, err)
	case en != 1:
		return t, apperr.ErrDeviceDisabled
	}
	t.enabled = true
	return t, nil
}

// system starts a command of the core's own (no caller, no scope; by names it on the record)
// and returns its id and result so far; ErrBusy when a command is still waiting for the device.
func (s *Service) system(ctx context.Context, t target, ct int, params Params, by string) (int64, int, error) {
	raw, _ := json.Marshal(params)
	st, err := s.start(ctx, &access.Principal{UserName: by}, t, ct, params, string(raw), "")
	if err != nil {
		return 0, 0, err
	}
	return st.id, st.result, nil
}

// convertUnit turns a schedule into the other unit (A per phase <-> W), each period on its own
// phases (0: three).
func convertUnit(sc *smartcharging.Schedule) {
	to := smartcharging.UnitW
	conv := smartcharging.Watts
	if sc.Unit == smartcharging.UnitW {
		to, conv = smartcharging.UnitA, smartcharging.Amps
	}
	for i := range sc.Periods {
		sc.Periods[i].Limit = conv(sc.Periods[i].Limit, sc.Periods[i].Phases)
	}
	if sc.MinRate > 0 {
		sc.MinRate = conv(sc.MinRate, 0)
	}
	sc.Unit = to
}

// profileAnswered keeps what a charger's answer to control types 26 and 27 means for the
// profiles chargeops holds for it: an accepted profile is installed (replacing the one with the
// same connector, purpose and stack level, as OCPP 1.6 does), a refused one is kept as refused
// unless the charger still holds an installed one of that id, and a clear (accepted, or Unknown:
// the charger holds none) removes the matching profiles.
func (s *Service) profileAnswered(ctx context.Context, cmd Command, out Outcome) error {
	switch cmd.ControlType {
	case CtlSetChargingProfile:
		if cmd.Params.Profile == nil || (out.Result != ResultSuccess && out.Result != ResultFailed) {
			return nil
		}
		return s.storeProfile(ctx, cmd, out)
	case CtlClearChargingProfile:
		if out.Result == ResultSuccess || out.Message == "err.sc_clear_unknown" {
			return s.clearStored(ctx, cmd.DeviceID, cmd.Params.Clear)
		}
	}
	return nil
}

func (s *Service) storeProfile(ctx context.Context, cmd Command, out Outcome) error {
	p := cmd.Params.Profile
	raw, _ := json.Marshal(p)
	source := SourceOperator
	if p.ID >= ReservedProfileIDs {
		source = SourceLoad
	}
	var by string
	_ = s.db.QueryRow(ctx, `SELECT user_name FROM command WHERE id = ?`, cmd.ID).Scan(&by)
	state, message := ProfileInstalled, ""
	if out.Result != ResultSuccess {
		state, message = ProfileRefused, out.Message
	}
	now := db.NowMS()
	if state == ProfileInstalled {
		s.targets.add(cmd.DeviceID)
	}
	return s.db.InTx(ctx, func(tx *db.Tx) error {
		if state == ProfileInstalled {
			if _, err := tx.Exec(ctx, `DELETE FROM device_charging_profile WHERE device_id = ? AND connector_id = ? AND purpose = ? AND stack_level = ? AND profile_id <> ?`,
				cmd.DeviceID, cmd.Params.ConnectorID, string(p.Purpose), p.StackLevel, p.ID); err != nil {
				return err
			}
		}
		q := `INSERT INTO device_charging_profile (device_id, profile_id, connector_id, purpose, stack_level, transaction_id, profile, source, state, message, command_id, created_by, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (device_id, profile_id) DO UPDATE SET connector_id = excluded.connector_id, purpose = excluded.purpose,
			stack_level = excluded.stack_level, transaction_id = excluded.transaction_id, profile = excluded.profile, source = excluded.source,
			state = excluded.state, message = excluded.message, command_id = excluded.command_id, created_by = excluded.created_by, updated_at = excluded.updated_at`
		if state == ProfileRefused {
			// the charger keeps the profile it had under this id: only a new id is recorded as refused
			q += ` WHERE device_charging_profile.state <> 1`
		}
		_, err := tx.Exec(ctx, q, cmd.DeviceID, p.ID, cmd.Params.ConnectorID, string(p.Purpose), p.StackLevel, p.TransactionID, string(raw),
			source, state, message, cmd.ID, by, now)
		return err
	})
}

// clearStored removes the stored profiles a clear matched (nil: all of them).
func (s *Service) clearStored(ctx context.Context, deviceID int64, f *smartcharging.ClearFilter) error {
	stored, err := s.storedProfiles(ctx, deviceID)
	if err != nil {
		return err
	}
	for _, sp := range stored {
		if f != nil && !f.Matches(sp.ConnectorID, sp.Profile) {
			continue
		}
		if _, err := s.db.Exec(ctx, `DELETE FROM device_charging_profile WHERE device_id = ? AND profile_id = ?`, deviceID, sp.Profile.ID); err != nil {
			return fmt.Errorf("fleet: clear stored profile: %w", err)
		}
	}
	return nil
}

// StoredProfile is a profile chargeops set on a device, as kept.
type StoredProfile struct {
	ConnectorID int                   `json:"connectorId"`
	Profile     smartcharging.Profile `json:"profile"`
	Source      string                `json:"source"`
	State       int                   `json:"state"`
	Message     string                `json:"message"`
	CommandID   int64                 `json:"commandId"`
	CreatedBy   string                `json:"createdBy"`
	UpdatedAt   int64                 `json:"updatedAt"`
}

// maxStoredProfiles bounds a device's list (a charger holds far fewer).
const maxStoredProfiles = 200

// storedProfiles reads a device's stored profiles, Tx profiles of ended sessions left out.
func (s *Service) storedProfiles(ctx context.Context, deviceID int64) ([]StoredProfile, error) {
	return QueryStoredProfiles(ctx, s.db, `p.device_id = ?`, deviceID)
}

// QueryStoredProfiles reads the stored profiles of the devices cond selects (alias p for
// device_charging_profile, d for device), a Tx profile only while its session is open.
func QueryStoredProfiles(ctx context.Context, q db.Querier, cond string, args ...any) ([]StoredProfile, error) {
	rows, err := q.Query(ctx, `SELECT p.connector_id, p.profile, p.source, p.state, p.message, p.command_id, p.created_by, p.updated_at
		FROM device_charging_profile p JOIN device d ON d.id = p.device_id
		WHERE `+cond+` AND (p.transaction_id = 0 OR EXISTS (SELECT 1 FROM device_transaction t WHERE t.id = p.transaction_id AND t.stopped_at = 0))
		ORDER BY p.connector_id, p.purpose, p.stack_level DESC, p.profile_id LIMIT `+strconv.Itoa(maxStoredProfiles), args...)
	if err != nil {
		return nil, fmt.Errorf("fleet: stored profiles: %w", err)
	}
	defer rows.Close()
	out := []StoredProfile{}
	for rows.Next() {
		var sp StoredProfile
		var raw string
		if err := rows.Scan(&sp.ConnectorID, &raw, &sp.Source, &sp.State, &sp.Message, &sp.CommandID, &sp.CreatedBy, &sp.UpdatedAt); err != nil {
			return nil, fmt.Errorf("fleet: stored profiles: %w", err)
		}
		if err := json.Unmarshal([]byte(raw), &sp.Profile); err != nil {
			return nil, fmt.Errorf("fleet: stored profile: %w", err)
		}
		out = append(out, sp)
	}
	return out, rows.Err()
}

// afterConnect and afterBoot follow a charger's new connection and its BootNotification up
// (docs/smart-charging.md, "After a reconnect or a reboot"): a charger that takes part in smart
// charging (chargeops holds profiles for it, or its site's load is managed) is asked for its
// smart-charging limits once, when they are not known, and sent again the profiles it holds.
// A boot right after the connection is one follow-up, not two. Whether a charger takes part is
// read from a set kept in memory (smartTargets), so a connection storm costs no query.
func (s *Service) afterConnect(ctx context.Context, dev *Device, protocol string) {
	s.followUp(ctx, dev, protocol)
}

func (s *Service) afterBoot(ctx context.Context, dev *Device) {
	s.followUp(ctx, dev, "") // the protocol is read when the follow-up runs
}

func (s *Service) followUp(ctx context.Context, dev *Device, protocol string) {
	held, managed := s.targets.of(ctx, s.db, dev)
	if !held && !managed {
		return
	}
	if _, busy := s.following.LoadOrStore(dev.ID, true); busy {
		return // one is on its way: it sends what is held when it runs
	}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		defer s.following.Delete(dev.ID)
		if sleepCtx(s.closing, s.opt.ResendDelay) != nil {
			return
		}
		ctx, cancel := context.WithTimeout(s.closing, 10*s.opt.CommandTimeout)
		defer cancel()
		if protocol == "" {
			_ = s.db.QueryRow(ctx, `SELECT protocol FROM device_state WHERE device_id = ?`, dev.ID).Scan(&protocol)
		}
		if err := s.learnLimits(ctx, dev, protocol); err != nil {
			slog.Warn("smart-charging limits not read", "sn", dev.SN, "err", err)
		}
		s.resendProfiles(ctx, dev)
	}()
}

// smartTargets is which chargers take part in smart charging, read every targetsTTL: the
// sites whose load is managed and the devices chargeops holds installed profiles for (a profile
// installed meanwhile is added at once by storeProfile).
type smartTargets struct {
	mu      sync.Mutex
	at      time.Time
	sites   map[int64]bool
	devices map[int64]bool
}

const targetsTTL = 10 * time.Second

// of says whether dev has installed profiles held for it and whether its site is managed.
func (t *smartTargets) of(ctx context.Context, d *db.DB, dev *Device) (held, managed bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if time.Since(t.at) > targetsTTL {
		sites, err1 := db.Column[int64](ctx, d, `SELECT site_id FROM site_power WHERE enabled = 1`)
		devices, err2 := db.Column[int64](ctx, d, `SELECT DISTINCT device_id FROM device_charging_profile WHERE state = ?`, ProfileInstalled)
		if err := errors.Join(err1, err2); err != nil {
			slog.Warn("smart-charging targets not read", "err", err)
		} else {
			t.sites, t.devices, t.at = setOf(sites), setOf(devices), time.Now()
		}
	}
	return t.devices[dev.ID], t.sites[dev.SiteID]
}

// add notes a device with an installed profile.
func (t *smartTargets) add(deviceID int64) {
	t.mu.Lock()
	if t.devices == nil {
		t.devices = map[int64]bool{}
	}
	t.devices[deviceID] = true
	t.mu.Unlock()
}

func setOf(ids []int64) map[int64]bool {
	m := make(map[int64]bool, len(ids))
	for _, id := range ids {
		m[id] = true
	}
	return m
}

// limitKeys are the configuration keys of a protocol's smart-charging limits.
func limitKeys(protocol string) []string {
	if protocol == devstate.ProtocolOCPP201 {
		return []string{keysUnits[1], keysStack[1], keysProfiles[1]}
	}
	return []string{keysUnits[0], keysStack[0], keysProfiles[0]}
}

// learnLimits reads the charger's smart-charging limits (GetConfiguration of their keys, or
// GetVariables in 2.0.1) when none is stored yet; the answer is stored as its configuration.
func (s *Service) learnLimits(ctx context.Context, dev *Device, protocol string) error {
	keys := limitKeys(protocol)
	var n int
	if err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM device_config WHERE device_id = ? AND key IN (`+db.Placeholders(len(keys))+`)`,
		append([]any{dev.ID}, db.Args(keys)...)...).Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		return nil
	}
	if _, asked := s.limitsAsked.LoadOrStore(dev.ID, true); asked {
		return nil // a charger that does not know the keys is asked once per node's life
	}
	t := target{id: dev.ID, modelID: dev.ModelID, customerID: dev.CustomerID, siteID: dev.SiteID, sn: dev.SN, enabled: dev.Enabled}
	return s.untilDone(ctx, func() (started, error) {
		id, result, err := s.system(ctx, t, CtlGetConfiguration, Params{Keys: keys}, bySmartCharging)
		return started{id: id, result: result}, err
	})
}

// bySmartCharging is the name the command records of the follow-ups show.
const bySmartCharging = "smart-charging"

// resendProfiles sends the charger the profiles it held (installed ones; a Tx profile only
// while its session is open), one after the other, as it may have lost them with its memory.
func (s *Service) resendProfiles(ctx context.Context, dev *Device) {
	stored, err := s.storedProfiles(ctx, dev.ID)
	if err != nil {
		slog.Warn("profiles not re-sent", "sn", dev.SN, "err", err)
		return
	}
	for _, sp := range stored {
		if sp.State != ProfileInstalled {
			continue
		}
		o := ProfileOrder{DeviceID: dev.ID, ConnectorID: sp.ConnectorID, Profile: sp.Profile, By: bySmartCharging}
		err := s.untilDone(ctx, func() (started, error) {
			id, result, err := s.SetProfile(ctx, o)
			return started{id: id, result: result}, err
		})
		if err != nil {
			slog.Warn("profile not re-sent", "sn", dev.SN, "profile", sp.Profile.ID, "err", err)
			return
		}
	}
}

// untilDone starts a command (again every ResendPoll while the device is busy) and waits until
// it ended.
func (s *Service) untilDone(ctx context.Context, start func() (started, error)) error {
	for {
		st, err := start()
		switch {
		case errors.Is(err, ErrBusy):
			if werr := sleepCtx(ctx, s.opt.ResendPoll); werr != nil {
				return werr
			}
			continue
		case err != nil:
			return err
		case st.result != ResultWaiting:
			return fmt.Errorf("ended at once with result %d", st.result)
		}
		return s.awaitCommand(ctx, st.id)
	}
}

// awaitCommand waits until command id has a result.
func (s *Service) awaitCommand(ctx context.Context, id int64) error {
	for {
		var r int
		if err := s.db.QueryRow(ctx, `SELECT result FROM command WHERE id = ?`, id).Scan(&r); err != nil {
			return err
		}
		if r != ResultWaiting {
			return nil
		}
		if err := sleepCtx(ctx, s.opt.ResendPoll); err != nil {
			return err
		}
	}
}
