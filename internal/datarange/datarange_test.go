package datarange

import (
	"fmt"
	"testing"
)

func TestValidate(t *testing.T) {
	cases := []struct {
		typ, text string
		ok        bool
	}{
		{Int, "0~100", true}, {Int, "100~0", false}, {Int, "5~5", false}, {Int, "1.5~3", false}, {Int, "0-100", false},
		{Float, "0~1.5|2", true}, {Float, "0~1.5", true}, {Float, "0~1.5|100", false}, {Float, "2~1|2", false}, {Float, "a~b|1", false},
		{String, "0~32", true}, {String, "-1~5", false},
		{Enum, "On|1|number\nOff|0|number", true}, {Enum, "Yes|true|boolean", true}, {Enum, "A|a", true},
		{Enum, "A||a", false}, {Enum, "A|x|number", false}, {Enum, "A|a|date", false}, {Enum, "A|a\nB|a", false}, {Enum, "", false},
		{Bool, "", true}, {"date", "", false},
	}
	for _, c := range cases {
		name := fmt.Sprintf("%s %q refused", c.typ, c.text)
		if c.ok {
			name = fmt.Sprintf("%s %q accepted", c.typ, c.text)
		}
		t.Run(name, func(t *testing.T) {
			if err := Validate(c.typ, c.text, "dataRange"); (err == nil) != c.ok {
				t.Errorf("Validate(%s, %q) = %v, want ok=%v", c.typ, c.text, err, c.ok)
			}
		})
	}
}

func TestCheckValueAndDefaults(t *testing.T) {
	t.Run("without a range integers go up to 1e8, others up to 1e7", func(t *testing.T) {
		if !CheckValue(Int, "", "100000000") || CheckValue(Int, "", "100000001") || CheckValue(Float, "", "10000000.5") {
			t.Fatal("default bounds")
		}
	})
	t.Run("an enum takes only its listed values", func(t *testing.T) {
		if !CheckValue(Enum, "On|1|number\nOff|0|number", "0") || CheckValue(Enum, "On|1|number", "2") {
			t.Fatal("enum values")
		}
	})
	t.Run("a string range bounds its length", func(t *testing.T) {
		if !CheckValue(String, "2~4", "abc") || CheckValue(String, "2~4", "abcde") {
			t.Fatal("string length")
		}
	})
}
