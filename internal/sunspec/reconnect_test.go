package sunspec

import (
	"context"
	"strings"
	"testing"
	"time"

	"chargeops/internal/ess"
)

// A unit that restarts (a new simulator on the same port, another serial and charge) is read on
// the client's next call: it dials and discovers again.
func TestReconnect(t *testing.T) {
	first := startSim(t, at(12, 0))
	c := dial(t, first)
	read(t, c)
	addr := strings.TrimPrefix(first.URL(), "tcp://")
	if err := first.Close(); err != nil {
		t.Fatalf("close: %v", err)
	}

	t.Run("read fails while the unit is down", func(t *testing.T) {
		if _, _, err := c.Read(context.Background()); err == nil {
			t.Error("read succeeded with no unit")
		}
	})

	var second *Sim
	deadline := time.Now().Add(5 * time.Second)
	for {
		s, err := StartSim(SimOptions{Addr: addr, Serial: "SN-43", SoC: 70, Clock: at(12, 0), Profile: testProfile})
		if err == nil {
			second = s
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("restart on %s: %v", addr, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Cleanup(func() { second.Close() })

	t.Run("next read works", func(t *testing.T) {
		v, _ := read(t, c)
		if v[ess.SoC] != 70.0 {
			t.Errorf("SoC %v, want the new unit's 70", v[ess.SoC])
		}
	})
	t.Run("rediscovered", func(t *testing.T) {
		dev, err := c.Discover(context.Background())
		if err != nil || dev.Serial != "SN-43" {
			t.Errorf("serial %q, %v", dev.Serial, err)
		}
	})
	t.Run("a command after a restart", func(t *testing.T) {
		s3addr := addr
		second.Close()
		third, err := StartSim(SimOptions{Addr: s3addr, Clock: at(12, 0), Profile: testProfile})
		if err != nil {
			t.Skipf("restart on %s: %v", s3addr, err)
		}
		defer third.Close()
		if status, msg, _, _ := c.Apply(context.Background(), ess.CmdSetMode, ess.Params{Mode: ess.ModeBackup}); status != ess.StatusAccepted {
			t.Errorf("status %s %s", status, msg)
		}
	})
}
