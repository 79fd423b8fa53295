// Package apperr is the business error every service returns: a numeric code of the API
// (docs/api.md) and a message key that the HTTP layer localises.
package apperr

import (
	"errors"
	"fmt"
)

// Codes of the API envelope.
const (
	OK               = 0
	Invalid          = 10001
	NotFound         = 10002
	Conflict         = 10003
	RateLimited      = 10004
	CaptchaWrong     = 10005
	BadCredentials   = 10006
	AccountLocked    = 10007
	NonceExpired     = 10008
	ResetLinkExpired = 10009
	CSRFInvalid      = 10010
	WrongPassword    = 10011
	Internal         = 10500
	NotLoggedIn      = 20001
	SessionExpired   = 20002
	ForcedRelogin    = 20003
	AccountDisabled  = 20004
	NoPermission     = 20013
	PrivacyPending   = 20014 // the current privacy policy is not accepted yet (docs/api.md)

	// Device operations (30xxx).
	DeviceOffline   = 30001
	DeviceBusy      = 30002
	SomeDevicesBusy = 30003
	CommandTimeout  = 30004
	SameValue       = 30005
	NotSupported    = 30006
	DeviceDisabled  = 30007
	RemoteFailed    = 30008 // remote link: VPN error status, or the tunnel refused or broken (docs/remote-access.md)
	DestroyFailed   = 30009 // remote link: not destroyed everywhere (docs/remote-access.md)

	// OpenAPI signature refusals (40xxx, docs/openapi.md): one code per reason.
	SignatureMissing  = 40001 // a signature header is missing or malformed
	AppUnknown        = 40002 // no application has this appId
	AppDisabled       = 40003 // the application is disabled
	TimestampSkewed   = 40004 // the timestamp is more than 300 s off
	NonceReplayed     = 40005 // the nonce was used before
	SignatureMismatch = 40006 // the signature does not match
	AppRateLimited    = 40007 // the application's call budget is spent
	SignatureLocked   = 40008 // too many wrong signatures: refused for a while
	AppUserDisabled   = 40009 // the bound user is disabled or gone
)

// Error is a business error. Key names a message in internal/i18n; Args fill its {placeholders}.
type Error struct {
	Code int
	Key  string
	Args map[string]any
	Data any // optional payload returned with the error (e.g. lockedUntil)
}

func (e *Error) Error() string { return fmt.Sprintf("%d %s %v", e.Code, e.Key, e.Args) }

// New builds an error with a code and a message key.
func New(code int, key string) *Error { return &Error{Code: code, Key: key} }

// With returns a copy carrying placeholder values.
func (e *Error) With(args map[string]any) *Error { c := *e; c.Args = args; return &c }

// WithData returns a copy carrying a payload.
func (e *Error) WithData(d any) *Error { c := *e; c.Data = d; return &c }

// InvalidField is the common validation failure naming a field.
func InvalidField(field, key string) *Error {
	return &Error{Code: Invalid, Key: key, Args: map[string]any{"field": field}}
}

// As extracts an *Error.
func As(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}

// IsNotFound reports a not-found business error.
func IsNotFound(err error) bool {
	e, ok := As(err)
	return ok && e.Code == NotFound
}

// Frequently returned errors.
var (
	ErrNotFound       = New(NotFound, "err.not_found")
	ErrNoPermission   = New(NoPermission, "err.no_permission")
	ErrNotLoggedIn    = New(NotLoggedIn, "err.not_logged_in")
	ErrSessionExpired = New(SessionExpired, "err.session_expired")
	ErrForcedRelogin  = New(ForcedRelogin, "err.forced_relogin")
	ErrDisabled       = New(AccountDisabled, "err.account_disabled")
	ErrCSRF           = New(CSRFInvalid, "err.csrf")
	ErrPrivacyPending = New(PrivacyPending, "err.privacy_pending")
	ErrRateLimited    = New(RateLimited, "err.rate_limited")
	ErrCaptcha        = New(CaptchaWrong, "err.captcha")
	ErrBadCredentials = New(BadCredentials, "err.bad_credentials")
	ErrNonce          = New(NonceExpired, "err.nonce")
	ErrResetExpired   = New(ResetLinkExpired, "err.reset_expired")
	ErrWrongPassword  = New(WrongPassword, "err.wrong_password")
	ErrInternal       = New(Internal, "err.internal")

	ErrDeviceOffline   = New(DeviceOffline, "err.device_offline")
	ErrDeviceBusy      = New(DeviceBusy, "err.device_busy")
	ErrSomeDevicesBusy = New(SomeDevicesBusy, "err.some_devices_busy")
	ErrCommandTimeout  = New(CommandTimeout, "err.command_timeout")
	ErrSameValue       = New(SameValue, "err.same_value")
	ErrNotSupported    = New(NotSupported, "err.not_supported")
	ErrDeviceDisabled  = New(DeviceDisabled, "err.device_disabled")
)
