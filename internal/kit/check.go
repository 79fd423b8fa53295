package kit

import (
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"chargeops/internal/apperr"
)

// One check per field: each answers nil or apperr.InvalidField naming its own field, so a
// form shows the failure beside the right input. A validate method lists its fields' checks in
// order with First.

// First is the first failure of checks (nil when all pass).
func First(checks ...error) error {
	for _, err := range checks {
		if err != nil {
			return err
		}
	}
	return nil
}

// Required: v (trimmed by the caller) is not empty and at most max characters; either failure
// is err.required (a name).
func Required(field, v string, max int) error {
	if v == "" || utf8.RuneCountInString(v) > max {
		return apperr.InvalidField(field, "err.required")
	}
	return nil
}

// Text: an optional v of at most max characters without NUL (err.invalid).
func Text(field, v string, max int) error {
	if utf8.RuneCountInString(v) > max || strings.ContainsRune(v, 0) {
		return apperr.InvalidField(field, "err.invalid")
	}
	return nil
}

// MaxBytes: an optional v of at most max bytes (a column sized in bytes; err.invalid).
func MaxBytes(field, v string, max int) error {
	if len(v) > max {
		return apperr.InvalidField(field, "err.invalid")
	}
	return nil
}

// Code: a short code (customer, site) of 1 to max bytes without blanks or slashes
// (err.invalid); it names objects in paths and imports.
func Code(field, v string, max int) error {
	if v == "" || len(v) > max || strings.ContainsAny(v, " \t/\\") {
		return apperr.InvalidField(field, "err.invalid")
	}
	return nil
}

// ID: a reference to another object is given (err.required).
func ID(field string, id int64) error {
	if id <= 0 {
		return apperr.InvalidField(field, "err.required")
	}
	return nil
}

// Count: a list of at most max entries (err.invalid).
func Count[T any](field string, list []T, max int) error {
	if len(list) > max {
		return apperr.InvalidField(field, "err.invalid")
	}
	return nil
}

// Range: v lies in [lo, hi] (err.invalid).
func Range(field string, v, lo, hi int) error {
	if v < lo || v > hi {
		return apperr.InvalidField(field, "err.invalid")
	}
	return nil
}

// AtLeast: v is lo or more, with no upper bound (err.invalid).
func AtLeast(field string, v, lo int) error {
	if v < lo {
		return apperr.InvalidField(field, "err.invalid")
	}
	return nil
}

// OneOf: v is one of the allowed values (err.invalid).
func OneOf[T comparable](field string, v T, allowed ...T) error {
	for _, a := range allowed {
		if v == a {
			return nil
		}
	}
	return apperr.InvalidField(field, "err.invalid")
}

// DateLayout is the one form of a calendar date in the API and in imports: yyyy-MM-dd.
const DateLayout = "2006-01-02"

var dateRule = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)

// Date: an optional calendar date, yyyy-MM-dd with four-digit year and two-digit month and day,
// that exists (err.invalid). The one date check of every package that takes dates.
func Date(field, v string) error {
	if v == "" {
		return nil
	}
	if !dateRule.MatchString(v) {
		return apperr.InvalidField(field, "err.invalid")
	}
	if _, err := time.Parse(DateLayout, v); err != nil {
		return apperr.InvalidField(field, "err.invalid")
	}
	return nil
}

// TimeRange checks a list's time filter in unix milliseconds (startTime, endTime; 0 is open):
// no negative start (err.invalid), and an end, when given, after the start (err.time_range).
func TimeRange(start, end int64) error {
	switch {
	case start < 0:
		return apperr.InvalidField("startTime", "err.invalid")
	case end < 0 || (end > 0 && end <= start):
		return apperr.InvalidField("endTime", "err.time_range")
	}
	return nil
}
