package demo

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"time"

	"chargeops/internal/access"
	"chargeops/internal/app"
	"chargeops/internal/application"
	"chargeops/internal/db"
	"chargeops/internal/openapi"
)

// The demo's third-party integration: an application "Harbour billing" bound to hk_staff that
// calls the OpenAPI v1 over HTTP like a billing system would (devices, their status, open
// alarms, charging sessions; now and then a device it still remembers and chargeops no longer
// knows), so the OpenAPI screens and the request log have traffic from the first minute.

// IntegrationApp is the demo application's name.
const IntegrationApp = "Harbour billing"

// integrationUser is the user the application acts as.
const integrationUser = "hk_staff"

// RunIntegration makes the demo application when the demo organisation has its user and no
// such application yet, then calls base (this node) every interval until ctx ends.
func RunIntegration(ctx context.Context, a *app.App, base string, every time.Duration) {
	c, err := integrationClient(ctx, a, base)
	if err != nil {
		slog.Warn("demo integration not started", "err", err)
		return
	}
	if c == nil {
		return
	}
	slog.Info("demo integration calling the OpenAPI", "app", IntegrationApp, "appId", c.AppID)
	for round := 0; ; round++ {
		integrationRound(ctx, c, round)
		select {
		case <-ctx.Done():
			return
		case <-time.After(every):
		}
	}
}

func integrationClient(ctx context.Context, a *app.App, base string) (*openapi.Client, error) {
	apps := a.Server.Apps
	var appID string
	err := a.DB.QueryRow(ctx, `SELECT app_id FROM application WHERE name = ?`, IntegrationApp).Scan(&appID)
	if db.NotFound(err) {
		var userID int64
		err := a.DB.QueryRow(ctx, `SELECT id FROM app_user WHERE user_name = ?`, integrationUser).Scan(&userID)
		if db.NotFound(err) {
			return nil, nil // not the demo organisation
		}
		if err != nil {
			return nil, err
		}
		root := &access.Principal{Root: true, Scope: access.FullScope()}
		made, err := apps.Add(ctx, root, application.Input{Name: IntegrationApp, UserID: userID,
			Description: "Demo: a billing system reading devices, alarms and charging sessions through the OpenAPI v1 (docs/openapi.md)"})
		if err != nil {
			return nil, fmt.Errorf("demo application: %w", err)
		}
		appID = made.AppID
	} else if err != nil {
		return nil, err
	}
	_, secret, _, err := apps.Secrets(ctx, appID)
	if err != nil {
		return nil, err
	}
	return &openapi.Client{Base: base, AppID: appID, Secret: secret, HTTP: nil}, nil
}

// integrationRound is one poll of the billing system.
func integrationRound(ctx context.Context, c *openapi.Client, round int) {
	call := func(method, path string) openapi.Answer {
		a, err := c.Do(ctx, method, path, nil)
		if err != nil && ctx.Err() == nil {
			slog.Debug("demo integration", "path", path, "err", err)
		}
		return a
	}
	devices := call("GET", "/openapi/v1/devices?pageSize=50")
	var list struct{ List []struct{ ID int64 } }
	_ = json.Unmarshal(devices.Data, &list)
	if n := len(list.List); n > 0 {
		for range 2 {
			call("GET", fmt.Sprintf("/openapi/v1/devices/status?id=%d", list.List[rand.IntN(n)].ID))
		}
	}
	call("GET", "/openapi/v1/events?status=0&pageSize=20")
	if round%3 == 0 {
		call("GET", "/openapi/v1/sessions?pageSize=20")
	}
	if round%7 == 3 {
		call("GET", "/openapi/v1/devices/detail?id=999999999") // a device the billing system still remembers
	}
}
