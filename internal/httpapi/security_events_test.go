package httpapi_test

import (
	"context"
	"testing"

	"chargeops/internal/actionlog"
	"chargeops/internal/db"
	"chargeops/internal/fleet"
	"chargeops/internal/testutil"
	"chargeops/internal/testutil/apitest"
)

// The security-event routes (docs/security-profiles.md, "Security events"): the export's
// headers are in the caller's language, and an acknowledgement is an action-log row.
func TestSecurityEventRoutes(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		o := newOrg(t, d)
		r := o.root
		ctx := context.Background()
		now := db.NowMS()
		alarm := insertEvent(t, d, logEvent{device: o.devA, customer: o.custA, site: o.siteA, kind: fleet.KindAlarm, level: fleet.LevelCA,
			code: "security.TamperDetectionActivated", name: "TamperDetectionActivated", status: fleet.EventOpen, started: now, recorded: now})
		if _, err := d.Exec(ctx, `UPDATE device_event SET source = ? WHERE id = ?`, fleet.SourceSecurity, alarm); err != nil {
			t.Fatal(err)
		}
		ev, err := db.InsertID(ctx, d, `INSERT INTO device_security_event (device_id, customer_id, site_id, type, tech_info, critical, occurred_at, created_at, event_id)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, o.devA, o.custA, o.siteA, "TamperDetectionActivated", "lid", 1, now, now, alarm)
		if err != nil {
			t.Fatal(err)
		}
		base := "/api/auth/sys/dev/security/event/"

		t.Run("the export's headers and values are in the caller's language", func(t *testing.T) {
			prev := r.Locale
			r.Locale = "zh-CN"
			defer func() { r.Locale = prev }()
			rows := sheetRows(t, r.CallRaw("POST", base+"export", map[string]any{"deviceId": o.devA}))
			if len(rows) != 2 || rows[0][1] != "类型" || rows[1][1] != "TamperDetectionActivated" || rows[1][2] != "是" || rows[1][6] != "未结束" {
				t.Fatalf("rows %v", rows)
			}
		})
		t.Run("a format other than xlsx is refused naming the field", func(t *testing.T) {
			if a := r.Call("POST", base+"export", map[string]any{"format": "csv"}); a.Code == 0 {
				t.Fatal("csv accepted")
			}
		})
		t.Run("the acknowledgement ends the alarm and is an action-log row", func(t *testing.T) {
			var ans struct{ Ended int }
			apitest.Must(t, r.Call("POST", base+"ack", map[string]any{"ids": []int64{ev}})).Into(t, &ans)
			if ans.Ended != 1 {
				t.Fatalf("ended %d", ans.Ended)
			}
			var page struct {
				List []actionlog.Entry `json:"list"`
			}
			apitest.Must(t, r.Call("POST", "/api/auth/sys/logs/action/list", map[string]any{"type": actionlog.TypeOperation, "pageSize": 100})).Into(t, &page)
			found := false
			for _, e := range page.List {
				found = found || e.Action == "POST "+base+"ack"
			}
			if !found {
				t.Error("no action-log row for the acknowledgement")
			}
		})
	})
}
