package ocpp16

import (
	"bytes"
	"encoding/json"
	"testing"
	"unicode/utf8"

	"chargeops/internal/gateway/ocppj"
)

// FuzzParseFrame feeds any WebSocket message to the OCPP-J frame reader (docs/ocpp16.md,
// "Framing"). What must hold for every input:
//   - a frame read as good has a known message type, an id of at most 36 characters, and a
//     CALL has an action and a JSON object as payload;
//   - a good frame written back as OCPP-J reads as the same frame (round trip);
//   - a bad frame answered with a CALLERROR carries an id of at most 36 characters of valid
//     UTF-8 (it is echoed to the charger), and a CALLRESULT or CALLERROR is never answered.
func FuzzParseFrame(f *testing.F) {
	for _, s := range []string{
		`[2,"19223201","BootNotification",{"chargePointVendor":"V","chargePointModel":"M"}]`,
		`[2,"1","Heartbeat",{}]`,
		`[3,"1",{"currentTime":"2026-01-01T00:00:00Z"}]`,
		`[4,"1","NotImplemented","no",{}]`,
		`[4,"1","GenericError"]`,
		`[2,12,"Heartbeat",{}]`,
		`[2,"` + string(bytes.Repeat([]byte("x"), 40)) + `","Heartbeat",{}]`,
		`[2,"1","Heartbeat",[]]`,
		`[2,"1","",{}]`,
		`[5,"1","Heartbeat",{}]`,
		`[2,"1","Heartbeat",{`,
		`[2,"abc`,
		`[3,"1"`,
		`["2","1","Heartbeat",{}]`,
		`[2.0,"é中文","Heartbeat",{}]`,
		`[2,null,"Heartbeat",{}]`,
		`{}`,
		`[]`,
		``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fr, bad := parseFrame(data)
		if bad != nil {
			checkBadFrame(t, data, bad)
			return
		}
		if n := utf8.RuneCountInString(fr.id); n > maxIDLength {
			t.Fatalf("good frame with a %d-character id", n)
		}
		var again []byte
		switch fr.typ {
		case msgCall:
			if fr.action == "" || !ocppj.IsObject(fr.payload) || !json.Valid(fr.payload) {
				t.Fatalf("good CALL without action or object payload: %q %q", fr.action, fr.payload)
			}
			again = mustJSON(t, []any{msgCall, fr.id, fr.action, fr.payload})
		case msgCallResult:
			again = mustJSON(t, []any{msgCallResult, fr.id, fr.payload})
		case msgCallError:
			again = mustJSON(t, []any{msgCallError, fr.id, fr.code, fr.desc, map[string]any{}})
		default:
			t.Fatalf("good frame of message type %d", fr.typ)
		}
		fr2, bad2 := parseFrame(again)
		if bad2 != nil {
			t.Fatalf("frame written back %s is bad: %s", again, bad2.reason)
		}
		if fr.typ != fr2.typ || fr.id != fr2.id || fr.action != fr2.action || fr.code != fr2.code || fr.desc != fr2.desc ||
			(fr.payload != nil && !jsonEqual(t, fr.payload, fr2.payload)) {
			t.Fatalf("round trip changed the frame: %+v → %+v", fr, fr2)
		}
	})
}

func checkBadFrame(t *testing.T, data []byte, bad *badFrame) {
	t.Helper()
	if bad.reason == "" {
		t.Fatal("bad frame without a reason")
	}
	if !bad.answer {
		return
	}
	if n := utf8.RuneCountInString(bad.id); n > maxIDLength || !utf8.ValidString(bad.id) {
		t.Fatalf("answered id %q: %d characters or not UTF-8", bad.id, n)
	}
	var parts []json.RawMessage
	if json.Unmarshal(data, &parts) == nil && len(parts) > 0 {
		if typ, ok := messageType(parts[0]); ok && (typ == msgCallResult || typ == msgCallError) {
			t.Fatalf("a CALLRESULT/CALLERROR (%s) is answered", data)
		}
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("marshal %v: %v", v, err)
	}
	return b
}

// jsonEqual compares two JSON texts by value (raw payloads keep their spacing).
func jsonEqual(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatalf("payload %q: %v", a, err)
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatalf("payload %q: %v", b, err)
	}
	return bytes.Equal(mustJSON(t, x), mustJSON(t, y))
}
