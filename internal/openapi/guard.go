package openapi

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/application"
	"chargeops/internal/db"
	"chargeops/internal/ratelimit"
)

// Apps gives an application and its valid secrets by appId (application.Service.Secrets).
type Apps interface {
	Secrets(ctx context.Context, appID string) (application.App, []byte, []byte, error)
}

// Principals turns the bound user into a caller, as a console session would
// (auth.Service.PrincipalOf).
type Principals interface {
	PrincipalOf(ctx context.Context, userID int64) (*access.Principal, error)
}

// Options bound the guard. Zero values take the defaults.
type Options struct {
	// Window: how far a request's timestamp may be from the server's clock (300 s).
	Window time.Duration
	// RatePerMinute: calls one application may make per minute, across nodes (600).
	RatePerMinute int
	// BadSignatures: wrong signatures per application and client address in 10 minutes before
	// further wrong ones from that address are refused as a lock-out until the window ends (20).
	// A right signature is never refused by it: the appId is not secret, so counting per
	// application alone would let anyone lock the application out (docs/openapi.md, "Errors").
	BadSignatures int
}

// Defaults.
const (
	DefaultWindow        = 300 * time.Second
	DefaultRatePerMinute = 600
	DefaultBadSignatures = 20
	badSignatureWindow   = 10 * time.Minute
)

// Guard checks signed requests.
type Guard struct {
	db         *db.DB
	apps       Apps
	principals Principals
	limiter    *ratelimit.Limiter
	opt        Options
	// Now is the clock (tests move it).
	Now func() time.Time
}

// NewGuard checks requests against the applications in apps, acting as their bound users.
func NewGuard(d *db.DB, apps Apps, principals Principals, opt Options) *Guard {
	if opt.Window <= 0 {
		opt.Window = DefaultWindow
	}
	if opt.RatePerMinute <= 0 {
		opt.RatePerMinute = DefaultRatePerMinute
	}
	if opt.BadSignatures <= 0 {
		opt.BadSignatures = DefaultBadSignatures
	}
	return &Guard{db: d, apps: apps, principals: principals, limiter: ratelimit.New(d), opt: opt, Now: time.Now}
}

// Caller is a checked request: the application and its bound user as the principal.
type Caller struct {
	App application.App
	P   *access.Principal
}

// Refusal errors, one code per reason (docs/openapi.md, "Errors").
var (
	ErrHeaders        = apperr.New(apperr.SignatureMissing, "err.openapi_headers")
	ErrAppUnknown     = apperr.New(apperr.AppUnknown, "err.openapi_app_unknown")
	ErrAppDisabled    = apperr.New(apperr.AppDisabled, "err.openapi_app_disabled")
	ErrTimestamp      = apperr.New(apperr.TimestampSkewed, "err.openapi_timestamp")
	ErrNonce          = apperr.New(apperr.NonceReplayed, "err.openapi_nonce")
	ErrSignature      = apperr.New(apperr.SignatureMismatch, "err.openapi_signature")
	ErrRateLimited    = apperr.New(apperr.AppRateLimited, "err.openapi_rate_limited")
	ErrSignatureLock  = apperr.New(apperr.SignatureLocked, "err.openapi_signature_locked")
	ErrAppUserMissing = apperr.New(apperr.AppUserDisabled, "err.openapi_app_user")
	// A query whose meaning the signature does not pin (CheckQuery): {key}.
	ErrQueryDuplicate = apperr.New(apperr.Invalid, "err.openapi_query_duplicate")
	ErrQueryEncoding  = apperr.New(apperr.Invalid, "err.openapi_query_encoding")
)

// Check verifies r (with its body already read), sent from the client address ip, and answers
// the caller. The application is answered too when the refusal came after it was known (for the
// request log): check App.ID != 0.
//
// Order: the headers' form, the query's form (CheckQuery), the timestamp window, the
// application, the signature (current secret, then the previous one during its grace; a wrong
// one is counted per application and address, and past the limit answered as a lock-out), the
// application's status, the nonce (once per application, across nodes), the call budget, the
// bound user.
func (g *Guard) Check(ctx context.Context, r *http.Request, body []byte, ip string) (Caller, error) {
	var c Caller
	h := r.Header
	req := Request{Method: r.Method, Path: r.URL.EscapedPath(), RawQuery: r.URL.RawQuery, Body: body,
		AppID: h.Get(HeaderAppID), Timestamp: h.Get(HeaderTimestamp), Nonce: h.Get(HeaderNonce)}
	sig := h.Get(HeaderSignature)
	ts, err := strconv.ParseInt(req.Timestamp, 10, 64)
	if req.AppID == "" || len(req.AppID) > 64 || err != nil || !ValidNonce(req.Nonce) || len(sig) != 64 {
		return c, ErrHeaders
	}
	if err := CheckQuery(req.RawQuery); err != nil {
		return c, err
	}
	now := g.Now()
	if d := now.Sub(time.Unix(ts, 0)); d > g.opt.Window || d < -g.opt.Window {
		return c, ErrTimestamp.With(map[string]any{"seconds": int(g.opt.Window.Seconds()), "server": now.Unix()})
	}
	app, cur, prev, err := g.apps.Secrets(ctx, req.AppID)
	if apperr.IsNotFound(err) {
		return c, ErrAppUnknown
	}
	if err != nil {
		return c, fmt.Errorf("openapi: application %s: %w", req.AppID, err)
	}
	c.App = app
	if !Verify(sig, req, cur, prev) {
		// One atomic count-and-read per wrong signature, per application and address: a burst
		// cannot slip past the limit, and another address (the application itself) is not
		// touched.
		ok, err := g.limiter.Allow(ctx, "openapi-badsig:"+app.AppID+"@"+ip, g.opt.BadSignatures, badSignatureWindow)
		if err != nil {
			return c, fmt.Errorf("openapi: count wrong signature: %w", err)
		}
		if !ok {
			return c, ErrSignatureLock
		}
		return c, ErrSignature
	}
	if app.Status != application.Enabled {
		return c, ErrAppDisabled
	}
	res, err := g.db.Exec(ctx, `INSERT INTO openapi_nonce (app_id, nonce, expires_at) VALUES (?, ?, ?) ON CONFLICT (app_id, nonce) DO NOTHING`,
		app.ID, req.Nonce, time.Unix(ts, 0).Add(g.opt.Window).UnixMilli())
	if err := db.Affected(res, err, ErrNonce); err != nil {
		return c, err
	}
	ok, err := g.limiter.Allow(ctx, "openapi:"+app.AppID, g.opt.RatePerMinute, time.Minute)
	if err != nil {
		return c, err
	}
	if !ok {
		return c, ErrRateLimited.With(map[string]any{"limit": g.opt.RatePerMinute})
	}
	p, err := g.principals.PrincipalOf(ctx, app.UserID)
	if err != nil {
		if e, ok := apperr.As(err); ok && e.Code >= apperr.NotLoggedIn && e.Code <= apperr.AccountDisabled {
			return c, ErrAppUserMissing
		}
		return c, err
	}
	c.P = p
	return c, nil
}

// PurgeNonces deletes nonces whose window has passed (a replay of them is refused by the
// timestamp check anyway).
func (g *Guard) PurgeNonces(ctx context.Context) error {
	_, err := g.db.Exec(ctx, `DELETE FROM openapi_nonce WHERE expires_at < ?`, g.Now().UnixMilli())
	return err
}

// HTTPStatus is the HTTP status of an answer code on the OpenAPI (the envelope's code says
// the same in detail): 401 for a request that does not prove its application, 403 for one that
// may not, 429 for a spent budget, 404, 400, 500, and 200 for success and business refusals
// of device operations (offline, busy).
func HTTPStatus(code int) int {
	switch code {
	case apperr.OK:
		return http.StatusOK
	case apperr.SignatureMissing, apperr.AppUnknown, apperr.TimestampSkewed, apperr.NonceReplayed, apperr.SignatureMismatch:
		return http.StatusUnauthorized
	case apperr.AppDisabled, apperr.AppUserDisabled, apperr.NoPermission:
		return http.StatusForbidden
	case apperr.AppRateLimited, apperr.SignatureLocked, apperr.RateLimited:
		return http.StatusTooManyRequests
	case apperr.NotFound:
		return http.StatusNotFound
	case apperr.Invalid:
		return http.StatusBadRequest
	case apperr.Internal:
		return http.StatusInternalServerError
	}
	return http.StatusOK
}
