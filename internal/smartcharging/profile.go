// Package smartcharging is the protocol-neutral model of smart charging (issue 25,
// docs/smart-charging.md): charging profiles as chargeops stores and sends them, their
// validation, and the composite schedule a set of stacked profiles gives a connector. The fleet
// core, both OCPP adapters, the simulator and the site load manager share it; it imports
// nothing of chargeops but apperr.
package smartcharging

import (
	"math"

	"chargeops/internal/apperr"
)

// Purpose is what a profile limits (OCPP 1.6 ChargingProfilePurposeType; 2.0.1 names the first
// ChargingStationMaxProfile).
type Purpose string

// The purposes chargeops sets.
const (
	// PurposeStationMax limits the whole charger (connector 0 only).
	PurposeStationMax Purpose = "ChargePointMax"
	// PurposeTxDefault is the default of every new session on the connector (0: all connectors).
	PurposeTxDefault Purpose = "TxDefault"
	// PurposeTx limits one running session (TransactionID) and ends with it.
	PurposeTx Purpose = "Tx"
)

// Purposes are the purposes in the order the console lists them.
var Purposes = []Purpose{PurposeStationMax, PurposeTxDefault, PurposeTx}

// Kinds of a profile (ChargingProfileKindType).
const (
	KindAbsolute  = "Absolute"  // periods count from Schedule.Start
	KindRecurring = "Recurring" // periods count from Schedule.Start, repeated daily or weekly
	KindRelative  = "Relative"  // periods count from the session's start (or now, without one)
)

// Recurrency of a recurring profile (RecurrencyKindType).
const (
	RecurDaily  = "Daily"
	RecurWeekly = "Weekly"
)

// Units of a schedule (ChargingRateUnitType): amperes per phase or watts.
const (
	UnitA = "A"
	UnitW = "W"
)

// Bounds of a profile.
const (
	MaxStackLevel = 100   // the highest stack level accepted (a charger's ChargeProfileMaxStackLevel may be lower)
	MaxPeriods    = 48    // periods in one schedule
	MaxLimitA     = 1000  // A per phase
	MaxLimitW     = 2e6   // W
	MinPhases     = 1     // numberPhases, when given
	MaxPhases     = 3     //
	NominalVolts  = 230.0 // phase voltage used to turn A into W and back (docs/smart-charging.md)
)

// Profile is a charging profile (OCPP ChargingProfileType) in the core's terms. Times are unix
// milliseconds (0: not set); the adapter turns them into the protocol's dateTime.
type Profile struct {
	ID         int     `json:"id"` // chargingProfileId: the same id replaces the charger's profile
	StackLevel int     `json:"stackLevel"`
	Purpose    Purpose `json:"purpose"`
	Kind       string  `json:"kind"`
	Recurrency string  `json:"recurrency,omitempty"`
	ValidFrom  int64   `json:"validFrom,omitempty"`
	ValidTo    int64   `json:"validTo,omitempty"`
	// TransactionID is the session (device_transaction.id) a Tx profile limits; the adapter
	// sends it in its protocol's words (1.6: the same number; 2.0.1: the station's
	// transactionId).
	TransactionID int64    `json:"transactionId,omitempty"`
	Schedule      Schedule `json:"schedule"`
}

// Schedule is a profile's charging schedule (ChargingScheduleType).
type Schedule struct {
	Start    int64    `json:"start,omitempty"`    // startSchedule (unix ms); required for Absolute and Recurring
	Duration int      `json:"duration,omitempty"` // seconds; 0: the last period lasts until the profile ends
	Unit     string   `json:"unit"`               // A or W
	MinRate  float64  `json:"minRate,omitempty"`  // minChargingRate
	Periods  []Period `json:"periods"`
}

// Period is one step of a schedule: from Start seconds on, Limit in the schedule's unit on
// Phases phases (0: the charger's default, 3).
type Period struct {
	Start  int     `json:"start"`
	Limit  float64 `json:"limit"`
	Phases int     `json:"phases,omitempty"`
}

// Composite is the composite schedule of a connector (GetCompositeSchedule's answer, control
// type 28): from Start (unix ms) for Duration seconds, the limit in Unit at each period.
type Composite struct {
	ConnectorID int      `json:"connectorId"`
	Start       int64    `json:"start"`
	Duration    int      `json:"duration"`
	Unit        string   `json:"unit"`
	Periods     []Period `json:"periods"`
}

// ClearFilter is what a ClearChargingProfile (control type 27) removes: the profile with ID,
// or (ID 0) every profile matching the given connector, purpose and stack level (none given:
// every profile chargeops may clear on the charger).
type ClearFilter struct {
	ID          int     `json:"id,omitempty"`
	ConnectorID *int    `json:"connectorId,omitempty"`
	Purpose     Purpose `json:"purpose,omitempty"`
	StackLevel  *int    `json:"stackLevel,omitempty"`
}

// Matches: the filter removes profile p set on connector.
func (f ClearFilter) Matches(connector int, p Profile) bool {
	if f.ID != 0 {
		return p.ID == f.ID
	}
	if f.ConnectorID != nil && *f.ConnectorID != connector {
		return false
	}
	if f.Purpose != "" && f.Purpose != p.Purpose {
		return false
	}
	return f.StackLevel == nil || *f.StackLevel == p.StackLevel
}

// ValidPurpose: one of Purposes.
func ValidPurpose(p Purpose) bool {
	return p == PurposeStationMax || p == PurposeTxDefault || p == PurposeTx
}

// Validate checks p for connector, one check per field, each error naming its field under
// prefix (e.g. "params.profile"). Times are checked against nothing but each other: a profile
// may be set ahead of its validity.
func (p *Profile) Validate(prefix string, connector int) error {
	bad := func(field string) error { return apperr.InvalidField(prefix+"."+field, "err.invalid") }
	switch {
	case p.ID <= 0:
		return apperr.InvalidField(prefix+".id", "err.required")
	case p.StackLevel < 0 || p.StackLevel > MaxStackLevel:
		return bad("stackLevel")
	case !ValidPurpose(p.Purpose):
		return bad("purpose")
	case p.Purpose == PurposeStationMax && connector != 0:
		return apperr.InvalidField("params.connectorId", "err.sc_station_connector").With(map[string]any{"field": "params.connectorId"})
	case p.Purpose == PurposeTx && connector < 1:
		return apperr.InvalidField("params.connectorId", "err.invalid")
	case p.Purpose == PurposeTx && p.TransactionID <= 0:
		return apperr.InvalidField(prefix+".transactionId", "err.required")
	case p.Purpose != PurposeTx && p.TransactionID != 0:
		return bad("transactionId")
	}
	switch p.Kind {
	case KindAbsolute, KindRelative:
		if p.Recurrency != "" {
			return bad("recurrency")
		}
	case KindRecurring:
		if p.Recurrency != RecurDaily && p.Recurrency != RecurWeekly {
			return bad("recurrency")
		}
	default:
		return bad("kind")
	}
	if p.ValidFrom < 0 || p.ValidTo < 0 || (p.ValidTo != 0 && p.ValidTo <= p.ValidFrom) {
		return bad("validTo")
	}
	return p.Schedule.validate(prefix+".schedule", p.Kind, p.Recurrency)
}

func (s *Schedule) validate(prefix, kind, recurrency string) error {
	bad := func(field string) error { return apperr.InvalidField(prefix+"."+field, "err.invalid") }
	if s.Unit != UnitA && s.Unit != UnitW {
		return bad("unit")
	}
	if kind != KindRelative && s.Start <= 0 {
		return apperr.InvalidField(prefix+".start", "err.required")
	}
	if kind == KindRelative && s.Start != 0 {
		return bad("start")
	}
	if s.Duration < 0 || (kind == KindRecurring && s.Duration > RecurLength(recurrency)) {
		return bad("duration")
	}
	max := float64(MaxLimitA)
	if s.Unit == UnitW {
		max = MaxLimitW
	}
	if s.MinRate < 0 || s.MinRate > max || math.IsNaN(s.MinRate) {
		return bad("minRate")
	}
	if len(s.Periods) == 0 || len(s.Periods) > MaxPeriods {
		return apperr.InvalidField(prefix+".periods", "err.sc_periods").With(map[string]any{"field": prefix + ".periods", "max": MaxPeriods})
	}
	for i, pd := range s.Periods {
		switch {
		case i == 0 && pd.Start != 0:
			return apperr.InvalidField(prefix+".periods", "err.sc_first_period").With(map[string]any{"field": prefix + ".periods"})
		case i > 0 && pd.Start <= s.Periods[i-1].Start:
			return apperr.InvalidField(prefix+".periods", "err.sc_period_order").With(map[string]any{"field": prefix + ".periods"})
		case s.Duration > 0 && pd.Start >= s.Duration:
			return apperr.InvalidField(prefix+".periods", "err.sc_period_order").With(map[string]any{"field": prefix + ".periods"})
		case pd.Limit < 0 || pd.Limit > max || math.IsNaN(pd.Limit):
			return bad("periods.limit")
		case pd.Phases != 0 && (pd.Phases < MinPhases || pd.Phases > MaxPhases):
			return bad("periods.phases")
		}
	}
	return nil
}

// RecurLength is the cycle of a recurring profile in seconds (Daily: a day; Weekly: a week).
func RecurLength(recurrency string) int {
	if recurrency == RecurWeekly {
		return 7 * 24 * 3600
	}
	return 24 * 3600
}

// Watts is a limit in amperes per phase on phases phases (0: 3) as watts at NominalVolts.
func Watts(amps float64, phases int) float64 {
	if phases <= 0 {
		phases = 3
	}
	return amps * NominalVolts * float64(phases)
}

// Amps is a limit in watts on phases phases (0: 3) as amperes per phase at NominalVolts.
func Amps(watts float64, phases int) float64 {
	if phases <= 0 {
		phases = 3
	}
	return watts / (NominalVolts * float64(phases))
}
