package ocpp16

import (
	"context"
	"encoding/json"
	"time"

	"github.com/lorenzodonini/ocpp-go/ocpp1.6/smartcharging"
	"github.com/lorenzodonini/ocpp-go/ocpp1.6/types"

	"chargeops/internal/fleet"
	sc "chargeops/internal/smartcharging"
)

// Smart charging (control types 26-28; docs/smart-charging.md): the core's protocol-neutral
// profiles (internal/smartcharging) in the Smart Charging profile's words. The core checked
// the parameters; what is 0 in the core's model is omitted on the wire, as OCPP has it optional.

// setChargingProfile runs control type 26: Accepted succeeds; Rejected and NotSupported fail
// with their own message.
func (c *conn) setChargingProfile(ctx context.Context, p fleet.Params) (fleet.Outcome, error) {
	if p.Profile == nil { // checked by the core; a command restored without it
		return fleet.Outcome{Result: fleet.ResultFailed, Message: "err.invalid"}, nil
	}
	req := smartcharging.NewSetChargingProfileRequest(p.ConnectorID, chargingProfile(p.Profile))
	out, st, err := c.statusCall(ctx, smartcharging.SetChargingProfileFeatureName, req, string(smartcharging.ChargingProfileStatusAccepted))
	switch smartcharging.ChargingProfileStatus(st) {
	case smartcharging.ChargingProfileStatusRejected:
		out.Message = "err.sc_rejected"
	case smartcharging.ChargingProfileStatusNotSupported:
		out.Message = "err.sc_not_supported"
	}
	return out, err
}

// clearChargingProfile runs control type 27: the profile with the filter's id, or those
// matching its connector, purpose and stack level (no filter: every profile). Unknown (none
// matched) fails.
func (c *conn) clearChargingProfile(ctx context.Context, p fleet.Params) (fleet.Outcome, error) {
	req := smartcharging.NewClearChargingProfileRequest()
	if f := p.Clear; f != nil {
		if f.ID != 0 {
			req.Id = &f.ID
		}
		req.ConnectorId, req.StackLevel = f.ConnectorID, f.StackLevel
		if f.Purpose != "" {
			req.ChargingProfilePurpose = profilePurpose(f.Purpose)
		}
	}
	out, st, err := c.statusCall(ctx, smartcharging.ClearChargingProfileFeatureName, req, string(smartcharging.ClearChargingProfileStatusAccepted))
	if smartcharging.ClearChargingProfileStatus(st) == smartcharging.ClearChargingProfileStatusUnknown {
		out.Message = "err.sc_clear_unknown"
	}
	return out, err
}

// getCompositeSchedule runs control type 28: an accepted answer is kept on the command as a
// smartcharging.Composite (what the console draws), not in the charger's words.
func (c *conn) getCompositeSchedule(ctx context.Context, p fleet.Params) (fleet.Outcome, error) {
	req := smartcharging.NewGetCompositeScheduleRequest(p.ConnectorID, p.Duration)
	req.ChargingRateUnit = types.ChargingRateUnitType(p.RateUnit) // '': omitted, the charger's choice
	raw, err := c.call(ctx, smartcharging.GetCompositeScheduleFeatureName, req)
	if err != nil {
		return fleet.Outcome{}, err
	}
	var conf smartcharging.GetCompositeScheduleConfirmation
	if jerr := json.Unmarshal(raw, &conf); jerr != nil {
		return fleet.Outcome{Result: fleet.ResultFailed, Message: "bad answer: " + jerr.Error(), Answer: raw}, nil
	}
	switch conf.Status {
	case smartcharging.GetCompositeScheduleStatusAccepted:
	case smartcharging.GetCompositeScheduleStatusRejected:
		return fleet.Outcome{Result: fleet.ResultFailed, Message: "err.sc_rejected", Answer: raw}, nil
	default:
		return fleet.Outcome{Result: fleet.ResultFailed, Message: "device answered " + string(conf.Status), Answer: raw}, nil
	}
	b, err := json.Marshal(compositeSchedule(p, &conf, time.Now()))
	if err != nil {
		return fleet.Outcome{}, err
	}
	return fleet.Outcome{Result: fleet.ResultSuccess, Answer: b}, nil
}

// profilePurpose is a core purpose in 1.6 words (the core knows no other).
func profilePurpose(p sc.Purpose) types.ChargingProfilePurposeType {
	switch p {
	case sc.PurposeStationMax:
		return types.ChargingProfilePurposeChargePointMaxProfile
	case sc.PurposeTxDefault:
		return types.ChargingProfilePurposeTxDefaultProfile
	}
	return types.ChargingProfilePurposeTxProfile
}

// optDateTime is a unix ms time of the core as a 1.6 dateTime (0: nil, omitted).
func optDateTime(ms int64) *types.DateTime {
	if ms == 0 {
		return nil
	}
	return types.NewDateTime(time.UnixMilli(ms).UTC())
}

// chargingProfile is a core profile as 1.6 csChargingProfiles. A Tx profile's transactionId is
// the session's id: the one chargeops answered the charger's StartTransaction with.
func chargingProfile(pr *sc.Profile) *types.ChargingProfile {
	s := pr.Schedule
	sched := types.NewChargingSchedule(types.ChargingRateUnitType(s.Unit))
	sched.StartSchedule = optDateTime(s.Start)
	if s.Duration > 0 {
		sched.Duration = &s.Duration
	}
	if s.MinRate > 0 {
		sched.MinChargingRate = &s.MinRate
	}
	for _, pd := range s.Periods {
		period := types.NewChargingSchedulePeriod(pd.Start, pd.Limit)
		if pd.Phases > 0 {
			period.NumberPhases = &pd.Phases
		}
		sched.ChargingSchedulePeriod = append(sched.ChargingSchedulePeriod, period)
	}
	prof := types.NewChargingProfile(pr.ID, pr.StackLevel, profilePurpose(pr.Purpose), types.ChargingProfileKindType(pr.Kind), sched)
	prof.RecurrencyKind = types.RecurrencyKindType(pr.Recurrency)
	prof.ValidFrom, prof.ValidTo = optDateTime(pr.ValidFrom), optDateTime(pr.ValidTo)
	if pr.Purpose == sc.PurposeTx {
		prof.TransactionId = int(pr.TransactionID)
	}
	return prof
}

// compositeSchedule is an accepted GetCompositeSchedule answer in the core's terms. What the
// charger left out is what was asked (connector, duration, unit); without a scheduleStart the
// schedule starts at its own startSchedule, or at the answer (now).
func compositeSchedule(p fleet.Params, conf *smartcharging.GetCompositeScheduleConfirmation, now time.Time) sc.Composite {
	out := sc.Composite{ConnectorID: p.ConnectorID, Start: now.UnixMilli(), Duration: p.Duration, Unit: p.RateUnit, Periods: []sc.Period{}}
	if conf.ConnectorId != nil {
		out.ConnectorID = *conf.ConnectorId
	}
	s := conf.ChargingSchedule
	switch {
	case conf.ScheduleStart != nil && !conf.ScheduleStart.IsZero():
		out.Start = conf.ScheduleStart.UnixMilli()
	case s != nil && s.StartSchedule != nil && !s.StartSchedule.IsZero():
		out.Start = s.StartSchedule.UnixMilli()
	}
	if s == nil {
		return out
	}
	if s.Duration != nil {
		out.Duration = *s.Duration
	}
	if s.ChargingRateUnit != "" {
		out.Unit = string(s.ChargingRateUnit)
	}
	for _, pd := range s.ChargingSchedulePeriod {
		period := sc.Period{Start: pd.StartPeriod, Limit: pd.Limit}
		if pd.NumberPhases != nil {
			period.Phases = *pd.NumberPhases
		}
		out.Periods = append(out.Periods, period)
	}
	return out
}
