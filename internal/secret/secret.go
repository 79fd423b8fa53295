// Package secret keeps secrets out of everything chargeops stores for people to read: action-log
// bodies, command parameters and answers, protocol-log frames. A secret is a field whose name
// says so (password, token, appSecret, ...) at any depth, or the value of an OCPP configuration
// key that is a credential (AuthorizationKey), wherever a {"key": K, "value": V} pair carries it.
package secret

import (
	"bytes"
	"encoding/json"
	"strings"
)

// Mask replaces a secret value.
const Mask = "***"

// fieldNames are JSON field names whose values are secrets, compared without case.
var fieldNames = map[string]bool{
	"password": true, "oldpassword": true, "newpassword": true, "confirmpassword": true,
	"secret": true, "appsecret": true, "accesskeysecret": true, "securitytoken": true,
	"token": true, "csrftoken": true, "captcha": true, "username": true,
	"authorizationkey": true, "authkey": true, "privatekey": true,
}

// configKeys are device configuration keys whose values are credentials (OCPP 1.6 security
// profile 1 and 2: the Basic-auth password of the charger).
var configKeys = map[string]bool{"authorizationkey": true}

// IsSecretField reports whether a JSON field of that name holds a secret.
func IsSecretField(name string) bool { return fieldNames[strings.ToLower(name)] }

// IsSecretConfigKey reports whether a device configuration key holds a credential: its value
// is never stored readable and never shown.
func IsSecretConfigKey(key string) bool { return configKeys[strings.ToLower(key)] }

// MaskJSON returns doc with every secret replaced by Mask, the rest (order, numbers, layout of
// arrays) kept. It answers ok=false, and doc unchanged, when doc is not JSON.
func MaskJSON(doc []byte) ([]byte, bool) {
	if !mayHoldSecret(doc) {
		return doc, json.Valid(doc)
	}
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	v, err := decode(dec)
	if err != nil {
		return doc, false
	}
	if _, err := dec.Token(); err == nil {
		return doc, false // trailing data
	}
	if !mask(v) {
		return doc, true
	}
	var buf bytes.Buffer
	encode(&buf, v)
	return buf.Bytes(), true
}

// needles are what a document holding a secret must contain, lower-cased: every secret field
// name and every credential configuration key.
var needles = func() [][]byte {
	var out [][]byte
	for name := range fieldNames {
		out = append(out, []byte(name))
	}
	for key := range configKeys {
		out = append(out, []byte(key))
	}
	return out
}()

// mayHoldSecret is the fast path of MaskJSON (the protocol log masks every frame): a document
// none of whose text, lower-cased, contains a secret's name cannot hold one. A document with a
// \u escape may spell a name in escapes, so it takes the full decode.
func mayHoldSecret(doc []byte) bool {
	if bytes.Contains(doc, []byte(`\u`)) {
		return true
	}
	lower := bytes.ToLower(doc)
	for _, n := range needles {
		if bytes.Contains(lower, n) {
			return true
		}
	}
	return false
}

// MaskString is MaskJSON for text; text that is not JSON is returned as it is.
func MaskString(s string) string {
	out, _ := MaskJSON([]byte(s))
	return string(out)
}

// object keeps the order of its fields, so a masked frame reads like the one on the wire.
type object []field

type field struct {
	name  string
	value any
}

func decode(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			obj := object{}
			for dec.More() {
				nt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				name, _ := nt.(string)
				v, err := decode(dec)
				if err != nil {
					return nil, err
				}
				obj = append(obj, field{name, v})
			}
			_, err := dec.Token()
			return obj, err
		case '[':
			arr := []any{}
			for dec.More() {
				v, err := decode(dec)
				if err != nil {
					return nil, err
				}
				arr = append(arr, v)
			}
			_, err := dec.Token()
			return arr, err
		}
	}
	return tok, nil
}

// mask replaces secrets inside v and reports whether it changed anything.
func mask(v any) bool {
	changed := false
	switch t := v.(type) {
	case object:
		secretValue := false
		for _, f := range t {
			if strings.EqualFold(f.name, "key") {
				if k, ok := f.value.(string); ok && IsSecretConfigKey(k) {
					secretValue = true
				}
			}
		}
		for i := range t {
			switch {
			case IsSecretField(t[i].name) && t[i].value != nil:
				t[i].value = Mask
				changed = true
			case secretValue && strings.EqualFold(t[i].name, "value"):
				t[i].value = Mask
				changed = true
			default:
				if str, ok := t[i].value.(string); ok {
					if m, ok := maskEmbedded(str); ok {
						t[i].value, changed = m, true
					}
					continue
				}
				changed = mask(t[i].value) || changed
			}
		}
	case []any:
		for _, x := range t {
			changed = mask(x) || changed
		}
	}
	return changed
}

// maskEmbedded masks a JSON object or array carried as a string (a DataTransfer's data, such as
// the one-time token of a VPN start: docs/remote-access.md); ok when it changed anything.
func maskEmbedded(s string) (string, bool) {
	t := strings.TrimSpace(s)
	if t == "" || (t[0] != '{' && t[0] != '[') || !mayHoldSecret([]byte(t)) {
		return s, false
	}
	out, ok := MaskJSON([]byte(t))
	if !ok || string(out) == t {
		return s, false
	}
	return string(out), true
}

func encode(buf *bytes.Buffer, v any) {
	switch t := v.(type) {
	case object:
		buf.WriteByte('{')
		for i, f := range t {
			if i > 0 {
				buf.WriteByte(',')
			}
			b, _ := json.Marshal(f.name)
			buf.Write(b)
			buf.WriteByte(':')
			encode(buf, f.value)
		}
		buf.WriteByte('}')
	case []any:
		buf.WriteByte('[')
		for i, x := range t {
			if i > 0 {
				buf.WriteByte(',')
			}
			encode(buf, x)
		}
		buf.WriteByte(']')
	case json.Number:
		buf.WriteString(t.String())
	default:
		b, _ := json.Marshal(t)
		buf.Write(b)
	}
}
