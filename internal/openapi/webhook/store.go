// Package webhook sends an application's subscribed events to its URLs (docs/webhooks.md): the
// subscriptions (at most five per application), the fan-out of the fleet's committed changes
// into a delivery table (only devices within the bound user's scope), and a worker that POSTs
// each delivery signed as the OpenAPI signs requests (openapi.Sign with the application's
// current secret), retrying with back-off, only to allowed destinations (dial.go).
package webhook

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/application"
	"chargeops/internal/db"
	"chargeops/internal/kit"
)

// MaxPerApp is how many webhooks one application may have.
const MaxPerApp = 5

// Webhook is a subscription of an application.
type Webhook struct {
	ID        int64    `json:"id"`
	URL       string   `json:"url"`
	Events    []string `json:"events"` // device.status, alarm, command.result
	Enabled   bool     `json:"enabled"`
	CreatedAt int64    `json:"createdAt"`
	UpdatedAt int64    `json:"updatedAt"`
}

// Input adds (ID 0) or changes a webhook.
type Input struct {
	ID      int64    `json:"id"`
	URL     string   `json:"url"`
	Events  []string `json:"events"`
	Enabled *bool    `json:"enabled"` // nil: enabled on add, unchanged on update
}

// IDsInput names webhooks of the caller's application.
type IDsInput struct {
	IDs []int64 `json:"ids"`
}

// DeliveryFilter filters the delivery log.
type DeliveryFilter struct {
	db.Page
	WebhookID int64  `json:"webhookId"`
	Event     string `json:"event"`
	Status    string `json:"status"` // pending, delivered or failed
}

// The console's inputs name the application (its detail must be in the caller's scope).
type (
	AppInput struct {
		AppID int64 `json:"appId"`
	}
	ConsoleSave struct {
		AppID int64 `json:"appId"`
		Input
	}
	ConsoleDelete struct {
		AppID int64   `json:"appId"`
		IDs   []int64 `json:"ids"`
	}
	ConsoleDeliveries struct {
		AppID int64 `json:"appId"`
		DeliveryFilter
	}
)

// Owner is the application whose webhooks a call reads or changes, and who calls: the signed
// application itself (OpenAPI), or an application in the console caller's scope.
type Owner struct {
	AppID int64
	P     *access.Principal
}

// Signed is the owner of an OpenAPI call: the proven application acting as its bound user p.
func Signed(app *application.App, p *access.Principal) (Owner, error) {
	if app == nil || app.ID == 0 {
		return Owner{}, apperr.ErrNotFound
	}
	return Owner{AppID: app.ID, P: p}, nil
}

// Console is the owner of a console call on application appID: found through
// application.Service.Detail, so an application outside the caller's scope is not found.
func (s *Service) Console(ctx context.Context, p *access.Principal, appID int64) (Owner, error) {
	a, err := s.apps.Detail(ctx, p, appID)
	if err != nil {
		return Owner{}, err
	}
	return Owner{AppID: a.ID, P: p}, nil
}

// changes refuses a change by a read-only customer's user (the console's route table does so
// for session calls; signed calls come here with the bound user).
func (o Owner) changes() error {
	if o.P != nil && o.P.ReadOnly {
		return apperr.ErrNoPermission
	}
	return nil
}

const webhookCols = `id, url, events, enabled, created_at, updated_at`

func scanWebhook(r db.Scanner) (Webhook, error) {
	var w Webhook
	var events string
	var enabled int
	err := r.Scan(&w.ID, &w.URL, &events, &enabled, &w.CreatedAt, &w.UpdatedAt)
	w.Events, w.Enabled = splitEvents(events), enabled == 1
	return w, err
}

func splitEvents(s string) []string {
	out := []string{}
	for e := range strings.SplitSeq(s, ",") {
		if e != "" {
			out = append(out, e)
		}
	}
	return out
}

// List is the owner's webhooks, oldest first.
func (s *Service) List(ctx context.Context, o Owner) ([]Webhook, error) {
	q := (&db.Query{From: "webhook"}).And("app_id = ?", o.AppID)
	l, err := db.All(ctx, s.db, q, webhookCols, "id", MaxPerApp*2, 0, scanWebhook)
	if err != nil {
		return nil, fmt.Errorf("webhook: list: %w", err)
	}
	return l, nil
}

// Validation errors, one per field in the form's order.
var (
	errURL        = apperr.New(apperr.Invalid, "err.webhook_url").With(map[string]any{"field": "url", "max": MaxURL})
	errEvents     = apperr.New(apperr.Invalid, "err.webhook_events").With(map[string]any{"field": "events", "events": strings.Join(Events, ", ")})
	errLimit      = apperr.New(apperr.Conflict, "err.webhook_limit").With(map[string]any{"max": MaxPerApp})
	errRefusedURL = apperr.New(apperr.Invalid, "err.webhook_destination")
)

// validate normalises in and checks one rule per field: the URL (form, then destination), the
// events.
func (s *Service) validate(ctx context.Context, in *Input) error {
	in.URL = strings.TrimSpace(in.URL)
	if in.URL == "" {
		return apperr.InvalidField("url", "err.required")
	}
	if _, err := s.dest.CheckURL(ctx, in.URL); err != nil {
		var refused *RefusedError
		if errors.As(err, &refused) {
			return errRefusedURL.With(map[string]any{"field": "url", "address": refused.Addr.String()})
		}
		return errURL
	}
	var events []string
	for _, e := range in.Events {
		e = strings.TrimSpace(e)
		if !slices.Contains(Events, e) {
			return errEvents
		}
		if !slices.Contains(events, e) {
			events = append(events, e)
		}
	}
	if len(events) == 0 {
		return errEvents
	}
	slices.Sort(events)
	in.Events = events
	return nil
}

// Save adds a webhook to the owner's application (at most MaxPerApp) or changes one of its own.
func (s *Service) Save(ctx context.Context, o Owner, in Input) (Webhook, error) {
	if err := o.changes(); err != nil {
		return Webhook{}, err
	}
	if err := s.validate(ctx, &in); err != nil {
		return Webhook{}, err
	}
	now := s.Now().UnixMilli()
	events := strings.Join(in.Events, ",")
	id := in.ID
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		if in.ID == 0 {
			var n int
			if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM webhook WHERE app_id = ?`, o.AppID).Scan(&n); err != nil {
				return err
			}
			if n >= MaxPerApp {
				return errLimit
			}
			enabled := in.Enabled == nil || *in.Enabled
			var err error
			id, err = db.InsertID(ctx, tx, `INSERT INTO webhook (app_id, url, events, enabled, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)`,
				o.AppID, in.URL, events, db.BoolInt(enabled), now, now)
			return err
		}
		if in.Enabled == nil {
			res, err := tx.Exec(ctx, `UPDATE webhook SET url = ?, events = ?, updated_at = ? WHERE id = ? AND app_id = ?`, in.URL, events, now, in.ID, o.AppID)
			return db.Affected(res, err, apperr.ErrNotFound)
		}
		res, err := tx.Exec(ctx, `UPDATE webhook SET url = ?, events = ?, enabled = ?, updated_at = ? WHERE id = ? AND app_id = ?`,
			in.URL, events, db.BoolInt(*in.Enabled), now, in.ID, o.AppID)
		return db.Affected(res, err, apperr.ErrNotFound)
	})
	if err != nil {
		if _, ok := apperr.As(err); ok {
			return Webhook{}, err
		}
		return Webhook{}, fmt.Errorf("webhook: save: %w", err)
	}
	s.subsChanged()
	return db.One(ctx, s.db, (&db.Query{From: "webhook"}).And("id = ? AND app_id = ?", id, o.AppID), webhookCols, scanWebhook, apperr.ErrNotFound)
}

// Delete removes webhooks of the owner's application (all or none) with their deliveries.
func (s *Service) Delete(ctx context.Context, o Owner, ids []int64) error {
	if err := o.changes(); err != nil {
		return err
	}
	if err := kit.IDs(ids).CheckMax(MaxPerApp * 2); err != nil {
		return err
	}
	del := kit.Batch{Table: "webhook", Scope: "app_id = ?", ScopeArgs: []any{o.AppID},
		After: func(ctx context.Context, tx *db.Tx, ids kit.IDs) error {
			_, err := tx.Exec(ctx, `DELETE FROM webhook_delivery WHERE webhook_id IN (`+ids.In()+`) AND app_id = ?`, append(ids.Args(), o.AppID)...)
			return err
		}}
	if err := del.Run(ctx, s.db, ids); err != nil {
		return kit.Wrap("webhook", "delete", err)
	}
	s.subsChanged()
	return nil
}

// Delivery is one delivery of an event to a webhook, as its log shows it.
type Delivery struct {
	ID          int64          `json:"id"`
	WebhookID   int64          `json:"webhookId"`
	URL         string         `json:"url"` // the webhook's URL ("" once the webhook is deleted)
	Event       string         `json:"event"`
	Status      string         `json:"status"` // pending, delivered, failed
	Attempts    int            `json:"attempts"`
	LastStatus  int            `json:"lastStatus"` // the last attempt's HTTP status; 0 no answer
	LastError   string         `json:"lastError"`
	NextAt      int64          `json:"nextAt"` // pending: when the next attempt is due
	CreatedAt   int64          `json:"createdAt"`
	DeliveredAt int64          `json:"deliveredAt"`
	Data        map[string]any `json:"data"` // the event's data, as sent
}

// Deliveries is a page of the owner's deliveries, newest first.
func (s *Service) Deliveries(ctx context.Context, o Owner, f DeliveryFilter) (db.List[Delivery], error) {
	q := (&db.Query{From: "webhook_delivery d LEFT JOIN webhook w ON w.id = d.webhook_id"}).And("d.app_id = ?", o.AppID)
	if f.WebhookID != 0 {
		q.And("d.webhook_id = ?", f.WebhookID)
	}
	if f.Event != "" {
		q.And("d.event = ?", f.Event)
	}
	if f.Status != "" {
		if !slices.Contains([]string{StatusPending, StatusDelivered, StatusFailed}, f.Status) {
			return db.List[Delivery]{}, apperr.InvalidField("status", "err.invalid")
		}
		q.And("d.status = ?", f.Status)
	}
	l, err := db.Paged(ctx, s.db, q, `d.id, d.webhook_id, COALESCE(w.url, ''), d.event, d.status, d.attempts, d.last_status, d.last_error,
		d.next_at, d.created_at, d.delivered_at, d.payload`, "d.id DESC", f.Page, func(r db.Scanner) (Delivery, error) {
		var x Delivery
		var data string
		err := r.Scan(&x.ID, &x.WebhookID, &x.URL, &x.Event, &x.Status, &x.Attempts, &x.LastStatus, &x.LastError, &x.NextAt, &x.CreatedAt, &x.DeliveredAt, &data)
		if err == nil {
			err = json.Unmarshal([]byte(data), &x.Data)
		}
		return x, err
	})
	if err != nil {
		return l, fmt.Errorf("webhook: deliveries: %w", err)
	}
	return l, nil
}
