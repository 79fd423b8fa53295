package smartcharging

import (
	"testing"

	"chargeops/internal/apperr"
)

func validProfile() Profile {
	return Profile{ID: 1, StackLevel: 2, Purpose: PurposeTxDefault, Kind: KindAbsolute,
		Schedule: Schedule{Start: 1_700_000_000_000, Unit: UnitA, Periods: []Period{{Start: 0, Limit: 16}, {Start: 3600, Limit: 10, Phases: 1}}}}
}

// Each broken field is refused with an error naming that field, and only that one.
func TestProfileValidate(t *testing.T) {
	for _, c := range []struct {
		name      string
		connector int
		edit      func(p *Profile)
		field     string // "" valid
	}{
		{"a two-period absolute TxDefault in A is valid", 1, func(*Profile) {}, ""},
		{"a relative profile needs no start", 0, func(p *Profile) { p.Kind, p.Schedule.Start = KindRelative, 0 }, ""},
		{"a daily recurring profile is valid", 0, func(p *Profile) { p.Kind, p.Recurrency = KindRecurring, RecurDaily }, ""},
		{"an id is required", 1, func(p *Profile) { p.ID = 0 }, "params.profile.id"},
		{"a stack level above 100 is refused", 1, func(p *Profile) { p.StackLevel = 101 }, "params.profile.stackLevel"},
		{"an unknown purpose is refused", 1, func(p *Profile) { p.Purpose = "Other" }, "params.profile.purpose"},
		{"a charger maximum only on connector 0", 1, func(p *Profile) { p.Purpose = PurposeStationMax }, "params.connectorId"},
		{"a Tx profile needs its session", 1, func(p *Profile) { p.Purpose = PurposeTx }, "params.profile.transactionId"},
		{"a Tx profile names a connector", 0, func(p *Profile) { p.Purpose, p.TransactionID = PurposeTx, 5 }, "params.connectorId"},
		{"only a Tx profile names a session", 1, func(p *Profile) { p.TransactionID = 5 }, "params.profile.transactionId"},
		{"a recurring profile needs its recurrency", 1, func(p *Profile) { p.Kind = KindRecurring }, "params.profile.recurrency"},
		{"an absolute profile takes no recurrency", 1, func(p *Profile) { p.Recurrency = RecurDaily }, "params.profile.recurrency"},
		{"an unknown kind is refused", 1, func(p *Profile) { p.Kind = "Sometimes" }, "params.profile.kind"},
		{"validTo after validFrom", 1, func(p *Profile) { p.ValidFrom, p.ValidTo = 10, 5 }, "params.profile.validTo"},
		{"an unknown unit is refused", 1, func(p *Profile) { p.Schedule.Unit = "kW" }, "params.profile.schedule.unit"},
		{"an absolute profile needs its start", 1, func(p *Profile) { p.Schedule.Start = 0 }, "params.profile.schedule.start"},
		{"a relative profile takes no start", 1, func(p *Profile) { p.Kind = KindRelative }, "params.profile.schedule.start"},
		{"a daily profile lasts at most a day", 1, func(p *Profile) { p.Kind, p.Recurrency, p.Schedule.Duration = KindRecurring, RecurDaily, 86401 }, "params.profile.schedule.duration"},
		{"periods are required", 1, func(p *Profile) { p.Schedule.Periods = nil }, "params.profile.schedule.periods"},
		{"the first period starts at 0", 1, func(p *Profile) { p.Schedule.Periods[0].Start = 5 }, "params.profile.schedule.periods"},
		{"periods start in order", 1, func(p *Profile) { p.Schedule.Periods[1].Start = 0 }, "params.profile.schedule.periods"},
		{"periods start within the duration", 1, func(p *Profile) { p.Schedule.Duration = 3600 }, "params.profile.schedule.periods"},
		{"a negative limit is refused", 1, func(p *Profile) { p.Schedule.Periods[0].Limit = -1 }, "params.profile.schedule.periods.limit"},
		{"amperes are bounded", 1, func(p *Profile) { p.Schedule.Periods[0].Limit = 1001 }, "params.profile.schedule.periods.limit"},
		{"watts are bounded apart", 1, func(p *Profile) { p.Schedule.Unit, p.Schedule.Periods[0].Limit = UnitW, 22000 }, ""},
		{"phases are 1 to 3", 1, func(p *Profile) { p.Schedule.Periods[0].Phases = 4 }, "params.profile.schedule.periods.phases"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := validProfile()
			c.edit(&p)
			err := p.Validate("params.profile", c.connector)
			if c.field == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			e, ok := apperr.As(err)
			if !ok || e.Args["field"] != c.field {
				t.Fatalf("error %v, want one naming %s", err, c.field)
			}
		})
	}
}

// A and W turn into each other at 230 V per phase.
func TestUnitConversion(t *testing.T) {
	if w := Watts(16, 3); w != 11040 {
		t.Fatalf("16 A on 3 phases = %v W, want 11040", w)
	}
	if w := Watts(16, 0); w != 11040 {
		t.Fatalf("no phases given counts as 3: %v", w)
	}
	if a := Amps(7360, 1); a != 32 {
		t.Fatalf("7360 W on one phase = %v A, want 32", a)
	}
}
