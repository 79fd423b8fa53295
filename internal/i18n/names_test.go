package i18n_test

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"chargeops/internal/i18n"
)

// TestEventNamesMatchTheConsole: one naming of events and levels (issue 30 item 4): every OCPP
// error code and alarm level the console names (web/src/locales) has the same name on the
// server (alarm mail), in both languages.
func TestEventNamesMatchTheConsole(t *testing.T) {
	entry := regexp.MustCompile(`'(ocpp\.error\.\w+|event\.level\.\d)': '([^']*)'`)
	for _, loc := range []string{"en-US", "zh-CN"} {
		seen := 0
		for _, file := range []string{"names.ts", "fleet.ts"} {
			src, err := os.ReadFile("../../web/src/locales/" + loc + "/" + file)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range entry.FindAllStringSubmatch(string(src), -1) {
				seen++
				var got string
				if code, ok := strings.CutPrefix(m[1], "ocpp.error."); ok {
					got = i18n.EventName(loc, code, "")
				} else {
					got = i18n.T(loc, m[1], nil)
				}
				if got != m[2] {
					t.Errorf("%s %s: the server says %q, the console %q", loc, m[1], got, m[2])
				}
			}
		}
		if seen < 19 {
			t.Fatalf("%s: only %d names found in the console's locales", loc, seen)
		}
	}
	if got := i18n.EventName("zh-CN", "E-207", "Fan stall"); got != "Fan stall" {
		t.Errorf("a vendor's own code keeps its stored name, got %q", got)
	}
	if got := i18n.LevelName("zh-CN", 2); got != "CA（紧急）" {
		t.Errorf("level 2 in zh-CN: %q", got)
	}
}
