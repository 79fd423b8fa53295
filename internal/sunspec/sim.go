package sunspec

import (
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"strconv"
	"sync"
	"time"

	"github.com/simonvetter/modbus"
)

// simVersion is the firmware version the simulator reports (model 1 Vr).
const simVersion = "1.0.0"

// SimOptions configure a simulated storage system; zero values take the defaults noted.
type SimOptions struct {
	Addr                  string  // host:port to listen on; "127.0.0.1:0" (a free port) by default
	UnitID                uint8   // 1 by default; the unit also answers unit 255
	Vendor, Model, Serial string  // model 1 Mn, Md, SN
	CapacityWh            float64 // 100 kWh by default
	RatedPowerW           float64 // 50 kW by default, charge and discharge
	SoC                   float64 // starting state of charge, %; 0 means 50
	// ChargedWh and DischargedWh start the energy registers (a battery that has run before:
	// the demo goes on from its history)
	ChargedWh, DischargedWh float64
	Clock                   func() time.Time
	// Profile gives the site's load and PV at t; nil: a day curve (dayProfile).
	Profile func(t time.Time) (loadW, pvW float64)
}

// Sim is a simulated battery storage system (BMS and PCS) serving SunSpec models 1, 701, 702,
// 704, 802, 803 (one string), the chargeops vendor model and the end model over Modbus TCP.
type Sim struct {
	opt     SimOptions
	url     string
	server  *modbus.ModbusServer
	stop    chan struct{}
	stopped sync.WaitGroup

	mu       sync.Mutex
	st       simState
	img      *simImage
	writers  map[uint16]simWriter
	writes   int
	lastTick time.Time
}

// quiet keeps the Modbus library's logging off stdout: errors reach callers as errors.
var quiet = log.New(io.Discard, "", 0)

// StartSim starts a simulator listening on opt.Addr and a ticker that advances its physics
// every second by the time opt.Clock says has passed.
func StartSim(opt SimOptions) (*Sim, error) {
	opt = simDefaults(opt)
	s := &Sim{opt: opt, img: newSimImage(opt), stop: make(chan struct{})}
	s.writers = s.img.writers()
	s.st = simState{
		capWh: opt.CapacityWh, ratedW: opt.RatedPowerW,
		soc: min(max(opt.SoC, 0), 100), soh: 98.5,
		mode: 0, peakLimitW: opt.RatedPowerW / 2,
		reserveSoC: 30, minSoC: 10, maxSoC: 95,
		setOp: setOpConnect, setInvState: setInvStateStarted,
		wSetEna: wSetDisabled, wSetMod: wSetModWatts,
		alarms: map[string]bool{}, tempC: simAmbientC,
		chargedWh: max(opt.ChargedWh, 0), dischargedWh: max(opt.DischargedWh, 0),
	}
	s.lastTick = opt.Clock()
	s.settle(0)

	if err := s.listen(); err != nil {
		return nil, fmt.Errorf("sunspec: start sim: %w", err)
	}
	s.stopped.Add(1)
	go s.tick()
	return s, nil
}

func simDefaults(opt SimOptions) SimOptions {
	if opt.Addr == "" {
		opt.Addr = "127.0.0.1:0"
	}
	if opt.UnitID == 0 {
		opt.UnitID = 1
	}
	if opt.Vendor == "" {
		opt.Vendor = "ChargeOps"
	}
	if opt.Model == "" {
		opt.Model = "Simulated ESS"
	}
	if opt.Serial == "" {
		opt.Serial = "SIM-0001"
	}
	if opt.CapacityWh <= 0 {
		opt.CapacityWh = 100_000
	}
	if opt.RatedPowerW <= 0 {
		opt.RatedPowerW = 50_000
	}
	if opt.SoC == 0 {
		opt.SoC = 50
	}
	if opt.Clock == nil {
		opt.Clock = time.Now
	}
	if opt.Profile == nil {
		opt.Profile = dayProfile(opt.RatedPowerW)
	}
	return opt
}

// listen starts the Modbus server. The library cannot report the port it bound, so for port 0
// a free port is found by listening and closing first; another process may take it in
// between, hence the retries.
func (s *Sim) listen() error {
	host, port, err := net.SplitHostPort(s.opt.Addr)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	tries := 1
	if port == "0" {
		tries = 5
	}
	for i := range tries {
		p := port
		if port == "0" {
			if p, err = freePort(host); err != nil {
				return fmt.Errorf("listen: %w", err)
			}
		}
		addr := net.JoinHostPort(host, p)
		srv, err := modbus.NewServer(&modbus.ServerConfiguration{
			URL: "tcp://" + addr, MaxClients: 16, Timeout: 10 * time.Minute, Logger: quiet,
		}, simHandler{s})
		if err != nil {
			return fmt.Errorf("listen: %w", err)
		}
		if err = srv.Start(); err == nil {
			s.server, s.url = srv, "tcp://"+addr
			return nil
		}
		if i == tries-1 {
			return fmt.Errorf("listen on %s: %w", addr, err)
		}
	}
	return errors.New("listen: no free port")
}

func freePort(host string) (string, error) {
	l, err := net.Listen("tcp", net.JoinHostPort(host, "0"))
	if err != nil {
		return "", err
	}
	defer l.Close()
	return strconv.Itoa(l.Addr().(*net.TCPAddr).Port), nil
}

// URL is the simulator's address for Dial, "tcp://127.0.0.1:port".
func (s *Sim) URL() string { return s.url }

// Close stops the ticker and the server, dropping every client connection.
func (s *Sim) Close() error {
	select {
	case <-s.stop:
		return nil
	default:
	}
	close(s.stop)
	s.stopped.Wait()
	if err := s.server.Stop(); err != nil {
		return fmt.Errorf("sunspec: close sim: %w", err)
	}
	return nil
}

// tick advances the physics by the clock's elapsed time every second. A clock that stands
// still (a test's) leaves the state to Step.
func (s *Sim) tick() {
	defer s.stopped.Done()
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-s.stop:
			return
		case <-t.C:
			s.mu.Lock()
			now := s.opt.Clock()
			if dt := now.Sub(s.lastTick); dt > 0 {
				// A suspended host must not drain the battery in one step.
				s.settle(min(dt, time.Hour))
			}
			s.lastTick = now
			s.mu.Unlock()
		}
	}
}

// settle steps the state by dt with the site as the profile gives it now and renders the
// registers; the caller holds s.mu.
func (s *Sim) settle(dt time.Duration) {
	load, pv := s.opt.Profile(s.opt.Clock())
	s.st.step(dt, load, pv)
	s.img.render(&s.st)
}

// Step advances the physics by dt, the site taken at the clock's current time.
func (s *Sim) Step(dt time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.settle(dt)
}

// SetAlarm raises or clears an ess alarm code by setting its SunSpec bit (802 Evt1 for BMS
// codes, the vendor PCSAlrm and, where an official bit exists, 701 Alrm for PCS codes). A
// fault code stops the unit until it is cleared and a faultReset is written. A code without a
// bit is ignored.
func (s *Sim) SetAlarm(code string, active bool) {
	if !knownAlarm(code) {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.st.alarms[code] = active
	if active && isFault(code) {
		s.st.faulted = true
	}
	s.settle(0)
}

// Values are the simulator's current values in ess names.
func (s *Sim) Values() map[string]any {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.st.values()
}

// Writes is the number of register write requests the simulator has received.
func (s *Sim) Writes() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.writes
}

// simHandler serves the register image; only holding registers exist.
type simHandler struct{ s *Sim }

func (h simHandler) HandleCoils(*modbus.CoilsRequest) ([]bool, error) {
	return nil, modbus.ErrIllegalFunction
}

func (h simHandler) HandleDiscreteInputs(*modbus.DiscreteInputsRequest) ([]bool, error) {
	return nil, modbus.ErrIllegalFunction
}

func (h simHandler) HandleInputRegisters(*modbus.InputRegistersRequest) ([]uint16, error) {
	return nil, modbus.ErrIllegalFunction
}

func (h simHandler) HandleHoldingRegisters(req *modbus.HoldingRegistersRequest) ([]uint16, error) {
	s := h.s
	if req.UnitId != s.opt.UnitID && req.UnitId != 0xFF {
		return nil, modbus.ErrGWTargetFailedToRespond
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if req.IsWrite {
		s.writes++
		return nil, s.write(req.Addr, req.Args)
	}
	start, end := int(req.Addr)-simBase, int(req.Addr)-simBase+int(req.Quantity)
	if start < 0 || end > len(s.img.r) {
		return nil, modbus.ErrIllegalDataAddress
	}
	return append([]uint16(nil), s.img.r[start:end]...), nil
}
