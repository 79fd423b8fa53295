package devmodel

import (
	"context"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/kit"
)

// Who reads and changes a model, and which models a device may use
// (docs/decisions.md#device-models).

// owned is who changes models: a platform model needs the unlimited scope, a customer's model
// that customer with all its sites, because a change to a model (a control item's level, say)
// applies to every device that uses it. Who reads them: kit.Visible, kit.MayRead.
var owned = kit.Ownership{Platform: errShared, WholeCustomer: true}

// errShared refuses a change to a model that devices outside the caller's scope may use.
var errShared = apperr.New(apperr.NoPermission, "err.model_shared")

// batch is a batch statement on table's rows, all of whose models (ownerQuery: their owners for
// ids) p may change.
func batch(p *access.Principal, table, ownerQuery string) kit.Batch {
	return kit.Batch{Table: table, Before: func(ctx context.Context, tx *db.Tx, ids kit.IDs) error {
		owners, err := db.Column[int64](ctx, tx, ownerQuery+` IN (`+ids.In()+`)`, ids.Args()...)
		if err != nil {
			return err
		}
		return owned.MayChangeAll(p, owners, len(ids))
	}}
}

// CheckUsable reports whether a device of customer may use model: a platform model or one of
// that customer; any other model, existing or not, is "not selectable".
func CheckUsable(ctx context.Context, q db.Querier, modelID, customerID int64) error {
	var owner int64
	err := q.QueryRow(ctx, `SELECT customer_id FROM device_model WHERE id = ?`, modelID).Scan(&owner)
	if db.NotFound(err) || (err == nil && owner != PlatformOwner && owner != customerID) {
		return errNotSelectable
	}
	return wrap("check usable", err)
}

var errNotSelectable = apperr.New(apperr.Invalid, "err.model_not_selectable")

// UsableByName finds the model a device of customer names (an xlsx import row) by its name or
// one of its aliases, among the models the device may use.
func UsableByName(ctx context.Context, q db.Querier, customerID int64, name string) (int64, error) {
	var id int64
	err := q.QueryRow(ctx, `SELECT m.id FROM device_model m WHERE m.name = ? AND m.customer_id IN (?, ?)
		UNION SELECT m.id FROM device_model_alias a JOIN device_model m ON m.id = a.model_id WHERE a.alias = ? AND m.customer_id IN (?, ?)`,
		name, PlatformOwner, customerID, name, PlatformOwner, customerID).Scan(&id)
	if db.NotFound(err) {
		return 0, errNotSelectable
	}
	return id, wrap("find by name", err)
}

// wrap gives a database failure the operation's context; business errors pass unchanged.
func wrap(op string, err error) error { return kit.Wrap("devmodel", op, err) }
