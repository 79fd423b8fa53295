package notify_test

import (
	"strings"
	"testing"
	"time"

	"github.com/lorenzodonini/ocpp-go/ocpp1.6/types"

	"chargeops/internal/db"
	"chargeops/internal/testutil"
)

// A critical security event's alarm (docs/security-profiles.md, "Security events") is announced
// like a connector's: the user in scope gets a console message and the site's receiver an
// alarm mail naming the charger and the event; a non-critical one gives neither.
func TestSecurityEventAlarmNotifies(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		w := newWorld(t, d, time.Minute)
		cp, _ := w.charger(t, "SN-MSG-A1")
		if _, err := cp.SecurityEventNotification("InvalidMessages", types.NewDateTime(time.Now())); err != nil {
			t.Fatal(err)
		}
		if _, err := cp.SecurityEventNotification("TamperDetectionActivated", types.NewDateTime(time.Now())); err != nil {
			t.Fatal(err)
		}
		t.Run("alice gets one console message for the critical event", func(t *testing.T) {
			testutil.EventuallyWithin(t, 10*time.Second, "alice's message", func() bool { return unread(t, w.alice) == 1 })
			ms := messages(t, w.alice, map[string]any{"kind": 1})
			if len(ms) != 1 || ms[0].SN != "SN-MSG-A1" || ms[0].Code != "security.TamperDetectionActivated" {
				t.Fatalf("alice's messages: %+v", ms)
			}
		})
		t.Run("the site's receiver gets an alarm mail naming the charger and the event", func(t *testing.T) {
			testutil.EventuallyWithin(t, 10*time.Second, "alice's mail", func() bool { return len(w.sink.To("alice_a@example.com")) == 1 })
			m := w.sink.To("alice_a@example.com")[0]
			if !strings.Contains(m.Data, "SN-MSG-A1") || !strings.Contains(m.Data, "TamperDetectionActivated") {
				t.Fatalf("the mail does not name the charger and the event: %s", m.Data)
			}
		})
		t.Run("another customer's user gets nothing", func(t *testing.T) {
			if n := unread(t, w.bob); n != 0 {
				t.Errorf("bob has %d unread", n)
			}
		})
	})
}
