package ocpp16

import (
	"encoding/json"
	"testing"

	"github.com/lorenzodonini/ocpp-go/ocpp1.6/securefirmware"
)

// The charger's reports of signed firmware and logs are read with the whitepaper's schemas: a
// LogStatusNotification's requestId is optional (a triggered Idle has none), its status one of
// the schema's; a SignedFirmwareStatusNotification's status one of its fourteen.
func TestSignedReportsDecode(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, payload string
		dst           func() any
		code          string // "" accepted
	}{
		{"a log status without requestId", `{"status":"Idle"}`, func() any { return &LogStatusRequest{} }, ""},
		{"a log status with requestId", `{"status":"Uploaded","requestId":12}`, func() any { return &LogStatusRequest{} }, ""},
		{"a log status without status", `{"requestId":12}`, func() any { return &LogStatusRequest{} }, codeOccurence},
		{"an unknown log status", `{"status":"Lost"}`, func() any { return &LogStatusRequest{} }, codeProperty},
		{"a requestId that is not a number", `{"status":"Uploading","requestId":"12"}`, func() any { return &LogStatusRequest{} }, codeType},
		{"a signed firmware status with requestId", `{"status":"InvalidSignature","requestId":3}`,
			func() any { return &securefirmware.SignedFirmwareStatusNotificationRequest{} }, ""},
		{"a signed firmware status without requestId", `{"status":"Idle"}`,
			func() any { return &securefirmware.SignedFirmwareStatusNotificationRequest{} }, ""},
		{"a 2.0.1-only firmware status", `{"status":"InvalidCertificate"}`,
			func() any { return &securefirmware.SignedFirmwareStatusNotificationRequest{} }, codeProperty},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := decode(json.RawMessage(c.payload), c.dst())
			if c.code == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			ce, ok := err.(*CallError)
			if !ok || ce.Code != c.code {
				t.Fatalf("error %v, want %s", err, c.code)
			}
		})
	}
}
