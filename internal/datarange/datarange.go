// Package datarange checks the range text of data items and model items (docs/decisions.md#levels):
// integer "min~max", float "min~max|decimals", string length "min~max", enumeration lines
// "display|value|type".
package datarange

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"chargeops/internal/apperr"
)

// Data types.
const (
	Int    = "int"
	Float  = "float"
	String = "string"
	Enum   = "enum"
	Bool   = "bool"
)

// Types lists the data types in display order.
var Types = []string{Int, Float, String, Enum, Bool}

// Default is the range used when none is given: min 0, max 1e8 for integers, 1e7 for others.
func Default(dataType string) string {
	switch dataType {
	case Int:
		return "0~100000000"
	case Float:
		return "0~10000000|2"
	case String:
		return "0~10000000"
	}
	return ""
}

func invalid(field string) error { return apperr.InvalidField(field, "err.invalid") }

// Validate checks text against the rules of dataType; field names the form field in errors.
func Validate(dataType, text, field string) error {
	text = strings.TrimSpace(text)
	switch dataType {
	case Int, String:
		lo, hi, ok := intMinMax(text)
		if !ok || lo >= hi || (dataType == String && lo < 0) {
			return invalid(field)
		}
	case Float:
		body, decimals, hasDecimals := strings.Cut(text, "|")
		if lo, hi, ok := minMax(body); !ok || lo >= hi {
			return invalid(field)
		}
		if hasDecimals {
			d, err := strconv.Atoi(decimals)
			if err != nil || d < 0 || d > 99 {
				return invalid(field)
			}
		}
	case Enum:
		return validateEnum(text, field)
	case Bool:
		if text != "" {
			return invalid(field)
		}
	default:
		return apperr.InvalidField("dataType", "err.invalid")
	}
	return nil
}

// minMax reads a float range "min~max" (finite numbers).
func minMax(s string) (float64, float64, bool) {
	a, b, ok := strings.Cut(s, "~")
	if !ok {
		return 0, 0, false
	}
	parse := func(x string) (float64, bool) {
		f, err := strconv.ParseFloat(strings.TrimSpace(x), 64)
		return f, err == nil && !math.IsInf(f, 0) && !math.IsNaN(f)
	}
	lo, ok1 := parse(a)
	hi, ok2 := parse(b)
	return lo, hi, ok1 && ok2
}

// intMinMax reads an integer range "min~max" exactly (as float64, integers above 2^53 would
// merge with their neighbours).
func intMinMax(s string) (int64, int64, bool) {
	a, b, ok := strings.Cut(s, "~")
	if !ok {
		return 0, 0, false
	}
	lo, err1 := strconv.ParseInt(strings.TrimSpace(a), 10, 64)
	hi, err2 := strconv.ParseInt(strings.TrimSpace(b), 10, 64)
	return lo, hi, err1 == nil && err2 == nil
}

// EnumOption is one line of an enumeration.
type EnumOption struct {
	Display string `json:"display"`
	Value   string `json:"value"`
	Type    string `json:"type"`
}

// ParseEnum reads enumeration lines: display|value|type, type number, string or boolean
// (default string); parts are separated by single vertical bars.
func ParseEnum(text string) ([]EnumOption, bool) {
	var out []EnumOption
	seen := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(text), "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if strings.Contains(line, "||") {
			return nil, false
		}
		parts := strings.Split(line, "|")
		if len(parts) < 2 || len(parts) > 3 {
			return nil, false
		}
		o := EnumOption{Display: strings.TrimSpace(parts[0]), Value: strings.TrimSpace(parts[1]), Type: "string"}
		if len(parts) == 3 {
			o.Type = strings.TrimSpace(parts[2])
		}
		switch o.Type {
		case "string":
		case "number":
			if _, err := strconv.ParseFloat(o.Value, 64); err != nil {
				return nil, false
			}
		case "boolean":
			if o.Value != "true" && o.Value != "false" {
				return nil, false
			}
		default:
			return nil, false
		}
		if o.Display == "" || o.Value == "" || seen[o.Value] {
			return nil, false
		}
		seen[o.Value] = true
		out = append(out, o)
	}
	return out, len(out) > 0
}

func validateEnum(text, field string) error {
	if _, ok := ParseEnum(text); !ok {
		return invalid(field)
	}
	return nil
}

// CheckValue reports whether a value fits a data type and range (for parameter settings).
func CheckValue(dataType, rangeText, value string) bool {
	rangeText = strings.TrimSpace(rangeText)
	if rangeText == "" {
		rangeText = Default(dataType)
	}
	switch dataType {
	case Int:
		n, err := strconv.ParseInt(value, 10, 64)
		lo, hi, ok := intMinMax(rangeText)
		return err == nil && ok && n >= lo && n <= hi
	case Float:
		body, _, _ := strings.Cut(rangeText, "|")
		f, err := strconv.ParseFloat(value, 64)
		lo, hi, ok := minMax(body)
		return err == nil && ok && f >= lo && f <= hi
	case String:
		lo, hi, ok := intMinMax(rangeText)
		n := int64(utf8.RuneCountInString(value))
		return ok && n >= lo && n <= hi
	case Enum:
		opts, _ := ParseEnum(rangeText)
		for _, o := range opts {
			if o.Value == value {
				return true
			}
		}
		return false
	case Bool:
		return value == "true" || value == "false"
	}
	return false
}
