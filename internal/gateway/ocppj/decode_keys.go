package ocppj

import (
	"bytes"
	"encoding/json"
	"io"
	"reflect"
	"strings"
	"sync"
)

// Keys are matched exactly, as the OCPP 1.6 JSON schemas name them. encoding/json matches a
// key to a field without case, so {"IDTAG":"x"} would fill idTag, and in {"idTag":"x",
// "IdTag":"y"} the last one would win. A payload holding a key that names a field but for
// case is decoded without such keys: like every other unknown property they are ignored
// (FuzzPayload found both).

// fieldNames are the JSON names of a request type's fields at any depth.
type fieldNames map[string]bool

var names sync.Map // reflect.Type → fieldNames

func namesOf(t reflect.Type) fieldNames {
	if n, ok := names.Load(t); ok {
		return n.(fieldNames)
	}
	n := fieldNames{}
	n.add(t, map[reflect.Type]bool{})
	names.Store(t, n)
	return n
}

func (n fieldNames) add(t reflect.Type, seen map[reflect.Type]bool) {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || seen[t] || reflect.PointerTo(t).Implements(unmarshaler) {
		return
	}
	seen[t] = true
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, ok := jsonField(f)
		if !ok {
			continue
		}
		n[name] = true
		n.add(f.Type, seen)
	}
}

// inexact reports whether key would fill a field whose name it is not.
func (n fieldNames) inexact(key string) bool {
	if n[key] {
		return false
	}
	for name := range n {
		if strings.EqualFold(key, name) {
			return true
		}
	}
	return false
}

// exactKeys returns raw without the keys that name a field of t but for case (raw itself when
// it has none, the usual case: one pass over the bytes). Only the request's own objects are
// cleaned: a free value (DataTransfer's data) is left as sent.
func exactKeys(raw json.RawMessage, t reflect.Type) json.RawMessage {
	if !hasInexactKey(raw, namesOf(t)) {
		return raw
	}
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var doc any
	if d.Decode(&doc) != nil || d.More() || hasTrailing(d) {
		return raw // the slow path says what is wrong with it (trailing data included)
	}
	dropInexact(doc, t)
	out, err := json.Marshal(doc)
	if err != nil {
		return raw
	}
	return out
}

// dropInexact deletes, from the objects of v that hold a struct of type t, the keys that name
// one of its fields but for case.
func dropInexact(v any, t reflect.Type) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Slice:
		list, _ := v.([]any)
		for _, x := range list {
			dropInexact(x, t.Elem())
		}
	case reflect.Struct:
		obj, ok := v.(map[string]any)
		if !ok || reflect.PointerTo(t).Implements(unmarshaler) {
			return
		}
		fields := map[string]reflect.Type{}
		for i := range t.NumField() {
			f := t.Field(i)
			if name, _, ok := jsonField(f); ok {
				fields[name] = f.Type
			}
		}
		for k, x := range obj {
			if ft, ok := fields[k]; ok {
				dropInexact(x, ft)
				continue
			}
			for name := range fields {
				if strings.EqualFold(k, name) {
					delete(obj, k)
					break
				}
			}
		}
	}
}

// hasInexactKey scans raw's object keys at any depth: a key written with escapes is read
// properly to be sure.
func hasInexactKey(raw []byte, n fieldNames) bool {
	inString, escaped, start := false, false, 0
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if inString {
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
				j := i + 1
				for j < len(raw) && (raw[j] == ' ' || raw[j] == '\t' || raw[j] == '\r' || raw[j] == '\n') {
					j++
				}
				if j < len(raw) && raw[j] == ':' {
					key := raw[start:i]
					if bytes.IndexByte(key, '\\') >= 0 || n.inexact(string(key)) {
						return true
					}
				}
			}
			continue
		}
		if c == '"' {
			inString, start = true, i+1
		}
	}
	return false
}

// hasTrailing reports whether anything but white space follows the value d read (a decoder
// stops after one value; the payload must be that value alone).
func hasTrailing(d *json.Decoder) bool {
	_, err := d.Token()
	return err != io.EOF
}
