package i18n

import "testing"

func TestEveryMessageHasBothLocales(t *testing.T) {
	for key, m := range messages {
		if m[0] == "" || m[1] == "" {
			t.Errorf("%s lacks a translation", key)
		}
	}
}

func TestNormalizeAndPlaceholders(t *testing.T) {
	for in, want := range map[string]string{"zh-CN,zh;q=0.9": ZhCN, "en-GB": EnUS, "fr-FR, zh-TW;q=0.5": ZhCN, "": ""} {
		if got := Normalize(in); got != want {
			t.Errorf("Normalize(%q) = %q, want %q", in, got, want)
		}
	}
	if got := T(EnUS, "err.required", map[string]any{"field": "name"}); got != "name cannot be empty" {
		t.Fatal(got)
	}
}
