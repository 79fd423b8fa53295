package ocpp16

import (
	"errors"
	"testing"

	"github.com/lorenzodonini/ocpp-go/ocpp1.6/core"
	"github.com/lorenzodonini/ocpp-go/ocpp1.6/firmware"
	"github.com/lorenzodonini/ocpp-go/ocpp1.6/securefirmware"
	"github.com/lorenzodonini/ocpp-go/ocpp1.6/security"

	"chargeops/internal/gateway/ocppj"
)

// requestTypes are the charger-initiated actions dispatch decodes, each with a fresh request.
var requestTypes = map[string]func() any{
	core.BootNotificationFeatureName:                  func() any { return &core.BootNotificationRequest{} },
	core.HeartbeatFeatureName:                         func() any { return &core.HeartbeatRequest{} },
	core.StatusNotificationFeatureName:                func() any { return &core.StatusNotificationRequest{} },
	core.MeterValuesFeatureName:                       func() any { return &core.MeterValuesRequest{} },
	core.AuthorizeFeatureName:                         func() any { return &core.AuthorizeRequest{} },
	core.StartTransactionFeatureName:                  func() any { return &core.StartTransactionRequest{} },
	core.StopTransactionFeatureName:                   func() any { return &core.StopTransactionRequest{} },
	core.DataTransferFeatureName:                      func() any { return &core.DataTransferRequest{} },
	firmware.FirmwareStatusNotificationFeatureName:    func() any { return &firmware.FirmwareStatusNotificationRequest{} },
	firmware.DiagnosticsStatusNotificationFeatureName: func() any { return &firmware.DiagnosticsStatusNotificationRequest{} },
	// the security extension's
	security.SignCertificateFeatureName:           func() any { return &security.SignCertificateRequest{} },
	security.SecurityEventNotificationFeatureName: func() any { return &security.SecurityEventNotificationRequest{} },
	actionSignedFirmwareStatus:                    func() any { return &securefirmware.SignedFirmwareStatusNotificationRequest{} },
	actionLogStatus:                               func() any { return &LogStatusRequest{} },
}

// FuzzPayload feeds an action and any payload to the decoder of that action's request (the
// OCPP 1.6 JSON schemas' rules, docs/ocpp16.md "CALLERROR codes"). What must hold:
//   - a refusal is a CallError with one of the codes the schemas' rules give;
//   - an accepted payload, written back by ocpp-go, is accepted again and reads the same
//     (round trip), and the exact field check of the slow path accepts it too (the fast path
//     never accepts what the field check refuses);
//   - a MeterValues' bound (meterCount) counts exactly the sampled values that are stored.
//
// An action dispatch does not decode is answered NotImplemented before any decoding: such
// inputs check nothing.
func FuzzPayload(f *testing.F) {
	for _, seed := range [][2]string{
		{core.BootNotificationFeatureName, `{"chargePointVendor":"ACME","chargePointModel":"AC-22","chargePointSerialNumber":"S1",` +
			`"firmwareVersion":"1.0","iccid":"","imsi":"","meterType":"M","meterSerialNumber":"MS"}`},
		{core.HeartbeatFeatureName, `{}`},
		{core.StatusNotificationFeatureName, `{"connectorId":1,"errorCode":"NoError","status":"Charging",` +
			`"timestamp":"2026-01-02T03:04:05.678Z","info":"x","vendorErrorCode":"E1"}`},
		{core.MeterValuesFeatureName, `{"connectorId":1,"transactionId":7,"meterValue":[{"timestamp":"2026-01-02T03:04:05Z",` +
			`"sampledValue":[{"value":"12.5","measurand":"Energy.Active.Import.Register","unit":"kWh","context":"Sample.Periodic",` +
			`"phase":"L1","location":"Outlet","format":"Raw"},{"value":"3"}]}]}`},
		{core.AuthorizeFeatureName, `{"idTag":"TAG-1"}`},
		{core.StartTransactionFeatureName, `{"connectorId":1,"idTag":"TAG-1","meterStart":0,"timestamp":"2026-01-02T03:04:05+08:00","reservationId":3}`},
		{core.StopTransactionFeatureName, `{"transactionId":7,"idTag":"TAG-1","meterStop":1200,"timestamp":"2026-01-02T05:00:00Z","reason":"EVDisconnected",` +
			`"transactionData":[{"timestamp":"2026-01-02T04:00:00Z","sampledValue":[{"value":"600"}]}]}`},
		{core.DataTransferFeatureName, `{"vendorId":"chargeops","messageId":"m","data":"{\"a\":1}"}`},
		{firmware.FirmwareStatusNotificationFeatureName, `{"status":"Installed"}`},
		{firmware.DiagnosticsStatusNotificationFeatureName, `{"status":"Uploaded"}`},
		{security.SignCertificateFeatureName, `{"csr":"-----BEGIN CERTIFICATE REQUEST-----\nMIIB\n-----END CERTIFICATE REQUEST-----\n"}`},
		{security.SecurityEventNotificationFeatureName, `{"type":"TamperDetectionActivated","timestamp":"2026-01-02T03:04:05Z","techInfo":"lid opened"}`},
		{actionSignedFirmwareStatus, `{"status":"InvalidSignature","requestId":12}`},
		{actionLogStatus, `{"status":"Uploaded","requestId":7}`},
		{actionLogStatus, `{"status":"Idle"}`},
	} {
		f.Add(seed[0], []byte(seed[1]))
	}
	// Near misses the decoder names precisely.
	f.Add(core.StatusNotificationFeatureName, []byte(`{"connectorId":1.5,"errorCode":"NoError","status":"Charging"}`))
	f.Add(core.StatusNotificationFeatureName, []byte(`{"errorCode":"NoError","status":"Charging"}`))
	f.Add(core.MeterValuesFeatureName, []byte(`{"connectorId":1,"meterValue":[{"timestamp":"not a date","sampledValue":[{"value":"1"}]}]}`))
	f.Add(core.MeterValuesFeatureName, []byte(`{"connectorId":1,"meterValue":[]}`))
	f.Add(core.StartTransactionFeatureName, []byte(`{"connectorId":1,"idTag":"","meterStart":null,"timestamp":"2026-01-02T03:04:05Z"}`))
	f.Add(core.AuthorizeFeatureName, []byte(`[]`))
	f.Add(core.BootNotificationFeatureName, []byte(`{"chargePointVendor":"V","chargePointModel":"M","iccid":null}`))

	f.Fuzz(func(t *testing.T, action string, payload []byte) {
		newReq, ok := requestTypes[action]
		if !ok {
			return
		}
		req, broken := ocppj.DecodeCheck(payload, newReq)
		if broken != nil {
			t.Fatalf("%s: %v", action, broken)
		}
		if req == nil {
			return
		}
		if mv, ok := req.(*core.MeterValuesRequest); ok {
			if n, stored := meterCount(payload), len(samples(mv.MeterValue)); n != stored {
				t.Fatalf("meterCount %d, stored samples %d for %s", n, stored, payload)
			}
		}
		if st, ok := req.(*core.StopTransactionRequest); ok {
			want := 0
			for _, mv := range st.TransactionData {
				want += len(mv.SampledValue)
			}
			if got := len(samples(st.TransactionData)); got != want {
				t.Fatalf("%d transaction samples stored of %d", got, want)
			}
		}
	})
}

// Keys match exactly, as the schemas name them (decode_keys.go): found by FuzzPayload.
func TestDecodeMatchesKeysExactly(t *testing.T) {
	t.Parallel()
	t.Run("a key that names a field but for case is an unknown property", func(t *testing.T) {
		var req core.AuthorizeRequest
		var ce *CallError
		if err := decode([]byte(`{"IDTAG":"x"}`), &req); !errors.As(err, &ce) || ce.Code != codeOccurence {
			t.Fatalf("decode: %v, want OccurenceConstraintViolation on idTag", err)
		}
	})
	t.Run("the exactly named key is read, not a later one in another case", func(t *testing.T) {
		var req core.AuthorizeRequest
		if err := decode([]byte(`{"idTag":"x","IdTag":"y"}`), &req); err != nil || req.IdTag != "x" {
			t.Fatalf("decode: %v, idTag %q, want x", err, req.IdTag)
		}
	})
	t.Run("nested keys too", func(t *testing.T) {
		var req core.MeterValuesRequest
		err := decode([]byte(`{"connectorId":1,"meterValue":[{"timestamp":"2026-01-01T00:00:00Z","SampledValue":[{"value":"1"}]}]}`), &req)
		var ce *CallError
		if !errors.As(err, &ce) || ce.Code != codeOccurence {
			t.Fatalf("decode: %v, want OccurenceConstraintViolation on sampledValue", err)
		}
	})
	t.Run("a free value keeps its keys as sent", func(t *testing.T) {
		var req core.DataTransferRequest
		err := decode([]byte(`{"vendorId":"v","VENDORID":"z","data":{"VendorId":"kept"}}`), &req)
		data, _ := req.Data.(map[string]any)
		if err != nil || req.VendorId != "v" || data["VendorId"] != "kept" {
			t.Fatalf("decode: %v, vendorId %q, data %v", err, req.VendorId, req.Data)
		}
	})
	t.Run("a key written with escapes is its unescaped name", func(t *testing.T) {
		var req core.AuthorizeRequest
		if err := decode([]byte(`{"\u0069dTag":"x","note":1.5e3}`), &req); err != nil || req.IdTag != "x" {
			t.Fatalf("decode: %v, idTag %q, want x", err, req.IdTag)
		}
	})
}
