// Package xlsxin holds what the xlsx imports (devices, tokens) share around reading the file:
// the template's header row, the size checks before a file is read, the answer for a file
// without data rows, a bad row's reason in the caller's language, and the rollback of the
// all-or-nothing transaction. Each import reads its rows itself (internal/device/xlsxread.go,
// internal/token/xlsx.go). It imports no domain package.
package xlsxin

import (
	"errors"

	"chargeops/internal/apperr"
	"chargeops/internal/i18n"
)

// Header is a template's header row: each column's message key in locale.
func Header(locale string, keys []string) []any {
	row := make([]any, len(keys))
	for i, k := range keys {
		row[i] = i18n.T(locale, k, nil)
	}
	return row
}

// CheckSize refuses an empty file and one larger than maxBytes, before anything of it is read.
func CheckSize(content []byte, maxBytes int) error {
	switch {
	case len(content) == 0:
		return apperr.New(apperr.Invalid, "err.import_no_file")
	case len(content) > maxBytes:
		return apperr.New(apperr.Invalid, "err.import_too_large")
	}
	return nil
}

// Empty is the answer for a file without data rows.
func Empty() error { return apperr.New(apperr.Invalid, "err.import_empty") }

// Reason is err as a bad row's reason in locale: an application error's text, else err's own.
func Reason(locale string, err error) string {
	if e, ok := apperr.As(err); ok {
		return i18n.T(locale, e.Key, e.Args)
	}
	return err.Error()
}

// ErrRollback ends an import's transaction when a row turns out bad: nothing of the file is
// kept, and the bad rows are the answer.
var ErrRollback = errors.New("rollback")
