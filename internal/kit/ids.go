package kit

import (
	"slices"

	"chargeops/internal/apperr"
	"chargeops/internal/db"
)

// IDs names the objects of a batch action ("ids" in every request that acts on several).
type IDs []int64

// MaxIDs bounds one batch action on the console's API.
const MaxIDs = 1000

// Check: a batch names 1 to MaxIDs objects, each a positive id.
func (ids IDs) Check() error { return ids.check(MaxIDs, "err.required") }

// CheckMax is Check for the packages whose batches have a lower limit of their own
// (applications, attachments: 100; tokens: MaxIDs); they answer err.invalid, as their API
// always has.
func (ids IDs) CheckMax(max int) error { return ids.check(max, "err.invalid") }

// check is the one rule: 1 to max ids, none of them zero or negative.
func (ids IDs) check(max int, key string) error {
	if len(ids) == 0 || len(ids) > max || slices.Min(ids) <= 0 {
		return apperr.InvalidField("ids", key)
	}
	return nil
}

// Distinct returns the ids sorted without repeats, so a batch naming an id twice is not short
// of rows.
func (ids IDs) Distinct() IDs {
	out := slices.Clone(ids)
	slices.Sort(out)
	return slices.Compact(out)
}

// In is the "?,?,?" of `id IN (...)` for the ids.
func (ids IDs) In() string { return db.Placeholders(len(ids)) }

// Args are the ids as statement arguments.
func (ids IDs) Args() []any { return db.Args(ids) }
