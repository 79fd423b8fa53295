package sunspec

import (
	"context"
	"slices"
	"testing"

	"github.com/simonvetter/modbus"
)

func TestDiscover(t *testing.T) {
	s := startSim(t, at(12, 0))
	c := dial(t, s)
	dev, err := c.Discover(context.Background())
	if err != nil {
		t.Fatalf("discover: %v", err)
	}

	t.Run("base 40000", func(t *testing.T) {
		if dev.Base != 40000 {
			t.Errorf("base = %d", dev.Base)
		}
	})
	t.Run("models in order, each after the last", func(t *testing.T) {
		var ids []uint16
		next := dev.Base + 2
		for _, m := range dev.Models {
			ids = append(ids, m.ID)
			if m.Addr != next {
				t.Errorf("model %d at %d, want %d", m.ID, m.Addr, next)
			}
			next = m.Addr + 2 + m.Len
		}
		want := []uint16{1, 701, 702, 704, 802, 803, 64901}
		if !slices.Equal(ids, want) {
			t.Errorf("models %v, want %v", ids, want)
		}
	})
	t.Run("common model strings", func(t *testing.T) {
		if dev.Vendor != "ChargeOps" || dev.Model != "ESS-100" || dev.Serial != "SN-42" || dev.Version != simVersion {
			t.Errorf("got %q %q %q %q", dev.Vendor, dev.Model, dev.Serial, dev.Version)
		}
	})
	t.Run("ratings", func(t *testing.T) {
		if dev.CapacityWh != 100_000 || dev.RatedPowerW != 50_000 {
			t.Errorf("capacity %v Wh, rated %v W", dev.CapacityWh, dev.RatedPowerW)
		}
	})
}

// A reader that knows nothing but the chain (marker, then ID and L until 0xFFFF) must walk
// the simulator to its end, each standard model at its official length.
func TestChainWalk(t *testing.T) {
	s := startSim(t, at(12, 0))
	mb, err := modbus.NewClient(&modbus.ClientConfiguration{URL: s.URL(), Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	if err := mb.Open(); err != nil {
		t.Fatal(err)
	}
	defer mb.Close()
	mb.SetUnitId(1)

	marker, err := mb.ReadRegisters(40000, 2, modbus.HOLDING_REGISTER)
	if err != nil || marker[0] != 0x5375 || marker[1] != 0x6E53 {
		t.Fatalf("marker %04x, %v; want SunS", marker, err)
	}
	type entry struct{ id, l uint16 }
	var got []entry
	addr := uint16(40002)
	for range 20 {
		hdr, err := mb.ReadRegisters(addr, 2, modbus.HOLDING_REGISTER)
		if err != nil {
			t.Fatalf("read header at %d: %v", addr, err)
		}
		got = append(got, entry{hdr[0], hdr[1]})
		if hdr[0] == 0xFFFF {
			break
		}
		addr += 2 + hdr[1]
	}
	want := []entry{
		{1, lenCommon}, {701, lenDERMeasureAC}, {702, lenDERCapacity}, {704, lenDERCtlAC},
		{802, lenBattery}, {803, lenLiIonBank + lenLiIonString}, {64901, lenVendor}, {0xFFFF, 0},
	}
	if !slices.Equal(got, want) {
		t.Errorf("chain %v, want %v", got, want)
	}
}
