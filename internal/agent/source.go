package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"sync"

	"chargeops/internal/ess"
	"chargeops/internal/mqttwire"
)

// Source is one storage unit the agent reads and commands (a SunSpec Modbus server behind
// DialModbus; a fake in the tests and the demo).
type Source interface {
	// Discover reads what the unit is: vendor, model, serial, firmware, capacity, rated power.
	Discover(ctx context.Context) (mqttwire.Attributes, error)
	// Read returns the unit's values by ess name (numbers or strings) and its active alarm codes.
	Read(ctx context.Context) (values map[string]any, alarms []string, err error)
	// Apply runs a command (ess.Cmd*) and answers with an ess.Status*.
	Apply(ctx context.Context, name string, p ess.Params) (status, message string, items []ess.Item, values map[string]any)
	Close() error
}

// device holds a unit's Source between reads and commands: dialled on first use, closed and
// dialled again after a failure. One request at a time, as a Modbus link takes them.
type device struct {
	mu   sync.Mutex
	src  Source
	dial func(ctx context.Context) (Source, error)
}

// open returns the connected Source, dialling and discovering it when there is none; attrs is
// set only when it dialled.
func (d *device) open(ctx context.Context) (src Source, attrs *mqttwire.Attributes, err error) {
	if d.src != nil {
		return d.src, nil, nil
	}
	s, err := d.dial(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("agent: dial unit: %w", err)
	}
	a, err := s.Discover(ctx)
	if err != nil {
		_ = s.Close()
		return nil, nil, fmt.Errorf("agent: discover unit: %w", err)
	}
	d.src = s
	return s, &a, nil
}

// drop closes the Source after a failure, so the next use dials again (a Modbus TCP link that
// failed once is often half-open).
func (d *device) drop() {
	if d.src != nil {
		_ = d.src.Close()
		d.src = nil
	}
}

// read reads the unit; attrs is set when it had to dial (and so discovered) first.
func (d *device) read(ctx context.Context) (values map[string]any, alarms []string, attrs *mqttwire.Attributes, err error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	src, attrs, err := d.open(ctx)
	if err != nil {
		return nil, nil, nil, err
	}
	values, alarms, err = src.Read(ctx)
	if err != nil {
		d.drop()
		return nil, nil, attrs, fmt.Errorf("agent: read unit: %w", err)
	}
	return values, alarms, attrs, nil
}

// apply runs a command; an unreachable unit answers Failed.
func (d *device) apply(ctx context.Context, name string, p ess.Params) (mqttwire.CommandResult, *mqttwire.Attributes) {
	d.mu.Lock()
	defer d.mu.Unlock()
	src, attrs, err := d.open(ctx)
	if err != nil {
		return mqttwire.CommandResult{Status: ess.StatusFailed, Message: "unit unreachable: " + err.Error()}, nil
	}
	status, msg, items, values := src.Apply(ctx, name, p)
	return mqttwire.CommandResult{Status: status, Message: msg, Items: items, Values: encodeValues(values)}, attrs
}

func (d *device) close() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.drop()
}

// encodeValues turns a unit's values into the wire's: numbers as JSON numbers, strings as JSON
// strings. Anything else (and NaN or infinity, which JSON cannot carry) is left out rather than
// making chargeops refuse the whole reading.
func encodeValues(values map[string]any) map[string]json.RawMessage {
	out := make(map[string]json.RawMessage, len(values))
	for name, v := range values {
		switch n := v.(type) {
		case float64:
			if math.IsNaN(n) || math.IsInf(n, 0) {
				continue
			}
		case float32:
			if math.IsNaN(float64(n)) || math.IsInf(float64(n), 0) {
				continue
			}
		case string, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		case json.Number:
			if !json.Valid([]byte(n)) {
				continue
			}
		default:
			continue
		}
		b, err := json.Marshal(v)
		if err != nil {
			continue
		}
		out[name] = b
	}
	return out
}
