// Package ocppj is what the OCPP adapters share: the contract between the OCPP-J connection
// runtime (internal/gateway/ocpp16's Gateway: WebSocket framing, admission, security profiles,
// calls and their answers) and a protocol's dialect, the charger payload rules (Decode) and the
// CALLERROR codes. The runtime speaks OCPP 1.6J itself and hands the connections that
// negotiated another sub-protocol (ocpp2.0.1: internal/gateway/ocpp201) to that protocol's
// Dialect (docs/architecture.md, "The fleet core and its adapters").
package ocppj

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"chargeops/internal/fleet"
)

// CALLERROR codes (docs/ocpp16.md, "CALLERROR codes"), in OCPP-J 1.6's spelling: 1.6 keeps
// FormationViolation and OccurenceConstraintViolation (its errata leave them as they are);
// OCPP 2.x spells them FormatViolation and OccurrenceConstraintViolation, and the runtime
// writes them so on a 2.x connection (Dialect.ErrorCode).
const (
	CodeFormation      = "FormationViolation"           // not a JSON object, not an OCPP-J frame
	CodeOccurence      = "OccurenceConstraintViolation" // a required field is missing
	CodeType           = "TypeConstraintViolation"      // a field has the wrong JSON type
	CodeProperty       = "PropertyConstraintViolation"  // a value outside its length, enum, range or format
	CodeNotImplemented = "NotImplemented"
	CodeNotSupported   = "NotSupported"
	CodeSecurity       = "SecurityError"
	CodeInternal       = "InternalError"
	CodeGeneric        = "GenericError"
)

// CallError is a CALLERROR: one a charger answered a call with, or one a handler answers the
// charger's call with.
type CallError struct{ Code, Description string }

func (e *CallError) Error() string { return "CALLERROR " + e.Code + ": " + e.Description }

// Errorf is a CallError with code and a formatted description.
func Errorf(code, format string, args ...any) error {
	return &CallError{Code: code, Description: fmt.Sprintf(format, args...)}
}

// IsObject reports whether raw is (whitespace, then) a JSON object.
func IsObject(raw json.RawMessage) bool {
	raw = bytes.TrimLeft(raw, " \t\r\n")
	return len(raw) > 0 && raw[0] == '{'
}

// Session is one charger connection as a dialect sees it.
type Session interface {
	SN() string
	// Device is the connection's device; nil while an unknown SN is admitted as Pending (it may
	// boot and beat until an admin adds it: then it is adopted and Device is set).
	Device() *fleet.Device
	ConnID() string
	Addr() string
	// BaseURL is where the charger reaches chargeops' files (firmware, uploads).
	BaseURL() string
	// Call sends a CALL and waits for its answer: the CALLRESULT payload, a *CallError, or
	// fleet.ErrLinkClosed when the connection ends first.
	Call(ctx context.Context, action string, payload any) (json.RawMessage, error)
	// BoundMeter applies the gateway's bounds on sampled values to a meter message (its
	// meterValue array): at most MaxSampledValues, at a per-charger rate; a CallError refuses it.
	BoundMeter(raw json.RawMessage) error
}

// Dialect is one OCPP version's messages on the shared connection runtime.
type Dialect interface {
	// SubProtocol is the WebSocket sub-protocol it speaks ("ocpp2.0.1").
	SubProtocol() string
	// Handle answers one charger-initiated CALL: the response payload, or an error (a
	// *CallError is sent as such; another error as an InternalError).
	Handle(ctx context.Context, s Session, action string, payload json.RawMessage) (any, error)
	// Execute runs an operator's command on the connection's device (fleet.Link).
	Execute(ctx context.Context, s Session, cmd fleet.Command) (fleet.Outcome, error)
	// AskBoot asks an adopted charger for a BootNotification, which is now answered Accepted.
	AskBoot(ctx context.Context, s Session) error
	// ErrorCode is code (in 1.6's spelling) as this protocol spells it.
	ErrorCode(code string) string
	// Closed tells the dialect that s ended: what it kept of the connection can go.
	Closed(s Session)
}
