// Package httpapi is the HTTP face of chargeops: the route table (routes.go), the envelope and
// error codes, the middleware (session, CSRF, permission keys, action log, limits, recovery)
// and the OpenAPI document generated from the route table.
package httpapi

import (
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"

	"chargeops/internal/apperr"
	"chargeops/internal/i18n"
)

// Envelope is every API answer (decisions §3).
type Envelope struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Data    any    `json:"data"`
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	if err := json.NewEncoder(w).Encode(v); err != nil {
		slog.Debug("answer not written", "err", err)
	}
}

func writeOK(w http.ResponseWriter, data any) {
	writeJSON(w, http.StatusOK, Envelope{Code: apperr.OK, Data: data})
}

// writeError answers a business error as HTTP 200 with its code; anything else is logged and
// answered as an internal error with no detail.
func writeError(w http.ResponseWriter, r *http.Request, locale string, err error) int {
	return writeErrorStatus(w, r, locale, err, func(int) int { return http.StatusOK })
}

// writeErrorStatus is writeError with the HTTP status picked from the code (the OpenAPI's
// statuses, openapi.HTTPStatus).
func writeErrorStatus(w http.ResponseWriter, r *http.Request, locale string, err error, status func(code int) int) int {
	var e *apperr.Error
	if !errors.As(err, &e) {
		slog.Error("request failed", "method", r.Method, "path", r.URL.Path, "err", err)
		e = apperr.ErrInternal
	}
	writeJSON(w, status(e.Code), Envelope{Code: e.Code, Message: i18n.T(locale, e.Key, e.Args), Data: e.Data})
	return e.Code
}
