package fleet

import (
	"testing"

	"chargeops/internal/apperr"
)

// params.message of a TriggerMessage: the API's values pass as sent, none means MeterValues,
// anything else is an error naming the field.
func TestTriggerMessageParams(t *testing.T) {
	for _, c := range []struct {
		name    string
		message Trigger
		want    Trigger // "" with invalid
		invalid bool
	}{
		{"no message asks for MeterValues", "", TriggerMeterValues, false},
		{"BootNotification is kept", "BootNotification", TriggerBootNotification, false},
		{"DiagnosticsStatusNotification is kept", "DiagnosticsStatusNotification", TriggerDiagnosticsStatusNotification, false},
		{"FirmwareStatusNotification is kept", "FirmwareStatusNotification", TriggerFirmwareStatusNotification, false},
		{"Heartbeat is kept", "Heartbeat", TriggerHeartbeat, false},
		{"MeterValues is kept", "MeterValues", TriggerMeterValues, false},
		{"StatusNotification is kept", "StatusNotification", TriggerStatusNotification, false},
		{"an unknown message is refused", "Authorize", "", true},
		{"the names are case-sensitive", "heartbeat", "", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := Params{Message: c.message}
			err := validateParams(CtlTriggerMessage, &p)
			if c.invalid {
				e, ok := apperr.As(err)
				if !ok || e.Code != apperr.Invalid || e.Args["field"] != "params.message" {
					t.Fatalf("error %v, want invalid params.message", err)
				}
				return
			}
			if err != nil || p.Message != c.want {
				t.Fatalf("message %q, error %v; want %q", p.Message, err, c.want)
			}
		})
	}
}
