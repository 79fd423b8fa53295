package agent

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	devreg "chargeops/internal/device"
)

// Defaults of the config file.
const (
	DefaultInterval       = 5 * time.Second
	DefaultMaxBufferBytes = 64 << 20
	minInterval           = 10 * time.Millisecond // below this a unit's Modbus link only queues reads
)

// Config is the agent's configuration: where chargeops' broker is, where readings wait for it,
// and the storage units of this site.
type Config struct {
	Broker         []string // mqtt://host:1883, mqtts://host:8883 (tried in order)
	TLS            TLSConfig
	BufferDir      string // one sub-directory per unit, named by its SN
	MaxBufferBytes int64  // per unit; over it the oldest readings are dropped
	Units          []UnitConfig
}

// TLSConfig is how the agent checks chargeops' broker and, optionally, proves itself to it.
type TLSConfig struct {
	CAFile             string // PEM roots; empty: the system's
	CertFile, KeyFile  string // a client certificate for every unit (a unit may have its own)
	InsecureSkipVerify bool   // only for a test bench: anyone can pose as the broker
}

// UnitConfig is one storage unit: its identity towards chargeops and where its Modbus server is.
type UnitConfig struct {
	SN       string        // the device's SN in chargeops; the MQTT username
	Key      string        // the device's key in chargeops; the MQTT password
	Modbus   string        // tcp://host:502
	UnitID   uint8         // the Modbus unit id (0 in the file: 1)
	Interval time.Duration // between reads
	// CertFile and KeyFile: this unit's client certificate, instead of TLS.CertFile/KeyFile.
	CertFile, KeyFile string
}

// The file's shape: durations and ids as written, checked and converted by Validate so each
// error names its field.
type fileConfig struct {
	Broker         brokerList `json:"broker"`
	TLS            fileTLS    `json:"tls"`
	BufferDir      string     `json:"bufferDir"`
	MaxBufferBytes int64      `json:"maxBufferBytes"`
	Units          []fileUnit `json:"units"`
}

type fileTLS struct {
	CAFile             string `json:"caFile"`
	CertFile           string `json:"certFile"`
	KeyFile            string `json:"keyFile"`
	InsecureSkipVerify bool   `json:"insecureSkipVerify"`
}

type fileUnit struct {
	SN       string `json:"sn"`
	Key      string `json:"key"`
	Modbus   string `json:"modbus"`
	UnitID   int    `json:"unitId"`
	Interval string `json:"interval"`
	CertFile string `json:"certFile"`
	KeyFile  string `json:"keyFile"`
}

// brokerList takes one URL or a list of them.
type brokerList []string

func (b *brokerList) UnmarshalJSON(data []byte) error {
	var one string
	if err := json.Unmarshal(data, &one); err == nil {
		*b = brokerList{one}
		return nil
	}
	var many []string
	if err := json.Unmarshal(data, &many); err != nil {
		return errors.New("broker: a URL or a list of URLs")
	}
	*b = many
	return nil
}

// LoadConfig reads the JSON config file at path. Relative file names in it (bufferDir, the TLS
// files) are relative to the file's directory, so a config moved with its files still works.
// A file for two units (unitId 0 or absent is 1; interval absent is 5s; maxBufferBytes absent
// is 64 MiB per unit; certFile/keyFile, in tls or per unit, only for client certificates):
//
//	{
//	  "broker": ["mqtts://chargeops.example.com:8883"],
//	  "tls": {"caFile": "ca.pem"},
//	  "bufferDir": "/var/lib/chargeops-agent",
//	  "maxBufferBytes": 67108864,
//	  "units": [
//	    {"sn": "ESS-0001", "key": "…", "modbus": "tcp://192.168.1.20:502", "unitId": 1, "interval": "5s"},
//	    {"sn": "ESS-0002", "key": "…", "modbus": "tcp://192.168.1.21:502"}
//	  ]
//	}
func LoadConfig(path string) (Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Config{}, fmt.Errorf("agent: load config: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields() // a misspelt field would otherwise be a silent default
	var f fileConfig
	if err := dec.Decode(&f); err != nil {
		return Config{}, fmt.Errorf("agent: load config %s: %w", path, err)
	}
	cfg, err := f.config(filepath.Dir(path))
	if err != nil {
		return Config{}, fmt.Errorf("agent: load config %s: %w", path, err)
	}
	if err := cfg.Validate(); err != nil {
		return Config{}, fmt.Errorf("agent: load config %s: %w", path, err)
	}
	return cfg, nil
}

// config converts the file's fields, resolving relative paths against dir.
func (f fileConfig) config(dir string) (Config, error) {
	rel := func(p string) string {
		if p == "" || filepath.IsAbs(p) {
			return p
		}
		return filepath.Join(dir, p)
	}
	cfg := Config{
		Broker:         f.Broker,
		TLS:            TLSConfig{CAFile: rel(f.TLS.CAFile), CertFile: rel(f.TLS.CertFile), KeyFile: rel(f.TLS.KeyFile), InsecureSkipVerify: f.TLS.InsecureSkipVerify},
		BufferDir:      rel(f.BufferDir),
		MaxBufferBytes: f.MaxBufferBytes,
	}
	for i, u := range f.Units {
		uc := UnitConfig{SN: u.SN, Key: u.Key, Modbus: u.Modbus, CertFile: rel(u.CertFile), KeyFile: rel(u.KeyFile)}
		if u.UnitID < 0 || u.UnitID > 255 {
			return Config{}, fmt.Errorf("units[%d].unitId: %d is not 0-255", i, u.UnitID)
		}
		uc.UnitID = uint8(u.UnitID)
		if u.Interval != "" {
			d, err := time.ParseDuration(u.Interval)
			if err != nil {
				return Config{}, fmt.Errorf("units[%d].interval: %q is not a duration like \"5s\"", i, u.Interval)
			}
			uc.Interval = d
		}
		cfg.Units = append(cfg.Units, uc)
	}
	return cfg, nil
}

// Validate fills the defaults and checks every field; an error names the field.
func (c *Config) Validate() error {
	if len(c.Broker) == 0 {
		return errors.New("broker: at least one URL is required")
	}
	for i, b := range c.Broker {
		if _, err := brokerURL(b); err != nil {
			return fmt.Errorf("broker[%d]: %w", i, err)
		}
	}
	if c.BufferDir == "" {
		return errors.New("bufferDir: required")
	}
	if c.MaxBufferBytes == 0 {
		c.MaxBufferBytes = DefaultMaxBufferBytes
	}
	if c.MaxBufferBytes < 0 {
		return fmt.Errorf("maxBufferBytes: %d is negative", c.MaxBufferBytes)
	}
	if (c.TLS.CertFile == "") != (c.TLS.KeyFile == "") {
		return errors.New("tls.certFile and tls.keyFile: both or neither")
	}
	if len(c.Units) == 0 {
		return errors.New("units: at least one unit is required")
	}
	seen := map[string]int{}
	for i := range c.Units {
		u := &c.Units[i]
		if err := u.validate(c.TLS.CertFile != ""); err != nil {
			return fmt.Errorf("units[%d].%w", i, err)
		}
		if j, dup := seen[u.SN]; dup {
			return fmt.Errorf("units[%d].sn: %q is also units[%d]'s", i, u.SN, j)
		}
		seen[u.SN] = i
	}
	return nil
}

// validate checks one unit; the error starts with the field's name.
func (u *UnitConfig) validate(sharedCert bool) error {
	if !devreg.ValidSN(u.SN) {
		return fmt.Errorf("sn: %q is not 4-48 letters, digits, '-' or '_'", u.SN)
	}
	if (u.CertFile == "") != (u.KeyFile == "") {
		return errors.New("certFile and keyFile: both or neither")
	}
	if u.Key == "" && u.CertFile == "" && !sharedCert {
		return errors.New("key: required (or a client certificate: certFile and keyFile)")
	}
	if u.Modbus == "" {
		return errors.New("modbus: required, like tcp://192.168.1.20:502")
	}
	if m, err := url.Parse(u.Modbus); err != nil || m.Scheme == "" || m.Host == "" && m.Path == "" {
		return fmt.Errorf("modbus: %q is not a URL like tcp://192.168.1.20:502", u.Modbus)
	}
	if u.UnitID == 0 {
		u.UnitID = 1 // 0 is Modbus broadcast, which no unit answers
	}
	if u.Interval == 0 {
		u.Interval = DefaultInterval
	}
	if u.Interval < minInterval {
		return fmt.Errorf("interval: %s is under %s", u.Interval, minInterval)
	}
	return nil
}

// brokerURL parses a broker address and adds the scheme's default port when it has none
// (autopaho dials the host as written).
func brokerURL(s string) (*url.URL, error) {
	u, err := url.Parse(s)
	if err != nil {
		return nil, fmt.Errorf("%q is not a URL", s)
	}
	var port string
	switch strings.ToLower(u.Scheme) {
	case "mqtt", "tcp":
		port = "1883"
	case "mqtts", "tls", "ssl":
		port = "8883"
	case "ws":
		port = "80"
	case "wss":
		port = "443"
	default:
		return nil, fmt.Errorf("%q: the scheme is not mqtt, mqtts, ws or wss", s)
	}
	if u.Hostname() == "" {
		return nil, fmt.Errorf("%q has no host", s)
	}
	if u.Port() == "" {
		u.Host = net.JoinHostPort(u.Hostname(), port)
	}
	return u, nil
}
