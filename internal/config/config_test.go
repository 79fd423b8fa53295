package config

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"chargeops/internal/tlsconf"
)

func TestLoadOrder(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "c.json")
	if err := os.WriteFile(file, []byte(`{"addr": ":9000", "captcha": false, "session-idle": "10m", "time-zone": "UTC"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"CHARGEOPS_ADDR": ":9100", "CHARGEOPS_DEFAULT_LOCALE": "zh-CN"}
	cfg, err := Load(flag.NewFlagSet("t", flag.ContinueOnError), []string{"--config", file, "--addr", ":9200", "--captcha"},
		func(k string) (string, bool) { v, ok := env[k]; return v, ok })
	if err != nil {
		t.Fatal(err)
	}
	t.Run("a flag wins over the environment and the file", func(t *testing.T) {
		if cfg.Addr != ":9200" || !cfg.Captcha {
			t.Fatalf("addr %q captcha %v", cfg.Addr, cfg.Captcha)
		}
	})
	t.Run("the environment wins over the file and the default", func(t *testing.T) {
		if cfg.DefaultLocale != "zh-CN" {
			t.Fatalf("default locale %q", cfg.DefaultLocale)
		}
	})
	t.Run("the file wins over the default", func(t *testing.T) {
		if cfg.SessionIdle != 10*time.Minute || cfg.TimeZone != "UTC" {
			t.Fatalf("session idle %s, time zone %q", cfg.SessionIdle, cfg.TimeZone)
		}
	})
}

func TestBadValuesAreRefused(t *testing.T) {
	for _, args := range [][]string{{"--session-idle", "soon"}, {"--default-locale", "fr"}, {"--time-zone", "Mars/Base"}, {"--smtp-port", "x"},
		{"--ocpp-tls-cert", "ec.crt,rsa.crt", "--ocpp-tls-key", "ec.key"}, {"--ocpp-tls-cert", "ec.crt"}, {"--ocpp-tls-rsa-key-exchange"}, {"--ocpp-client-ca", "cpca.crt"},
		{"--cp-ca-cert", "ca.crt"}, {"--cp-ca-key", "ca.key"}, {"--cp-cert-days", "0"}, {"--cp-cert-days", "3651"},
		{"--ocpp-client-cert-header", "X-SSL-Client-Cert"}, {"--ocpp-trusted-proxies", "10.0.0.1"}, {"--ocpp-client-cert-header", "X-C", "--ocpp-trusted-proxies", "proxy.lan"}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			if _, err := Load(flag.NewFlagSet("t", flag.ContinueOnError), args, func(string) (string, bool) { return "", false }); err == nil {
				t.Errorf("%v accepted", args)
			}
		})
	}
}

func TestOCPPTLSPairs(t *testing.T) {
	c, err := Load(flag.NewFlagSet("t", flag.ContinueOnError), []string{"--ocpp-tls-cert", "ec.crt, rsa.crt", "--ocpp-tls-key", "ec.key,rsa.key,"}, func(string) (string, bool) { return "", false })
	if err != nil {
		t.Fatal(err)
	}
	if got := c.OCPPTLSPairs(); len(got) != 2 || got[0] != (tlsconf.Pair{Cert: "ec.crt", Key: "ec.key"}) || got[1] != (tlsconf.Pair{Cert: "rsa.crt", Key: "rsa.key"}) {
		t.Fatalf("pairs %v", got)
	}
}

func TestOCPPCertProxies(t *testing.T) {
	c, err := Load(flag.NewFlagSet("t", flag.ContinueOnError), []string{"--ocpp-client-cert-header", "X-SSL-Client-Cert", "--ocpp-trusted-proxies", "10.0.0.7, 192.168.4.0/22,::ffff:172.16.0.1",
		"--ocpp-client-ca", "cpca.crt"}, func(string) (string, bool) { return "", false })
	if err != nil {
		t.Fatal(err)
	}
	got, _ := c.OCPPCertProxies()
	if len(got) != 3 || got[0].String() != "10.0.0.7/32" || got[1].String() != "192.168.4.0/22" || got[2].String() != "172.16.0.1/32" {
		t.Fatalf("proxies %v", got)
	}
}

func TestEveryOptionIsDocumented(t *testing.T) {
	doc, err := os.ReadFile("../../docs/configuration.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range Options() {
		t.Run("--"+o.Name, func(t *testing.T) {
			if !strings.Contains(string(doc), "`--"+o.Name+"`") || !strings.Contains(string(doc), o.Env) {
				t.Errorf("docs/configuration.md does not document --%s / %s", o.Name, o.Env)
			}
		})
	}
}
