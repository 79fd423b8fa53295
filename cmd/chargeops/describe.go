package main

import (
	"chargeops/internal/apperr"
	"chargeops/internal/i18n"
)

// describe turns a business error into its English message for the terminal.
func describe(err error) string {
	if e, ok := apperr.As(err); ok {
		return i18n.T(i18n.EnUS, e.Key, e.Args)
	}
	return err.Error()
}
