package ocppj

import (
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/lorenzodonini/ocpp-go/ocpp1.6/types"
	"gopkg.in/go-playground/validator.v9"
)

// Decode reads a charger's payload into dst (an ocpp-go request type) with the rules of the
// OCPP 1.6 JSON schemas:
//   - a field whose json tag has no omitempty is required (ocpp-go tags exactly the schemas'
//     required lists this way): missing → OccurenceConstraintViolation;
//   - a field of the wrong JSON type (or null where the field is required) →
//     TypeConstraintViolation;
//   - a value outside its constraints (ocpp-go's validate tags: length, enum, range, and a
//     timestamp that is not a date) → PropertyConstraintViolation;
//   - a payload that is not a JSON object → FormationViolation.
//
// ocpp-go's own `required` also refuses an empty string, which the schemas allow (they have
// no minLength): a present "" is checked against the field's other rules only.
func Decode(raw json.RawMessage, dst any) error {
	if !IsObject(raw) {
		return Errorf(CodeFormation, "payload: not a JSON object")
	}
	raw = exactKeys(raw, reflect.TypeOf(dst).Elem())
	// Fast path: ocpp-go reads and accepts it, and the required fields its rules cannot see
	// missing (numbers) are there.
	uerr := json.Unmarshal(raw, dst)
	if uerr == nil && types.Validate.Struct(dst) == nil && planFor(reflect.TypeOf(dst).Elem()).present(raw) {
		return nil
	}
	// Slow path: say exactly what is wrong.
	var doc any
	if err := json.Unmarshal(raw, &doc); err != nil {
		return Errorf(CodeFormation, "payload: %v", err)
	}
	obj, ok := doc.(map[string]any)
	if !ok {
		return Errorf(CodeFormation, "payload: not a JSON object")
	}
	if err := checkObject(obj, reflect.TypeOf(dst).Elem(), ""); err != nil {
		return err
	}
	if uerr != nil {
		// Types were checked above: what is left is a value its type cannot hold (a timestamp
		// that is not a date).
		return Errorf(CodeProperty, "payload: %v", uerr)
	}
	return validate(dst)
}

// jsonField is the key encoding/json gives f (its tag's name, else the field's) and the tag's
// options; ok is false for a field JSON skips (unexported or tagged "-").
func jsonField(f reflect.StructField) (name, opts string, ok bool) {
	name, opts, _ = strings.Cut(f.Tag.Get("json"), ",")
	if name == "-" || !f.IsExported() {
		return "", "", false
	}
	if name == "" {
		name = f.Name
	}
	return name, opts, true
}

// checkObject checks the presence and JSON types of a struct's fields in obj.
func checkObject(obj map[string]any, t reflect.Type, path string) error {
	for i := range t.NumField() {
		f := t.Field(i)
		name, opts, ok := jsonField(f)
		if !ok {
			continue
		}
		required := !strings.Contains(opts, "omitempty")
		v, present := obj[name]
		switch {
		case !present && required:
			return Errorf(CodeOccurence, "%s: required", join(path, name))
		case !present:
			continue
		case v == nil && required:
			return Errorf(CodeType, "%s: null is not allowed", join(path, name))
		case v == nil:
			continue // tolerated as absent (chargers send null for optional fields)
		}
		if err := checkValue(v, f.Type, join(path, name)); err != nil {
			return err
		}
	}
	return nil
}

var unmarshaler = reflect.TypeFor[json.Unmarshaler]()

// checkValue checks that v (decoded JSON) has the JSON type of t.
func checkValue(v any, t reflect.Type, path string) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if reflect.PointerTo(t).Implements(unmarshaler) {
		// ocpp-go's own JSON types (DateTime) are strings on the wire.
		if _, ok := v.(string); !ok {
			return typeErr(path, "a string")
		}
		return nil
	}
	switch t.Kind() {
	case reflect.String:
		if _, ok := v.(string); !ok {
			return typeErr(path, "a string")
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		n, ok := v.(float64)
		if !ok || n != math.Trunc(n) {
			return typeErr(path, "an integer")
		}
	case reflect.Float32, reflect.Float64:
		if _, ok := v.(float64); !ok {
			return typeErr(path, "a number")
		}
	case reflect.Bool:
		if _, ok := v.(bool); !ok {
			return typeErr(path, "a boolean")
		}
	case reflect.Struct:
		obj, ok := v.(map[string]any)
		if !ok {
			return typeErr(path, "an object")
		}
		return checkObject(obj, t, path)
	case reflect.Slice:
		list, ok := v.([]any)
		if !ok {
			return typeErr(path, "an array")
		}
		for i, item := range list {
			if err := checkValue(item, t.Elem(), path+"["+strconv.Itoa(i)+"]"); err != nil {
				return err
			}
		}
	}
	return nil
}

func typeErr(path, want string) error { return Errorf(CodeType, "%s: must be %s", path, want) }

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// validate runs ocpp-go's rules on a decoded request. Presence was checked by checkObject, so
// a `required` failure is a present zero value ("" for a string): valid in the schemas, it is
// checked against the field's other rules only (an empty enum value is still refused).
func validate(dst any) error {
	err := types.Validate.Struct(dst)
	if err == nil {
		return nil
	}
	var errs validator.ValidationErrors
	if !errors.As(err, &errs) {
		return Errorf(CodeFormation, "payload: %v", err)
	}
	for _, fe := range errs {
		if fe.Tag() != "required" {
			return Errorf(CodeProperty, "%s: %s", fieldPath(fe), rule(fe))
		}
		rest := otherRules(dst, fe.StructNamespace())
		if rest == "" {
			continue
		}
		if verr := types.Validate.Var(fe.Value(), rest); verr != nil {
			var vs validator.ValidationErrors
			if errors.As(verr, &vs) && len(vs) > 0 {
				return Errorf(CodeProperty, "%s: %s", fieldPath(fe), rule(vs[0]))
			}
			return Errorf(CodeProperty, "%s: %v", fieldPath(fe), verr)
		}
	}
	return nil
}

// rule names the validation rule a value broke ("max=20", "chargePointStatus").
func rule(fe validator.FieldError) string {
	if fe.Param() != "" {
		return fe.Tag() + "=" + fe.Param()
	}
	return "not a valid " + fe.Tag() + " value"
}

// otherRules is the validate tag of the field at namespace ("Type.Field[0].Sub") without
// "required".
func otherRules(dst any, namespace string) string {
	t := reflect.TypeOf(dst)
	segs := strings.Split(namespace, ".")
	var tag string
	for _, seg := range segs[1:] {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice {
			t = t.Elem()
		}
		name, _, _ := strings.Cut(seg, "[")
		f, ok := t.FieldByName(name)
		if !ok {
			return ""
		}
		tag, t = f.Tag.Get("validate"), f.Type
	}
	var rest []string
	for _, r := range strings.Split(tag, ",") {
		if r != "required" && r != "" {
			rest = append(rest, r)
		}
	}
	return strings.Join(rest, ",")
}

// fieldPath is the JSON path of a validation error ("meterValue[0].sampledValue[1].value").
func fieldPath(fe validator.FieldError) string {
	segs := strings.Split(fe.Namespace(), ".")[1:]
	for i, s := range segs {
		if s != "" {
			segs[i] = strings.ToLower(s[:1]) + s[1:]
		}
	}
	return strings.Join(segs, ".")
}

// presencePlan says which required fields of a request type ocpp-go's rules cannot see missing:
// those without a `required` rule, and numbers and booleans (whose zero value passes). Only
// top-level ones are looked up in the raw payload; a type with such fields deeper down always
// takes the slow path.
type presencePlan struct {
	top  []string
	deep bool
}

var plans sync.Map // reflect.Type → *presencePlan

func planFor(t reflect.Type) *presencePlan {
	if p, ok := plans.Load(t); ok {
		return p.(*presencePlan)
	}
	p := &presencePlan{top: weakRequired(t)}
	p.deep = deepWeak(t, map[reflect.Type]bool{t: true})
	plans.Store(t, p)
	return p
}

// weakRequired lists the JSON names of t's required fields whose absence passes ocpp-go's rules.
func weakRequired(t reflect.Type) []string {
	var out []string
	for i := range t.NumField() {
		f := t.Field(i)
		name, opts, ok := jsonField(f)
		if !ok || strings.Contains(opts, "omitempty") {
			continue
		}
		caught := false
		for _, r := range strings.Split(f.Tag.Get("validate"), ",") {
			caught = caught || r == "required"
		}
		switch f.Type.Kind() {
		case reflect.String, reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface:
		default:
			caught = false
		}
		if !caught {
			out = append(out, name)
		}
	}
	return out
}

// deepWeak tells whether a struct below t has weakly required fields.
func deepWeak(t reflect.Type, seen map[reflect.Type]bool) bool {
	for i := range t.NumField() {
		ft := t.Field(i).Type
		for ft.Kind() == reflect.Pointer || ft.Kind() == reflect.Slice {
			ft = ft.Elem()
		}
		if ft.Kind() != reflect.Struct || seen[ft] || reflect.PointerTo(ft).Implements(unmarshaler) {
			continue
		}
		seen[ft] = true
		if len(weakRequired(ft)) > 0 || deepWeak(ft, seen) {
			return true
		}
	}
	return false
}

// present tells whether raw (a valid JSON object) has every top-level key of the plan.
func (p *presencePlan) present(raw []byte) bool {
	if p.deep {
		return false
	}
	if len(p.top) == 0 {
		return true
	}
	keys := topKeys(raw)
	for _, k := range p.top {
		if !slices.Contains(keys, k) {
			return false
		}
	}
	return true
}

// topKeys lists the keys of a valid JSON object whose value is not null (keys as written: a
// key with escapes is not unescaped, so it matches nothing and the slow path decides).
func topKeys(raw []byte) []string {
	var keys []string
	depth, start := 0, -1
	inString, escaped, expectKey, expectValue := false, false, false, false
	for i, c := range raw {
		if inString {
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
				if start >= 0 {
					keys = append(keys, string(raw[start:i]))
					start, expectValue = -1, true
				}
			}
			continue
		}
		if expectValue && depth == 1 && c != ':' && c != ' ' && c != '\t' && c != '\r' && c != '\n' {
			expectValue = false
			if c == 'n' { // null: as good as absent
				keys = keys[:len(keys)-1]
			}
		}
		switch {
		case c == '"':
			inString = true
			if depth == 1 && expectKey {
				start, expectKey = i+1, false
			}
		case c == '{' || c == '[':
			depth++
			if depth == 1 {
				expectKey = true
			}
		case c == '}' || c == ']':
			depth--
		case c == ',' && depth == 1:
			expectKey = true
		}
	}
	return keys
}

// CheckFields is Decode's slow-path check of the presence and JSON types of t's fields in doc
// (the payload fuzz tests hold the fast path to it).
func CheckFields(doc map[string]any, t reflect.Type) error { return checkObject(doc, t, "") }
