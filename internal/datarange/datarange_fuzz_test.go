package datarange

import (
	"strconv"
	"strings"
	"testing"
)

// FuzzDataRange feeds any data type, range text and value to the range grammar (docs/decisions.md
// and the model items of the console). What must hold:
//   - a range Validate accepts holds both of its own ends (CheckValue), and an integer one step
//     outside an integer range is refused;
//   - an enumeration is valid exactly when ParseEnum reads options, each option's value is
//     accepted, and the options written back as lines read the same;
//   - a bool takes no range, and only "true" and "false";
//   - neither Validate nor CheckValue panics on any text.
func FuzzDataRange(f *testing.F) {
	for _, s := range [][3]string{
		{Int, "0~100", "50"},
		{Int, " -5 ~ 5 ", "-6"},
		{Int, "9223372036854775806~9223372036854775807", "9223372036854775807"},
		{Int, "1152921504606846976~1152921504606847232", "1152921504606846975"},
		{Int, "5~5", "5"},
		{Float, "0.5~10|2", "10"},
		{Float, "-1e308~1e308|99", "NaN"},
		{Float, "0~Inf", "1"},
		{Float, "0~1|x", "0"},
		{String, "0~10", "十个字"},
		{String, "-1~3", ""},
		{Enum, "On|1|number\nOff|0|number", "1"},
		{Enum, "Yes|true|boolean\nNo|false|boolean\n", "false"},
		{Enum, "A|a\nB|a", "a"},
		{Enum, "A||a", "a"},
		{Enum, " A | a | string \r\n\n B|b", "b"},
		{Bool, "", "true"},
		{Bool, "0~1", "1"},
		{"", "", ""},
	} {
		f.Add(s[0], s[1], s[2])
	}
	f.Fuzz(func(t *testing.T, dataType, text, value string) {
		ok := CheckValue(dataType, text, value)
		err := Validate(dataType, text, "range")
		switch dataType {
		case Int, String, Float:
			if d := Default(dataType); Validate(dataType, d, "range") != nil {
				t.Fatalf("default %q of %s is invalid", d, dataType)
			}
			if err != nil {
				return
			}
			body, _, _ := strings.Cut(strings.TrimSpace(text), "|")
			lo, hi, _ := strings.Cut(body, "~")
			lo, hi = strings.TrimSpace(lo), strings.TrimSpace(hi)
			if dataType == String {
				checkStringEnds(t, text, lo, hi)
				return
			}
			for _, end := range []string{lo, hi} {
				if !CheckValue(dataType, text, end) {
					t.Fatalf("%s range %q refuses its own end %q", dataType, text, end)
				}
			}
			if dataType == Int {
				checkIntOutside(t, text, lo, hi)
			}
		case Enum:
			opts, parsed := ParseEnum(text)
			if (err == nil) != parsed {
				t.Fatalf("Validate %v but ParseEnum %v for %q", err, parsed, text)
			}
			checkEnum(t, text, opts)
			if ok && !hasValue(opts, value) {
				t.Fatalf("value %q accepted, not an option of %q", value, text)
			}
		case Bool:
			if (err == nil) != (strings.TrimSpace(text) == "") {
				t.Fatalf("bool range %q: %v", text, err)
			}
			if ok != (value == "true" || value == "false") {
				t.Fatalf("bool value %q: %v", value, ok)
			}
		default:
			if err == nil || ok {
				t.Fatalf("unknown data type %q accepted (%v, %v)", dataType, err, ok)
			}
		}
	})
}

// checkStringEnds: a string of the range's shortest and longest length fits (when short
// enough to build).
func checkStringEnds(t *testing.T, text, lo, hi string) {
	t.Helper()
	for _, end := range []string{lo, hi} {
		n, err := strconv.ParseInt(end, 10, 64)
		if err != nil {
			t.Fatalf("valid string range %q with end %q: %v", text, end, err)
		}
		if n <= 1000 && !CheckValue(String, text, strings.Repeat("字", int(n))) {
			t.Fatalf("string range %q refuses a length of %d", text, n)
		}
	}
}

// checkIntOutside: one below the lower end and one above the upper end are refused.
func checkIntOutside(t *testing.T, text, lo, hi string) {
	t.Helper()
	l, err1 := strconv.ParseInt(lo, 10, 64)
	h, err2 := strconv.ParseInt(hi, 10, 64)
	if err1 != nil || err2 != nil {
		t.Fatalf("valid int range %q does not parse: %v %v", text, err1, err2)
	}
	if l > -1<<63 && CheckValue(Int, text, strconv.FormatInt(l-1, 10)) {
		t.Fatalf("int range %q accepts %d", text, l-1)
	}
	if h < 1<<63-1 && CheckValue(Int, text, strconv.FormatInt(h+1, 10)) {
		t.Fatalf("int range %q accepts %d", text, h+1)
	}
}

// checkEnum: options are complete and unique, each is accepted, and written back as lines
// they read the same.
func checkEnum(t *testing.T, text string, opts []EnumOption) {
	t.Helper()
	var lines []string
	for _, o := range opts {
		if o.Display == "" || o.Value == "" || strings.Contains(o.Display+o.Value, "|") {
			t.Fatalf("option %+v of %q", o, text)
		}
		if !CheckValue(Enum, text, o.Value) {
			t.Fatalf("option value %q of %q refused", o.Value, text)
		}
		lines = append(lines, o.Display+"|"+o.Value+"|"+o.Type)
	}
	if len(opts) == 0 {
		return
	}
	again, ok := ParseEnum(strings.Join(lines, "\n"))
	if !ok || len(again) != len(opts) {
		t.Fatalf("options of %q written back do not read: %v", text, lines)
	}
	for i := range opts {
		if again[i] != opts[i] {
			t.Fatalf("option %d of %q: %+v → %+v", i, text, opts[i], again[i])
		}
	}
}

func hasValue(opts []EnumOption, v string) bool {
	for _, o := range opts {
		if o.Value == v {
			return true
		}
	}
	return false
}
