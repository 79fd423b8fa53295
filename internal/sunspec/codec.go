package sunspec

import (
	"fmt"
	"math"
	"strings"
)

// ptype is a SunSpec point type; its size in registers and its "not implemented" value follow
// the SunSpec information model (a reader treats that value as "no reading").
type ptype uint8

const (
	tUint16 ptype = iota
	tInt16
	tEnum16
	tBitfield16
	tUint32
	tInt32
	tBitfield32
	tUint64
	tSunssf
	tString
	tPad
)

// point is one point of a model: its name, type, size (strings only) and the name of the
// scale-factor point that scales it ("" for none).
type point struct {
	Name string
	Type ptype
	Size uint16
	SF   string
}

func (p point) regs() uint16 {
	switch p.Type {
	case tString:
		return p.Size
	case tUint32, tInt32, tBitfield32:
		return 2
	case tUint64:
		return 4
	default:
		return 1
	}
}

// unimplemented is the value a device serves for a point it does not implement.
func (p point) unimplemented() []uint16 {
	r := make([]uint16, p.regs())
	switch p.Type {
	case tUint16, tEnum16, tBitfield16, tUint32, tBitfield32, tUint64:
		for i := range r {
			r[i] = 0xFFFF
		}
	case tInt16, tSunssf, tPad, tInt32:
		r[0] = 0x8000
	}
	return r // strings: all zero
}

// rawRange is the range of raw values a point can carry, its "not implemented" value excluded.
func (p point) rawRange() (lo, hi float64) {
	switch p.Type {
	case tInt16, tSunssf:
		return -math.MaxInt16, math.MaxInt16
	case tInt32:
		return -math.MaxInt32, math.MaxInt32
	case tUint32, tBitfield32:
		return 0, math.MaxUint32 - 1
	case tUint64:
		return 0, math.MaxInt64
	default:
		return 0, math.MaxUint16 - 1
	}
}

// model is a SunSpec model: its ID and its points after ID and L, and for models that end in
// a repeating group (803's strings), that group's points.
type model struct {
	ID     uint16
	Name   string
	Points []point
	Group  []point
}

// length is the model's L with n repetitions of its group.
func (m *model) length(n int) uint16 {
	var l uint16
	for _, p := range m.Points {
		l += p.regs()
	}
	for range n {
		for _, p := range m.Group {
			l += p.regs()
		}
	}
	return l
}

// groupCount is how many repetitions of the group a model of length l holds.
func (m *model) groupCount(l uint16) int {
	fixed, g := m.length(0), m.length(1)-m.length(0)
	if g == 0 || l <= fixed {
		return 0
	}
	return int((l - fixed) / g)
}

// groupKey names point name in repetition i of a model's group.
func groupKey(name string, i int) string { return fmt.Sprintf("%s[%d]", name, i) }

type loc struct {
	p   point
	off uint16 // from the model's ID register
}

// block is the registers of one model instance, ID and L included, at Addr.
type block struct {
	m     *model
	Addr  uint16
	r     []uint16
	index map[string]loc
}

// newBlock lays out m with n group repetitions over r (which must have 2+L registers), every
// point set to its "not implemented" value.
func newBlock(m *model, addr uint16, n int, r []uint16) *block {
	b := &block{m: m, Addr: addr, r: r, index: map[string]loc{}}
	r[0], r[1] = m.ID, m.length(n)
	off := uint16(2)
	for _, p := range m.Points {
		b.index[p.Name] = loc{p, off}
		copy(r[off:], p.unimplemented())
		off += p.regs()
	}
	for i := range n {
		for _, p := range m.Group {
			b.index[groupKey(p.Name, i)] = loc{p, off}
			copy(r[off:], p.unimplemented())
			off += p.regs()
		}
	}
	return b
}

// decodeBlock wraps registers read from a device (ID and L first) without changing them.
func decodeBlock(m *model, addr uint16, r []uint16) (*block, error) {
	if len(r) < 2 || r[0] != m.ID || int(r[1])+2 != len(r) || r[1] < m.length(0) {
		return nil, fmt.Errorf("sunspec: decode model %d: unexpected header or length", m.ID)
	}
	saved := append([]uint16(nil), r...)
	b := newBlock(m, addr, m.groupCount(r[1]), r)
	copy(r, saved)
	return b, nil
}

func (b *block) loc(name string) loc {
	l, ok := b.index[name]
	if !ok {
		// Point names are constants of this package: a miss is a programming error.
		panic(fmt.Sprintf("sunspec: model %d has no point %q", b.m.ID, name))
	}
	return l
}

// has reports whether the block carries point name (a group repetition may be absent).
func (b *block) has(name string) bool { _, ok := b.index[name]; return ok }

func (b *block) raw(name string) []uint16 {
	l := b.loc(name)
	return b.r[l.off : l.off+l.p.regs()]
}

// addr is the register address of point name.
func (b *block) addr(name string) uint16 { return b.Addr + b.loc(name).off }

func (b *block) put(name string, v []uint16) { copy(b.raw(name), v) }

// intv is a point's integer value, ok false when the device does not implement it.
func (b *block) intv(name string) (int64, bool) { return intOf(b.loc(name).p, b.raw(name)) }

// intOf decodes the registers r of point p.
func intOf(p point, r []uint16) (int64, bool) {
	switch p.Type {
	case tInt16, tSunssf:
		return int64(int16(r[0])), r[0] != 0x8000
	case tUint32, tBitfield32:
		v := uint32(r[0])<<16 | uint32(r[1])
		return int64(v), v != math.MaxUint32
	case tInt32:
		v := int32(uint32(r[0])<<16 | uint32(r[1]))
		return int64(v), v != math.MinInt32
	case tUint64:
		v := uint64(r[0])<<48 | uint64(r[1])<<32 | uint64(r[2])<<16 | uint64(r[3])
		return int64(v), v <= math.MaxInt64
	case tString, tPad:
		return 0, false
	default:
		return int64(r[0]), r[0] != 0xFFFF
	}
}

// sf is the exponent of point name's scale factor (0 when it has none).
func (b *block) sf(name string) (int, bool) {
	p := b.loc(name).p
	if p.SF == "" {
		return 0, true
	}
	v, ok := b.intv(p.SF)
	// SunSpec scale factors range from -10 to 10; anything else is not a usable reading.
	return int(v), ok && v >= -10 && v <= 10
}

// value is a point's value with its scale factor applied, ok false when not implemented.
func (b *block) value(name string) (float64, bool) {
	v, ok := b.intv(name)
	if !ok {
		return 0, false
	}
	sf, ok := b.sf(name)
	if !ok {
		return 0, false
	}
	return scale(v, sf), true
}

// scale applies 10^sf; dividing by an exact power of ten keeps 3256e-3 printing as 3.256.
func scale(v int64, sf int) float64 {
	if sf >= 0 {
		return float64(v) * math.Pow10(sf)
	}
	return float64(v) / math.Pow10(-sf)
}

// encode turns v (in the point's unit) into its raw registers using the block's scale factor,
// refusing a value the point cannot carry.
func (b *block) encode(name string, v float64) ([]uint16, error) {
	p := b.loc(name).p
	sf, ok := b.sf(name)
	if !ok {
		return nil, fmt.Errorf("sunspec: encode %s: no scale factor", name)
	}
	var raw float64
	if sf >= 0 {
		raw = math.Round(v / math.Pow10(sf))
	} else {
		raw = math.Round(v * math.Pow10(-sf))
	}
	lo, hi := p.rawRange()
	if math.IsNaN(raw) || raw < lo || raw > hi {
		return nil, fmt.Errorf("sunspec: encode %s: %v out of range", name, v)
	}
	return encodeInt(p, int64(raw)), nil
}

func encodeInt(p point, v int64) []uint16 {
	switch p.regs() {
	case 2:
		return []uint16{uint16(v >> 16), uint16(v)}
	case 4:
		return []uint16{uint16(v >> 48), uint16(v >> 32), uint16(v >> 16), uint16(v)}
	default:
		return []uint16{uint16(v)}
	}
}

// setInt stores an integer value (enums, bitfields, counters, scale factors).
func (b *block) setInt(name string, v int64) { b.put(name, encodeInt(b.loc(name).p, v)) }

// setValue stores v scaled by the point's scale factor, clamped to what the point can carry.
func (b *block) setValue(name string, v float64) {
	p := b.loc(name).p
	sf, ok := b.sf(name)
	if !ok || math.IsNaN(v) {
		b.put(name, p.unimplemented())
		return
	}
	raw := math.Round(v / math.Pow10(sf))
	lo, hi := p.rawRange()
	b.put(name, encodeInt(p, int64(min(max(raw, lo), hi))))
}

// finite reports whether f is a usable number.
func finite(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }

// str is a string point: ASCII, two characters a register, high byte first, NUL padded.
func (b *block) str(name string) string {
	var sb strings.Builder
	for _, r := range b.raw(name) {
		sb.WriteByte(byte(r >> 8))
		sb.WriteByte(byte(r))
	}
	return strings.TrimSpace(strings.TrimRight(sb.String(), "\x00"))
}

func (b *block) setStr(name, s string) {
	r := b.raw(name)
	for i := range r {
		var hi, lo byte
		if 2*i < len(s) {
			hi = s[2*i]
		}
		if 2*i+1 < len(s) {
			lo = s[2*i+1]
		}
		r[i] = uint16(hi)<<8 | uint16(lo)
	}
}
