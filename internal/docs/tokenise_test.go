package docs

import (
	"slices"
	"testing"
)

func TestTerms(t *testing.T) {
	for _, c := range []struct {
		name, in string
		want     []string
	}{
		{"latin words lower-cased, punctuation splits", "E-101 Overheat, fan!", []string{"e", "101", "overheat", "fan"}},
		{"a CJK run as bigrams plus its last character", "过温保护", []string{"过温", "温保", "保护", "护"}},
		{"a one-character run is the character", "桩", []string{"桩"}},
		{"mixed scripts split where the script changes", "DC桩ok", []string{"dc", "桩", "ok"}},
		{"kana and hangul are CJK too", "カタカナ 한국", []string{"カタ", "タカ", "カナ", "ナ", "한국", "국"}},
		{"digits stay with letters", "OCPP1.6J", []string{"ocpp1", "6j"}},
		{"empty", "  ,. ", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := Terms(c.in); !slices.Equal(got, c.want) {
				t.Errorf("Terms(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

func TestQueryTerms(t *testing.T) {
	for _, c := range []struct {
		name, in string
		want     []QueryTerm
	}{
		{"a two-character word is one bigram", "过温", []QueryTerm{{Text: "过温"}}},
		{"a longer word is all its bigrams, without its last character", "过温保护", []QueryTerm{{Text: "过温"}, {Text: "温保"}, {Text: "保护"}}},
		{"one character is a prefix", "温", []QueryTerm{{Text: "温", Prefix: true}}},
		{"words are deduplicated", "Fan fan 过温 过温", []QueryTerm{{Text: "fan"}, {Text: "过温"}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := QueryTerms(c.in); !slices.Equal(got, c.want) {
				t.Errorf("QueryTerms(%q) = %v, want %v", c.in, got, c.want)
			}
		})
	}
}

func TestHighlight(t *testing.T) {
	for _, c := range []struct {
		name, text, q string
		limit         int
		want          string
	}{
		{"a CJK word inside a sentence", "充电桩过温保护后自动恢复", "过温 恢复", 0, "充电桩<mark>过温</mark>保护后自动<mark>恢复</mark>"},
		{"overlapping bigrams merge", "过温保护", "过温保", 0, "<mark>过温保</mark>护"},
		{"latin whole words only, case kept", "Fan fans FAN", "fan", 0, "<mark>Fan</mark> fans <mark>FAN</mark>"},
		{"everything else escaped", "<b>x</b> & fan", "fan", 0, "&lt;b&gt;x&lt;/b&gt; &amp; <mark>fan</mark>"},
		{"an excerpt around the first match", "aaaa bbbb cccc dddd fan eeee", "fan", 8, "…d <mark>fan</mark> ee…"},
		{"no match: the start", "abcdef", "zzz", 3, "abc…"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := Highlight(c.text, QueryTerms(c.q), c.limit); got != c.want {
				t.Errorf("Highlight = %q, want %q", got, c.want)
			}
		})
	}
}
