package httpapi_test

import (
	"context"
	"testing"
	"time"

	"chargeops/internal/openapi/webhook"
	"chargeops/internal/testutil/apitest"
)

// seedIsoWebhook gives A's application a webhook (its URL holds an A marker) and a delivery of
// an A device's event, for TestRouteIsolation.
func seedIsoWebhook(t *testing.T, w *isoWorld) int64 {
	t.Helper()
	var hook webhook.Webhook
	apitest.Must(t, w.root.Call("POST", "/api/auth/sys/application/webhook/save", map[string]any{"appId": w.app,
		"url": "https://203.0.113.7/hooks/alpha-0002", "events": []string{"alarm", "device.status"}})).Into(t, &hook)
	now := time.Now().UnixMilli()
	// Failed already, so no worker tries to send it while the test runs.
	if _, err := w.env.DB.Exec(context.Background(), `INSERT INTO webhook_delivery (webhook_id, app_id, event, payload, attempts, next_at, status, created_at)
		VALUES (?, ?, ?, ?, 8, ?, ?, ?)`, hook.ID, w.app, webhook.EventDeviceStatus, `{"sn":"ALPHA-0002","online":true}`, now, webhook.StatusFailed, now); err != nil {
		t.Fatal(err)
	}
	return hook.ID
}

// webhookIsoScenarios are the webhook routes' calls aimed at A's application and webhook (A)
// or only listing (L). The signed ones are made by an application of the caller: they reach
// that application's own webhooks only.
func (w *isoWorld) webhookIsoScenarios() map[string]isoCall {
	A := func(b map[string]any) isoCall { return isoCall{body: b, aimsAtA: true} }
	L := func(b map[string]any) isoCall { return isoCall{body: b} }
	v1 := "/openapi/v1/webhooks"
	base := "/api/auth/sys/application/webhook/"
	save := map[string]any{"id": w.webhook, "url": "https://203.0.113.9/intruder", "events": []string{"alarm"}, "enabled": false}
	withApp := func(m map[string]any) map[string]any {
		out := map[string]any{"appId": w.app}
		for k, v := range m {
			out[k] = v
		}
		return out
	}
	return map[string]isoCall{
		"GET " + v1:                   L(map[string]any{}),
		"POST " + v1:                  A(save),
		"POST " + v1 + "/delete":      A(map[string]any{"ids": []int64{w.webhook}}),
		"GET " + v1 + "/deliveries":   L(map[string]any{"webhookId": w.webhook, "pageSize": 100}),
		"POST " + base + "list":       A(map[string]any{"appId": w.app}),
		"POST " + base + "save":       A(withApp(save)),
		"POST " + base + "delete":     A(withApp(map[string]any{"ids": []int64{w.webhook}})),
		"POST " + base + "deliveries": A(map[string]any{"appId": w.app, "pageSize": 100}),
	}
}
