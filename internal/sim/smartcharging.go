package sim

import (
	"context"
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	sc16 "github.com/lorenzodonini/ocpp-go/ocpp1.6/smartcharging"
	types16 "github.com/lorenzodonini/ocpp-go/ocpp1.6/types"
	sc201 "github.com/lorenzodonini/ocpp-go/ocpp2.0.1/smartcharging"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/types"

	"chargeops/internal/smartcharging"
)

// The simulated charger's smart charging (OCPP 1.6 Smart Charging profile; 2.0.1 functional
// block K): it keeps the charging profiles it is sent in memory only, so a reboot loses them
// and chargeops has to send them again after a boot, as with a charger that does not persist
// them. It takes SetChargingProfile under its limits (rate units, stack level, number of
// profiles, periods), clears them on ClearChargingProfile, answers GetCompositeSchedule with
// smartcharging.Compose, and meters what the limit allows: a session draws at most the
// composite limit at the time of each reading (0: the car pauses, the session stays open).

// The charger's limits, as its configuration reports them.
const (
	simMaxStackLevel = 10
	simMaxProfiles   = 20
	simMaxPeriods    = 24
	simPhases        = 3 // AC chargers charge on 3 phases at 230 V; a DC charger's A limit counts the same
	defaultUnits     = "Current,Power"
)

// smartState is what a charger holds of smart charging (charger.sc; c.mu guards it).
type smartState struct {
	profiles []smartcharging.Installed
	drawn    map[int]float64 // the power of the last reading (W), by connector
}

// smartChargingConfig adds the configuration keys of smart charging (1.6 names; a 2.0.1
// charger reports them as SmartChargingCtrlr variables, answers201.go).
func (c *charger) smartChargingConfig() {
	units := c.o.ProfileUnits
	if units == "" {
		units = defaultUnits
	}
	c.config["ChargingScheduleAllowedChargingRateUnit"] = units
	c.config["ChargeProfileMaxStackLevel"] = strconv.Itoa(simMaxStackLevel)
	c.config["MaxChargingProfilesInstalled"] = strconv.Itoa(simMaxProfiles)
	c.config["ChargingScheduleMaxPeriods"] = strconv.Itoa(simMaxPeriods)
	if c.v201 != nil {
		c.config["SmartChargingEnabled"] = "true"
		c.config["SmartChargingRateUnit"] = strings.NewReplacer("Current", smartcharging.UnitA, "Power", smartcharging.UnitW).Replace(units)
	}
}

// configIntLocked is an integer setting (c.mu held), def when it is not one.
func (c *charger) configIntLocked(key string, def int) int {
	if v, err := strconv.Atoi(c.config[key]); err == nil {
		return v
	}
	return def
}

// allowsUnitLocked reports whether unit (A or W) is one of ChargingScheduleAllowedChargingRateUnit.
func (c *charger) allowsUnitLocked(unit string) bool {
	name := map[string]string{smartcharging.UnitA: "Current", smartcharging.UnitW: "Power"}[unit]
	for _, u := range strings.Split(c.config["ChargingScheduleAllowedChargingRateUnit"], ",") {
		if strings.TrimSpace(u) == name && name != "" {
			return true
		}
	}
	return false
}

// defaultUnitLocked is the unit of a GetCompositeSchedule that names none: A when allowed.
func (c *charger) defaultUnitLocked() string {
	if c.allowsUnitLocked(smartcharging.UnitA) {
		return smartcharging.UnitA
	}
	return smartcharging.UnitW
}

// sessionLocked is conn's running transaction as a Tx profile names it (connState.txID: the
// 1.6 transactionId, or the number a 2.0.1 charger gives its transaction).
func (c *charger) sessionLocked(conn int) smartcharging.Session {
	cs := c.conns[conn]
	if cs == nil || !cs.busy || cs.txID == 0 {
		return smartcharging.Session{}
	}
	return smartcharging.Session{ID: int64(cs.txID), Start: cs.started}
}

// startedLocked marks cs's transaction started now (c.mu held).
func (c *charger) startedLocked(conn int, cs *connState) {
	cs.started = time.Now().UnixMilli()
	delete(c.sc.drawn, conn)
}

// pruneLocked drops the Tx profiles of sessions that ended: they end with their transaction.
func (c *charger) pruneLocked() {
	c.sc.profiles = slices.DeleteFunc(c.sc.profiles, func(in smartcharging.Installed) bool {
		return in.Profile.Purpose == smartcharging.PurposeTx && c.sessionLocked(in.Connector).ID != in.Profile.TransactionID
	})
}

// forgetProfiles empties the charger's profiles, as its reboot does.
func (c *charger) forgetProfiles() {
	c.mu.Lock()
	c.sc = smartState{}
	c.mu.Unlock()
}

// install sets p on conn: Accepted, replacing a profile with its id or (1.6 rule, applied to
// 2.0.1 too) with its stack level and purpose on the connector; Rejected beyond the charger's
// limits, for a Tx profile of no running transaction on conn, or by a charger that refuses.
func (c *charger) install(conn int, p smartcharging.Profile) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.acceptsLocked(conn, p) {
		return "Rejected"
	}
	c.pruneLocked()
	kept := slices.DeleteFunc(slices.Clone(c.sc.profiles), func(in smartcharging.Installed) bool {
		return in.Profile.ID == p.ID || (in.Connector == conn && in.Profile.StackLevel == p.StackLevel && in.Profile.Purpose == p.Purpose)
	})
	if len(kept) >= c.configIntLocked("MaxChargingProfilesInstalled", simMaxProfiles) {
		return "Rejected"
	}
	c.sc.profiles = append(kept, smartcharging.Installed{Connector: conn, Profile: p})
	return "Accepted"
}

// acceptsLocked reports whether the charger takes p on conn (c.mu held).
func (c *charger) acceptsLocked(conn int, p smartcharging.Profile) bool {
	switch {
	case c.o.RefuseProfiles[c.sn], conn < 0, conn > c.o.Connectors:
		return false
	case !c.allowsUnitLocked(p.Schedule.Unit):
		return false
	case p.StackLevel > c.configIntLocked("ChargeProfileMaxStackLevel", simMaxStackLevel):
		return false
	case len(p.Schedule.Periods) > c.configIntLocked("ChargingScheduleMaxPeriods", simMaxPeriods):
		return false
	case p.Purpose == smartcharging.PurposeTx && (p.TransactionID == 0 || c.sessionLocked(conn).ID != p.TransactionID):
		return false
	}
	return p.Validate("profile", conn) == nil
}

// clearProfiles removes the profiles f matches: Accepted, or Unknown when none does.
func (c *charger) clearProfiles(f smartcharging.ClearFilter) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := len(c.sc.profiles)
	c.sc.profiles = slices.DeleteFunc(c.sc.profiles, func(in smartcharging.Installed) bool { return f.Matches(in.Connector, in.Profile) })
	if len(c.sc.profiles) == n {
		return "Unknown"
	}
	return "Accepted"
}

// installed are the charger's profiles now.
func (c *charger) installed() []smartcharging.Installed {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.pruneLocked()
	return slices.Clone(c.sc.profiles)
}

// limitWLocked is the limit (W) the profiles put on conn at now; false: none (c.mu held).
func (c *charger) limitWLocked(conn int, now time.Time) (float64, bool) {
	if len(c.sc.profiles) == 0 {
		return 0, false
	}
	return smartcharging.LimitAt(c.sc.profiles, conn, c.sessionLocked(conn), now.UnixMilli(), smartcharging.UnitW, simPhases)
}

// throttle caps a reading of conn at the limit in effect now (the car draws no more than the
// profiles allow; at 0 it pauses) and keeps the power drawn for Fleet.PowerW.
func (c *charger) throttle(conn int, voltage, current, power float64) (float64, float64, float64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if limit, ok := c.limitWLocked(conn, time.Now()); ok && power > limit {
		power, current = limit, limit/voltage
	}
	if c.sc.drawn == nil {
		c.sc.drawn = map[int]float64{}
	}
	c.sc.drawn[conn] = power
	return voltage, current, power
}

// composite is conn's composite schedule from now for duration seconds in unit (A or W), its
// limits rounded to 0.1 and a span no profile limits at the charger's rated power; false when
// no profile limits the connector (real chargers answer Rejected then) or it has none such.
func (c *charger) composite(conn, duration int, unit string) (smartcharging.Composite, bool) {
	if conn < 0 || conn > c.o.Connectors {
		return smartcharging.Composite{}, false
	}
	c.mu.Lock()
	c.pruneLocked()
	if unit == "" {
		unit = c.defaultUnitLocked()
	}
	comp := smartcharging.Compose(c.sc.profiles, conn, c.sessionLocked(conn), time.Now().UnixMilli(), duration, unit, simPhases)
	c.mu.Unlock()
	if len(comp.Periods) == 0 {
		return comp, false
	}
	rated := c.p.MaxPowerW
	if comp.Unit == smartcharging.UnitA {
		rated = smartcharging.Amps(rated, simPhases)
	}
	var periods []smartcharging.Period
	for _, pd := range comp.Periods {
		if pd.Limit == smartcharging.Unlimited {
			pd.Limit = rated
		}
		pd.Limit = math.Round(pd.Limit*10) / 10
		if n := len(periods); n > 0 && periods[n-1].Limit == pd.Limit {
			continue
		}
		periods = append(periods, pd)
	}
	comp.Periods = periods
	return comp, true
}

// Fleet is a handle on a running simulated fleet (Options.Fleet): tests and the demo read a
// charger's charging profiles and the power it draws through it. Its zero value is ready.
type Fleet struct {
	mu       sync.Mutex
	chargers map[string]*charger
}

// add registers c; a nil Fleet registers nothing.
func (f *Fleet) add(c *charger) {
	if f == nil {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.chargers == nil {
		f.chargers = map[string]*charger{}
	}
	f.chargers[c.sn] = c
}

func (f *Fleet) charger(sn string) *charger {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.chargers[sn]
}

// Profiles are the charging profiles charger sn holds now (the Tx profiles of ended sessions
// left out; a 2.0.1 Tx profile's TransactionID is the number the charger gives its
// transaction); nil for an unknown SN.
func (f *Fleet) Profiles(sn string) []smartcharging.Installed {
	if c := f.charger(sn); c != nil {
		return c.installed()
	}
	return nil
}

// PowerW is the power (W) connector of charger sn draws now: its last meter reading while a
// session runs there (0 while the profiles pause it), else 0.
func (f *Fleet) PowerW(sn string, connector int) float64 {
	c := f.charger(sn)
	if c == nil {
		return 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.sessionLocked(connector).ID == 0 {
		return 0
	}
	p := c.sc.drawn[connector]
	if c.cut { // off the network it meters nothing, but the car still follows the limit in force
		if l, ok := c.limitWLocked(connector, time.Now()); ok && p > l {
			p = l
		}
	}
	return p
}

// Offline drops charger sn's connection as a cut cable would and keeps it off the network for
// good: it does not reconnect, and its sessions go on as they were — their transactions open,
// their charging profiles in force as time passes (LimitW, PowerW, Profiles) — while nothing
// reaches chargeops (tests of what a charger does on its own). False for an unknown SN.
func (f *Fleet) Offline(sn string) bool {
	c := f.charger(sn)
	if c == nil {
		return false
	}
	c.mu.Lock()
	c.cut = true
	ws := c.ws
	c.mu.Unlock()
	if ws != nil {
		_ = ws.Close()
	}
	return true
}

// LimitW is the limit (W, on 3 phases at 230 V) the profiles of charger sn put on connector
// now; false when none limits it.
func (f *Fleet) LimitW(sn string, connector int) (float64, bool) {
	c := f.charger(sn)
	if c == nil {
		return 0, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.limitWLocked(connector, time.Now())
}

// schedulePeriod is a chargingSchedulePeriod of a composite schedule (1.6 and 2.0.1 alike).
type schedulePeriod struct {
	StartPeriod  int     `json:"startPeriod"`
	Limit        float64 `json:"limit"`
	NumberPhases *int    `json:"numberPhases,omitempty"`
}

func schedulePeriods(comp smartcharging.Composite) []schedulePeriod {
	out := make([]schedulePeriod, len(comp.Periods))
	for i, pd := range comp.Periods {
		out[i] = schedulePeriod{StartPeriod: pd.Start, Limit: pd.Limit}
		if pd.Phases > 0 {
			out[i].NumberPhases = &pd.Phases
		}
	}
	return out
}

func orZero[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

// --- OCPP 1.6 ---

// purposes16 are the 1.6 purposes in the core's terms.
var purposes16 = map[types16.ChargingProfilePurposeType]smartcharging.Purpose{
	types16.ChargingProfilePurposeChargePointMaxProfile: smartcharging.PurposeStationMax,
	types16.ChargingProfilePurposeTxDefaultProfile:      smartcharging.PurposeTxDefault,
	types16.ChargingProfilePurposeTxProfile:             smartcharging.PurposeTx,
}

// smartCharging16 answers the 1.6 Smart Charging calls: the response or a CALLERROR code;
// false for another action.
func (c *charger) smartCharging16(action string, raw json.RawMessage) (any, string, bool) {
	var res any
	var code string
	switch action {
	case "SetChargingProfile":
		var req sc16.SetChargingProfileRequest
		if code = decode16(raw, &req); code == "" {
			res = map[string]string{"status": c.install(req.ConnectorId, c.profile16(req.ConnectorId, req.ChargingProfile))}
		}
	case "ClearChargingProfile":
		var req sc16.ClearChargingProfileRequest
		if code = decode16(raw, &req); code == "" {
			f := smartcharging.ClearFilter{ID: orZero(req.Id), ConnectorID: req.ConnectorId, Purpose: purposes16[req.ChargingProfilePurpose], StackLevel: req.StackLevel}
			res = map[string]string{"status": c.clearProfiles(f)}
		}
	case "GetCompositeSchedule":
		var req sc16.GetCompositeScheduleRequest
		if code = decode16(raw, &req); code == "" {
			res = c.compositeAnswer16(req.ConnectorId, req.Duration, string(req.ChargingRateUnit))
		}
	default:
		return nil, "", false
	}
	return res, code, true
}

// decode16 decodes a 1.6 request and checks it: the CALLERROR code of a bad one, else "".
func decode16(raw json.RawMessage, req any) string {
	if json.Unmarshal(raw, req) != nil {
		return "FormationViolation" // sic: OCPP 1.6's name
	}
	if types16.Validate.Struct(req) != nil {
		return "PropertyConstraintViolation"
	}
	return ""
}

// profile16 is a 1.6 csChargingProfiles in the core's terms; a TxProfile without
// transactionId limits the transaction running on conn.
func (c *charger) profile16(conn int, p *types16.ChargingProfile) smartcharging.Profile {
	out := smartcharging.Profile{ID: p.ChargingProfileId, StackLevel: p.StackLevel, Purpose: purposes16[p.ChargingProfilePurpose],
		Kind: string(p.ChargingProfileKind), Recurrency: string(p.RecurrencyKind), TransactionID: int64(p.TransactionId)}
	if p.ValidFrom != nil {
		out.ValidFrom = p.ValidFrom.UnixMilli()
	}
	if p.ValidTo != nil {
		out.ValidTo = p.ValidTo.UnixMilli()
	}
	if s := p.ChargingSchedule; s != nil {
		out.Schedule = smartcharging.Schedule{Duration: orZero(s.Duration), Unit: string(s.ChargingRateUnit), MinRate: orZero(s.MinChargingRate)}
		if s.StartSchedule != nil && out.Kind != smartcharging.KindRelative {
			out.Schedule.Start = s.StartSchedule.UnixMilli()
		}
		for _, pd := range s.ChargingSchedulePeriod {
			out.Schedule.Periods = append(out.Schedule.Periods, smartcharging.Period{Start: pd.StartPeriod, Limit: pd.Limit, Phases: orZero(pd.NumberPhases)})
		}
	}
	if out.Purpose == smartcharging.PurposeTx && out.TransactionID == 0 {
		c.mu.Lock()
		out.TransactionID = c.sessionLocked(conn).ID
		c.mu.Unlock()
	}
	return out
}

// compositeAnswer16 is the answer to a 1.6 GetCompositeSchedule.
func (c *charger) compositeAnswer16(conn, duration int, unit string) any {
	comp, ok := c.composite(conn, duration, unit)
	if !ok {
		return map[string]string{"status": "Rejected"}
	}
	start := ts(time.UnixMilli(comp.Start))
	return map[string]any{"status": "Accepted", "connectorId": conn, "scheduleStart": start, "chargingSchedule": map[string]any{
		"duration": comp.Duration, "startSchedule": start, "chargingRateUnit": comp.Unit, "chargingSchedulePeriod": schedulePeriods(comp)}}
}

// --- OCPP 2.0.1 ---

// purposes201 are the 2.0.1 purposes a CSMS may set, in the core's terms.
var purposes201 = map[types.ChargingProfilePurposeType]smartcharging.Purpose{
	types.ChargingProfilePurposeChargingStationMaxProfile: smartcharging.PurposeStationMax,
	types.ChargingProfilePurposeTxDefaultProfile:          smartcharging.PurposeTxDefault,
	types.ChargingProfilePurposeTxProfile:                 smartcharging.PurposeTx,
}

// setChargingProfile installs a profile on an EVSE (0: the station); a TxProfile names the
// station's transactionId of the EVSE's running transaction.
func (v *ocpp201) setChargingProfile(_ context.Context, req *sc201.SetChargingProfileRequest) any {
	status := sc201.ChargingProfileStatusRejected
	if p, ok := v.profile(req.EvseID, req.ChargingProfile); ok {
		status = sc201.ChargingProfileStatus(v.c.install(req.EvseID, p))
	}
	return &sc201.SetChargingProfileResponse{Status: status}
}

// profile is a 2.0.1 chargingProfile in the core's terms: its first schedule (the others are
// ISO 15118 alternatives); false for a purpose or transaction the station does not know.
func (v *ocpp201) profile(evse int, p *types.ChargingProfile) (smartcharging.Profile, bool) {
	purpose, ok := purposes201[p.ChargingProfilePurpose]
	if !ok || len(p.ChargingSchedule) == 0 {
		return smartcharging.Profile{}, false
	}
	out := smartcharging.Profile{ID: p.ID, StackLevel: p.StackLevel, Purpose: purpose, Kind: string(p.ChargingProfileKind), Recurrency: string(p.RecurrencyKind)}
	if p.ValidFrom != nil {
		out.ValidFrom = p.ValidFrom.UnixMilli()
	}
	if p.ValidTo != nil {
		out.ValidTo = p.ValidTo.UnixMilli()
	}
	if p.TransactionID != "" {
		v.c.mu.Lock()
		if tx := v.tx[evse]; tx != nil && tx.id == p.TransactionID {
			out.TransactionID = int64(tx.num)
		}
		v.c.mu.Unlock()
		if out.TransactionID == 0 {
			return smartcharging.Profile{}, false
		}
	}
	s := p.ChargingSchedule[0]
	out.Schedule = smartcharging.Schedule{Duration: orZero(s.Duration), Unit: string(s.ChargingRateUnit), MinRate: orZero(s.MinChargingRate)}
	if s.StartSchedule != nil && out.Kind != smartcharging.KindRelative {
		out.Schedule.Start = s.StartSchedule.UnixMilli()
	}
	for _, pd := range s.ChargingSchedulePeriod {
		out.Schedule.Periods = append(out.Schedule.Periods, smartcharging.Period{Start: pd.StartPeriod, Limit: pd.Limit, Phases: orZero(pd.NumberPhases)})
	}
	return out, true
}

// clearChargingProfile removes the profile with chargingProfileId, or those the criteria match.
func (v *ocpp201) clearChargingProfile(_ context.Context, req *sc201.ClearChargingProfileRequest) any {
	f := smartcharging.ClearFilter{ID: orZero(req.ChargingProfileID)}
	if cr := req.ChargingProfileCriteria; cr != nil {
		f.ConnectorID, f.StackLevel = cr.EvseID, cr.StackLevel
		if cr.ChargingProfilePurpose != "" {
			f.Purpose = purposes201[cr.ChargingProfilePurpose]
			if f.Purpose == "" { // ChargingStationExternalConstraints: never set by the CSMS
				return &sc201.ClearChargingProfileResponse{Status: sc201.ClearChargingProfileStatusUnknown}
			}
		}
	}
	return &sc201.ClearChargingProfileResponse{Status: sc201.ClearChargingProfileStatus(v.c.clearProfiles(f))}
}

// compositeSchedule201 and getCompositeScheduleResponse201 are the 2.0.1 schema's
// GetCompositeScheduleResponse: ocpp-go (v0.19) has a draft's shape for it.
type compositeSchedule201 struct {
	EvseID                 int              `json:"evseId"`
	Duration               int              `json:"duration"`
	ScheduleStart          string           `json:"scheduleStart"`
	ChargingRateUnit       string           `json:"chargingRateUnit"`
	ChargingSchedulePeriod []schedulePeriod `json:"chargingSchedulePeriod"`
}

type getCompositeScheduleResponse201 struct {
	Status   string                `json:"status"`
	Schedule *compositeSchedule201 `json:"schedule,omitempty"`
}

func (v *ocpp201) getCompositeSchedule(_ context.Context, req *sc201.GetCompositeScheduleRequest) any {
	comp, ok := v.c.composite(req.EvseID, req.Duration, string(req.ChargingRateUnit))
	if !ok {
		return &getCompositeScheduleResponse201{Status: string(sc201.GetCompositeScheduleStatusRejected)}
	}
	return &getCompositeScheduleResponse201{Status: string(sc201.GetCompositeScheduleStatusAccepted), Schedule: &compositeSchedule201{
		EvseID: req.EvseID, Duration: comp.Duration, ScheduleStart: ts(time.UnixMilli(comp.Start)), ChargingRateUnit: comp.Unit,
		ChargingSchedulePeriod: schedulePeriods(comp)}}
}
