package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"

	"chargeops/internal/config"
	demoseed "chargeops/internal/demo"
)

func TestDemoHelpDescribesDemo(t *testing.T) {
	var out bytes.Buffer
	_, err := load("demo", []string{"--help"}, func(fs *flag.FlagSet) { fs.SetOutput(&out) })
	if !errors.Is(err, flag.ErrHelp) {
		t.Fatalf("want ErrHelp, got %v", err)
	}
	help := out.String()
	for _, want := range []string{"Usage: chargeops demo [options]", "demo organisation", "--demo-password", "-addr"} {
		if !strings.Contains(help, want) {
			t.Errorf("demo --help lacks %q:\n%s", want, help)
		}
	}
	if strings.Contains(help, "Usage of serve") || strings.Contains(help, "chargeops serve") {
		t.Errorf("demo --help describes serve:\n%s", help)
	}
}

// TestHelpPrintsNoPanic: flag.PrintDefaults calls String on a zero value of every flag's type; the
// boolean options' wrapper used to panic there, one "panic calling String method" line per option.
func TestHelpPrintsNoPanic(t *testing.T) {
	for _, cmd := range []string{"demo", "serve"} {
		t.Run(cmd, func(t *testing.T) {
			var out bytes.Buffer
			_, err := load(cmd, []string{"--help"}, func(fs *flag.FlagSet) { fs.SetOutput(&out) })
			if !errors.Is(err, flag.ErrHelp) {
				t.Fatalf("want ErrHelp, got %v", err)
			}
			help := out.String()
			if strings.Contains(help, "panic") {
				t.Fatalf("%s --help prints a panic:\n%s", cmd, help)
			}
			if !strings.Contains(help, "-captcha") {
				t.Fatalf("%s --help lacks the boolean option captcha:\n%s", cmd, help)
			}
		})
	}
}

func TestDemoSignInsPrinted(t *testing.T) {
	accounts := []demoseed.Account{{UserName: "sz_staff", Role: "Customer staff"}}
	t.Run("on a restart: what still exists, without claiming the passwords", func(t *testing.T) {
		var out bytes.Buffer
		printDemoSignIns(&out, false, true, "ignored", accounts)
		s := out.String()
		if !strings.Contains(s, "sign in as admin_root") || !strings.Contains(s, "or as sz_staff") || !strings.Contains(s, "unless changed since") || strings.Contains(s, "ignored") {
			t.Fatal(s)
		}
	})
	t.Run("the super admin gone", func(t *testing.T) {
		var out bytes.Buffer
		printDemoSignIns(&out, false, false, "", nil)
		if !strings.Contains(out.String(), "no longer exists") {
			t.Fatal(out.String())
		}
	})
}

// L4 (issue 29), decisions §6: the demo's choice on keyless chargers is explicit: its default,
// serve's (refused: new installs require a key or a client certificate), what a flag makes of
// it, and the line it logs at start.
func TestDemoRequireDeviceKeysIsExplicit(t *testing.T) {
	for _, c := range []struct {
		name string
		args []string
		want bool
	}{
		{"serve by default", nil, true},
		{"demo by default", nil, config.DemoRequireDeviceKeys},
		{"demo with the flag", []string{"--require-device-keys"}, true},
		{"serve with the flag off", []string{"--require-device-keys=false"}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			cmd := strings.Fields(c.name)[0]
			cfg, err := load(cmd, c.args, func(fs *flag.FlagSet) { fs.SetOutput(io.Discard) })
			if err != nil {
				t.Fatal(err)
			}
			if cfg.RequireDeviceKeys != c.want {
				t.Fatalf("require-device-keys %v, want %v", cfg.RequireDeviceKeys, c.want)
			}
			var out bytes.Buffer
			logDemoAdmission(slog.New(slog.NewTextHandler(&out, nil)), cfg)
			want := fmt.Sprintf(`msg="demo charger admission" require_device_keys=%v`, c.want)
			if !strings.Contains(out.String(), want) {
				t.Fatalf("logged %q, want %q", out.String(), want)
			}
		})
	}
	t.Run("the demo's banner says whether keyless chargers are admitted", func(t *testing.T) {
		for _, c := range []struct {
			require bool
			want    string
		}{{false, "admitted by their SN: a demo choice; chargeops serve refuses them"}, {true, "refused (--require-device-keys)"}} {
			var out bytes.Buffer
			printDemoAdmission(&out, c.require)
			if !strings.Contains(out.String(), c.want) {
				t.Errorf("require %v: banner %q, want %q", c.require, out.String(), c.want)
			}
		}
	})
	t.Run("the help names both defaults", func(t *testing.T) {
		var out bytes.Buffer
		_, _ = load("demo", []string{"--help"}, func(fs *flag.FlagSet) { fs.SetOutput(&out) })
		if !strings.Contains(out.String(), "on by default for serve, off for chargeops demo") {
			t.Fatalf("demo --help does not state the defaults:\n%s", out.String())
		}
	})
}
