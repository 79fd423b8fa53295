// Package kit is what every domain package is built from (issue 28, docs/architecture.md):
// the id list of a batch action and its limit (IDs), the batch-in-scope statement (Batch),
// the ownership rule of rows owned by a customer or the platform (Ownership), unique clashes by
// constraint name (Clash), one check per field (Text, Date, ...) and the error context (Wrap).
package kit

import (
	"fmt"

	"chargeops/internal/apperr"
)

// Wrap gives a database failure its package's and action's context ("site: set status: ...");
// business errors (apperr) and nil pass unchanged, so the API answers them as they are.
func Wrap(pkg, action string, err error) error {
	if _, business := apperr.As(err); err == nil || business {
		return err
	}
	return fmt.Errorf("%s: %s: %w", pkg, action, err)
}
