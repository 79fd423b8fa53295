// Package agent is the edge agent that runs on a site gateway: it reads the site's storage
// units (BMS and PCS behind a SunSpec Modbus server), publishes them to chargeops over MQTT in
// scheme v1 (internal/mqttwire, docs/mqtt.md), and turns chargeops' commands into device
// actions. Each unit has its own MQTT connection and credentials, and its own disk buffer, so
// readings taken while chargeops is out of reach are delivered, in order, once it is back.
package agent

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"path/filepath"
	"sync"
	"time"
)

// Name is the agent's name in a unit's attributes (Attributes.Agent: "chargeops-agent/<version>").
const Name = "chargeops-agent"

// Options change how Run reaches units and keeps time; the zero value is production.
type Options struct {
	// Dial connects to a unit; nil dials its Modbus server (DialModbus).
	Dial func(ctx context.Context, unit UnitConfig) (Source, error)
	// Now is the clock of readings, alarm reports and command expiry; nil is time.Now.
	Now func() time.Time
	// Version goes into the birth's attributes; empty is "dev".
	Version string
	// ReconnectDelay is the wait between MQTT connection attempts; zero backs off from 1 s to
	// 2 min with jitter, so a broker coming back is not hit by every gateway at once.
	ReconnectDelay time.Duration
	// AckTimeout is how long a message waits for chargeops' ack before it is sent again; zero
	// is 30 s.
	AckTimeout time.Duration

	// connectTimeout bounds one connection attempt (zero: 10 s); tests shorten it, as a broker
	// shutting down may accept a connection and never answer it.
	connectTimeout time.Duration
}

// Stats are one unit's counters since the agent started.
type Stats struct {
	Buffered  int    // readings on disk waiting for an ack
	Published uint64 // readings sent (a reading sent again counts again)
	Acked     uint64 // readings chargeops acknowledged as stored
	Dropped   uint64 // readings lost: refused by chargeops (ack ok:false) or over maxBufferBytes
	Connected bool   // the unit's MQTT connection is up
}

// Agent runs the units of one config. Build it with New; Run it once.
type Agent struct {
	log   *slog.Logger
	units []*unit
}

// Run runs the units of cfg until ctx ends (see Agent.Run).
func Run(ctx context.Context, cfg Config, log *slog.Logger, opts Options) error {
	a, err := New(cfg, log, opts)
	if err != nil {
		return err
	}
	return a.Run(ctx)
}

// New checks cfg and opens every unit's buffer; nothing connects until Run.
func New(cfg Config, log *slog.Logger, opts Options) (*Agent, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("agent: config: %w", err)
	}
	if log == nil {
		log = slog.Default()
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Version == "" {
		opts.Version = "dev"
	}
	if opts.AckTimeout == 0 {
		opts.AckTimeout = 30 * time.Second
	}
	if opts.connectTimeout == 0 {
		opts.connectTimeout = 10 * time.Second
	}
	if opts.Dial == nil {
		opts.Dial = func(ctx context.Context, u UnitConfig) (Source, error) {
			return DialModbus(ctx, u.Modbus, u.UnitID, modbusTimeout)
		}
	}
	var urls []*url.URL
	for _, b := range cfg.Broker {
		u, err := brokerURL(b)
		if err != nil {
			return nil, fmt.Errorf("agent: config: broker: %w", err)
		}
		urls = append(urls, u)
	}
	a := &Agent{log: log}
	started := opts.Now()
	for _, uc := range cfg.Units {
		tlsCfg, err := tlsConfig(cfg.TLS, uc)
		if err != nil {
			a.closeBuffers()
			return nil, fmt.Errorf("agent: unit %s: %w", uc.SN, err)
		}
		buf, err := openBuffer(filepath.Join(cfg.BufferDir, uc.SN), cfg.MaxBufferBytes)
		if err != nil {
			a.closeBuffers()
			return nil, fmt.Errorf("agent: unit %s: %w", uc.SN, err)
		}
		a.units = append(a.units, newUnit(uc, unitDeps{
			log: log.With("sn", uc.SN), opts: opts, brokers: urls, tls: tlsCfg, buf: buf, started: started,
		}))
	}
	return a, nil
}

// Run runs every unit until ctx ends: each unit then publishes {"online":false} (retained)
// before it disconnects, so chargeops sees the agent stop rather than wait for a last will.
func (a *Agent) Run(ctx context.Context) error {
	var wg sync.WaitGroup
	errs := make([]error, len(a.units))
	for i, u := range a.units {
		wg.Go(func() { errs[i] = u.run(ctx) })
	}
	wg.Wait()
	return errors.Join(errs...)
}

// Stats returns the counters of the unit sn; ok is false for an SN not in the config.
func (a *Agent) Stats(sn string) (s Stats, ok bool) {
	for _, u := range a.units {
		if u.cfg.SN == sn {
			return u.stats(), true
		}
	}
	return Stats{}, false
}

func (a *Agent) closeBuffers() {
	for _, u := range a.units {
		_ = u.buf.close()
	}
}
