package ocpp201

import (
	"testing"

	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/authorization"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/availability"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/data"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/diagnostics"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/firmware"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/meter"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/provisioning"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/reservation"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/security"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/smartcharging"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/transactions"

	"chargeops/internal/gateway/ocppj"
)

// requestTypes are the station-initiated actions Handle decodes, each with a fresh request.
var requestTypes = map[string]func() any{
	provisioning.BootNotificationFeatureName:       func() any { return &provisioning.BootNotificationRequest{} },
	availability.HeartbeatFeatureName:              func() any { return &availability.HeartbeatRequest{} },
	availability.StatusNotificationFeatureName:     func() any { return &availability.StatusNotificationRequest{} },
	transactions.TransactionEventFeatureName:       func() any { return &transactions.TransactionEventRequest{} },
	meter.MeterValuesFeatureName:                   func() any { return &meter.MeterValuesRequest{} },
	authorization.AuthorizeFeatureName:             func() any { return &authorization.AuthorizeRequest{} },
	diagnostics.NotifyEventFeatureName:             func() any { return &diagnostics.NotifyEventRequest{} },
	provisioning.NotifyReportFeatureName:           func() any { return &provisioning.NotifyReportRequest{} },
	security.SecurityEventNotificationFeatureName:  func() any { return &security.SecurityEventNotificationRequest{} },
	security.SignCertificateFeatureName:            func() any { return &security.SignCertificateRequest{} },
	firmware.FirmwareStatusNotificationFeatureName: func() any { return &firmware.FirmwareStatusNotificationRequest{} },
	diagnostics.LogStatusNotificationFeatureName:   func() any { return &diagnostics.LogStatusNotificationRequest{} },
	data.DataTransferFeatureName:                   func() any { return &data.DataTransferRequest{} },
	smartcharging.NotifyChargingLimitFeatureName:   func() any { return &smartcharging.NotifyChargingLimitRequest{} },
	reservation.ReservationStatusUpdateFeatureName: func() any { return &reservation.ReservationStatusUpdateRequest{} },
}

// FuzzPayload feeds an action and any payload to the decoder of that 2.0.1 request
// (ocppj.DecodeCheck: schema codes on refusal, the field check and a round trip on acceptance),
// and checks what the adapter makes of an accepted one: every sampled value of a meter message
// becomes one sample (two with its signed value), an event's key reads back into its component
// and variable.
func FuzzPayload(f *testing.F) {
	for _, seed := range [][2]string{
		{provisioning.BootNotificationFeatureName, `{"reason":"PowerUp","chargingStation":{"model":"AC","vendorName":"V","serialNumber":"S",` +
			`"firmwareVersion":"1","modem":{"iccid":"1","imsi":"2"}}}`},
		{availability.HeartbeatFeatureName, `{}`},
		{availability.StatusNotificationFeatureName, `{"timestamp":"2026-01-02T03:04:05Z","connectorStatus":"Occupied","evseId":1,"connectorId":2}`},
		{transactions.TransactionEventFeatureName, `{"eventType":"Updated","timestamp":"2026-01-02T03:04:05Z","triggerReason":"MeterValuePeriodic","seqNo":3,` +
			`"offline":true,"transactionInfo":{"transactionId":"T-1","chargingState":"Charging","stoppedReason":"Local"},"evse":{"id":1,"connectorId":1},` +
			`"idToken":{"idToken":"RFID","type":"ISO14443"},"meterValue":[{"timestamp":"2026-01-02T03:04:05Z","sampledValue":[{"value":12.5,` +
			`"measurand":"Energy.Active.Import.Register","context":"Sample.Periodic","unitOfMeasure":{"unit":"kWh","multiplier":3}},` +
			`{"value":1,"signedMeterValue":{"signedMeterData":"abc","signingMethod":"m","encodingMethod":"e","publicKey":"p"}}]}]}`},
		{meter.MeterValuesFeatureName, `{"evseId":1,"meterValue":[{"timestamp":"2026-01-02T03:04:05Z","sampledValue":[{"value":230.1,"measurand":"Voltage","phase":"L1-N"}]}]}`},
		{authorization.AuthorizeFeatureName, `{"idToken":{"idToken":"RFID","type":"ISO14443"}}`},
		{diagnostics.NotifyEventFeatureName, `{"generatedAt":"2026-01-02T03:04:05Z","seqNo":0,"eventData":[{"eventId":1,"timestamp":"2026-01-02T03:04:05Z",` +
			`"trigger":"Delta","actualValue":"true","eventNotificationType":"HardWiredNotification","component":{"name":"Connector","instance":"A",` +
			`"evse":{"id":1,"connectorId":2}},"variable":{"name":"Problem","instance":"x"}}]}`},
		{provisioning.NotifyReportFeatureName, `{"requestId":1,"generatedAt":"2026-01-02T03:04:05Z","seqNo":0,"tbc":true,"reportData":[{"component":{"name":"OCPPCommCtrlr"},` +
			`"variable":{"name":"HeartbeatInterval"},"variableAttribute":[{"type":"Actual","value":"60","mutability":"ReadWrite"}],` +
			`"variableCharacteristics":{"dataType":"integer","supportsMonitoring":false}}]}`},
		{security.SecurityEventNotificationFeatureName, `{"type":"TamperDetectionActivated","timestamp":"2026-01-02T03:04:05Z","techInfo":"lid"}`},
		{security.SignCertificateFeatureName, `{"csr":"-----BEGIN CERTIFICATE REQUEST-----\nMIIB\n-----END CERTIFICATE REQUEST-----\n","certificateType":"ChargingStationCertificate"}`},
		{firmware.FirmwareStatusNotificationFeatureName, `{"status":"Installed","requestId":4}`},
		{diagnostics.LogStatusNotificationFeatureName, `{"status":"Uploaded","requestId":7}`},
		{data.DataTransferFeatureName, `{"vendorId":"v","messageId":"m","data":{"a":1}}`},
		{smartcharging.NotifyChargingLimitFeatureName, `{"evseId":1,"chargingLimit":{"chargingLimitSource":"EMS","isGridCritical":true}}`},
		{reservation.ReservationStatusUpdateFeatureName, `{"reservationId":3,"reservationUpdateStatus":"Expired"}`},
	} {
		f.Add(seed[0], []byte(seed[1]))
	}
	f.Add(transactions.TransactionEventFeatureName, []byte(`{"eventType":"Started","timestamp":"2026-01-02T03:04:05Z","triggerReason":"Authorized","transactionInfo":{"transactionId":"T"}}`))
	f.Add(availability.StatusNotificationFeatureName, []byte(`{"timestamp":"x","connectorStatus":"Occupied","evseId":1,"connectorId":2}`))
	f.Add(meter.MeterValuesFeatureName, []byte(`{"evseId":1,"meterValue":[{"timestamp":"2026-01-02T03:04:05Z","sampledValue":[{"value":"1"}]}]}`))

	f.Fuzz(func(t *testing.T, action string, payload []byte) {
		newReq, ok := requestTypes[action]
		if !ok {
			return
		}
		req, broken := ocppj.DecodeCheck(payload, newReq)
		if broken != nil {
			t.Fatalf("%s: %v", action, broken)
		}
		switch r := req.(type) {
		case *transactions.TransactionEventRequest:
			want := 0
			for _, mv := range r.MeterValue {
				for _, sv := range mv.SampledValue {
					want++
					if sv.SignedMeterValue != nil {
						want++
					}
				}
			}
			if got := len(samples(r.MeterValue)); got != want {
				t.Fatalf("%d samples of %d sampled values", got, want)
			}
		case *diagnostics.NotifyEventRequest:
			for _, ev := range r.EventData {
				key := VariableKey(ev.Component, ev.Variable)
				c, v, ok := ParseVariableKey(key)
				if ok && VariableKey(c, v) != key {
					t.Fatalf("key %q reads back as %q", key, VariableKey(c, v))
				}
			}
		}
	})
}
