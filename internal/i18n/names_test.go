package i18n_test

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"chargeops/internal/i18n"
)

// One naming of events and levels (issue 30 item 4). The console's locale files
// (web/src/locales/*/names.ts, fleet.ts, message.ts) are the source; the server's table
// (messages_events.go, for alarm mail and webhooks) is checked against those very files, not a
// copy, in both directions: a name changed, added or removed on one side only fails here.

// consoleEntries reads the 'key': 'value' entries of the console's locale files of loc.
func consoleEntries(t *testing.T, loc string, files ...string) map[string]string {
	t.Helper()
	entry := regexp.MustCompile(`'([\w.]+)': '([^']*)'`)
	out := map[string]string{}
	for _, file := range files {
		src, err := os.ReadFile("../../web/src/locales/" + loc + "/" + file)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range entry.FindAllStringSubmatch(string(src), -1) {
			out[m[1]] = m[2]
		}
	}
	return out
}

func TestEventNamesMatchTheConsole(t *testing.T) {
	for _, loc := range []string{"en-US", "zh-CN"} {
		t.Run(loc, func(t *testing.T) {
			c := consoleEntries(t, loc, "names.ts", "fleet.ts", "message.ts")
			t.Run("OCPP error names and level names are the console's", func(t *testing.T) {
				errors := 0
				for key, want := range c {
					switch {
					case strings.HasPrefix(key, "ocpp.error."):
						errors++
						if got := i18n.EventName(loc, strings.TrimPrefix(key, "ocpp.error."), ""); got != want {
							t.Errorf("%s %s: the server says %q, the console %q", loc, key, got, want)
						}
					case regexp.MustCompile(`^event\.level\.\d$`).MatchString(key):
						if got := i18n.T(loc, key, nil); got != want {
							t.Errorf("%s %s: the server says %q, the console %q", loc, key, got, want)
						}
					}
				}
				if errors < 17 {
					t.Fatalf("%s: only %d OCPP error names found in the console's locales", loc, errors)
				}
			})
			// an OCPP error code or a connector status
			t.Run("every code the server names is named the same by the console", func(t *testing.T) {
				for _, code := range i18n.EventCodes() {
					want, ok := c["ocpp.error."+code]
					if !ok {
						want, ok = c["ocpp.connector."+code]
					}
					if !ok {
						t.Errorf("%s: the server names %s, the console does not", loc, code)
						continue
					}
					if got := i18n.EventName(loc, code, ""); got != want {
						t.Errorf("%s %s: the server says %q, the console %q", loc, code, got, want)
					}
				}
			})
			t.Run("an event in one line: the server's templates are the console's live notice's", func(t *testing.T) {
				for server, console := range map[string]string{"event.title": "message.notice.what", "event.title.noSite": "message.notice.whatNoSite",
					"event.levelled": "message.notice.levelled"} {
					want := strings.NewReplacer("{{", "{", "}}", "}").Replace(c[console])
					if got := i18n.T(loc, server, nil); want == "" || got != want {
						t.Errorf("%s %s: the server says %q, the console's %s %q", loc, server, got, console, want)
					}
				}
			})
		})
	}
	t.Run("the level codes are the console's LEVEL_CODES", func(t *testing.T) {
		src, err := os.ReadFile("../../web/src/utils/eventNames.ts")
		if err != nil {
			t.Fatal(err)
		}
		m := regexp.MustCompile(`LEVEL_CODES = \[([^\]]*)\]`).FindStringSubmatch(string(src))
		if m == nil {
			t.Fatal("LEVEL_CODES not found in web/src/utils/eventNames.ts")
		}
		var codes []string
		for i := 0; ; i++ {
			if c := i18n.LevelCode(i); c != "" && c[0] >= 'A' && c[0] <= 'Z' {
				codes = append(codes, "'"+c+"'")
				continue
			}
			break
		}
		if console := strings.Split(strings.ReplaceAll(m[1], " ", ""), ","); !slices.Equal(console, codes) {
			t.Errorf("level codes: the server has %v, the console %v", codes, console)
		}
	})
}

func TestEventLabelAndTitle(t *testing.T) {
	t.Run("a vendor's own code keeps its stored name", func(t *testing.T) {
		if got := i18n.EventName("zh-CN", "E-207", "Fan stall"); got != "Fan stall" {
			t.Errorf("a vendor's own code keeps its stored name, got %q", got)
		}
	})
	t.Run("a level is named with its code and its word", func(t *testing.T) {
		if got := i18n.LevelName("zh-CN", 2); got != "CA（紧急）" {
			t.Errorf("level 2 in zh-CN: %q", got)
		}
	})
	for _, c := range []struct {
		what                       string
		locale, code, name, vendor string
		label, beside              string
	}{
		{"a known code is labelled with the vendor's code beside", "en-US", "HighTemperature", "HighTemperature", "E-207", "High temperature", "E-207"},
		{"without a vendor's code the code is beside the label", "zh-CN", "HighTemperature", "HighTemperature", "", "温度过高", "HighTemperature"},
		{"OtherError is labelled with the vendor's code beside", "en-US", "OtherError", "E-9", "E-9", "Other error", "E-9"},
		{"a name that is the code is not shown twice", "en-US", "E-9", "E-9", "", "E-9", ""},
	} {
		t.Run(c.what, func(t *testing.T) {
			label, beside := i18n.EventLabel(c.locale, c.code, c.name, c.vendor)
			if label != c.label || beside != c.beside {
				t.Errorf("%+v: %q · %q", c, label, beside)
			}
		})
	}
	for _, c := range []struct {
		name         string
		locale, site string
		kind         int
		want         string
	}{
		{"an English title names charger, site, event, level and code", "en-US", "Kowloon Bay", 2, "HK-KB-01-08 at Kowloon Bay: High temperature (CA) · E-207"},
		{"a Chinese title puts the site first", "zh-CN", "Kowloon Bay", 2, "Kowloon Bay 的 HK-KB-01-08：温度过高（级别 CA） · E-207"},
		{"a title without a site", "en-US", "", 2, "HK-KB-01-08: High temperature (CA) · E-207"},
		{"offline and unavailable carry no level", "en-US", "Kowloon Bay", 0, "HK-KB-01-08 at Kowloon Bay: High temperature · E-207"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := i18n.EventTitle(c.locale, "HK-KB-01-08", c.site, c.kind, 2, "HighTemperature", "HighTemperature", "E-207"); got != c.want {
				t.Errorf("%s %q kind %d: %q, want %q", c.locale, c.site, c.kind, got, c.want)
			}
		})
	}
}
