package ocpp16_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/lorenzodonini/ocpp-go/ocpp1.6/core"
	"github.com/lorenzodonini/ocpp-go/ocpp1.6/security"
	"github.com/lorenzodonini/ocpp-go/ocpp1.6/types"

	"chargeops/internal/db"
	"chargeops/internal/fleet"
	"chargeops/internal/fleet/fleettest"
	"chargeops/internal/gateway/ocpp16"
	"chargeops/internal/testutil"
	"chargeops/internal/testutil/apitest"
)

// TestSecurityEventNotification: ocpp-go's charge point sends a critical and a non-critical
// SecurityEventNotification (docs/security-profiles.md, "Security events"): both are answered
// and listed, the critical one opens one CA alarm, a StatusNotification NoError on connector 0
// leaves it open, and an acknowledgement through the API ends it.
func TestSecurityEventNotification(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		const sn = "SN-SECEV-1"
		env, _, id := fleettest.Node(t, d, sn)
		cp, h, err := startCP(t, wsBase(env), sn, "")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := cp.BootNotification("AC-22", "Test"); err != nil {
			t.Fatal(err)
		}
		openAlarms := func() int {
			var n int
			if err := d.QueryRow(ctx, `SELECT COUNT(*) FROM device_event WHERE device_id = ? AND kind = ? AND status = ? AND code = ?`,
				id, fleet.KindAlarm, fleet.EventOpen, "security.TamperDetectionActivated").Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n
		}
		type row struct {
			ID         int64  `json:"id"`
			Type       string `json:"type"`
			TechInfo   string `json:"techInfo"`
			Critical   bool   `json:"critical"`
			OccurredAt int64  `json:"occurredAt"`
			AlarmOpen  bool   `json:"alarmOpen"`
		}
		list := func(t *testing.T) []row {
			t.Helper()
			var l struct{ List []row }
			apitest.Must(t, env.Root().Call("POST", "/api/auth/sys/dev/security/event/list", map[string]any{"deviceId": id})).Into(t, &l)
			return l.List
		}
		at := time.Now().Add(-2 * time.Minute).UTC().Truncate(time.Second)

		t.Run("a critical and a non-critical event are answered, both listed, one alarm opened", func(t *testing.T) {
			if _, err := cp.SecurityEventNotification("TamperDetectionActivated", types.NewDateTime(at), func(r *security.SecurityEventNotificationRequest) {
				r.TechInfo = "enclosure opened"
			}); err != nil {
				t.Fatalf("critical event: %v", err)
			}
			if _, err := cp.SecurityEventNotification("InvalidMessages", types.NewDateTime(at.Add(time.Second))); err != nil {
				t.Fatalf("non-critical event: %v", err)
			}
			rows := list(t)
			if len(rows) != 2 || rows[0].Type != "InvalidMessages" || rows[0].Critical || rows[0].AlarmOpen ||
				rows[1].Type != "TamperDetectionActivated" || !rows[1].Critical || !rows[1].AlarmOpen || rows[1].TechInfo != "enclosure opened" ||
				rows[1].OccurredAt != at.UnixMilli() {
				t.Fatalf("listed %+v", rows)
			}
			if n := openAlarms(); n != 1 {
				t.Fatalf("%d open security alarms, want 1", n)
			}
		})

		t.Run("a StatusNotification NoError on connector 0 does not end it", func(t *testing.T) {
			if _, err := cp.StatusNotification(0, core.NoError, core.ChargePointStatusAvailable); err != nil {
				t.Fatal(err)
			}
			var status string
			if err := d.QueryRow(ctx, `SELECT status FROM device_connector WHERE device_id = ? AND connector_id = 0`, id).Scan(&status); err != nil || status != "Available" {
				t.Fatalf("connector 0 status %q (%v): the report was not applied", status, err)
			}
			if n := openAlarms(); n != 1 {
				t.Fatalf("%d open security alarms after the status report, want 1", n)
			}
		})

		t.Run("the acknowledgement ends it and the device's alarm status", func(t *testing.T) {
			rows := list(t)
			var ans struct{ Ended int }
			apitest.Must(t, env.Root().Call("POST", "/api/auth/sys/dev/security/event/ack", map[string]any{"ids": []int64{rows[1].ID}})).Into(t, &ans)
			if ans.Ended != 1 || openAlarms() != 0 {
				t.Fatalf("ack ended %d; %d still open", ans.Ended, openAlarms())
			}
			var alarm int
			if err := d.QueryRow(ctx, `SELECT alarm_status FROM device WHERE id = ?`, id).Scan(&alarm); err != nil || alarm != fleet.AlarmNone {
				t.Fatalf("alarm status %d (%v)", alarm, err)
			}
		})

		t.Run("a type over 50 characters is answered PropertyConstraintViolation and not stored", func(t *testing.T) {
			h.stop() // a raw peer takes the SN's connection: ocpp-go checks the length before it sends
			ws, _, err := dialRaw(wsBase(env), sn, "", "")
			if err != nil {
				t.Fatal(err)
			}
			defer ws.Close()
			long := strings.Repeat("x", 51)
			frame := fmt.Sprintf(`[2,"long-1","SecurityEventNotification",{"type":%q,"timestamp":%q}]`, long, at.Format(time.RFC3339))
			if err := ws.WriteMessage(websocket.TextMessage, []byte(frame)); err != nil {
				t.Fatal(err)
			}
			_ = ws.SetReadDeadline(time.Now().Add(10 * time.Second))
			_, answer, err := ws.ReadMessage()
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(string(answer), `[4,"long-1","PropertyConstraintViolation"`) {
				t.Fatalf("answered %s", answer)
			}
			if rows := list(t); len(rows) != 2 {
				t.Fatalf("%d rows listed", len(rows))
			}
		})
	})
}

func TestSecurityEventCriticalTable(t *testing.T) {
	critical := map[string]bool{"FirmwareUpdated": true, "SettingSystemTime": true, "StartupOfTheDevice": true, "ResetOrReboot": true,
		"SecurityLogWasCleared": true, "MemoryExhaustion": true, "TamperDetectionActivated": true}
	if len(ocpp16.SecurityEventTypes) != 18 {
		t.Fatalf("%d types, want the whitepaper's 18", len(ocpp16.SecurityEventTypes))
	}
	for _, typ := range ocpp16.SecurityEventTypes {
		t.Run(typ, func(t *testing.T) {
			if got := ocpp16.SecurityEventCritical(typ); got != critical[typ] {
				t.Errorf("critical %v, want %v", got, critical[typ])
			}
		})
	}
	t.Run("a vendor's own type is not critical", func(t *testing.T) {
		if ocpp16.SecurityEventCritical("AcmeDoorAjar") {
			t.Error("critical")
		}
	})
}
