package sunspec

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"

	"chargeops/internal/ess"
)

// configKey is one configuration item: the point behind it, whether it may be written and the
// range a written value must be in.
type configKey struct {
	Key      string
	Model    uint16
	Point    string
	Readonly bool
	Lo, Hi   float64
}

// configKeys are the unit's configuration items in the order getConfig lists them: the vendor
// model's writable points, then ratings from 802 and 702.
var configKeys = []configKey{
	{"Mode", idVendor, "Mode", false, 0, float64(len(vendorModes) - 1)},
	{"PeakLimitW", idVendor, "PeakLimitW", false, 0, math.MaxUint32 - 1},
	{"BackupReserveSoC", idVendor, "BackupReserveSoC", false, 0, 100},
	{"MinSoC", idVendor, "MinSoC", false, 0, 100},
	{"MaxSoC", idVendor, "MaxSoC", false, 0, 100},
	{"WHRtg", idBattery, "WHRtg", true, 0, 0},
	{"AHRtg", idBattery, "AHRtg", true, 0, 0},
	{"WChaRteMax", idBattery, "WChaRteMax", true, 0, 0},
	{"WDisChaRteMax", idBattery, "WDisChaRteMax", true, 0, 0},
	{"WMaxRtg", idDERCapacity, "WMaxRtg", true, 0, 0},
}

func configKeyOf(key string) (configKey, bool) {
	i := slices.IndexFunc(configKeys, func(k configKey) bool { return k.Key == key })
	if i < 0 {
		return configKey{}, false
	}
	return configKeys[i], true
}

// formatValue is a number as decimal text, as short as it reads back.
func formatValue(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// configBlocks reads the models behind configuration items.
func (c *Client) configBlocks(ctx context.Context) (map[uint16]*block, error) {
	out := map[uint16]*block{}
	for _, id := range []uint16{idVendor, idBattery, idDERCapacity} {
		b, err := c.readModel(ctx, id)
		if err != nil {
			return nil, err
		}
		if b != nil {
			out[id] = b
		}
	}
	return out, nil
}

// getConfig lists the items asked for (all the unit has when none are named).
func (c *Client) getConfig(ctx context.Context, p ess.Params) (outcome, error) {
	blocks, err := c.configBlocks(ctx)
	if err != nil {
		return outcome{}, fmt.Errorf("get config: %w", err)
	}
	keys := p.Keys
	if len(keys) == 0 {
		for _, k := range configKeys {
			keys = append(keys, k.Key)
		}
	}
	var items []ess.Item
	for _, key := range keys {
		k, ok := configKeyOf(key)
		if !ok || (len(p.Keys) > 0 && blocks[k.Model] == nil) {
			return notSupported("unknown configuration key %q", key), nil
		}
		b := blocks[k.Model]
		if b == nil {
			continue // listing all: the unit has no such model
		}
		if v, ok := b.value(k.Point); ok {
			items = append(items, ess.Item{Key: k.Key, Value: formatValue(v), Readonly: k.Readonly})
		}
	}
	return outcome{status: ess.StatusAccepted, items: items}, nil
}

// setConfig checks every item before it writes anything, writes the vendor model's writable
// span once (its writable points are adjacent; see vendor.go) and reads it back.
func (c *Client) setConfig(ctx context.Context, p ess.Params) (outcome, error) {
	if len(p.Items) == 0 {
		return rejected("items are required"), nil
	}
	for _, it := range p.Items {
		if _, ok := configKeyOf(it.Key); !ok {
			return notSupported("unknown configuration key %q", it.Key), nil
		}
	}
	vend, err := c.readModel(ctx, idVendor)
	if err != nil {
		return outcome{}, fmt.Errorf("set config: %w", err)
	}
	if vend == nil {
		return notSupported("the unit has no configuration (vendor model %d)", idVendor), nil
	}

	want := map[string]float64{}
	for _, it := range p.Items {
		k, _ := configKeyOf(it.Key)
		if k.Readonly {
			return rejected("%s is read-only", k.Key), nil
		}
		v, err := parseConfigValue(k, it.Value)
		if err != nil {
			return rejected("%s: %v", k.Key, err), nil
		}
		if v < k.Lo || v > k.Hi {
			return rejected("%s %s is outside [%s, %s]", k.Key, it.Value, formatValue(k.Lo), formatValue(k.Hi)), nil
		}
		want[k.Point] = v
	}
	final := func(point string) float64 {
		if v, ok := want[point]; ok {
			return v
		}
		v, _ := vend.value(point)
		return v
	}
	if final("MinSoC") >= final("MaxSoC") {
		return rejected("MinSoC %s must be below MaxSoC %s", formatValue(final("MinSoC")), formatValue(final("MaxSoC"))), nil
	}

	// Encode into the block read, then write the span from the first to the last point set,
	// points in between rewritten with what they hold.
	lo, hi := uint16(math.MaxUint16), uint16(0)
	wrote := map[string][]uint16{}
	for point, v := range want {
		regs, err := vend.encode(point, v)
		if err != nil {
			return rejected("%v", err), nil
		}
		vend.put(point, regs)
		wrote[point] = regs
		l := vend.loc(point)
		lo, hi = min(lo, l.off), max(hi, l.off+l.p.regs())
	}
	if err := c.write(ctx, vend.Addr+lo, slices.Clone(vend.r[lo:hi])); err != nil {
		return outcome{}, fmt.Errorf("set config: %w", err)
	}

	back, err := c.readModel(ctx, idVendor)
	if err != nil {
		return outcome{}, fmt.Errorf("set config: read back: %w", err)
	}
	out := outcome{status: ess.StatusAccepted}
	for _, it := range p.Items {
		k, _ := configKeyOf(it.Key)
		v, _ := back.value(k.Point)
		out.items = append(out.items, ess.Item{Key: k.Key, Value: formatValue(v)})
		if got := back.raw(k.Point); !slices.Equal(got, wrote[k.Point]) && out.status == ess.StatusAccepted {
			out.status = ess.StatusFailed
			out.message = fmt.Sprintf("%s read back as %s", k.Key, formatValue(v))
		}
	}
	return out, nil
}

// parseConfigValue reads decimal text; Mode also takes a mode's name.
func parseConfigValue(k configKey, s string) (float64, error) {
	if k.Key == "Mode" {
		if i := slices.Index(vendorModes, s); i >= 0 {
			return float64(i), nil
		}
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || !finite(v) {
		return 0, fmt.Errorf("%q is not a number", s)
	}
	if k.Key == "Mode" && v != math.Trunc(v) {
		return 0, fmt.Errorf("%q is not a mode", s)
	}
	return v, nil
}
