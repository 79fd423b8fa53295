package ocpp16_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"chargeops/internal/config"
	"chargeops/internal/db"
	"chargeops/internal/fleet/fleettest"
	"chargeops/internal/gateway/ocpp16"
	"chargeops/internal/testutil"
	"chargeops/internal/testutil/apitest"
)

// Issue 29: a 900,000-character message id was echoed. OCPP-J ids are at most 36 characters:
// a longer one is answered with a FormationViolation CALLERROR whose id is cut to 36, the call
// is not processed, and a frame over ocpp16.MaxFrameBytes closes the socket unread (1009).
func TestLongMessageIDsAndFramesAreBounded(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		env := apitest.New(t, d, func(c *config.Config) { c.DataDir = t.TempDir() })
		org := fleettest.Seed(t, d)
		fleettest.Device(t, d, org, org.CustomerA, org.SiteA, "SN-LONGID")
		base := wsBase(env)
		c := rawCP(t, base, "SN-LONGID")
		for _, n := range []int{37, 900_000} {
			t.Run(fmt.Sprintf("a %d-character id is answered cut, not echoed", n), func(t *testing.T) {
				id := strings.Repeat("x", n-1) + "Z"
				before := env.App.Gateway.Stats().Unreadable
				typ, got, code, _, err := c.roundTrip(fmt.Appendf(nil, `[2,%q,"Heartbeat",{}]`, id))
				if err != nil {
					t.Fatal(err)
				}
				if typ != 4 || code != "FormationViolation" || got != id[:36] {
					t.Fatalf("answer %d %q (%d characters) %s, want CALLERROR FormationViolation with the first 36 characters", typ, got[:min(len(got), 40)], len(got), code)
				}
				if after := env.App.Gateway.Stats().Unreadable; after != before+1 {
					t.Fatalf("unreadable frames %d → %d", before, after)
				}
			})
		}
		t.Run("a 36-character id is answered as it is, on the same socket", func(t *testing.T) {
			id := strings.Repeat("y", 36)
			typ, got, _, _, err := c.roundTrip(fmt.Appendf(nil, `[2,%q,"Heartbeat",{}]`, id))
			if err != nil || typ != 3 || got != id {
				t.Fatalf("answer %d %q %v, want CALLRESULT with the id", typ, got, err)
			}
		})
		t.Run("a frame over MaxFrameBytes closes the socket with 1009", func(t *testing.T) {
			big := fmt.Appendf(nil, `[2,"big",%q,{}]`, strings.Repeat("h", ocpp16.MaxFrameBytes))
			_, _, _, _, err := c.roundTrip(big)
			var ce *websocket.CloseError
			if !errors.As(err, &ce) || ce.Code != websocket.CloseMessageTooBig {
				t.Fatalf("after an oversized frame: %v, want close 1009", err)
			}
			// the charger comes back with a fresh socket
			c2 := rawCP(t, base, "SN-LONGID")
			deadline := time.Now().Add(10 * time.Second)
			for {
				typ, _, _, _, err := c2.roundTrip([]byte(`[2,"again","Heartbeat",{}]`))
				if err == nil && typ == 3 {
					return
				}
				if time.Now().After(deadline) {
					t.Fatalf("reconnected charger not answered: %d %v", typ, err)
				}
				c2 = rawCP(t, base, "SN-LONGID")
			}
		})
	})
}
