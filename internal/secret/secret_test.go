package secret

import "testing"

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
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := MaskString(tc.in); got != tc.want {
				t.Errorf("MaskString(%s)\n got %s\nwant %s", tc.in, got, tc.want)
			}
		})
	}
}
