package agent

import (
	"context"
	"fmt"
	"time"

	"chargeops/internal/ess"
	"chargeops/internal/mqttwire"
	"chargeops/internal/sunspec"
)

// DialModbus connects to a unit's SunSpec Modbus server (url like tcp://192.168.1.20:502) as
// a Source; timeout bounds each Modbus request.
func DialModbus(ctx context.Context, url string, unitID uint8, timeout time.Duration) (Source, error) {
	c, err := sunspec.Dial(ctx, url, unitID, timeout)
	if err != nil {
		return nil, fmt.Errorf("agent: dial modbus %s unit %d: %w", url, unitID, err)
	}
	return modbusSource{c: c}, nil
}

// modbusSource adapts a sunspec.Client: the same reads and commands, and its discovered device
// as the attributes chargeops shows.
type modbusSource struct{ c *sunspec.Client }

func (m modbusSource) Discover(ctx context.Context) (mqttwire.Attributes, error) {
	d, err := m.c.Discover(ctx)
	if err != nil {
		return mqttwire.Attributes{}, err
	}
	return attributesOf(d), nil
}

func (m modbusSource) Read(ctx context.Context) (map[string]any, []string, error) {
	return m.c.Read(ctx)
}

func (m modbusSource) Apply(ctx context.Context, name string, p ess.Params) (string, string, []ess.Item, map[string]any) {
	return m.c.Apply(ctx, name, p)
}

func (m modbusSource) Close() error { return m.c.Close() }

// attributesOf maps SunSpec's common model (and the storage models' ratings) to the birth's
// attributes.
func attributesOf(d sunspec.Device) mqttwire.Attributes {
	return mqttwire.Attributes{
		Vendor:       d.Vendor,
		Model:        d.Model,
		SerialNumber: d.Serial,
		Firmware:     d.Version,
		CapacityWh:   d.CapacityWh,
		RatedPowerW:  d.RatedPowerW,
	}
}
