package ocpp201

import (
	"context"
	"encoding/json"
	"time"

	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/smartcharging"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/types"

	"chargeops/internal/fleet"
	"chargeops/internal/gateway/ocppj"
	sc "chargeops/internal/smartcharging"
)

// Smart charging (control types 26-28; docs/smart-charging.md) in 2.0.1 words: the core's
// connector of a 2.0.1 station is its EVSE (0: the station), ChargePointMax is
// ChargingStationMaxProfile, and a Tx profile names the session by the station's own
// transactionId. The core checked the parameters; what is 0 in its model is omitted.

// setChargingProfile runs control type 26: Accepted succeeds; Rejected fails with
// err.sc_rejected and the station's reasonCode after it, when it gives one.
func (d *Dialect) setChargingProfile(ctx context.Context, s ocppj.Session, dev *fleet.Device, p fleet.Params) (fleet.Outcome, error) {
	if p.Profile == nil { // checked by the core; a command restored without it
		return fleet.Outcome{Result: fleet.ResultFailed, Message: "err.invalid"}, nil
	}
	prof := chargingProfile(p.Profile)
	if p.Profile.Purpose == sc.PurposeTx {
		// the station knows the session by its own name (charger_tx_id), as for a remote stop
		name, err := d.core.ChargerTransactionID(ctx, dev.ID, p.Profile.TransactionID)
		if err != nil {
			return fleet.Outcome{}, err
		}
		if name == "" {
			return fleet.Outcome{Result: fleet.ResultFailed, Message: "err.session_not_found"}, nil
		}
		prof.TransactionID = name
	}
	req := smartcharging.NewSetChargingProfileRequest(p.ConnectorID, prof)
	raw, err := s.Call(ctx, smartcharging.SetChargingProfileFeatureName, req)
	if err != nil {
		return fleet.Outcome{}, err
	}
	out, reason := scOutcome(raw, string(smartcharging.ChargingProfileStatusAccepted), string(smartcharging.ChargingProfileStatusRejected), "err.sc_rejected")
	if out.Message == "err.sc_rejected" && reason != "" {
		out.Message += ": " + reason // e.g. "err.sc_rejected: TxNotFound"
	}
	return out, nil
}

// clearChargingProfile runs control type 27: the profile with the filter's id, else those
// matching its EVSE, purpose and stack level (no filter: every profile). Unknown (none
// matched) fails.
func (d *Dialect) clearChargingProfile(ctx context.Context, s ocppj.Session, p fleet.Params) (fleet.Outcome, error) {
	req := smartcharging.NewClearChargingProfileRequest()
	switch f := p.Clear; {
	case f == nil:
	case f.ID != 0:
		req.ChargingProfileID = &f.ID
	case f.ConnectorID != nil || f.Purpose != "" || f.StackLevel != nil:
		crit := &smartcharging.ClearChargingProfileType{EvseID: f.ConnectorID, StackLevel: f.StackLevel}
		if f.Purpose != "" {
			crit.ChargingProfilePurpose = profilePurpose(f.Purpose)
		}
		req.ChargingProfileCriteria = crit
	}
	raw, err := s.Call(ctx, smartcharging.ClearChargingProfileFeatureName, req)
	if err != nil {
		return fleet.Outcome{}, err
	}
	// the key alone: the core reads err.sc_clear_unknown as "the station holds none of them"
	out, _ := scOutcome(raw, string(smartcharging.ClearChargingProfileStatusAccepted), string(smartcharging.ClearChargingProfileStatusUnknown), "err.sc_clear_unknown")
	return out, nil
}

// getCompositeSchedule runs control type 28 (2.0.1 requires a unit: A unless one was asked):
// an accepted answer is kept on the command as a smartcharging.Composite.
func (d *Dialect) getCompositeSchedule(ctx context.Context, s ocppj.Session, p fleet.Params) (fleet.Outcome, error) {
	unit := p.RateUnit
	if unit == "" {
		unit = sc.UnitA
	}
	req := smartcharging.NewGetCompositeScheduleRequest(p.Duration, p.ConnectorID)
	req.ChargingRateUnit = types.ChargingRateUnitType(unit)
	raw, err := s.Call(ctx, smartcharging.GetCompositeScheduleFeatureName, req)
	if err != nil {
		return fleet.Outcome{}, err
	}
	out, _ := scOutcome(raw, string(smartcharging.GetCompositeScheduleStatusAccepted), string(smartcharging.GetCompositeScheduleStatusRejected), "err.sc_rejected")
	if out.Result != fleet.ResultSuccess {
		return out, nil
	}
	var ans compositeAnswer
	if err := json.Unmarshal(raw, &ans); err != nil {
		return fleet.Outcome{Result: fleet.ResultFailed, Message: "bad answer: " + err.Error(), Answer: raw}, nil
	}
	b, err := json.Marshal(ans.composite(p.ConnectorID, p.Duration, unit, time.Now()))
	if err != nil {
		return fleet.Outcome{}, err
	}
	return fleet.Outcome{Result: fleet.ResultSuccess, Answer: b}, nil
}

// scOutcome is a smart-charging answer's outcome: success on ok, failed with key on refused,
// "device answered <status>" on any other status; and the statusInfo's reasonCode (empty without one).
func scOutcome(raw json.RawMessage, ok, refused, key string) (fleet.Outcome, string) {
	var a struct {
		Status     string            `json:"status"`
		StatusInfo *types.StatusInfo `json:"statusInfo"`
	}
	_ = json.Unmarshal(raw, &a)
	reason := ""
	if a.StatusInfo != nil {
		reason = a.StatusInfo.ReasonCode
	}
	switch a.Status {
	case ok:
		return fleet.Outcome{Result: fleet.ResultSuccess, Answer: raw}, reason
	case refused:
		return fleet.Outcome{Result: fleet.ResultFailed, Message: key, Answer: raw}, reason
	}
	return fleet.Outcome{Result: fleet.ResultFailed, Message: "device answered " + a.Status, Answer: raw}, reason
}

// profilePurpose is a core purpose in 2.0.1 words.
func profilePurpose(p sc.Purpose) types.ChargingProfilePurposeType {
	switch p {
	case sc.PurposeStationMax:
		return types.ChargingProfilePurposeChargingStationMaxProfile
	case sc.PurposeTxDefault:
		return types.ChargingProfilePurposeTxDefaultProfile
	}
	return types.ChargingProfilePurposeTxProfile
}

// optDateTime is a unix ms time of the core as a dateTime (0: nil, omitted).
func optDateTime(ms int64) *types.DateTime {
	if ms == 0 {
		return nil
	}
	return types.NewDateTime(time.UnixMilli(ms).UTC())
}

// chargingProfile is a core profile as a 2.0.1 chargingProfile with one schedule, whose id is
// the profile's (2.0.1 requires one; a profile of chargeops has one schedule). A Tx profile's
// transactionId is the caller's to fill.
func chargingProfile(pr *sc.Profile) *types.ChargingProfile {
	s := pr.Schedule
	sched := types.NewChargingSchedule(pr.ID, types.ChargingRateUnitType(s.Unit))
	sched.StartSchedule = optDateTime(s.Start)
	if s.Duration > 0 {
		sched.Duration = &s.Duration
	}
	if s.MinRate > 0 {
		sched.MinChargingRate = &s.MinRate
	}
	sched.ChargingSchedulePeriod = periods(s.Periods)
	prof := types.NewChargingProfile(pr.ID, pr.StackLevel, profilePurpose(pr.Purpose), types.ChargingProfileKindType(pr.Kind), []types.ChargingSchedule{*sched})
	prof.RecurrencyKind = types.RecurrencyKindType(pr.Recurrency)
	prof.ValidFrom, prof.ValidTo = optDateTime(pr.ValidFrom), optDateTime(pr.ValidTo)
	return prof
}

// periods are a core schedule's periods in 2.0.1 words (0 phases: omitted).
func periods(ps []sc.Period) []types.ChargingSchedulePeriod {
	out := make([]types.ChargingSchedulePeriod, 0, len(ps))
	for _, pd := range ps {
		period := types.NewChargingSchedulePeriod(pd.Start, pd.Limit)
		if pd.Phases > 0 {
			period.NumberPhases = &pd.Phases
		}
		out = append(out, period)
	}
	return out
}

// compositeAnswer is a GetCompositeScheduleResponse read both ways a station may write its
// schedule: the specification's CompositeScheduleType (evseId, duration, scheduleStart,
// chargingRateUnit, chargingSchedulePeriod) and ocpp-go v0.19's (startDateTime and a
// chargingSchedule), which its stations send.
type compositeAnswer struct {
	EvseID   int `json:"evseId"`
	Schedule *struct {
		EvseID                 *int                           `json:"evseId"`
		Duration               *int                           `json:"duration"`
		ScheduleStart          *types.DateTime                `json:"scheduleStart"`
		ChargingRateUnit       string                         `json:"chargingRateUnit"`
		ChargingSchedulePeriod []types.ChargingSchedulePeriod `json:"chargingSchedulePeriod"`
		StartDateTime          *types.DateTime                `json:"startDateTime"`
		ChargingSchedule       *types.ChargingSchedule        `json:"chargingSchedule"`
	} `json:"schedule"`
}

// composite is the answer in the core's terms; what the station left out is what was asked
// (EVSE, duration, unit), a schedule without a start starts at the answer (now).
func (a *compositeAnswer) composite(evse, duration int, unit string, now time.Time) sc.Composite {
	out := sc.Composite{ConnectorID: evse, Start: now.UnixMilli(), Duration: duration, Unit: unit, Periods: []sc.Period{}}
	if a.EvseID > 0 {
		out.ConnectorID = a.EvseID
	}
	s := a.Schedule
	if s == nil {
		return out
	}
	if s.EvseID != nil {
		out.ConnectorID = *s.EvseID
	}
	start, dur, rate, pds := s.ScheduleStart, s.Duration, s.ChargingRateUnit, s.ChargingSchedulePeriod
	if cs := s.ChargingSchedule; cs != nil { // ocpp-go's shape
		start, dur, rate, pds = s.StartDateTime, cs.Duration, string(cs.ChargingRateUnit), cs.ChargingSchedulePeriod
		if start == nil {
			start = cs.StartSchedule
		}
	}
	if t := ms(start); t > 0 {
		out.Start = t
	}
	if dur != nil {
		out.Duration = *dur
	}
	if rate != "" {
		out.Unit = rate
	}
	for _, pd := range pds {
		period := sc.Period{Start: pd.StartPeriod, Limit: pd.Limit}
		if pd.NumberPhases != nil {
			period.Phases = *pd.NumberPhases
		}
		out.Periods = append(out.Periods, period)
	}
	return out
}
