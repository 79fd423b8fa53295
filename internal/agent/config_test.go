package agent

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func writeConfig(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "agent.json")
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestLoadConfig(t *testing.T) {
	t.Run("a full file with defaults filled", func(t *testing.T) {
		path := writeConfig(t, `{
			"broker": ["mqtts://chargeops.example.com", "mqtt://10.0.0.5:1883"],
			"tls": {"caFile": "/etc/chargeops-agent/ca.pem"},
			"bufferDir": "buffer",
			"units": [
				{"sn": "ESS-0001", "key": "k1", "modbus": "tcp://192.168.1.20:502", "unitId": 3, "interval": "2s"},
				{"sn": "ESS-0002", "key": "k2", "modbus": "tcp://192.168.1.21:502"}
			]
		}`)
		cfg, err := LoadConfig(path)
		if err != nil {
			t.Fatal(err)
		}
		if cfg.BufferDir != filepath.Join(filepath.Dir(path), "buffer") {
			t.Errorf("bufferDir = %s, want it relative to the file", cfg.BufferDir)
		}
		if cfg.TLS.CAFile != "/etc/chargeops-agent/ca.pem" {
			t.Errorf("caFile = %s", cfg.TLS.CAFile)
		}
		if cfg.MaxBufferBytes != DefaultMaxBufferBytes {
			t.Errorf("maxBufferBytes = %d, want the default", cfg.MaxBufferBytes)
		}
		u0, u1 := cfg.Units[0], cfg.Units[1]
		if u0.UnitID != 3 || u0.Interval != 2*time.Second {
			t.Errorf("unit 0 = %+v", u0)
		}
		if u1.UnitID != 1 || u1.Interval != DefaultInterval {
			t.Errorf("unit 1 defaults = %+v", u1)
		}
		if u, err := brokerURL(cfg.Broker[0]); err != nil || u.Host != "chargeops.example.com:8883" {
			t.Errorf("mqtts without a port = %v %v, want port 8883", u, err)
		}
	})

	unit := `{"sn": "ESS-0001", "key": "k", "modbus": "tcp://10.0.0.9:502"}`
	for _, tc := range []struct {
		name, body, field string
	}{
		{"no broker", `{"bufferDir": "b", "units": [` + unit + `]}`, "broker"},
		{"a broker of another scheme", `{"broker": "http://x", "bufferDir": "b", "units": [` + unit + `]}`, "broker[0]"},
		{"no buffer dir", `{"broker": "mqtt://x", "units": [` + unit + `]}`, "bufferDir"},
		{"no units", `{"broker": "mqtt://x", "bufferDir": "b", "units": []}`, "units"},
		{"a bad SN", `{"broker": "mqtt://x", "bufferDir": "b", "units": [{"sn": "a b", "key": "k", "modbus": "tcp://h:502"}]}`, "units[0].sn"},
		{"a repeated SN", `{"broker": "mqtt://x", "bufferDir": "b", "units": [` + unit + `,` + unit + `]}`, "units[1].sn"},
		{"no key nor certificate", `{"broker": "mqtt://x", "bufferDir": "b", "units": [{"sn": "ESS-0001", "modbus": "tcp://h:502"}]}`, "units[0].key"},
		{"no modbus", `{"broker": "mqtt://x", "bufferDir": "b", "units": [{"sn": "ESS-0001", "key": "k"}]}`, "units[0].modbus"},
		{"a bad interval", `{"broker": "mqtt://x", "bufferDir": "b", "units": [{"sn": "ESS-0001", "key": "k", "modbus": "tcp://h:502", "interval": "5"}]}`, "units[0].interval"},
		{"a unit id over 255", `{"broker": "mqtt://x", "bufferDir": "b", "units": [{"sn": "ESS-0001", "key": "k", "modbus": "tcp://h:502", "unitId": 300}]}`, "units[0].unitId"},
		{"a cert without its key", `{"broker": "mqtt://x", "bufferDir": "b", "units": [{"sn": "ESS-0001", "key": "k", "modbus": "tcp://h:502", "certFile": "c.pem"}]}`, "units[0].certFile"},
		{"a misspelt field", `{"brokers": "mqtt://x", "bufferDir": "b", "units": [` + unit + `]}`, `"brokers"`},
		{"a negative limit", `{"broker": "mqtt://x", "bufferDir": "b", "maxBufferBytes": -1, "units": [` + unit + `]}`, "maxBufferBytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := LoadConfig(writeConfig(t, tc.body))
			if err == nil || !strings.Contains(err.Error(), tc.field) {
				t.Errorf("error = %v, want one naming %s", err, tc.field)
			}
		})
	}
}
