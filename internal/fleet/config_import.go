package fleet

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path"
	"strconv"
	"strings"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
)

// MaxParamFile is the largest device parameter file the import reads (5 MB).
const MaxParamFile = 5 << 20

// maxParamKeys bounds the parameters one file may name.
const maxParamKeys = 1000

var errParamFormat = apperr.New(apperr.Invalid, "err.param_import_format")

// ImportParams reads a device parameter file (docs/gateway.md, "Parameter import"): a JSON file
// of at most 5 MB, named *.json, holding {"key": value} or [{"key", "value"}]. It answers the
// device's configuration items it names, with the file's values, for the console to confirm and
// send as a parameter set (control type 11, checked again there). Nothing is changed. A key the
// device does not have, or the caller may not write, refuses the whole file by name.
func (s *Service) ImportParams(ctx context.Context, p *access.Principal, deviceID int64, fileName string, raw []byte) ([]ConfigItem, error) {
	values, err := ParseParamFile(fileName, raw)
	if err != nil {
		return nil, err
	}
	current, err := s.ConfigValues(ctx, p, deviceID)
	if err != nil {
		return nil, err
	}
	byKey := make(map[string]ConfigItem, len(current))
	for _, it := range current {
		byKey[strings.ToLower(it.Key)] = it
	}
	out := make([]ConfigItem, 0, len(values))
	var refused []string
	for _, v := range values {
		it, ok := byKey[strings.ToLower(v.Key)]
		if !ok || !it.Writable {
			refused = append(refused, v.Key)
			continue
		}
		it.Value = v.Value
		out = append(out, it)
	}
	if len(refused) > 0 {
		return nil, apperr.New(apperr.Invalid, "err.param_import_keys").With(map[string]any{"keys": strings.Join(refused, ", ")})
	}
	return out, nil
}

// ParseParamFile checks a parameter file's name, size and content (JSON by what it holds, not
// by its name alone) and reads its keys and values in file order; numbers and booleans become
// their text. Anything else is "Upload file format error, only JSON".
func ParseParamFile(fileName string, raw []byte) ([]ConfigValue, error) {
	if len(raw) > MaxParamFile {
		return nil, apperr.New(apperr.Invalid, "err.import_too_large")
	}
	if !strings.EqualFold(path.Ext(fileName), ".json") {
		return nil, errParamFormat
	}
	raw = bytes.TrimPrefix(raw, []byte("\xef\xbb\xbf"))
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || !json.Valid(trimmed) {
		return nil, errParamFormat
	}
	var out []ConfigValue
	var err error
	switch trimmed[0] {
	case '{':
		out, err = paramsFromObject(trimmed)
	case '[':
		out, err = paramsFromList(trimmed)
	default:
		return nil, errParamFormat
	}
	if err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, apperr.New(apperr.Invalid, "err.import_empty")
	}
	if len(out) > maxParamKeys {
		return nil, apperr.InvalidField("items", "err.invalid")
	}
	seen := make(map[string]bool, len(out))
	for _, v := range out {
		k := strings.ToLower(v.Key)
		if v.Key == "" || len(v.Key) > 50 || len(v.Value) > 500 || seen[k] {
			return nil, errParamFormat
		}
		seen[k] = true
	}
	return out, nil
}

// paramsFromObject reads {"key": value, ...} keeping the file's order.
func paramsFromObject(raw []byte) ([]ConfigValue, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if _, err := dec.Token(); err != nil { // {
		return nil, errParamFormat
	}
	var out []ConfigValue
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, errParamFormat
		}
		key, _ := tok.(string)
		var v any
		if err := dec.Decode(&v); err != nil {
			return nil, errParamFormat
		}
		text, ok := paramText(v)
		if !ok {
			return nil, errParamFormat
		}
		out = append(out, ConfigValue{Key: strings.TrimSpace(key), Value: text})
	}
	return out, nil
}

// paramsFromList reads [{"key": "...", "value": ...}, ...].
func paramsFromList(raw []byte) ([]ConfigValue, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var list []struct {
		Key   *string `json:"key"`
		Value any     `json:"value"`
	}
	if err := dec.Decode(&list); err != nil {
		return nil, errParamFormat
	}
	out := make([]ConfigValue, 0, len(list))
	for _, it := range list {
		text, ok := paramText(it.Value)
		if it.Key == nil || !ok {
			return nil, errParamFormat
		}
		out = append(out, ConfigValue{Key: strings.TrimSpace(*it.Key), Value: text})
	}
	return out, nil
}

// paramText is a scalar JSON value as the text OCPP carries; objects, lists and null are not
// parameter values.
func paramText(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case json.Number:
		return x.String(), true
	case bool:
		return strconv.FormatBool(x), true
	default:
		return fmt.Sprint(x), false
	}
}
