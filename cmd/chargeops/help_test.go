package main

import (
	"bytes"
	"errors"
	"flag"
	"strings"
	"testing"

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
