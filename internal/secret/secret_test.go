package secret

import (
	"strings"
	"testing"
)

func TestMaskJSON(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
	}{
		{"top-level password", `{"userName":"a","password":"x","id":3}`, `{"userName":"***","password":"***","id":3}`},
		{"nested secret field", `{"app":{"appSecret":"s","name":"n"},"list":[{"token":"t"}]}`, `{"app":{"appSecret":"***","name":"n"},"list":[{"token":"***"}]}`},
		{"change configuration params", `{"deviceIds":[1],"controlType":11,"params":{"items":[{"key":"AuthorizationKey","value":"0011AABB"},{"key":"HeartbeatInterval","value":"60"}]}}`,
			`{"deviceIds":[1],"controlType":11,"params":{"items":[{"key":"AuthorizationKey","value":"***"},{"key":"HeartbeatInterval","value":"60"}]}}`},
		{"OCPP call frame", `[2,"42","ChangeConfiguration",{"key":"authorizationkey","value":"secret-key"}]`, `[2,"42","ChangeConfiguration",{"key":"authorizationkey","value":"***"}]`},
		{"GetConfiguration answer", `[3,"7",{"configurationKey":[{"key":"AuthorizationKey","readonly":false,"value":"k"},{"key":"MeterValueSampleInterval","readonly":false,"value":"60"}]}]`,
			`[3,"7",{"configurationKey":[{"key":"AuthorizationKey","readonly":false,"value":"***"},{"key":"MeterValueSampleInterval","readonly":false,"value":"60"}]}]`},
		{"numbers kept exactly", `{"v":1.50,"big":12345678901234567890}`, `{"v":1.50,"big":12345678901234567890}`},
		{"nothing to mask keeps the bytes", `{ "a" : 1 }`, `{ "a" : 1 }`},
		{"null secret stays null", `{"password":null}`, `{"password":null}`},
		{"not JSON", `id=3&password=x`, `id=3&password=x`},
		{"JSON carried in a string (DataTransfer data)", `[2,"9","DataTransfer",{"vendorId":"chargeops","messageId":"VpnStart","data":"{\"link\":\"ssh\",\"token\":\"0a1b\"}"}]`,
			`[2,"9","DataTransfer",{"vendorId":"chargeops","messageId":"VpnStart","data":"{\"link\":\"ssh\",\"token\":\"***\"}"}]`},
		{"a string that only looks like JSON stays", `{"data":"{not json token"}`, `{"data":"{not json token"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := MaskString(tc.in); got != tc.want {
				t.Errorf("MaskString(%s)\n got %s\nwant %s", tc.in, got, tc.want)
			}
		})
	}
}

// The fast path (no secret's name in the text) keeps the document as it is, and a name spelt
// in \u escapes still takes the full decode and is masked.
func TestMaskJSONFastPath(t *testing.T) {
	t.Run("JSON without a secret's name comes back as it was", func(t *testing.T) {
		plain := `[2,"19","MeterValues",{"connectorId":1,"meterValue":[{"sampledValue":[{"value":"230.1"}]}]}]`
		if got, ok := MaskJSON([]byte(plain)); !ok || string(got) != plain {
			t.Fatalf("%s %v", got, ok)
		}
	})
	t.Run("broken JSON without a secret's name is not counted as JSON", func(t *testing.T) {
		if _, ok := MaskJSON([]byte(`[2,"19",`)); ok {
			t.Fatal("counted as JSON")
		}
	})
	t.Run("an escaped field name does not skip the mask", func(t *testing.T) {
		escaped := `{"pass\u0077ord":"hunter2"}`
		if got, _ := MaskJSON([]byte(escaped)); strings.Contains(string(got), "hunter2") {
			t.Fatalf("kept its secret: %s", got)
		}
	})
	t.Run("an upper-case configuration key does not skip the mask", func(t *testing.T) {
		upper := `[2,"1","ChangeConfiguration",{"key":"AUTHORIZATIONKEY","value":"s3cret"}]`
		if got, _ := MaskJSON([]byte(upper)); strings.Contains(string(got), "s3cret") {
			t.Fatalf("kept its secret: %s", got)
		}
	})
}

func BenchmarkMaskMeterValues(b *testing.B) {
	frame := `[2,"123456","MeterValues",{"connectorId":1,"transactionId":7,"meterValue":[{"timestamp":"2026-11-22T03:00:00Z","sampledValue":[{"value":"230.1","measurand":"Voltage"},{"value":"7100","measurand":"Power.Active.Import"}]}]}]`
	for b.Loop() {
		MaskString(frame)
	}
}
