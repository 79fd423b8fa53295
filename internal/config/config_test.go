package config

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestLoadOrder(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "c.json")
	os.WriteFile(file, []byte(`{"addr": ":9000", "captcha": false, "session-idle": "10m", "time-zone": "UTC"}`), 0o600)
	env := map[string]string{"CHARGEOPS_ADDR": ":9100", "CHARGEOPS_DEFAULT_LOCALE": "zh-CN"}
	cfg, err := Load(flag.NewFlagSet("t", flag.ContinueOnError), []string{"--config", file, "--addr", ":9200", "--captcha"},
		func(k string) (string, bool) { v, ok := env[k]; return v, ok })
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Addr != ":9200" || !cfg.Captcha || cfg.SessionIdle != 10*time.Minute || cfg.DefaultLocale != "zh-CN" || cfg.TimeZone != "UTC" {
		t.Fatalf("unexpected %+v", cfg)
	}
}

func TestBadValuesAreRefused(t *testing.T) {
	for _, args := range [][]string{{"--session-idle", "soon"}, {"--default-locale", "fr"}, {"--time-zone", "Mars/Base"}, {"--smtp-port", "x"}} {
		if _, err := Load(flag.NewFlagSet("t", flag.ContinueOnError), args, func(string) (string, bool) { return "", false }); err == nil {
			t.Errorf("%v accepted", args)
		}
	}
}

func TestEveryOptionIsDocumented(t *testing.T) {
	doc, err := os.ReadFile("../../docs/configuration.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range Options() {
		if !strings.Contains(string(doc), "`--"+o.Name+"`") || !strings.Contains(string(doc), o.Env) {
			t.Errorf("docs/configuration.md does not document --%s / %s", o.Name, o.Env)
		}
	}
}
