package fleet

import (
	"testing"

	"chargeops/internal/apperr"
	"chargeops/internal/smartcharging"
)

// The parameters of control types 26-28: each broken one is refused naming its field.
func TestSmartChargingParams(t *testing.T) {
	prof := func(id int) *smartcharging.Profile {
		return &smartcharging.Profile{ID: id, Purpose: smartcharging.PurposeTxDefault, Kind: smartcharging.KindRelative,
			Schedule: smartcharging.Schedule{Unit: smartcharging.UnitA, Periods: []smartcharging.Period{{Limit: 16}}}}
	}
	neg, big := -1, 101
	for _, c := range []struct {
		name  string
		ct    int
		p     Params
		field string
	}{
		{"a relative TxDefault on connector 1", CtlSetChargingProfile, Params{ConnectorID: 1, Profile: prof(1)}, ""},
		{"a profile is required", CtlSetChargingProfile, Params{ConnectorID: 1}, "params.profile"},
		{"the load manager's ids are reserved", CtlSetChargingProfile, Params{Profile: prof(ReservedProfileIDs)}, "params.profile.id"},
		{"a negative connector is refused", CtlSetChargingProfile, Params{ConnectorID: -1, Profile: prof(1)}, "params.connectorId"},
		{"the profile's own fields are checked", CtlSetChargingProfile, Params{Profile: prof(0)}, "params.profile.id"},
		{"clearing everything", CtlClearChargingProfile, Params{}, ""},
		{"clearing by purpose", CtlClearChargingProfile, Params{Clear: &smartcharging.ClearFilter{Purpose: smartcharging.PurposeTx}}, ""},
		{"an unknown purpose to clear", CtlClearChargingProfile, Params{Clear: &smartcharging.ClearFilter{Purpose: "Other"}}, "params.clear.purpose"},
		{"a negative connector to clear", CtlClearChargingProfile, Params{Clear: &smartcharging.ClearFilter{ConnectorID: &neg}}, "params.clear.connectorId"},
		{"a stack level to clear above 100", CtlClearChargingProfile, Params{Clear: &smartcharging.ClearFilter{StackLevel: &big}}, "params.clear.stackLevel"},
		{"an hour's composite schedule in W", CtlGetCompositeSchedule, Params{ConnectorID: 1, Duration: 3600, RateUnit: "W"}, ""},
		{"a composite schedule needs a duration", CtlGetCompositeSchedule, Params{ConnectorID: 1}, "params.duration"},
		{"at most a week", CtlGetCompositeSchedule, Params{Duration: maxCompositeSeconds + 1}, "params.duration"},
		{"an unknown unit", CtlGetCompositeSchedule, Params{Duration: 60, RateUnit: "kW"}, "params.rateUnit"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := c.p
			err := validateParams(c.ct, &p)
			if c.field == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if e, ok := apperr.As(err); !ok || e.Args["field"] != c.field {
				t.Fatalf("error %v, want one naming %s", err, c.field)
			}
		})
	}
}

// A Tx profile and a composite schedule act on one device; other profiles and clears may go
// to many.
func TestSmartChargingOneDevice(t *testing.T) {
	tx := Params{Profile: &smartcharging.Profile{Purpose: smartcharging.PurposeTx}}
	def := Params{Profile: &smartcharging.Profile{Purpose: smartcharging.PurposeTxDefault}}
	if !oneDeviceOnly(CtlSetChargingProfile, tx) || oneDeviceOnly(CtlSetChargingProfile, def) ||
		!oneDeviceOnly(CtlGetCompositeSchedule, Params{}) || oneDeviceOnly(CtlClearChargingProfile, Params{}) {
		t.Fatal("one-device rule of 26-28 wrong")
	}
}

// The charger's units: 1.6 names them Current and Power, 2.0.1 A and W; none named takes both.
func TestRateUnits(t *testing.T) {
	if u := rateUnits("Current, Power"); len(u) != 2 || u[0] != "A" || u[1] != "W" {
		t.Fatalf("1.6 units %v", u)
	}
	if u := rateUnits("W"); len(u) != 1 || u[0] != "W" {
		t.Fatalf("2.0.1 units %v", u)
	}
	if !(ChargerLimits{}).Accepts("W") || (ChargerLimits{Units: []string{"A"}}).Accepts("W") {
		t.Fatal("Accepts wrong")
	}
	sc := smartcharging.Schedule{Unit: "A", MinRate: 6, Periods: []smartcharging.Period{{Limit: 16}, {Start: 60, Limit: 10, Phases: 1}}}
	convertUnit(&sc)
	if sc.Unit != "W" || sc.Periods[0].Limit != 11040 || sc.Periods[1].Limit != 2300 || sc.MinRate != 4140 {
		t.Fatalf("converted %+v", sc)
	}
}
