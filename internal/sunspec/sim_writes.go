package sunspec

import (
	"errors"
	"math"
	"slices"

	"github.com/simonvetter/modbus"
)

// write applies a write request whole or not at all: every register must belong to a writable
// point written entirely, and the state after it must be valid; the caller holds s.mu.
func (s *Sim) write(addr uint16, args []uint16) error {
	next := s.st
	for i := 0; i < len(args); {
		w, ok := s.writers[addr+uint16(i)]
		n := 0
		if ok {
			n = int(w.p.regs())
		}
		if !ok || i+n > len(args) {
			return modbus.ErrIllegalDataAddress
		}
		if err := w.apply(&next, args[i:i+n]); err != nil {
			return modbus.ErrIllegalDataValue
		}
		i += n
	}
	if !next.validConfig() {
		return modbus.ErrIllegalDataValue
	}
	s.st = next
	s.settle(0)
	return nil
}

// errBadValue is a write the unit refuses (Modbus exception 3, illegal data value).
var errBadValue = errors.New("sunspec: sim: value out of range")

// simWriter applies the registers written to one writable point to the state.
type simWriter struct {
	p     point
	apply func(st *simState, r []uint16) error
}

// writers are the points a client may write, by register address. Everything else answers
// "illegal data address", as a device does for a read-only or unimplemented point.
func (img *simImage) writers() map[uint16]simWriter {
	w := map[uint16]simWriter{}
	add := func(b *block, name string, apply func(st *simState, v int64) error) {
		l := b.loc(name)
		w[b.addr(name)] = simWriter{l.p, func(st *simState, r []uint16) error {
			v, ok := intOf(l.p, r)
			if !ok {
				return errBadValue
			}
			return apply(st, v)
		}}
	}
	soc := func(set func(st *simState, pct float64)) func(*simState, int64) error {
		return func(st *simState, v int64) error {
			pct := scale(v, vendorSoCSF)
			if pct < 0 || pct > 100 {
				return errBadValue
			}
			set(st, pct)
			return nil
		}
	}
	oneOf := func(set func(st *simState, v uint16), allowed ...int64) func(*simState, int64) error {
		return func(st *simState, v int64) error {
			if !slices.Contains(allowed, v) {
				return errBadValue
			}
			set(st, uint16(v))
			return nil
		}
	}

	add(img.ctl, "WSetEna", oneOf(func(st *simState, v uint16) { st.wSetEna = v }, wSetDisabled, wSetEnabled))
	add(img.ctl, "WSetMod", oneOf(func(st *simState, v uint16) { st.wSetMod = v }, wSetModPct, wSetModWatts))
	add(img.ctl, "WSet", func(st *simState, v int64) error {
		if math.Abs(float64(v)) > st.ratedW { // WSet_SF is 0
			return errBadValue
		}
		st.wSetW = float64(v)
		return nil
	})
	add(img.ctl, "WSetPct", func(st *simState, v int64) error {
		pct := scale(v, -2)
		if math.Abs(pct) > 100 {
			return errBadValue
		}
		st.wSetPct = pct
		return nil
	})

	add(img.bat, "SocRsvMax", soc(func(st *simState, pct float64) { st.maxSoC = pct }))
	add(img.bat, "SoCRsvMin", soc(func(st *simState, pct float64) { st.minSoC = pct }))
	add(img.bat, "CtrlHb", func(st *simState, v int64) error { st.ctrlHb = uint16(v); return nil })
	add(img.bat, "AlmRst", func(st *simState, v int64) error {
		switch v {
		case 0:
		case 1:
			// A reset clears the latch only once no fault alarm is raised any more.
			if !st.faultActive() {
				st.faulted = false
			}
		default:
			return errBadValue
		}
		return nil
	})
	add(img.bat, "SetOp", oneOf(func(st *simState, v uint16) { st.setOp = v }, setOpConnect, setOpDisconnect))
	add(img.bat, "SetInvState", oneOf(func(st *simState, v uint16) { st.setInvState = v }, setInvStateStopped, setInvStateStandby, setInvStateStarted))

	add(img.vend, "Mode", func(st *simState, v int64) error {
		if v < 0 || int(v) >= len(vendorModes) {
			return errBadValue
		}
		st.mode = int(v)
		return nil
	})
	add(img.vend, "PeakLimitW", func(st *simState, v int64) error { st.peakLimitW = float64(v); return nil })
	add(img.vend, "BackupReserveSoC", soc(func(st *simState, pct float64) { st.reserveSoC = pct }))
	add(img.vend, "MinSoC", soc(func(st *simState, pct float64) { st.minSoC = pct }))
	add(img.vend, "MaxSoC", soc(func(st *simState, pct float64) { st.maxSoC = pct }))
	return w
}

// validConfig is what must hold after a write for the unit to accept it.
func (st *simState) validConfig() bool { return st.minSoC < st.maxSoC }
