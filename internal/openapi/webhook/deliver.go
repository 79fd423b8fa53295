package webhook

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"sync"
	"time"

	"chargeops/internal/access"
	"chargeops/internal/application"
	"chargeops/internal/db"
	"chargeops/internal/openapi"
)

// Delivery states (webhook_delivery.status).
const (
	StatusPending   = "pending"
	StatusDelivered = "delivered"
	StatusFailed    = "failed"
)

// Headers of a delivery besides the signature's (openapi.HeaderAppID, ...).
const (
	HeaderEvent    = "X-Webhook-Event"
	HeaderDelivery = "X-Webhook-Delivery"
)

// Options shape the worker. Zero values take the defaults.
type Options struct {
	// Backoff is the wait after the n-th failed attempt (Backoff[n-1]; the last one repeats):
	// 10 s, 30 s, 2 min, 10 min, 1 h, 6 h.
	Backoff []time.Duration
	// MaxAttempts: attempts before a delivery is failed (8).
	MaxAttempts int
	// Timeout of one attempt: connecting, sending and the answer's headers (10 s).
	Timeout time.Duration
	// Poll: how often the worker looks for due deliveries without being woken (2 s).
	Poll time.Duration
	// Lease: how long a claimed delivery is left to its node before another may try (1 min;
	// at least twice Timeout).
	Lease time.Duration
	// Parallel: deliveries one node sends at the same time (8).
	Parallel int
	// Queue: events waiting for the fan-out before new ones are dropped (8192).
	Queue int
	// SubsRefresh: how often a node looks whether any webhook is enabled (10 s).
	SubsRefresh time.Duration
	// Destinations: where deliveries may go (dial.go).
	Destinations Destinations
}

// DefaultBackoff is the default retry schedule.
var DefaultBackoff = []time.Duration{10 * time.Second, 30 * time.Second, 2 * time.Minute, 10 * time.Minute, time.Hour, 6 * time.Hour}

func (o Options) withDefaults() Options {
	if len(o.Backoff) == 0 {
		o.Backoff = DefaultBackoff
	}
	if o.MaxAttempts <= 0 {
		o.MaxAttempts = 8
	}
	if o.Timeout <= 0 {
		o.Timeout = 10 * time.Second
	}
	if o.Poll <= 0 {
		o.Poll = 2 * time.Second
	}
	if o.Lease < 2*o.Timeout {
		o.Lease = max(time.Minute, 2*o.Timeout)
	}
	if o.Parallel <= 0 {
		o.Parallel = 8
	}
	if o.Queue <= 0 {
		o.Queue = 8192
	}
	if o.SubsRefresh <= 0 {
		o.SubsRefresh = 10 * time.Second
	}
	return o
}

// backoff is the wait after the n-th failed attempt (n >= 1).
func (o Options) backoff(n int) time.Duration {
	return o.Backoff[min(n, len(o.Backoff))-1]
}

// Apps is what the service needs of applications: the console's scoped detail and the
// secrets deliveries are signed with (application.Service).
type Apps interface {
	Detail(ctx context.Context, p *access.Principal, id int64) (application.App, error)
	Secrets(ctx context.Context, appID string) (application.App, []byte, []byte, error)
}

// Principals turns a bound user into a caller (auth.Service.PrincipalOf).
type Principals interface {
	PrincipalOf(ctx context.Context, userID int64) (*access.Principal, error)
}

// Service keeps webhooks, queues their deliveries and sends them.
type Service struct {
	db     *db.DB
	apps   Apps
	users  Principals
	opt    Options
	dest   Destinations
	client *http.Client
	in     chan occurrence
	wake   chan struct{}
	// subsKick makes the intake look at the subscriptions again.
	subsKick chan struct{}
	principalCache
	counters
	// Now is the clock (tests move it).
	Now func() time.Time
}

// New returns the service; Run starts its intake and worker.
func New(d *db.DB, apps Apps, users Principals, opt Options) *Service {
	opt = opt.withDefaults()
	return &Service{db: d, apps: apps, users: users, opt: opt, dest: opt.Destinations, client: opt.Destinations.Client(opt.Timeout),
		in: make(chan occurrence, opt.Queue), wake: make(chan struct{}, 1), subsKick: make(chan struct{}, 1),
		principalCache: principalCache{principals: map[int64]cachedPrincipal{}}, Now: time.Now}
}

// Options are the options in force.
func (s *Service) Options() Options { return s.opt }

// SetOptions replaces the options (tests use a fast schedule); call it before Run. The queue
// keeps its size.
func (s *Service) SetOptions(o Options) {
	o = o.withDefaults()
	s.opt, s.dest, s.client = o, o.Destinations, o.Destinations.Client(o.Timeout)
}

// Wake makes the worker look for due deliveries now.
func (s *Service) Wake() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// Run queues the fleet's events for delivery and delivers what is due until ctx ends. Any
// number of nodes may run it: a delivery is claimed by a conditional UPDATE that pushes its next
// attempt past the lease, so one node tries it at a time.
func (s *Service) Run(ctx context.Context) {
	s.refreshAny(ctx)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); s.intake(ctx) }()
	t := time.NewTicker(s.opt.Poll)
	defer t.Stop()
	for {
		for s.deliverDue(ctx) > 0 && ctx.Err() == nil {
		}
		select {
		case <-ctx.Done():
			wg.Wait()
			return
		case <-t.C:
		case <-s.wake:
		}
	}
}

const (
	sqlDue   = `SELECT id FROM webhook_delivery WHERE status = ? AND next_at <= ? ORDER BY next_at, id LIMIT 50`
	sqlClaim = `UPDATE webhook_delivery SET attempts = attempts + 1, next_at = ? WHERE id = ? AND status = ? AND next_at <= ?`
	sqlRow   = `SELECT d.webhook_id, d.event, d.payload, d.attempts, d.created_at, COALESCE(w.url, ''), COALESCE(w.enabled, 0),
		COALESCE(a.app_id, ''), COALESCE(a.status, 0)
		FROM webhook_delivery d LEFT JOIN webhook w ON w.id = d.webhook_id LEFT JOIN application a ON a.id = d.app_id WHERE d.id = ?`
	sqlDelivered = `UPDATE webhook_delivery SET status = ?, last_status = ?, last_error = '', delivered_at = ? WHERE id = ?`
	sqlRetry     = `UPDATE webhook_delivery SET status = ?, next_at = ?, last_status = ?, last_error = ? WHERE id = ?`
)

// deliverDue tries the due deliveries once each, Parallel at a time, and answers how many it
// tried.
func (s *Service) deliverDue(ctx context.Context) int {
	now := s.Now().UnixMilli()
	ids, err := db.Column[int64](ctx, s.db, sqlDue, StatusPending, now)
	if err != nil {
		if ctx.Err() == nil {
			slog.Warn("webhook: due deliveries", "err", err)
		}
		return 0
	}
	sem := make(chan struct{}, s.opt.Parallel)
	var wg sync.WaitGroup
	var mu sync.Mutex
	tried := 0
	for _, id := range ids {
		if ctx.Err() != nil {
			break
		}
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			if s.attempt(ctx, id) {
				mu.Lock()
				tried++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return tried
}

// Body is what a delivery POSTs: its id (also in X-Webhook-Delivery, the same on every retry),
// the event type, the time of the event (unix ms) and the event's data.
type Body struct {
	ID    int64           `json:"id"`
	Event string          `json:"event"`
	Time  int64           `json:"time"`
	Data  json.RawMessage `json:"data"`
}

// attempt claims one delivery and sends it; it reports whether this node tried it.
func (s *Service) attempt(ctx context.Context, id int64) bool {
	now := s.Now().UnixMilli()
	res, err := s.db.Exec(ctx, sqlClaim, now+s.opt.Lease.Milliseconds(), id, StatusPending, now)
	if err != nil {
		slog.Warn("webhook: claim", "delivery", id, "err", err)
		return false
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return false // another node has it
	}
	var r struct {
		webhook            int64
		event, payload     string
		attempts           int
		created            int64
		url, appID         string
		enabled, appStatus int
	}
	if err := s.db.QueryRow(ctx, sqlRow, id).Scan(&r.webhook, &r.event, &r.payload, &r.attempts, &r.created, &r.url, &r.enabled,
		&r.appID, &r.appStatus); err != nil {
		slog.Warn("webhook: read delivery", "delivery", id, "err", err)
		return false
	}
	// the outcome is stored even when ctx ended meanwhile
	store := context.WithoutCancel(ctx)
	switch {
	case r.url == "" || r.appID == "":
		s.finish(store, id, StatusFailed, 0, "webhook or application deleted")
		return true
	case r.enabled != 1:
		s.finish(store, id, StatusFailed, 0, "webhook disabled")
		return true
	case r.appStatus != application.Enabled:
		s.finish(store, id, StatusFailed, 0, "application disabled")
		return true
	}
	status, err := s.post(ctx, id, r.url, r.appID, r.event, r.created, r.payload)
	if err == nil {
		if _, err := s.db.Exec(store, sqlDelivered, StatusDelivered, status, s.Now().UnixMilli(), id); err != nil {
			slog.Warn("webhook: mark delivered", "delivery", id, "err", err)
		}
		return true
	}
	state, next := StatusPending, s.Now().Add(s.opt.backoff(r.attempts)).UnixMilli()
	if r.attempts >= s.opt.MaxAttempts {
		state = StatusFailed
	}
	slog.Info("webhook not delivered", "delivery", id, "attempt", r.attempts, "gave_up", state == StatusFailed, "status", status, "err", err)
	msg := err.Error()
	if len(msg) > 500 {
		msg = msg[:500]
	}
	if _, err := s.db.Exec(store, sqlRetry, state, next, status, msg, id); err != nil {
		slog.Warn("webhook: mark retry", "delivery", id, "err", err)
	}
	return true
}

// finish ends a delivery without sending it.
func (s *Service) finish(ctx context.Context, id int64, state string, status int, msg string) {
	if _, err := s.db.Exec(ctx, sqlRetry, state, s.Now().UnixMilli(), status, msg, id); err != nil {
		slog.Warn("webhook: end delivery", "delivery", id, "err", err)
	}
}

// post sends one delivery, signed with the application's current secret; nil error means a 2xx
// answer. The status is the answer's HTTP status (0: none).
func (s *Service) post(ctx context.Context, id int64, target, appID, event string, at int64, payload string) (int, error) {
	_, secret, _, err := s.apps.Secrets(ctx, appID)
	if err != nil {
		return 0, fmt.Errorf("application secret: %w", err)
	}
	body, err := json.Marshal(Body{ID: id, Event: event, Time: at, Data: json.RawMessage(payload)})
	if err != nil {
		return 0, err
	}
	ctx, cancel := context.WithTimeout(ctx, s.opt.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, target, bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	openapi.SignRequest(req, body, appID, secret, s.Now()) // method POST, the receiver URL's path and query
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "chargeops-webhook/1")
	req.Header.Set(HeaderEvent, event)
	req.Header.Set(HeaderDelivery, strconv.FormatInt(id, 10))
	resp, err := s.client.Do(req)
	if err != nil {
		var refused *RefusedError
		if errors.As(err, &refused) {
			return 0, refused
		}
		return 0, err
	}
	defer resp.Body.Close()
	snippet, _ := io.ReadAll(io.LimitReader(resp.Body, 200))
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10)) // lets the connection be reused
	if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		return resp.StatusCode, nil
	}
	return resp.StatusCode, fmt.Errorf("HTTP %d: %s", resp.StatusCode, bytes.TrimSpace(snippet))
}

// Purge deletes delivered and failed deliveries older than keep, and the webhooks (with their
// deliveries) of deleted applications.
func (s *Service) Purge(ctx context.Context, keep time.Duration) (int64, error) {
	cut := s.Now().Add(-keep).UnixMilli()
	n, err := db.Purge(ctx, s.db, "webhook_delivery", "id", "created_at < ? AND status <> ?", 20, cut, StatusPending)
	if err != nil {
		return n, err
	}
	m, err := db.Purge(ctx, s.db, "webhook_delivery", "id", "app_id NOT IN (SELECT id FROM application)", 20)
	if err != nil {
		return n + m, err
	}
	if _, err := s.db.Exec(ctx, `DELETE FROM webhook WHERE app_id NOT IN (SELECT id FROM application)`); err != nil {
		return n + m, fmt.Errorf("webhook: purge orphans: %w", err)
	}
	return n + m, nil
}
