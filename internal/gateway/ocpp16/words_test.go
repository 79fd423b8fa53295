package ocpp16_test

import (
	"testing"

	"github.com/lorenzodonini/ocpp-go/ocpp1.6/core"

	"chargeops/internal/fleet"
	"chargeops/internal/gateway/ocpp16"
)

// A StatusNotification becomes the core's report: the words stored as sent, the problem and
// the out-of-service flag in the core's terms.
func TestStatusReport(t *testing.T) {
	dev := &fleet.Device{ID: 1, SN: "SN-WORDS"}
	cases := []struct {
		name        string
		req         core.StatusNotificationRequest
		want        fleet.Problem
		unavailable bool
	}{
		{"an available connector without error has no problem",
			core.StatusNotificationRequest{ConnectorId: 1, Status: core.ChargePointStatusAvailable, ErrorCode: core.NoError}, fleet.Problem{}, false},
		{"a hardware failure is a major alarm",
			core.StatusNotificationRequest{ConnectorId: 1, Status: core.ChargePointStatusAvailable, ErrorCode: core.GroundFailure},
			fleet.Problem{Kind: fleet.KindAlarm, Level: fleet.LevelMA, Code: "GroundFailure", Name: "GroundFailure"}, false},
		{"another error code is an ordinary alarm",
			core.StatusNotificationRequest{ConnectorId: 1, Status: core.ChargePointStatusCharging, ErrorCode: core.EVCommunicationError},
			fleet.Problem{Kind: fleet.KindAlarm, Level: fleet.LevelOA, Code: "EVCommunicationError", Name: "EVCommunicationError"}, false},
		{"OtherError is named by the vendor's code",
			core.StatusNotificationRequest{ConnectorId: 2, Status: core.ChargePointStatusAvailable, ErrorCode: core.OtherError, VendorErrorCode: "E42"},
			fleet.Problem{Kind: fleet.KindAlarm, Level: fleet.LevelOA, Code: "OtherError", Name: "E42"}, false},
		{"a Faulted connector is a critical fault, named Faulted without an error code",
			core.StatusNotificationRequest{ConnectorId: 1, Status: core.ChargePointStatusFaulted, ErrorCode: core.NoError},
			fleet.Problem{Kind: fleet.KindFault, Level: fleet.LevelCA, Code: "Faulted", Name: "Faulted"}, false},
		{"a Faulted connector with an error code is a fault of that code",
			core.StatusNotificationRequest{ConnectorId: 1, Status: core.ChargePointStatusFaulted, ErrorCode: core.HighTemperature},
			fleet.Problem{Kind: fleet.KindFault, Level: fleet.LevelCA, Code: "HighTemperature", Name: "HighTemperature"}, false},
		{"an Unavailable connector is out of service",
			core.StatusNotificationRequest{ConnectorId: 1, Status: core.ChargePointStatusUnavailable, ErrorCode: core.NoError}, fleet.Problem{}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := ocpp16.StatusReport(dev, &c.req)
			if r.Problem != c.want || r.Unavailable != c.unavailable {
				t.Fatalf("problem %+v unavailable %v, want %+v %v", r.Problem, r.Unavailable, c.want, c.unavailable)
			}
			if r.Device != dev || r.Connector != c.req.ConnectorId || r.Status != string(c.req.Status) || r.ErrorCode != string(c.req.ErrorCode) ||
				r.VendorCode != c.req.VendorErrorCode || r.At == 0 {
				t.Fatalf("stored words changed: %+v", r)
			}
		})
	}
}
