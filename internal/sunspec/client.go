package sunspec

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/simonvetter/modbus"
)

// Client reads and writes one SunSpec device over Modbus TCP. Its methods are safe for
// concurrent use; they run one at a time.
type Client struct {
	url     string
	unit    uint8
	timeout time.Duration

	mu     sync.Mutex
	mb     *modbus.ModbusClient // nil after a connection error: the next call dials again
	dev    *Device              // nil until discovered on the current connection
	writes int                  // write requests sent, so a command knows whether it may be retried
}

// Device is what discovery found: the base address, the models in order (the end model
// left out), the common model's strings and the ratings.
type Device struct {
	Base                           uint16
	Models                         []ModelRef
	Vendor, Model, Serial, Version string
	CapacityWh, RatedPowerW        float64
}

// ModelRef is one model in the chain: its ID, the address of its ID register and its length L
// (registers after ID and L).
type ModelRef struct {
	ID, Addr, Len uint16
}

// bases are where a SunSpec device may place its "SunS" marker, in the order they are tried.
var bases = []uint16{40000, 0, 50000}

// maxRead is the most registers one Modbus read may ask for.
const maxRead = 125

// knownModels are the layouts this package decodes, by model ID.
var knownModels = map[uint16]*model{
	idCommon: modelCommon, idDERMeasureAC: modelDERMeasureAC, idDERCapacity: modelDERCapacity,
	idDERCtlAC: modelDERCtlAC, idBattery: modelBattery, idLiIonBank: modelLiIonBank, idVendor: modelVendor,
}

// Dial connects to url ("tcp://host:port") and discovers the device. timeout bounds each
// request (3 s when 0).
func Dial(ctx context.Context, url string, unitID uint8, timeout time.Duration) (*Client, error) {
	if timeout <= 0 {
		timeout = 3 * time.Second
	}
	c := &Client{url: url, unit: unitID, timeout: timeout}
	if _, err := c.Discover(ctx); err != nil {
		return nil, fmt.Errorf("sunspec: dial: %w", err)
	}
	return c, nil
}

// Close closes the connection.
func (c *Client) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.mb == nil {
		return nil
	}
	err := c.mb.Close()
	c.mb, c.dev = nil, nil
	if err != nil {
		return fmt.Errorf("sunspec: close: %w", err)
	}
	return nil
}

// Discover finds the base address and walks the model chain to the end model, connecting
// first if needed. It can be called again at any time, for example after the device was
// replaced.
func (c *Client) Discover(ctx context.Context) (Device, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.connect(ctx); err != nil {
		return Device{}, err
	}
	if err := c.discover(ctx); err != nil {
		return Device{}, err
	}
	return *c.dev, nil
}

// connect dials if there is no connection; the caller holds c.mu.
func (c *Client) connect(ctx context.Context) error {
	if c.mb != nil {
		return nil
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("sunspec: connect: %w", err)
	}
	mb, err := modbus.NewClient(&modbus.ClientConfiguration{URL: c.url, Timeout: c.timeout, Logger: quiet})
	if err != nil {
		return fmt.Errorf("sunspec: connect %s: %w", c.url, err)
	}
	if err := mb.Open(); err != nil {
		return fmt.Errorf("sunspec: connect %s: %w", c.url, err)
	}
	if err := mb.SetUnitId(c.unit); err != nil {
		mb.Close()
		return fmt.Errorf("sunspec: connect %s: %w", c.url, err)
	}
	c.mb, c.dev = mb, nil
	return nil
}

// ensure connects and discovers as needed; the caller holds c.mu.
func (c *Client) ensure(ctx context.Context) error {
	if err := c.connect(ctx); err != nil {
		return err
	}
	if c.dev == nil {
		return c.discover(ctx)
	}
	return nil
}

// drop forgets a broken connection so the next call dials and discovers again.
func (c *Client) drop() {
	if c.mb != nil {
		c.mb.Close()
	}
	c.mb, c.dev = nil, nil
}

// isConnErr tells a broken or confused connection from a Modbus exception, which the device
// answered properly and which leaves the connection usable.
func isConnErr(err error) bool {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false
	}
	var me modbus.Error
	if errors.As(err, &me) {
		switch me {
		case modbus.ErrIllegalFunction, modbus.ErrIllegalDataAddress, modbus.ErrIllegalDataValue,
			modbus.ErrServerDeviceFailure, modbus.ErrAcknowledge, modbus.ErrServerDeviceBusy,
			modbus.ErrMemoryParityError, modbus.ErrGWPathUnavailable, modbus.ErrGWTargetFailedToRespond:
			return false
		}
	}
	return true
}

// read reads qty holding registers from addr in requests of at most maxRead.
func (c *Client) read(ctx context.Context, addr, qty uint16) ([]uint16, error) {
	out := make([]uint16, 0, qty)
	for done := uint16(0); done < qty; {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("sunspec: read %d: %w", addr+done, err)
		}
		n := min(qty-done, maxRead)
		r, err := c.mb.ReadRegisters(addr+done, n, modbus.HOLDING_REGISTER)
		if err != nil {
			if isConnErr(err) {
				c.drop()
			}
			return nil, fmt.Errorf("sunspec: read %d+%d: %w", addr+done, n, err)
		}
		out = append(out, r...)
		done += n
	}
	return out, nil
}

// write writes registers from addr in one request.
func (c *Client) write(ctx context.Context, addr uint16, regs []uint16) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("sunspec: write %d: %w", addr, err)
	}
	c.writes++
	if err := c.mb.WriteRegisters(addr, regs); err != nil {
		if isConnErr(err) {
			c.drop()
		}
		return fmt.Errorf("sunspec: write %d+%d: %w", addr, len(regs), err)
	}
	return nil
}

// discover walks the chain; the caller holds c.mu and is connected.
func (c *Client) discover(ctx context.Context) error {
	base, err := c.findBase(ctx)
	if err != nil {
		return err
	}
	dev := &Device{Base: base}
	addr := uint32(base) + 2
	for {
		// A device's map ends below 0x10000; a chain that runs past it (or loops on absurd
		// lengths) is not SunSpec.
		if addr+2 > 0x10000 || len(dev.Models) > 256 {
			return fmt.Errorf("sunspec: discover: model chain from %d has no end model", base)
		}
		hdr, err := c.read(ctx, uint16(addr), 2)
		if err != nil {
			return fmt.Errorf("sunspec: discover: %w", err)
		}
		if hdr[0] == idEnd {
			break
		}
		if addr+2+uint32(hdr[1]) > 0x10000 {
			return fmt.Errorf("sunspec: discover: model %d at %d runs past the register space", hdr[0], addr)
		}
		dev.Models = append(dev.Models, ModelRef{ID: hdr[0], Addr: uint16(addr), Len: hdr[1]})
		addr += 2 + uint32(hdr[1])
	}
	c.dev = dev
	if err := c.describe(ctx, dev); err != nil {
		c.dev = nil
		return err
	}
	return nil
}

// findBase tries each base for the "SunS" marker. An exception (no such address) moves on to
// the next base; a broken connection ends the search.
func (c *Client) findBase(ctx context.Context) (uint16, error) {
	for _, b := range bases {
		r, err := c.read(ctx, b, 2)
		if err != nil {
			if c.mb == nil {
				return 0, fmt.Errorf("sunspec: discover: %w", err)
			}
			continue
		}
		if r[0] == sunsMarker[0] && r[1] == sunsMarker[1] {
			return b, nil
		}
	}
	return 0, fmt.Errorf("sunspec: discover: no SunS marker at %v", bases)
}

// describe fills the common model's strings and the ratings from 802 (and 702 when present).
func (c *Client) describe(ctx context.Context, dev *Device) error {
	if cm, err := c.readModel(ctx, idCommon); err != nil {
		return fmt.Errorf("sunspec: discover: %w", err)
	} else if cm != nil {
		dev.Vendor, dev.Model, dev.Serial, dev.Version = cm.str("Mn"), cm.str("Md"), cm.str("SN"), cm.str("Vr")
	}
	bat, err := c.readModel(ctx, idBattery)
	if err != nil {
		return fmt.Errorf("sunspec: discover: %w", err)
	}
	capa, err := c.readModel(ctx, idDERCapacity)
	if err != nil {
		return fmt.Errorf("sunspec: discover: %w", err)
	}
	if bat != nil {
		dev.CapacityWh, _ = bat.value("WHRtg")
	}
	dev.RatedPowerW, _ = ratedPower(capa, bat)
	return nil
}

// ratedPower is the converter's rating: 702 WMaxRtg, else the battery's discharge rate.
func ratedPower(capa, bat *block) (float64, bool) {
	if capa != nil {
		if v, ok := capa.value("WMaxRtg"); ok {
			return v, true
		}
	}
	if bat != nil {
		return bat.value("WDisChaRteMax")
	}
	return 0, false
}

// ref finds the first instance of model id in the discovered chain.
func (c *Client) ref(id uint16) (ModelRef, bool) {
	if c.dev == nil {
		return ModelRef{}, false
	}
	for _, m := range c.dev.Models {
		if m.ID == id {
			return m, true
		}
	}
	return ModelRef{}, false
}

// readModel reads the first instance of model id; nil without error when the device has none.
func (c *Client) readModel(ctx context.Context, id uint16) (*block, error) {
	ref, ok := c.ref(id)
	if !ok {
		return nil, nil
	}
	r, err := c.read(ctx, ref.Addr, ref.Len+2)
	if err != nil {
		return nil, fmt.Errorf("model %d: %w", id, err)
	}
	b, err := decodeBlock(knownModels[id], ref.Addr, r)
	if err != nil {
		return nil, err
	}
	return b, nil
}
