package ocpp16

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"

	"chargeops/internal/gateway/ocppj"
)

// OCPP-J framing (docs/ocpp16.md, "Framing"): a CALL is [2, id, action, {payload}], a
// CALLRESULT [3, id, {payload}], a CALLERROR [4, id, code, description, {details}]; the id is
// a string of at most 36 characters.

// maxIDLength is the longest message id OCPP-J allows.
const maxIDLength = 36

// MaxFrameBytes is the largest WebSocket message read from a charger (docs/ocpp16.md,
// "Framing"): a longer one closes the socket with 1009 (message too big) before it is read
// whole. It leaves room for the largest legitimate frame (a MeterValues of MaxSampledValues
// signed values, a long GetConfiguration answer).
const MaxFrameBytes = 1 << 20

// frame is one readable OCPP-J message.
type frame struct {
	typ     int
	id      string
	action  string          // CALL
	payload json.RawMessage // CALL, CALLRESULT
	code    string          // CALLERROR
	desc    string          // CALLERROR
}

// badFrame is a frame that cannot be handled. When answer is set a CALLERROR goes back with id
// (a frame whose message type is CALLRESULT or CALLERROR is never answered).
type badFrame struct {
	reason string
	answer bool
	id     string
}

// parseFrame reads one WebSocket message. A message id is read wherever it can be: from a frame
// that is not valid JSON as far as its first elements are readable, and from a number (answered
// as its string form: ocpp-go and ocpp-rpc read only string ids, and a CALLERROR with a numeric
// id would be a malformed frame to them). An id over 36 characters is answered cut to 36.
func parseFrame(data []byte) (frame, *badFrame) {
	var parts []json.RawMessage
	if err := json.Unmarshal(data, &parts); err != nil {
		return frame{}, salvage(data)
	}
	if len(parts) < 2 {
		return frame{}, &badFrame{reason: "not an OCPP-J frame (too few elements)"}
	}
	typ, typOK := messageType(parts[0])
	id, idOK, idIsString := messageID(parts[1])
	answerable := typ != msgCallResult && typ != msgCallError
	switch {
	case !idOK:
		return frame{}, &badFrame{reason: "message id is not a string"}
	case !idIsString:
		return frame{}, &badFrame{reason: "message id is not a string", answer: answerable, id: id}
	case utf8.RuneCountInString(id) > maxIDLength:
		return frame{}, &badFrame{reason: "message id longer than 36 characters", answer: answerable, id: cut(id)}
	case !typOK || (typ != msgCall && answerable):
		return frame{}, &badFrame{reason: "unknown message type " + string(parts[0]), answer: answerable, id: id}
	}
	f := frame{typ: typ, id: id}
	switch typ {
	case msgCall:
		if len(parts) != 4 || json.Unmarshal(parts[2], &f.action) != nil || f.action == "" {
			return frame{}, &badFrame{reason: "a CALL is [2, id, action, payload]", answer: true, id: id}
		}
		if !ocppj.IsObject(parts[3]) {
			return frame{}, &badFrame{reason: "a CALL's payload is a JSON object", answer: true, id: id}
		}
		f.payload = parts[3]
	// Answers are read leniently (they end a call of ours): extra elements are ignored, and a
	// CALLERROR without description or details still fails its call.
	case msgCallResult:
		if len(parts) < 3 {
			return frame{}, &badFrame{reason: "a CALLRESULT is [3, id, payload]"}
		}
		f.payload = parts[2]
	case msgCallError:
		if len(parts) < 3 || json.Unmarshal(parts[2], &f.code) != nil {
			return frame{}, &badFrame{reason: "a CALLERROR is [4, id, code, description, details]"}
		}
		if len(parts) > 3 {
			_ = json.Unmarshal(parts[3], &f.desc)
		}
	}
	return f, nil
}

// messageType reads an integer message type (a number, not a string holding one).
func messageType(raw json.RawMessage) (int, bool) {
	var n float64
	if json.Unmarshal(raw, &n) != nil || n != float64(int(n)) {
		return 0, false
	}
	return int(n), true
}

// messageID reads a message id: a string, or a number in its string form (isString false).
func messageID(raw json.RawMessage) (id string, ok, isString bool) {
	if json.Unmarshal(raw, &id) == nil {
		return id, true, true
	}
	raw = bytes.TrimSpace(raw)
	if len(raw) > 0 && (raw[0] == '-' || (raw[0] >= '0' && raw[0] <= '9')) {
		return cut(string(raw)), true, false
	}
	return "", false, false
}

// salvage reads the message type and id from the start of a frame that is not valid JSON
// ([2,"id",... cut off or broken further on).
func salvage(data []byte) *badFrame {
	bad := &badFrame{reason: "not valid JSON"}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
		return bad
	}
	tok, err := dec.Token()
	n, isNum := tok.(json.Number)
	if err != nil || !isNum {
		return bad
	}
	typ, err := strconv.Atoi(n.String())
	if err == nil && (typ == msgCallResult || typ == msgCallError) {
		return bad
	}
	tok, err = dec.Token()
	if err != nil {
		return bad
	}
	switch id := tok.(type) {
	case string:
		bad.answer, bad.id = true, cut(id)
	case json.Number:
		bad.answer, bad.id = true, cut(id.String())
	}
	return bad
}

// cut shortens an id to 36 characters (a huge id is not echoed).
func cut(id string) string {
	if utf8.RuneCountInString(id) <= maxIDLength {
		return id
	}
	return string([]rune(id)[:maxIDLength])
}

// unreadableLog writes at most one log line per interval about unreadable frames, with the
// number left out since the last one.
type unreadableLog struct {
	msg     string // the log message; empty: "ocpp frame unreadable"
	mu      sync.Mutex
	last    time.Time
	dropped int
}

const unreadableLogInterval = 10 * time.Second

func (l *unreadableLog) note(sn, reason string, data []byte) {
	l.mu.Lock()
	if time.Since(l.last) < unreadableLogInterval {
		l.dropped++
		l.mu.Unlock()
		return
	}
	dropped := l.dropped
	l.last, l.dropped = time.Now(), 0
	l.mu.Unlock()
	sample := data
	if len(sample) > 200 {
		sample = sample[:200]
	}
	msg := l.msg
	if msg == "" {
		msg = "ocpp frame unreadable"
	}
	slog.Warn(msg, "sn", sn, "reason", reason, "frame", string(sample), "unlogged_since_last", dropped)
}
